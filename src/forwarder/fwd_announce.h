/*
 * fwd_announce.h — what the forwarder announces on its mesh interfaces:
 * a HELLO per usable interface every hello interval, its own OGM every
 * OGM interval (each with fwd_jitter), and the entries the parser asks
 * it to relay, aggregated with the own OGM or flushed after the relay
 * delay (batsec-protocol(7); timing in fwd_orig.h).  fwd_orig.c builds
 * the frames, over the neighbour list of fwd_tables.c and the link keys
 * of fwd_links.c; this module is the forwarder's glue: timers in the
 * event loop, the raw sockets, the relay queue's intake, our link salt
 * in each HELLO (made anew every link-rekey: the parser gets the new OGM
 * keys at once), and the answer to the parser's LINK_KEY_REQ.
 */
#ifndef BATSEC_FWD_ANNOUNCE_H
#define BATSEC_FWD_ANNOUNCE_H

#include <stdint.h>

#include "batsec_crypto.h"

struct fwd;
struct ipc_relay;
union ipc_payload;

/* Set up from f's identity, epoch and configuration; first OGM later. */
void	fwd_announce_setup(struct fwd *f, uint64_t now_ms);
/* The earliest time fwd_announce_run has work; 0 for none. */
uint64_t fwd_announce_deadline(const struct fwd *f);
/* Send what is due: HELLOs, the own OGM, the relay queue. */
void	fwd_announce_run(struct fwd *f, uint64_t now_ms);
/*
 * The node's neighbours changed: for FWD_RELAY_HOLD_OGMS OGM intervals
 * relay entries wait one relay delay, far or not (fwd_relayq_hold).
 */
void	fwd_announce_relay_hold(struct fwd *f, uint64_t now_ms);
/*
 * A neighbour appeared on ifindex (new: its first NEIGH UP, or its
 * parser started again; else its link became bidirectional): ask for an
 * extra HELLO there, signed, and our OGMs full for a while (new only), and
 * an extra own OGM, bounded by fwd_burst.h's buckets; and the relay hold.
 */
void	fwd_announce_burst(struct fwd *f, uint32_t ifindex, int new_neigh,
	    uint64_t now_ms);
/* An extra HELLO on every usable interface (fwd_burst.h's buckets). */
void	fwd_announce_hello_burst_all(struct fwd *f, uint64_t now_ms);
/*
 * A neighbour on ifindex does not list us (IPC_NEIGH_F_SIGN): a signed
 * HELLO there within FWD_HELLO_REQ_GAP.  (A new neighbour, or one whose
 * parser started again, gets fwd_announce_burst's signed HELLOs.)
 */
void	fwd_announce_sign(struct fwd *f, uint32_t ifindex);
/*
 * Roaming: after the local translation table may have changed (a frame
 * from batsec0, an IPC_TT, the purge).  A client learnt since the last
 * call asks for an extra own OGM (the same bounded bucket as above), so
 * that the mesh hears of a client that moved here within
 * FWD_BURST_OGM_DELAY_MS, not an OGM interval; a client withdrawn
 * because another originator claims it (fwd_client_set) is noted in the
 * event ring.  Cheap enough for every frame: two counters compared.
 */
void	fwd_announce_clients(struct fwd *f, uint64_t now_ms);

/*
 * IPC_RELAY (it passed ipc_check): queue the entry.  -1 when the entry is
 * not a well-formed OGM entry (the parser broke the contract).
 */
int	fwd_announce_relay(struct fwd *f, const struct ipc_relay *r,
	    uint64_t now_ms);

/* Channel handlers (fwd_parser.h's fwd_chan_fn), arg a struct fwd. */
/* IPC_RELAY: fwd_announce_relay now. */
int	fwd_announce_on_relay(void *arg, const union ipc_payload *u);
/*
 * The answer to a LINK_KEY_REQ (fwd_parser.h's fwd_link_key_fn, arg a
 * struct fwd): the OGM key of the newest key with the neighbour peer_pk
 * up on ifindex, never the static link key nor the hop key.  0, or -1
 * when there is no such neighbour or its key cannot be derived.
 */
int	fwd_announce_link_key(void *arg, const uint8_t peer_pk[static BS_PK_LEN],
	    uint32_t ifindex, uint8_t key[static BS_LINKKEY_LEN],
	    uint8_t key_id[static BS_KEYID_LEN]);

#endif /* BATSEC_FWD_ANNOUNCE_H */
