/*
 * fwd_admit.h — the forwarder's own admission check of what the parser
 * says, and the removal of keys the policy no longer admits.
 *
 * The parser applies the policy to every frame, but a parser that runs
 * attacker code could claim anything.  So the forwarder checks every
 * message that would make it accept a key against the effective policy
 * (fwd_trust_effective: the policy file plus the CA revocations in
 * force), the certificates it verified itself, and the TOFU pins it
 * keeps, before the message is applied (the channel's gate,
 * fwd_parser.h):
 *
 *   NEIGH UP, LINK_KEY_REQ	the key is admitted
 *   ROUTE_ADD			the originator's key and the next hop's key
 *				(the key the parser announced for that
 *				neighbour) are admitted
 *   TT with clients		the originator's address is admitted
 *   GW ANNOUNCE		the originator's address belongs to a key the
 *				policy lets be a gateway
 *   RELAY			the relayed OGM entry's originator key is
 *				admitted (its signature is not checked: at
 *				one verification per originator per interval
 *				that would double the privileged process's
 *				work; the receivers check it)
 *   PIN			mode open, the key has no trust, block or
 *				revoke entry, and its address is not pinned
 *				to another key
 *
 * A key is admitted when it is trusted; or certified: the policy's mode
 * is ca or open and the forwarder holds a certificate for the key that
 * it verified itself (IPC_CERT: signature by its issuer checked on
 * arrival), whose issuer is an anchor of the effective policy and is
 * neither blocked nor revoked, and whose validity window holds now (with
 * BS_CERT_SKEW; not checked without a clock, as the parser does); or a
 * stranger: mode open, no entry, and its address is not pinned to
 * another key.  A blocked or revoked key never is.  TT and GW name only
 * the address: it is admitted when it is the address of an admitted key
 * of the policy's trust list or of a held certificate, or, in mode open,
 * when it is not the address of a blocked or revoked key (TT only: a
 * stranger is never a gateway).
 *
 * A refused message kills the parser (IPC_CHECK_BAD), unless the parser
 * may still be working under an older policy: it has not answered the
 * heartbeat that followed the newest snapshot, or the snapshot waits to
 * be sent.  Then the message is dropped (IPC_CHECK_STALE, counted as
 * refused) and the parser kept.  DOWN, ROUTE_DEL, an empty TT and GW
 * WITHDRAW only remove and are never refused.
 *
 * Certificates: those the current parser sent, at most FWD_ADMIT_CERT_MAX
 * (expired ones make room), forgotten when a new parser starts (it sends
 * again each one it accepts).  A certificate whose signature does not
 * verify kills the parser; one outside its window is ignored.
 *
 * Removal: when the policy changes (a control command, a reload, a CA
 * revocation) and once a second (certificates expire), every neighbour,
 * route, client list, gateway and end-to-end state of a key or address
 * that is no longer admitted leaves the tables, and the in-kernel relay's
 * maps follow in the same loop round, whatever the parser does.
 */
#ifndef BATSEC_FWD_ADMIT_H
#define BATSEC_FWD_ADMIT_H

#include <stddef.h>
#include <stdint.h>

struct fwd;
struct ipc_msg;
union ipc_payload;

#define FWD_ADMIT_CERT_MAX	4096	/* as the parser's PCORE_CERT_MAX */
/* A clock before this is no clock (as the parser's PCORE_TRUST_CLOCK_MIN). */
#define FWD_ADMIT_CLOCK_MIN	1704067200ULL
/* The gate tolerates a certificate this many seconds past its window's
 * end: the parser judged it a moment earlier (it looks once a second).
 * The removal does not. */
#define FWD_ADMIT_CERT_LAG	10

/* The channel's gate (fwd_parser.h's fwd_chan_gate_fn; arg a struct fwd). */
int	fwd_admit_gate(void *arg, const struct ipc_msg *m, char *why,
	    size_t whylen);
/* IPC_CERT handler (fwd_chan_fn): 0, or -1 for a bad signature. */
int	fwd_admit_on_cert(void *arg, const union ipc_payload *u);
/*
 * Follow f->policy_serial: on a change, take the new effective policy and
 * remove what it no longer admits.  Cheap when nothing changed; the loop
 * calls it every round, the gate before every message.
 */
void	fwd_admit_sync(struct fwd *f);
/* Once a second: remove what expired certificates admitted. */
void	fwd_admit_tick(struct fwd *f, uint64_t now_ms);
/* Free everything. */
void	fwd_admit_stop(struct fwd *f);
/* Test hook: the clock in unix seconds (NULL: time(2)). */
void	fwd_admit_set_clock(struct fwd *f, uint64_t (*clock)(void));

#endif /* BATSEC_FWD_ADMIT_H */
