/*
 * ctl_client.c — batsec-ctl's side of the control socket: connect to
 * batsecd, send one request (ctlproto.h), and collect the typed records of
 * its reply, each validated as it arrives, up to the END that counts them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "bs_bytes.h"
#include "common/config.h"
#include "ctl_client.h"
#include "ctl_util.h"
#include "proto/ctlproto.h"

/* Seconds to wait for batsecd to take the request or send the reply. */
#define CTL_REPLY_TIMEOUT_S	30

_Static_assert(BS_CONF_SOCKET_MAX < sizeof(((struct sockaddr_un *)0)->sun_path),
    "a socket path of BS_CONF_SOCKET_MAX bytes and its NUL fit sun_path");

/*
 * Connect to batsecd: the socket fd, or -1 after reporting.  main checked
 * that ctl->sock is at most BS_CONF_SOCKET_MAX bytes long.
 */
int
ctl_connect(const struct ctl *ctl, const struct ctl_cmd *cmd)
{
	struct timeval tv = { CTL_REPLY_TIMEOUT_S, 0 };
	struct sockaddr_un sun;
	int fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, ctl->sock, strlen(ctl->sock));
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ctl_warnx("cannot create a socket: %s", strerror(errno));
		return -1;
	}
	/* The send timeout also bounds connect() on a full backlog. */
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		ctl_warnx("%s: needs the batsecd control socket: cannot "
		    "connect to %s: %s", cmd->path, ctl->sock, strerror(errno));
		(void)close(fd);
		return -1;
	}
	return fd;
}

/*
 * Send the request.  A daemon that refused us (permission, too many
 * clients) may have closed already; its END is still waiting to be read,
 * so EPIPE is not reported here.
 */
static int
ctl_send_request(int fd, const struct ctl *ctl, const uint8_t *req,
    size_t len)
{
	ssize_t n;

	do
		n = send(fd, req, len, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n >= 0 || errno == EPIPE || errno == ECONNRESET)
		return 0;
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		ctl_warnx("%s: batsecd did not take the request within %d "
		    "seconds", ctl->sock, CTL_REPLY_TIMEOUT_S);
	else
		ctl_warnx("%s: cannot send the request: %s", ctl->sock,
		    strerror(errno));
	return -1;
}

/*
 * One datagram into buf (CTLP_MSG_MAX + 1 bytes): its length, or -1.
 * A daemon that hung up on us (a refusal) may leave ECONNRESET pending in
 * front of its END; the error is reported once, then the END is read.
 */
static ssize_t
ctl_recv_msg(int fd, const struct ctl *ctl, uint8_t *buf)
{
	struct iovec iov = { buf, CTLP_MSG_MAX + 1 };
	struct msghdr mh;
	ssize_t n;
	int resets = 0;

	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	do
		n = recvmsg(fd, &mh, 0);
	while (n < 0 && (errno == EINTR || (errno == ECONNRESET &&
	    resets++ == 0)));
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		ctl_warnx("%s: no reply from batsecd within %d seconds",
		    ctl->sock, CTL_REPLY_TIMEOUT_S);
	else if (n < 0)
		ctl_warnx("%s: cannot read the reply: %s", ctl->sock,
		    strerror(errno));
	else if (n == 0)
		ctl_warnx("%s: batsecd closed the connection before the end "
		    "of its reply", ctl->sock);
	else if ((mh.msg_flags & MSG_TRUNC) || n > CTLP_MSG_MAX)
		ctl_warnx("%s: malformed reply: a message longer than %d "
		    "bytes", ctl->sock, CTLP_MSG_MAX);
	else
		return n;
	return -1;
}

/* Keep a validated record; 0, or -1 after reporting. */
static int
ctl_in_add(struct ctl_in *in, const struct ctl *ctl, const uint8_t *msg,
    size_t n)
{
	struct ctlp_record rec;
	char err[CTL_ERRLEN];
	size_t cap;
	uint8_t *p;

	if (ctlp_record_decode(msg, n, &rec, err, sizeof(err)) != 0) {
		ctl_warnx("%s: malformed reply: %s", ctl->sock, err);
		return -1;
	}
	if (n + 2 > CTLP_REPLY_MAX - in->len) {
		ctl_warnx("%s: reply larger than %u bytes", ctl->sock,
		    CTLP_REPLY_MAX);
		return -1;
	}
	if (n + 2 > in->cap - in->len) {
		cap = in->cap == 0 ? 65536 : in->cap * 2;
		if (cap > CTLP_REPLY_MAX)
			cap = CTLP_REPLY_MAX;
		if ((p = realloc(in->buf, cap)) == NULL) {
			ctl_warnx("out of memory for the reply");
			return -1;
		}
		in->buf = p;
		in->cap = cap;
	}
	bs_put16(in->buf + in->len, (uint16_t)n);
	memcpy(in->buf + in->len + 2, msg, n);
	in->len += n + 2;
	in->records++;
	return 0;
}

/* The END: 0 on success, or -1 after reporting (a daemon error too). */
static int
ctl_in_end(const struct ctl_in *in, const struct ctl *ctl,
    const uint8_t *msg, size_t n)
{
	struct ctlp_end e;
	char err[CTL_ERRLEN];

	if (ctlp_end_decode(msg, n, &e, err, sizeof(err)) != 0) {
		ctl_warnx("%s: malformed reply: %s", ctl->sock, err);
		return -1;
	}
	if (e.status != CTLP_OK) {
		ctl_warnx("%s", e.msg);
		return -1;
	}
	if (e.records != in->records) {
		ctl_warnx("%s: malformed reply: %zu records, the end says "
		    "%" PRIu32, ctl->sock, in->records, e.records);
		return -1;
	}
	return 0;
}

/* Read records until the END; 0, or -1 after reporting. */
static int
ctl_recv_reply(int fd, const struct ctl *ctl, struct ctl_in *in)
{
	uint8_t buf[CTLP_MSG_MAX + 1], type = 0;
	char err[CTL_ERRLEN];
	ssize_t n;
	int rc;

	for (;;) {
		if ((n = ctl_recv_msg(fd, ctl, buf)) < 0)
			return -1;
		rc = ctlp_header(buf, (size_t)n, &type, err, sizeof(err));
		if (rc == CTLP_E_VERSION) {
			ctl_warnx("%s: batsecd speaks another control "
			    "protocol: %s", ctl->sock, err);
			return -1;
		}
		if (rc == 0 && type == CTLP_T_END)
			return ctl_in_end(in, ctl, buf, (size_t)n);
		if (rc == 0 && type != CTLP_T_RECORD)
			(void)snprintf(err, sizeof(err), "unexpected message "
			    "type %u", type);
		if (rc != 0 || type != CTLP_T_RECORD) {
			ctl_warnx("%s: malformed reply: %s", ctl->sock, err);
			return -1;
		}
		if (ctl_in_add(in, ctl, buf, (size_t)n) != 0)
			return -1;
	}
}

/* Send name with its arguments and collect the reply; 0 or exit status. */
int
ctl_exchange(const struct ctl *ctl, int fd, const char *name, size_t argc,
    const char *const argv[], struct ctl_in *in)
{
	uint8_t req[CTLP_MSG_MAX];
	char err[CTL_ERRLEN];
	size_t len;

	if (ctlp_request_encode(req, sizeof(req), name, argc, argv, &len, err,
	    sizeof(err)) != 0)
		return ctl_usage_err(NULL, "%s: %s", name, err);
	if (ctl_send_request(fd, ctl, req, len) != 0 ||
	    ctl_recv_reply(fd, ctl, in) != 0)
		return CTL_EXIT_FAIL;
	return CTL_EXIT_OK;
}

/* The next record of in at *pos (validated when it arrived). */
int
ctl_in_next(const struct ctl_in *in, size_t *pos, struct ctlp_record *rec)
{
	size_t n;

	if (in->len - *pos < 2)
		return -1;
	n = bs_get16(in->buf + *pos);
	if (n > in->len - *pos - 2 || ctlp_record_decode(in->buf + *pos + 2,
	    n, rec, NULL, 0) != 0)
		return -1;
	*pos += n + 2;
	return 0;
}

const struct ctlp_field *
ctl_field(const struct ctlp_record *rec, const char *name)
{
	size_t i;

	for (i = 0; i < rec->n; i++)
		if (strcmp(rec->f[i].name, name) == 0)
			return &rec->f[i];
	return NULL;
}

