/*
 * pcore_trust.h — what the parser's core knows about keys beyond the
 * policy snapshot: certificates that arrived in HELLOs and OGMs (mode ca,
 * and mode open, where a certificate lifts a stranger to CERTIFIED), the
 * keys still waiting for theirs, TOFU pins of mesh addresses (mode open),
 * and CA revocation records carried in OGMs.  Plain functions over
 * memory, no system calls except reading the real-time clock.
 *
 * Certificates.  A certificate is taken only for the key that presents
 * it (node key == the HELLO's or OGM entry's key), only after that
 * HELLO's or entry's own signature verified, and only when it is issued
 * by an anchor of the policy that is neither blocked nor revoked, is
 * valid now (BS_CERT_SKEW seconds of clock skew tolerated either way) and
 * its signature verifies.  A key keeps the certificate with the latest
 * not-after; an older one presented again changes nothing.  Kept
 * certificates are judged again against every new policy and, once a
 * second, against the clock: an expired one, or one whose anchor went,
 * makes its key fall back to what the policy alone says, and the key's
 * table entries go as for any policy change.
 *
 * Clock.  A node whose real-time clock reads before PCORE_TRUST_CLOCK_MIN
 * (2024-01-01) is taken to have none (routers without an RTC boot in
 * 1970): it does not check validity windows at all until the clock is
 * set (batsec-policy(5) CERTIFICATES).
 *
 * Pending.  In mode ca, an OGM entry of a key that is neither trusted
 * nor certified and carries no certificate is refused (drop_policy), and
 * the key is remembered in a set of at most `limit pending-certs` keys
 * (oldest replaced first); cert_pending counts such entries.  Its
 * certificate comes with its next HELLO (neighbours) or within `limit
 * cert-every` of its OGMs.
 *
 * TOFU (mode open).  A stranger key that was admitted to the originator
 * table and has held a route there for `limit pin-after` seconds pins its
 * mesh address (pcore_lim_pins() in pcore_limits.c decides when, and
 * limits how many new pins each introducing neighbour may cause); a
 * different stranger key for the same address is refused from then on
 * (drop_policy), even after the first left the tables.  Trusted and
 * certified keys are not pinned and not refused by pins.  At most
 * PCORE_PIN_MAX pins; beyond that no new pin is made.  A pin is used
 * while its key holds a route (pcore_trust_pin_used); one unused for
 * `limit pin-max-age` days is forgotten (pcore_trust_pins_age).  Each new
 * pin goes to the forwarder (IPC_PIN), and a used one again every
 * PCORE_PIN_TELL_MS so the forwarder keeps its last use too; the
 * forwarder keeps the pins in the state directory and gives every new
 * parser the pins kept so far (IPC_PINS, pcore_pins), so a pin outlives
 * the parser and the daemon.
 *
 * Revocations.  A REVOKE container in a verified OGM entry of a trusted
 * or certified originator (never a stranger's: each record costs one
 * verification) that counts under the policy (bs_policy_revoke_problem:
 * its issuer an anchor neither blocked nor revoked, not expired, and an
 * anchor revoked only by an anchor with revokes-anchors) and whose key is
 * not revoked yet is verified once; then the key is revoked in the
 * parser's policy at once (its table entries go), and the record goes to
 * the forwarder (IPC_REVOKE), which stores it, spreads it and sends a new
 * snapshot.
 */
#ifndef BATSEC_PCORE_TRUST_H
#define BATSEC_PCORE_TRUST_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"

struct pcore;
struct bs_policy;
struct ipc_pins;
struct wire_ogm_entry;

#define PCORE_CERT_MAX		4096	/* certificates kept */
#define PCORE_PIN_MAX		4096	/* TOFU pins */
#define PCORE_TRUST_CLOCK_MIN	1704067200ULL	/* 2024-01-01 00:00 UTC */
#define PCORE_TRUST_CHECK_MS	1000	/* expiry check interval */
#define PCORE_PIN_TELL_MS	3600000	/* a used pin goes up again after */

/* A certificate checked except for its signature (pcore_trust_precheck). */
struct pcore_cert_cand {
	struct bs_cert c;
	uint8_t raw[BS_CERT_LEN];
};

/* Unix seconds, or 0 for "no clock" (see above). */
typedef uint64_t (*pcore_clock_fn)(void);

/* The state; allocated on first use, freed by pcore_trust_free. */
struct pcore_trust;

void	pcore_trust_free(struct pcore *pc);
/* Tests: the clock (NULL: the real one). */
void	pcore_trust_set_clock(struct pcore *pc, pcore_clock_fn fn);
/* The clock as the certificate checks use it: 0 = no clock. */
uint64_t pcore_trust_now(const struct pcore *pc);

/*
 * The policy class of a key (enum bs_policy_class), as
 * pcore_trust_class() says, in *cls; 1 when the core admits it (TRUSTED,
 * CERTIFIED, or STRANGER in mode open), 0 when not (and always before the
 * first policy snapshot).
 */
int	pcore_key_admitted(const struct pcore *pc,
	    const uint8_t pk[static BS_PK_LEN], uint8_t *cls);
/*
 * The class of pk with what pcore knows: the policy's verdict, lifted to
 * BS_CLASS_CERTIFIED by a kept certificate that is still good (modes ca
 * and open), or lowered to BS_CLASS_REFUSED by a TOFU pin of its address
 * to another key (a stranger, mode open).  REFUSED before the first
 * policy.
 */
uint8_t	pcore_trust_class(const struct pcore *pc,
	    const uint8_t pk[static BS_PK_LEN]);
/* 1 when pk may announce a gateway (trust ... gateway, or a kept
 * certificate with the gateway role). */
int	pcore_trust_gateway_ok(const struct pcore *pc,
	    const uint8_t pk[static BS_PK_LEN]);

/*
 * A certificate presented by pk (raw BS_CERT_LEN bytes), before the
 * signature of what carried it was checked: 1 and *cand filled when it
 * is for pk, well formed, from a good anchor and valid now; else 0.
 * No signature is checked here.
 */
int	pcore_trust_precheck(const struct pcore *pc,
	    const uint8_t pk[static BS_PK_LEN], const uint8_t *raw,
	    struct pcore_cert_cand *cand);
/*
 * Keep a prechecked certificate once what carried it verified: checks
 * the CA signature (unless the same bytes are kept already); 0 when kept
 * (or already kept), -1 when refused.
 */
int	pcore_trust_accept(struct pcore *pc,
	    const struct pcore_cert_cand *cand);
/* Offer raw from pk after its carrier verified (renewals): precheck and
 * accept, quietly. */
void	pcore_trust_offer(struct pcore *pc, const uint8_t pk[static BS_PK_LEN],
	    const uint8_t *raw);

/* Mode ca: pk sent an entry without a certificate; remember it. */
void	pcore_trust_pending(struct pcore *pc,
	    const uint8_t pk[static BS_PK_LEN]);
/* Keys in the pending set. */
size_t	pcore_trust_pending_count(const struct pcore *pc);

/* Mode open: pin a stranger pk's address (IPC_PIN); pcore_lim_pins()
 * decides when. */
void	pcore_trust_pin(struct pcore *pc, const uint8_t pk[static BS_PK_LEN]);
/*
 * Pin addr to pk (what pcore_trust_pin does with pk's own address),
 * without telling the forwarder.  1 when a new pin was made, 0 when addr
 * was pinned already or the pins are full (or out of memory).  Tests use
 * it to stand for a key whose address collides with another's, which
 * cannot be made on purpose.
 */
int	pcore_trust_pin_addr(struct pcore *pc,
	    const uint8_t addr[static BS_ADDR_LEN],
	    const uint8_t pk[static BS_PK_LEN]);
/*
 * pk holds a route at now_ms: when pk's address is pinned to pk, the pin
 * is used now (and goes up again as IPC_PIN when PCORE_PIN_TELL_MS passed
 * since it last did).  1 when pk's address is pinned (to pk or to
 * another key), else 0.
 */
int	pcore_trust_pin_used(struct pcore *pc,
	    const uint8_t pk[static BS_PK_LEN], uint64_t now_ms);
/*
 * Forget the pins not used for max_age_ms at now_ms (a pin never used
 * yet counts as used now); how many went.
 */
size_t	pcore_trust_pins_age(struct pcore *pc, uint64_t now_ms,
	    uint64_t max_age_ms);
/* Pins made so far. */
size_t	pcore_trust_pin_count(const struct pcore *pc);
/*
 * IPC_PINS: the TOFU pins the forwarder kept, made here as if each key
 * had been seen first; none is sent back as IPC_PIN.  A key whose
 * address is pinned already, or one beyond PCORE_PIN_MAX, is skipped.
 * Part of the public API (pcore.h).
 */
void	pcore_pins(struct pcore *pc, const struct ipc_pins *m);

/*
 * Classes change here without a new policy snapshot: a revocation
 * record, an expired certificate.  The functions that can change them
 * return 1 when they did, and the caller then makes the tables follow
 * (pcore_rt_sweep(), pcore_rt.h), as after a new policy.
 */

/* A REVOKE container (BS_REVOKE_LEN bytes) of a verified entry; 1 when
 * it revoked a key. */
int	pcore_trust_revoke(struct pcore *pc, const uint8_t *raw);

/*
 * The OGM pipeline's three hooks (pcore_ogm.c).  entry_cert: the entry's
 * key is not admitted; cand filled and returned when its CERT container
 * would admit it, else NULL (and, mode ca, the key waits as pending).
 * entry_verified: after the entry's signature; 0, or -1 when the new
 * certificate's own signature fails (the entry is then refused by
 * policy); also offers a renewed certificate of an admitted key.
 * entry_done: after routing took the entry: for a newer OGM reads its
 * REVOKE container; 1 when that revoked a key.
 */
struct pcore_cert_cand *pcore_trust_entry_cert(struct pcore *pc,
	    const struct wire_ogm_entry *e, struct pcore_cert_cand *cand);
int	pcore_trust_entry_verified(struct pcore *pc,
	    const struct wire_ogm_entry *e, uint8_t cls,
	    const struct pcore_cert_cand *newcert);
int	pcore_trust_entry_done(struct pcore *pc,
	    const struct wire_ogm_entry *e, uint8_t cls, int orig_new,
	    int newer);

/*
 * Once a second: send pins that could not go up, drop expired
 * certificates; 1 when some expired.
 */
int	pcore_trust_tick(struct pcore *pc, uint64_t now_ms);

#endif /* BATSEC_PCORE_TRUST_H */
