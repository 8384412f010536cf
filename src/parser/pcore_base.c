/*
 * pcore_base.c — what every part of the parser's core uses: its only way
 * out (pcore_emit), log lines to the forwarder, counters, and the
 * Ed25519 check that counts its result (pcore_base.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pcore_base.h"
#include "pcore_int.h"

/* ---- output -------------------------------------------------------------- */

int
pcore_emit(struct pcore *pc, uint16_t type, const void *obj, size_t size)
{
	if (pc->emit != NULL && pc->emit(pc->emit_arg, type, obj, size) == 0)
		return 0;
	pc->emit_failed++;
	pcore_count(pc, IPC_STAT_EMIT_FAILED);
	return -1;
}

/*
 * A LOG line to the forwarder.  Before CONFIG (which carries the level)
 * only warnings and errors are sent.
 */
void
pcore_logf(struct pcore *pc, int level, const char *fmt, ...)
{
	int max = pc->configured ? pc->cfg.log_level : IPC_LOG_WARNING;
	struct ipc_log l;
	va_list ap;
	size_t i;

	if (level > max)
		return;
	memset(&l, 0, sizeof(l));
	l.level = (uint8_t)level;
	va_start(ap, fmt);
	vsnprintf(l.text, sizeof(l.text), fmt, ap);
	va_end(ap);
	for (i = 0; l.text[i] != '\0'; i++)
		if (l.text[i] < 0x20 || l.text[i] > 0x7e)
			l.text[i] = '?';
	pcore_emit(pc, IPC_LOG, &l, sizeof(l));
}

/* ---- counters ------------------------------------------------------------ */

void
pcore_count(struct pcore *pc, enum ipc_stat_id id)
{
	pc->stat[id]++;
	pc->stats_dirty = 1;
}

int
pcore_verify(struct pcore *pc, const uint8_t sig[static BS_SIG_LEN],
    enum bs_domain dom, const uint8_t *msg, size_t len,
    const uint8_t pk[static BS_PK_LEN])
{
	if (PCORE_FUZZ_BYPASS(sig) ||
	    bs_verify(sig, dom, msg, len, pk) == 0) {
		pcore_count(pc, IPC_STAT_SIG_VERIFIED);
		return 0;
	}
	pcore_count(pc, IPC_STAT_SIG_FAILED);
	return -1;
}

/* ---- fisheye relaying (pcore_base.h) ---------------------------------------------- */

unsigned
pcore_fisheye_gap(const struct pcore *pc, unsigned hops)
{
	unsigned g = 1, t = pc->fisheye_hops, max = pc->fisheye_gap_max;

	if (pc->no_fisheye || t == 0)
		return 1;
	if (max > PCORE_FISHEYE_GAP_MAX)
		max = PCORE_FISHEYE_GAP_MAX;
	/* 1 below t hops, 2 below 2 t, 4 below 4 t, ... at most max. */
	for (; hops >= t && 2 * g <= max && t <= BS_MAXHOPS; t *= 2)
		g *= 2;
	return g;
}

int
pcore_iface_index(const struct pcore *pc, uint32_t ifindex)
{
	int i;

	for (i = 0; i < PCORE_MAX_IFACES; i++)
		if (pc->ifaces[i].ifindex == ifindex)
			return i;
	return -1;
}

const struct pcore_iface *
pcore_iface_find(const struct pcore *pc, uint32_t ifindex)
{
	int i;

	if (ifindex == 0 || (i = pcore_iface_index(pc, ifindex)) < 0)
		return NULL;
	return &pc->ifaces[i];
}
