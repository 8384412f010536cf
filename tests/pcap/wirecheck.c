/*
 * wirecheck.c — what batsecd's own codec says about each frame of a
 * capture, for tests/t_dissector.sh to compare with the Wireshark
 * dissector.
 *
 *	wirecheck FILE.pcap
 *
 * Reads a classic little-endian pcap of Ethernet II frames (as
 * tests/pcap/mkpcap.py or tcpdump write them), strips the 14-byte
 * Ethernet header of each frame with ethertype 0x88B5 and runs the
 * payload through wire_peek() and the parser of its type (for UNICAST and
 * ECHO wire_sealed_parse(): the layout, not the AEAD).  Prints one
 * line per frame: its number (from 1), then "ok", "skip" (another
 * ethertype), or the parser's error phrase, field and offset,
 * tab-separated.  Exit status 0 unless the file cannot be read.
 *
 * Built by the test itself against $B/libbatsec.a; not part of `make`.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "proto/wire.h"

#define WC_PCAP_HDR	24
#define WC_REC_HDR	16
#define WC_ETH_HDR	14
#define WC_SNAP		65535

static struct wire_ogm wc_ogm;	/* 3.5 KiB: not on the stack */

static uint32_t
wc_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/* Parse one payload; *where is the refused field on error. */
static int
wc_parse(const uint8_t *p, size_t len, struct wire_where *where)
{
	static struct wire_hello h;
	static struct wire_sealed s;
	static struct wire_bcast b;
	static struct wire_frag f;
	uint8_t type;
	int r;

	where->field = "frame header";
	where->off = 0;
	if ((r = wire_peek(p, len, &type)) != WIRE_OK)
		return r;
	switch (type) {
	case WIRE_T_HELLO:
		r = wire_hello_parse(p, len, &h);
		*where = h.where;
		break;
	case WIRE_T_OGM:
		r = wire_ogm_parse(p, len, &wc_ogm);
		*where = wc_ogm.where;
		break;
	case WIRE_T_UNICAST:
	case WIRE_T_ECHO:
	case WIRE_T_TRACE:
	case WIRE_T_TTLX:
		r = wire_sealed_parse(p, len, &s);
		*where = s.where;
		break;
	case WIRE_T_FRAG:
		r = wire_frag_parse(p, len, &f);
		*where = f.where;
		break;
	default:
		r = wire_bcast_parse(p, len, &b);
		*where = b.where;
		break;
	}
	return r;
}

static void
wc_report(unsigned long n, const uint8_t *frame, size_t len)
{
	struct wire_where where;
	int r;

	if (len < WC_ETH_HDR) {
		printf("%lu\tno Ethernet header\n", n);
		return;
	}
	if ((frame[12] << 8 | frame[13]) != WIRE_ETHERTYPE) {
		printf("%lu\tskip\n", n);
		return;
	}
	r = wc_parse(frame + WC_ETH_HDR, len - WC_ETH_HDR, &where);
	if (r == WIRE_OK)
		printf("%lu\tok\n", n);
	else
		printf("%lu\t%s\t%s\t%zu\n", n, wire_strerror(r),
		    where.field != NULL ? where.field : "?", where.off);
}

int
main(int argc, char **argv)
{
	static uint8_t frame[WC_SNAP];
	uint8_t hdr[WC_PCAP_HDR];
	unsigned long n = 0;
	uint32_t caplen;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: wirecheck FILE.pcap\n");
		return 2;
	}
	if ((f = fopen(argv[1], "rb")) == NULL ||
	    fread(hdr, 1, sizeof(hdr), f) != sizeof(hdr) ||
	    wc_le32(hdr) != 0xa1b2c3d4 || wc_le32(hdr + 20) != 1) {
		fprintf(stderr, "wirecheck: %s: not a little-endian Ethernet "
		    "pcap\n", argv[1]);
		return 1;
	}
	while (fread(hdr, 1, WC_REC_HDR, f) == WC_REC_HDR) {
		caplen = wc_le32(hdr + 8);
		if (caplen > sizeof(frame) ||
		    fread(frame, 1, caplen, f) != caplen) {
			fprintf(stderr, "wirecheck: %s: record %lu is cut "
			    "short or too long\n", argv[1], n + 1);
			return 1;
		}
		wc_report(++n, frame, caplen);
	}
	fclose(f);
	return 0;
}
