/*
 * fwd_tap.c — batsec0, the forwarder's TAP device (fwd_tap.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "fwd_tables.h"
#include "fwd_tap.h"
#include "fwd_types.h"
#include "netio/netlink.h"

int
fwd_tap_init(struct fwd *f)
{
	if ((f->grobuf = malloc(TAP_PKT_MAX)) == NULL)
		return -1;
	tapoff_gro_init(&f->tap_gro, f->grobuf);
	return 0;
}

/*
 * The TAP's MAC: derived from the node key, so it stays the same across
 * restarts (DHCP leases, IPv6 addresses, neighbour caches) yet differs
 * from the node's mesh address: the first 6 bytes of
 * BLAKE2b-256(key = "batsec-tap-v1", msg = pk), locally administered,
 * unicast.
 */
static void
fwd_tap_mac(const uint8_t pk[static BS_PK_LEN], uint8_t mac[static 6])
{
	static const char label[] = "batsec-tap-v1";
	uint8_t h[32];

	crypto_generichash(h, sizeof(h), pk, BS_PK_LEN,
	    (const unsigned char *)label, sizeof(label) - 1);
	memcpy(mac, h, 6);
	mac[0] = (uint8_t)((mac[0] | 0x02) & ~0x01);
}

void
fwd_tap_open(struct fwd *f)
{
	uint8_t mac[6];

	if (tap_open(&f->tap, f->cfg.tap) != 0) {
		if (errno == EBUSY)
			fatalx("tap %s: an interface of that name exists "
			    "already", f->cfg.tap);
		fatal("tap %s", f->cfg.tap);
	}
	/* Without offloads the host segments and checksums itself. */
	if (tap_offload(&f->tap) != 0)
		log_warn("tap %s: no TCP segmentation offload", f->tap.name);
	fwd_tap_mac(f->id.pk, mac);
	if (nl_link_set_mac(f->nl, f->tap.ifindex, mac) != 0)
		fatal("tap %s: setting its MAC", f->tap.name);
	/* The TAP's own MAC is a permanent client of ours (local TT). */
	if (fwd_local_set_own(f->tables, mac, log_now_ms()) != 0)
		fatalx("tap %s: local translation table", f->tap.name);
}

void
fwd_tap_up(struct fwd *f)
{
	if (nl_link_set_up(f->nl, f->tap.ifindex, true) != 0)
		fatal("tap %s: bringing it up", f->tap.name);
	log_info("%s up, mtu %u", f->tap.name, f->tap_mtu);
}

void
fwd_tap_close(struct fwd *f)
{
	struct nl_link link;
	char name[IFNAMSIZ];

	free(f->grobuf);
	f->grobuf = NULL;
	if (f->tap.fd < 0)
		return;
	snprintf(name, sizeof(name), "%s", f->tap.name);
	tap_close(&f->tap);
	if (f->nl != NULL && nl_link_get_by_name(f->nl, name, &link) == 0)
		log_warnx("%s still exists after closing it", name);
}

/* Write one packet for the host (the write callback of f->tap_gro). */
static int
fwd_tap_write(void *arg, const uint8_t vnet[TAPOFF_VNET_LEN],
    const uint8_t *pkt, size_t len)
{
	struct fwd *f = arg;

	if (tap_write_vnet(&f->tap, vnet, pkt, len) == 0)
		return 0;
	if (errno != EAGAIN)
		log_rl(&f->rx_rl, LOG_WARNING, "%s: write: %s", f->tap.name,
		    strerror(errno));
	return -1;
}

int
fwd_tap_deliver(struct fwd *f, const uint8_t *frame, size_t len)
{
	return tapoff_gro_add(&f->tap_gro, frame, len, fwd_tap_write, f,
	    &f->tapoff);
}

void
fwd_tap_flush(struct fwd *f)
{
	(void)tapoff_gro_flush(&f->tap_gro, fwd_tap_write, f, &f->tapoff);
}
