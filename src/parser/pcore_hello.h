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
 * A HELLO (p, len bytes, its type already peeked) on ifindex from src:
 * PCORE_ACCEPT, or why it was dropped (counted by pcore_drop()).
 */
enum pcore_drop pcore_hello(struct pcore *pc, uint32_t ifindex,
	    const uint8_t src[static BS_ADDR_LEN], const uint8_t *p,
	    size_t len, uint64_t now_ms);

#endif /* BATSEC_PCORE_HELLO_H */
