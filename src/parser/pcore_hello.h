/*
 * pcore_hello.h — the HELLO pipeline of the parser's core.
 */
#ifndef BATSEC_PCORE_HELLO_H
#define BATSEC_PCORE_HELLO_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "pcore_int.h"

/*
 * A tagged HELLO from a key the policy admits that is no neighbour on
 * the interface, carrying no tag under a key we hold or keep for it (it
 * does not list us): neither can check the other's HELLOs, so we ask our
 * forwarder to sign our next HELLO there (IPC_HELLO_SIGN), at most once
 * every PCORE_HELLO_SIGN_GAP of our HELLO intervals per interface.  The
 * HELLO is unauthenticated: forged or replayed ones make us sign no more
 * often than that, and change nothing else.  batsec-protocol(7), HELLO
 * authentication.
 */
#define PCORE_HELLO_SIGN_GAP	4

/*
 * A HELLO (p, len bytes, its type already peeked) on ifindex from src:
 * PCORE_ACCEPT, or why it was dropped (counted by pcore_drop()).
 */
enum pcore_drop pcore_hello(struct pcore *pc, uint32_t ifindex,
	    const uint8_t src[static BS_ADDR_LEN], const uint8_t *p,
	    size_t len, uint64_t now_ms);

#endif /* BATSEC_PCORE_HELLO_H */
