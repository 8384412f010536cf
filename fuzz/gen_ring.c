/*
 * gen_ring.c — writes the seed corpus of fuzz_ring into the directory
 * named by argv[1]: TPACKET_V3 ring blocks as the kernel fills them (one
 * frame, several of different lengths, a full block, a frame cut short,
 * the packet types batsecd meets).  Each file is named by (the first 20
 * bytes of) its SHA-256.  Deterministic.
 */
#include <string.h>

#include <linux/if_packet.h>

#include "lib/t_seed.h"
#include "netio/rawsock.h"

static _Alignas(16) uint8_t gen_blk[RAWSOCK_RING_BLOCK];

/* A block of n frames of lens[i] bytes; frame 0 cut short when cut. */
static void
gen_block(const size_t *lens, size_t n, uint8_t pt, int cut)
{
	struct tpacket_block_desc bd;
	struct tpacket3_hdr h;
	struct sockaddr_ll sll;
	size_t first = TPACKET_ALIGN(sizeof(bd)), off = first, i, next;
	size_t mac = TPACKET_ALIGN(TPACKET_ALIGN(sizeof(h)) + sizeof(sll));

	memset(gen_blk, 0, sizeof(gen_blk));
	for (i = 0; i < n; i++) {
		next = TPACKET_ALIGN(mac + lens[i]);
		if (off + next > sizeof(gen_blk))
			break;
		memset(&h, 0, sizeof(h));
		h.tp_mac = (uint16_t)mac;
		h.tp_snaplen = (uint32_t)lens[i];
		h.tp_len = (uint32_t)lens[i] + (cut && i == 0 ? 100 : 0);
		h.tp_next_offset = i + 1 < n ? (uint32_t)next : 0;
		memcpy(gen_blk + off, &h, sizeof(h));
		memset(&sll, 0, sizeof(sll));
		sll.sll_pkttype = pt;
		memcpy(gen_blk + off + TPACKET_ALIGN(sizeof(h)), &sll,
		    sizeof(sll));
		/* An Ethernet header with batsec's ethertype, then bytes. */
		memset(gen_blk + off + mac, (int)(0x10 + i), lens[i]);
		if (lens[i] >= 14) {
			gen_blk[off + mac + 12] = RAWSOCK_ETHERTYPE >> 8;
			gen_blk[off + mac + 13] = RAWSOCK_ETHERTYPE & 0xff;
		}
		off += next;
	}
	memset(&bd, 0, sizeof(bd));
	bd.version = TPACKET_V3;
	bd.hdr.bh1.block_status = TP_STATUS_USER;
	bd.hdr.bh1.num_pkts = (uint32_t)i;
	bd.hdr.bh1.offset_to_first_pkt = (uint32_t)first;
	bd.hdr.bh1.blk_len = (uint32_t)off;
	memcpy(gen_blk, &bd, sizeof(bd));
	t_seed_write(gen_blk, off);
}

int
main(int argc, char **argv)
{
	static const size_t one[] = { 60 };
	static const size_t mixed[] = { 14, 60, 1514, 200, 1534 };
	size_t full[64];
	size_t i;

	t_seed_main(argc, argv, "gen_ring", T_SEED_SHA256);
	for (i = 0; i < 64; i++)
		full[i] = 1514;
	gen_block(one, 1, PACKET_HOST, 0);
	gen_block(mixed, 5, PACKET_HOST, 0);
	gen_block(mixed, 5, PACKET_BROADCAST, 1);
	gen_block(one, 1, PACKET_MULTICAST, 0);
	gen_block(full, 64, PACKET_HOST, 0);
	gen_block(one, 0, PACKET_HOST, 0);
	return 0;
}
