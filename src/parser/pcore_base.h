/*
 * pcore_base.h — what every part of the parser's core uses: the way out
 * (messages, log lines), counters and the counted signature check.  The
 * floor of the core's modules, above the types (pcore_int.h) only.
 */
#ifndef BATSEC_PCORE_BASE_H
#define BATSEC_PCORE_BASE_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "proto/ipc_msg.h"

struct pcore;
struct pcore_iface;

/* Send one message; 0, or -1 (counted as emit_failed). */
int	pcore_emit(struct pcore *pc, uint16_t type, const void *obj,
	    size_t size);
void	pcore_logf(struct pcore *pc, int level, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* Count one event under an IPC_STATS id (STATS will go out). */
void	pcore_count(struct pcore *pc, enum ipc_stat_id id);
/* The slot of interface ifindex (0: the first free slot), or -1. */
int	pcore_iface_index(const struct pcore *pc, uint32_t ifindex);
/* The interface ifindex (not 0), or NULL. */
const struct pcore_iface *pcore_iface_find(const struct pcore *pc,
	    uint32_t ifindex);
/* bs_verify, counted as sig_verified / sig_failed; 0 when valid. */
int	pcore_verify(struct pcore *pc, const uint8_t sig[static BS_SIG_LEN],
	    enum bs_domain dom, const uint8_t *msg, size_t len,
	    const uint8_t pk[static BS_PK_LEN]);

/*
 * Fisheye relaying (pcore_int.h, PCORE_FISHEYE_*): the sequence-number
 * gap of compact entries relayed with hops value `hops`: 1 below 8, 2
 * below 16, 4 from 16 on (pc->fisheye_hops, fisheye_gap_max); 1
 * whatever the hops when pc->no_fisheye.  A
 * receiver expects the gap of the hops an entry arrived with, the same
 * value its sender relayed it with.
 */
unsigned pcore_fisheye_gap(const struct pcore *pc, unsigned hops);

#endif /* BATSEC_PCORE_BASE_H */
