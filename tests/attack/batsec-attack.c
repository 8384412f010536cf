/*
 * batsec-attack.c — a hostile mesh node for the attack tests
 * (tests/t_attack.sh).  It speaks the batsec wire protocol through the
 * project's own encoders on one AF_PACKET socket, in a network namespace
 * the test made, and never anywhere else.
 *
 *   batsec-attack -i IFACE -m MODE [-t SECS] [-r FRAMES/S] [-f FILE]
 *	[-c MAC,...] [-e ETHERTYPE]
 *
 * Modes:
 *   forge	HELLOs and OGM frames signed by random unknown keys (and
 *		random link tags), as fast as -r allows (0: no pause)
 *   sybil	become a neighbour with a fresh key (a stranger in mode
 *		open), then announce OGMs of freshly generated keys, each
 *		correctly signed, many per frame
 *   capture	write every control frame heard for SECS to FILE
 *   replay	send the frames of FILE again, as they were captured
 *   inflate	become a neighbour, then relay every OGM entry heard
 *		with TQ 255 and one hop fewer than it had (hops 0 when
 *		it had 1), unchanged hop-chain element
 *   malformed	frames of every type, cut, padded and with bad counts
 *   claim	become a neighbour and originate OGMs announcing the
 *		client MACs of -c and a gateway it has no right to
 *
 * Prints one line "sent N frames" at the end; exit 0, or 1 with a line
 * on stderr.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <linux/if_packet.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "batsec_crypto.h"
#include "lib/t_frames.h"
#include "proto/wire.h"

#define ATK_MAX_PEERS	16
#define ATK_POOL	64	/* random keys reused by forge */

struct atk_peer {
	uint8_t pk[BS_PK_LEN];
	uint8_t addr[BS_ADDR_LEN];
	uint8_t key[BS_LINKKEY_LEN];
	uint8_t keyid[BS_KEYID_LEN];
	int keyed;
};

struct atk {
	int fd;
	int ifindex;
	uint16_t etype;
	uint8_t mac[6];
	struct bs_identity id;
	uint8_t addr[BS_ADDR_LEN];
	uint32_t epoch;
	uint32_t hello_seqno, ogm_seqno;
	uint64_t counter;
	struct atk_peer peer[ATK_MAX_PEERS];
	int n_peer;
	uint64_t sent;
	unsigned rate;
	uint64_t start_ns;
};

static uint64_t
atk_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
atk_die(const char *what)
{
	fprintf(stderr, "batsec-attack: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void
atk_open(struct atk *a, const char *ifname)
{
	struct sockaddr_ll sll;
	struct ifreq ifr;

	a->fd = socket(AF_PACKET, SOCK_RAW, htons(a->etype));
	if (a->fd < 0)
		atk_die("socket");
	memset(&ifr, 0, sizeof(ifr));
	if (strlen(ifname) >= IFNAMSIZ) {
		fprintf(stderr, "batsec-attack: interface name too long\n");
		exit(1);
	}
	strcpy(ifr.ifr_name, ifname);
	if (ioctl(a->fd, SIOCGIFINDEX, &ifr) != 0)
		atk_die(ifname);
	a->ifindex = ifr.ifr_ifindex;
	if (ioctl(a->fd, SIOCGIFHWADDR, &ifr) != 0)
		atk_die("SIOCGIFHWADDR");
	memcpy(a->mac, ifr.ifr_hwaddr.sa_data, 6);
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(a->etype);
	sll.sll_ifindex = a->ifindex;
	if (bind(a->fd, (struct sockaddr *)&sll, sizeof(sll)) != 0)
		atk_die("bind");
}

/* Keep to the rate: -r frames per second on average. */
static void
atk_pace(struct atk *a)
{
	uint64_t due, now;

	if (a->rate == 0)
		return;
	due = a->start_ns + a->sent * (1000000000u / a->rate);
	now = atk_now_ns();
	if (due > now)
		usleep((useconds_t)((due - now) / 1000));
}

/* One Ethernet frame: broadcast, from src (NULL: our MAC). */
static void
atk_send(struct atk *a, const uint8_t *src, const uint8_t *p, size_t len)
{
	uint8_t f[14 + WIRE_OGM_MAX_LEN + 64];

	if (len > sizeof(f) - 14)
		return;
	memset(f, 0xff, 6);
	memcpy(f + 6, src != NULL ? src : a->mac, 6);
	f[12] = (uint8_t)(a->etype >> 8);
	f[13] = (uint8_t)a->etype;
	memcpy(f + 14, p, len);
	atk_pace(a);
	if (send(a->fd, f, 14 + len, 0) >= 0)
		a->sent++;
}

/* A frame received within ms, payload into p (Ethernet header cut). */
static ssize_t
atk_recv(struct atk *a, uint8_t *src, uint8_t *p, size_t cap, int ms)
{
	uint8_t f[14 + 9200];
	struct pollfd pfd = { a->fd, POLLIN, 0 };
	ssize_t n;

	if (poll(&pfd, 1, ms) <= 0)
		return -1;
	n = recv(a->fd, f, sizeof(f), MSG_DONTWAIT);
	if (n < 14 || (size_t)(n - 14) > cap)
		return -1;
	if (memcmp(f + 6, a->mac, 6) == 0)
		return -1;	/* our own */
	memcpy(src, f + 6, 6);
	memcpy(p, f + 14, (size_t)n - 14);
	return n - 14;
}

/* ---- being a neighbour -------------------------------------------------------- */

static void
atk_identity(struct atk *a)
{
	if (bs_identity_generate(&a->id) != 0) {
		fprintf(stderr, "batsec-attack: key generation failed\n");
		exit(1);
	}
	bs_mesh_addr(a->addr, a->id.pk);
	a->epoch = (uint32_t)time(NULL);
}

static void
atk_hello(struct atk *a)
{
	struct wire_hello h;
	uint8_t buf[WIRE_HELLO_MAX_LEN];
	int i;

	memset(&h, 0, sizeof(h));
	h.pk = a->id.pk;
	h.ifmac = a->mac;
	h.interval_ms = 500;
	h.epoch = a->epoch;
	h.seqno = ++a->hello_seqno;
	for (i = 0; i < a->n_peer; i++) {
		h.neigh[i].addr = a->peer[i].addr;
		h.neigh[i].rx_count = WIRE_RX_WINDOW;	/* "heard all" */
	}
	h.num_neigh = (unsigned)a->n_peer;
	atk_send(a, NULL, buf, t_hello(buf, sizeof(buf), &h, &a->id));
}

/* Learn the HELLO senders around us (and their link keys). */
static void
atk_learn(struct atk *a, const uint8_t *p, size_t len)
{
	struct wire_hello h;
	struct atk_peer *q;
	uint8_t addr[BS_ADDR_LEN];
	int i;

	if (wire_hello_parse(p, len, &h) != WIRE_OK)
		return;
	bs_mesh_addr(addr, h.pk);
	for (i = 0; i < a->n_peer; i++)
		if (memcmp(a->peer[i].addr, addr, BS_ADDR_LEN) == 0)
			return;
	if (a->n_peer >= ATK_MAX_PEERS)
		return;
	q = &a->peer[a->n_peer++];
	memcpy(q->pk, h.pk, BS_PK_LEN);
	memcpy(q->addr, addr, BS_ADDR_LEN);
	if (bs_link_key(q->key, &a->id, q->pk) == 0) {
		bs_link_keyid(q->keyid, q->key);
		q->keyed = 1;
	}
}

/* Frames heard for up to ms, handed to fn (may be NULL). */
static void
atk_listen(struct atk *a, int ms,
    void (*fn)(struct atk *, const uint8_t *, const uint8_t *, size_t))
{
	uint8_t p[9200], src[6];
	uint64_t end = atk_now_ns() + (uint64_t)ms * 1000000u;
	uint8_t type;
	ssize_t n;

	while (atk_now_ns() < end) {
		n = atk_recv(a, src, p, sizeof(p), 20);
		if (n <= 0)
			continue;
		if (wire_peek(p, (size_t)n, &type) == WIRE_OK &&
		    type == WIRE_T_HELLO)
			atk_learn(a, p, (size_t)n);
		if (fn != NULL)
			fn(a, src, p, (size_t)n);
	}
}

/* HELLOs every 250 ms for secs, so every peer sees a good link. */
static void
atk_join(struct atk *a, int secs)
{
	int i;

	for (i = 0; i < secs * 4; i++) {
		atk_hello(a);
		atk_listen(a, 250, NULL);
	}
}

/* An OGM frame of the given entries, tagged for every known peer. */
static void
atk_ogm_send(struct atk *a, const struct wire_ogm_mut *m,
    uint8_t (*blocks)[1200], const size_t *blen, unsigned n)
{
	uint8_t buf[WIRE_OGM_MAX_LEN], tag[BS_TAG_LEN];
	struct wire_ogm_builder b;
	const uint8_t *cov;
	size_t clen, len;
	unsigned i, tags = 0;
	uint64_t ctr;
	int k;

	for (k = 0; k < a->n_peer; k++)
		tags += a->peer[k].keyed;
	if (tags == 0 || tags > WIRE_MAX_TAGS ||
	    wire_ogm_begin(&b, buf, sizeof(buf), a->addr) != WIRE_OK)
		return;
	for (i = 0; i < n; i++)
		if (wire_ogm_add(&b, &m[i], blocks[i], blen[i]) != WIRE_OK)
			return;
	ctr = (uint64_t)a->epoch << 32 | ++a->counter;
	if (wire_ogm_trailer(&b, WIRE_AUTH_MAC, tags, ctr, &cov, &clen) !=
	    WIRE_OK)
		return;
	for (k = 0; k < a->n_peer; k++) {
		if (!a->peer[k].keyed)
			continue;
		bs_link_mac(tag, a->peer[k].key, a->addr, ctr, cov, clen);
		wire_ogm_add_tag(&b, a->peer[k].keyid, tag);
	}
	if (wire_ogm_finish(&b, &len) == WIRE_OK)
		atk_send(a, NULL, buf, len);
}

/*
 * A signed block (signed part + signature) of key id, or with a random
 * signature when forged: its length.
 */
static size_t
atk_block2(const struct bs_identity *id, uint32_t epoch, uint32_t seqno,
    const uint8_t seed[BS_CHAIN_LEN], const uint8_t *tvlv, size_t tvlv_len,
    uint8_t *out, size_t cap, int forged)
{
	size_t len = t_ogm_block(out, cap, &(struct t_ogm_entry){ .orig = id,
	    .epoch = epoch, .seqno = seqno, .interval_ms = 1000,
	    .chain_seed = seed, .tvlv = tvlv, .tvlv_len = tvlv_len });

	if (forged)
		bs_random(out + len - BS_SIG_LEN, BS_SIG_LEN);
	return len;
}

static size_t
atk_block(const struct bs_identity *id, uint32_t epoch, uint32_t seqno,
    const uint8_t seed[BS_CHAIN_LEN], const uint8_t *tvlv, size_t tvlv_len,
    uint8_t *out, size_t cap)
{
	return atk_block2(id, epoch, seqno, seed, tvlv, tvlv_len, out, cap, 0);
}

/* ---- the modes ---------------------------------------------------------------- */

static int
atk_running(const struct atk *a, int secs)
{
	return atk_now_ns() - a->start_ns < (uint64_t)secs * 1000000000u;
}

/* Random keys, random tags: nothing verifies, all of it costs. */
static void
mode_forge(struct atk *a, int secs)
{
	static struct bs_identity pool[ATK_POOL];
	uint8_t blocks[4][1200], seed[BS_CHAIN_LEN], elem[BS_CHAIN_LEN];
	uint8_t src[6], buf[WIRE_OGM_MAX_LEN], kid[BS_KEYID_LEN];
	uint8_t tag[BS_TAG_LEN], addr[BS_ADDR_LEN];
	struct wire_ogm_mut m[4];
	struct wire_ogm_builder b;
	size_t blen[4], len;
	const uint8_t *cov;
	size_t clen;
	unsigned i, k = 0;

	for (i = 0; i < ATK_POOL; i++)
		bs_identity_generate(&pool[i]);
	while (atk_running(a, secs)) {
		struct bs_identity *id = &pool[k++ % ATK_POOL];

		/* A HELLO from a random key and a random source MAC. */
		bs_random(src, 6);
		src[0] = (uint8_t)((src[0] & 0xfe) | 0x02);
		a->hello_seqno++;
		{
			struct wire_hello h;
			uint8_t hb[WIRE_HELLO_MAX_LEN], sig[BS_SIG_LEN];

			memset(&h, 0, sizeof(h));
			h.pk = id->pk;
			h.ifmac = src;
			h.interval_ms = 500;
			h.epoch = 1;
			h.seqno = a->hello_seqno;
			if (wire_hello_build(hb, sizeof(hb), &h, &len) ==
			    WIRE_OK) {
				bs_random(sig, sizeof(sig));
				if (wire_sig_append(hb, sizeof(hb), &len, sig) ==
				    WIRE_OK)
					atk_send(a, src, hb, len);
			}
		}
		/* An OGM frame of 4 entries of random keys, random tag. */
		bs_mesh_addr(addr, id->pk);
		for (i = 0; i < 4; i++) {
			bs_random(seed, sizeof(seed));
			blen[i] = atk_block2(&pool[(k + i) % ATK_POOL], 1,
			    a->hello_seqno, seed, NULL, 0, blocks[i],
			    sizeof(blocks[i]), 1);
			bs_chain_iter(elem, seed, 1);
			memset(&m[i], 0, sizeof(m[i]));
			m[i].ttl = 50;
			m[i].tq = 225;
			m[i].hops = 1;
			m[i].prev_sender = addr;
			m[i].chain = elem;
		}
		if (wire_ogm_begin(&b, buf, sizeof(buf), addr) != WIRE_OK)
			continue;
		for (i = 0; i < 4; i++)
			wire_ogm_add(&b, &m[i], blocks[i], blen[i]);
		wire_ogm_trailer(&b, WIRE_AUTH_MAC, 1, k, &cov, &clen);
		bs_random(kid, sizeof(kid));
		bs_random(tag, sizeof(tag));
		wire_ogm_add_tag(&b, kid, tag);
		if (wire_ogm_finish(&b, &len) == WIRE_OK)
			atk_send(a, src, buf, len);
	}
}

/* Fresh keys, each a valid stranger, 8 entries per frame. */
static void
mode_sybil(struct atk *a, int secs)
{
	struct bs_identity id;
	uint8_t blocks[8][1200], seed[BS_CHAIN_LEN], elem[8][BS_CHAIN_LEN];
	struct wire_ogm_mut m[8];
	size_t blen[8];
	uint64_t last_hello = 0;
	unsigned i;

	atk_join(a, 3);
	while (atk_running(a, secs)) {
		if (atk_now_ns() - last_hello > 250000000u) {
			atk_hello(a);
			atk_listen(a, 1, NULL);
			last_hello = atk_now_ns();
		}
		for (i = 0; i < 8; i++) {
			bs_identity_generate(&id);
			bs_random(seed, sizeof(seed));
			blen[i] = atk_block(&id, a->epoch, 1, seed, NULL, 0,
			    blocks[i], sizeof(blocks[i]));
			bs_chain_iter(elem[i], seed, 1);
			memset(&m[i], 0, sizeof(m[i]));
			m[i].ttl = 50;
			m[i].tq = 225;
			m[i].hops = 1;
			m[i].prev_sender = a->addr;
			m[i].chain = elem[i];
		}
		atk_ogm_send(a, m, blocks, blen, 8);
	}
}

static FILE *cap_file;

static void
cap_one(struct atk *a, const uint8_t *src, const uint8_t *p, size_t len)
{
	uint16_t l = (uint16_t)len;

	(void)a;
	if (len > 9000)
		return;
	fwrite(&l, sizeof(l), 1, cap_file);
	fwrite(src, 6, 1, cap_file);
	fwrite(p, len, 1, cap_file);
}

static void
mode_capture(struct atk *a, int secs, const char *file)
{
	if ((cap_file = fopen(file, "wb")) == NULL)
		atk_die(file);
	atk_listen(a, secs * 1000, cap_one);
	fclose(cap_file);
}

/* Every captured frame, with its original source, again and again. */
static void
mode_replay(struct atk *a, int secs, const char *file)
{
	uint8_t p[9200], src[6];
	uint16_t l;
	FILE *f;

	while (atk_running(a, secs)) {
		if ((f = fopen(file, "rb")) == NULL)
			atk_die(file);
		while (fread(&l, sizeof(l), 1, f) == 1 && l <= sizeof(p) &&
		    fread(src, 6, 1, f) == 1 && fread(p, l, 1, f) == 1)
			atk_send(a, src, p, l);
		fclose(f);
	}
}

/* Each entry heard, relayed with TQ 255 and one hop fewer. */
static void
inflate_one(struct atk *a, const uint8_t *src, const uint8_t *p, size_t len)
{
	static struct wire_ogm o;
	uint8_t blocks[1][1200];
	struct wire_ogm_mut m;
	size_t blen;
	unsigned i;

	(void)src;
	if (wire_ogm_parse(p, len, &o) != WIRE_OK)
		return;
	for (i = 0; i < o.num_entries; i++) {
		const struct wire_ogm_entry *e = &o.e[i];

		if (e->block_len > sizeof(blocks[0]))
			continue;
		memcpy(blocks[0], e->block, e->block_len);
		blen = e->block_len;
		m = e->mut;
		m.tq = 255;
		if (m.hops > 1)
			m.hops--;
		m.prev_sender = o.sender;
		atk_ogm_send(a, &m, blocks, &blen, 1);
	}
}

static void
mode_inflate(struct atk *a, int secs)
{
	atk_join(a, 3);
	while (atk_running(a, secs)) {
		atk_hello(a);
		atk_listen(a, 250, inflate_one);
	}
}

/* Truncations, paddings and bad counts of every frame type. */
static void
mode_malformed(struct atk *a, int secs)
{
	uint8_t p[2048], src[6];
	unsigned k = 0;
	size_t len;

	atk_join(a, 1);
	while (atk_running(a, secs)) {
		len = 1 + bs_random_uniform(1500);
		bs_random(p, len);
		p[1] = 1;	/* version */
		switch (k++ % 8) {
		case 0:
			p[0] = WIRE_T_HELLO;
			break;
		case 1:
			p[0] = WIRE_T_OGM;
			break;
		case 2:
			p[0] = WIRE_T_OGM;
			p[2] = 16;	/* entries claimed */
			len = 12 + bs_random_uniform(64);
			break;
		case 3:
			p[0] = WIRE_T_HELLO;
			len = WIRE_HELLO_FIXED_LEN - 1;
			break;
		case 4:
			p[0] = WIRE_T_UNICAST;
			len = 1 + bs_random_uniform(20);
			break;
		case 5:
			p[0] = WIRE_T_BCAST;
			len = 1 + bs_random_uniform(20);
			break;
		case 6:
			p[1] = 2;	/* a future version */
			break;
		default:
			p[0] = (uint8_t)(0x03 + bs_random_uniform(0x3c));
			break;
		}
		/* Half from our MAC, half from random ones (past the
		 * per-source frame rate, into the codec). */
		memcpy(src, a->mac, 6);
		if (k % 2 == 0) {
			bs_random(src, 6);
			src[0] = (uint8_t)((src[0] & 0xfe) | 0x02);
		}
		if (k % 16 == 0)
			atk_hello(a);
		atk_send(a, src, p, len);
	}
}

/* Our own OGMs with clients and a gateway that are not ours. */
static void
mode_claim(struct atk *a, int secs, const char *clients)
{
	struct wire_tt_entry tt[WIRE_TT_MAX];
	uint8_t macs[WIRE_TT_MAX][6], tv[1024], blocks[1][1200];
	uint8_t seed[BS_CHAIN_LEN], elem[BS_CHAIN_LEN];
	struct wire_ogm_mut m;
	unsigned n = 0, x[6];
	size_t tvlen = 0, blen;
	const char *c = clients;

	while (c != NULL && *c != '\0' && n < WIRE_TT_MAX &&
	    sscanf(c, "%x:%x:%x:%x:%x:%x", &x[0], &x[1], &x[2], &x[3],
	    &x[4], &x[5]) == 6) {
		for (int i = 0; i < 6; i++)
			macs[n][i] = (uint8_t)x[i];
		tt[n].mac = macs[n];
		tt[n].vid = 0;
		n++;
		c = strchr(c, ',');
		c = c != NULL ? c + 1 : NULL;
	}
	if (n > 0)
		wire_tvlv_put_tt(tv, sizeof(tv), &tvlen, tt, n);
	wire_tvlv_put_gateway(tv, sizeof(tv), &tvlen, 100000, 100000);
	atk_join(a, 3);
	while (atk_running(a, secs)) {
		atk_hello(a);
		bs_random(seed, sizeof(seed));
		blen = atk_block(&a->id, a->epoch, ++a->ogm_seqno, seed, tv,
		    tvlen, blocks[0], sizeof(blocks[0]));
		bs_chain_iter(elem, seed, 0);
		memset(&m, 0, sizeof(m));
		m.ttl = 50;
		m.tq = 255;
		m.hops = 0;
		m.prev_sender = a->addr;
		m.chain = elem;
		if (blen > 0)
			atk_ogm_send(a, &m, blocks, &blen, 1);
		atk_listen(a, 250, NULL);
	}
}

static void
usage(void)
{
	fprintf(stderr, "usage: batsec-attack -i IFACE -m forge|sybil|capture|"
	    "replay|inflate|malformed|claim [-t SECS] [-r RATE] [-f FILE] "
	    "[-c MAC,...] [-e ETHERTYPE]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	const char *ifname = NULL, *mode = NULL, *file = NULL, *clients = NULL;
	struct atk a;
	int c, secs = 10;

	memset(&a, 0, sizeof(a));
	a.etype = 0x88b5;
	while ((c = getopt(argc, argv, "i:m:t:r:f:c:e:")) != -1) {
		switch (c) {
		case 'i': ifname = optarg; break;
		case 'm': mode = optarg; break;
		case 't': secs = atoi(optarg); break;
		case 'r': a.rate = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'f': file = optarg; break;
		case 'c': clients = optarg; break;
		case 'e': a.etype = (uint16_t)strtoul(optarg, NULL, 0); break;
		default: usage();
		}
	}
	if (ifname == NULL || mode == NULL || secs <= 0 || bs_crypto_init() != 0)
		usage();
	atk_open(&a, ifname);
	atk_identity(&a);
	a.start_ns = atk_now_ns();
	if (strcmp(mode, "forge") == 0)
		mode_forge(&a, secs);
	else if (strcmp(mode, "sybil") == 0)
		mode_sybil(&a, secs);
	else if (strcmp(mode, "capture") == 0 && file != NULL)
		mode_capture(&a, secs, file);
	else if (strcmp(mode, "replay") == 0 && file != NULL)
		mode_replay(&a, secs, file);
	else if (strcmp(mode, "inflate") == 0)
		mode_inflate(&a, secs);
	else if (strcmp(mode, "malformed") == 0)
		mode_malformed(&a, secs);
	else if (strcmp(mode, "claim") == 0)
		mode_claim(&a, secs, clients);
	else
		usage();
	printf("sent %llu frames\n", (unsigned long long)a.sent);
	return 0;
}
