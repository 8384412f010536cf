/*
 * ctl_client.h — batsec-ctl's side of the control socket: one request to
 * batsecd and the validated records of its reply.
 */
#ifndef BATSEC_CTL_CLIENT_H
#define BATSEC_CTL_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "ctl.h"
#include "proto/ctlproto.h"

/*
 * The records of a reply, each after a u16 length, all validated.  Start
 * from { NULL, 0, 0, 0 }; free(buf) when done.
 */
struct ctl_in {
	uint8_t *buf;
	size_t len, cap;
	size_t records;
};

/* Connect to batsecd (ctl->sock) for cmd: the fd, or -1 after reporting. */
int	ctl_connect(const struct ctl *ctl, const struct ctl_cmd *cmd);
/*
 * Send request name with its arguments on fd and append the records of
 * the reply to in; 0 or an exit status after reporting.
 */
int	ctl_exchange(const struct ctl *ctl, int fd, const char *name,
	    size_t argc, const char *const argv[], struct ctl_in *in);
/* The next record of in at *pos (start at 0): 0, or -1 at the end. */
int	ctl_in_next(const struct ctl_in *in, size_t *pos,
	    struct ctlp_record *rec);
/* The field called name of rec, or NULL. */
const struct ctlp_field *ctl_field(const struct ctlp_record *rec,
	    const char *name);

#endif /* BATSEC_CTL_CLIENT_H */
