/*
 * fuzz_netlink.c — the rtnetlink link-message parser on arbitrary bytes:
 * nl_link_parse() on the input as one message, and nl_events_parse() on it
 * as a datagram of messages (what the event socket hands over).
 *
 * Whatever the parser accepts must satisfy what the forwarder relies on;
 * a violated invariant aborts, which the fuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <net/if.h>
#include <net/if_arp.h>

#include "netio/netlink.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Keeps the field reads below from being optimised away. */
static volatile size_t fuzz_sink;

static void
fuzz_check(const struct nl_link *l, void *arg)
{
	size_t *sum = arg;
	size_t len = strnlen(l->name, IFNAMSIZ);

	if (len == 0 || len >= IFNAMSIZ || !nl_ifname_valid(l->name))
		abort();
	if (l->ifindex <= 0 || l->operstate > NL_OPER_UP)
		abort();
	if (l->event != NL_LINK_NEW && l->event != NL_LINK_DEL)
		abort();
	/* Read every field, so the sanitizers see uninitialised ones. */
	*sum += len + l->mtu + l->min_mtu + l->max_mtu + l->flags + l->type;
	if (l->has_mac)
		*sum += l->mac[0] + l->mac[5];
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nl_link link;
	uint8_t *copy;
	size_t sum = 0;

	/*
	 * The parsers want 4-byte alignment, as netlink buffers have; an
	 * exactly sized heap copy also lets ASan see any over-read.
	 */
	copy = malloc(size > 0 ? size : 1);
	if (copy == NULL)
		return 0;
	if (size > 0)
		memcpy(copy, data, size);
	if (nl_link_parse(copy, size, &link) == 0)
		fuzz_check(&link, &sum);
	else if (link.ifindex != 0 || link.name[0] != '\0')
		abort();	/* a refused message leaves *out zeroed */
	(void)nl_events_parse(copy, size, fuzz_check, &sum);
	free(copy);
	fuzz_sink = sum;
	return 0;
}
