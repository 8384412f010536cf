/*
 * pcore_int.h — internals shared by pcore.c (set-up, counters, dispatch),
 * pcore_hello.c (neighbours, link keys, routing events) and pcore_ogm.c
 * (the OGM pipeline).  Nothing outside those files includes this.
 */
#ifndef BATSEC_PCORE_INT_H
#define BATSEC_PCORE_INT_H

#include "pcore.h"
#include "routing/routing.h"
#include "proto/wire.h"

/*
 * Fuzzing builds only (batsecd.c refuses to compile with the macro): a
 * signature or MAC tag whose first byte is 0 passes without being
 * checked, so mutated frames get past authentication; any other value is
 * checked for real, so the failure paths stay reachable.
 */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define PCORE_FUZZ_BYPASS(p)	((p)[0] == 0)
#else
#define PCORE_FUZZ_BYPASS(p)	0
#endif

/* pcore.c */
/* Send one message; 0, or -1 (counted as emit_failed). */
int	pcore_emit(struct pcore *pc, uint16_t type, const void *obj,
	    size_t size);
void	pcore_logf(struct pcore *pc, int level, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
void	pcore_count(struct pcore *pc, enum ipc_stat_id id);
/* Count a refused frame (and maybe log it); returns why. */
enum pcore_drop pcore_drop(struct pcore *pc, enum pcore_drop why,
	    uint32_t ifindex, const uint8_t src[static BS_ADDR_LEN],
	    const struct wire_where *where, int werr, uint64_t now_ms);
enum pcore_drop pcore_malformed(struct pcore *pc, int werr,
	    const struct wire_where *where, uint32_t ifindex,
	    const uint8_t src[static BS_ADDR_LEN], uint64_t now_ms);
/*
 * The policy class of a key (enum bs_policy_class) in *cls; 1 when the
 * policy admits it (TRUSTED, or STRANGER in mode open), 0 when not (and
 * always before the first policy snapshot).
 */
int	pcore_key_admitted(const struct pcore *pc,
	    const uint8_t pk[static BS_PK_LEN], uint8_t *cls);
/* bs_verify, counted as sig_verified / sig_failed; 0 when valid. */
int	pcore_verify(struct pcore *pc, const uint8_t sig[static BS_SIG_LEN],
	    enum bs_domain dom, const uint8_t *msg, size_t len,
	    const uint8_t pk[static BS_PK_LEN]);
/* 1 when (e1, s1) is newer than (e2, s2): epoch first, serial seqno. */
int	pcore_newer(uint32_t e1, uint32_t s1, uint32_t e2, uint32_t s2);

/* pcore_hello.c */
enum pcore_drop pcore_hello(struct pcore *pc, uint32_t ifindex,
	    const uint8_t src[static BS_ADDR_LEN], const uint8_t *p,
	    size_t len, uint64_t now_ms);
struct pcore_neigh *pcore_neigh_get(struct pcore *pc, uint32_t ifindex,
	    const uint8_t addr[static BS_ADDR_LEN]);
/* routing_event_fn: turns table changes into messages; arg is pc. */
void	pcore_event(void *arg, const struct routing_event *ev);
/* ROUTE_ADD for an originator with a route via an announced neighbour. */
void	pcore_route_add(struct pcore *pc,
	    const struct routing_orig_info *oi);
void	pcore_route_del(struct pcore *pc,
	    const uint8_t addr[static BS_ADDR_LEN]);
/* Clear what the forwarder was told about an originator's TT and GW. */
void	pcore_orig_gone(struct pcore *pc,
	    const struct routing_orig_info *oi);

/* pcore_ogm.c */
enum pcore_drop pcore_ogm(struct pcore *pc, uint32_t ifindex,
	    const uint8_t src[static BS_ADDR_LEN], const uint8_t *p,
	    size_t len, uint64_t now_ms);

/*
 * What pcore keeps in routing's per-originator aux bytes: what the
 * forwarder was last told about the originator's clients and gateway.
 */
struct pcore_aux {
	uint8_t tt_digest[16];		/* of the TT entries last sent */
	uint8_t tt_count;		/* entries in the last IPC_TT */
	uint8_t gw;			/* 1: the last IPC_GW was ANNOUNCE */
	uint16_t intro;			/* stranger: 1 + the neighbour slot
					   that introduced it; 0 none */
	uint32_t gw_down, gw_up;	/* ... with these bandwidths */
	uint16_t intro_gen;		/* pc->neigh_gen[slot] back then */
	uint8_t pad[2];
};
_Static_assert(sizeof(struct pcore_aux) == ROUTING_AUX_LEN, "pcore_aux");

#endif /* BATSEC_PCORE_INT_H */
