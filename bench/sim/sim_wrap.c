/*
 * sim_wrap.c — wrappers the simulator is linked with (-Wl,--wrap=...):
 *
 *  - bs_verify, bs_chain_verify and bs_chain_link: counted; with
 *    sim_memo set, each distinct input is computed for real once and its
 *    result is then looked up (the key is a 128-bit hash of every input
 *    byte, the table is bounded and direct-mapped, so a miss only costs
 *    a real check; bs_chain_link's *steps, what pcore counts, is the
 *    walk's length either way);
 *  - malloc, calloc, realloc, aligned_alloc, free: the usable size of every block is
 *    added to or taken from *sim_heap_acct while it is set, so the
 *    simulator can say what one node's parser core holds on the heap;
 *  - and, not a link-time wrap, libsodium's random source
 *    (randombytes_set_implementation): in virtual time every random byte
 *    the daemon's code asks for (hop-chain and OGM-chain seeds, link
 *    salts, hash and cache keys) comes from a ChaCha20 stream keyed by
 *    the run's --seed, so a run is reproducible.
 *
 * Only references from other objects are wrapped (that is what --wrap
 * does), i.e. the calls pcore and the routing core make.
 */
#include <malloc.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

int sim_memo;
uint64_t sim_ed_real, sim_chain_calls;
int64_t *sim_heap_acct;

#define MEMO_BITS	20
#define MEMO_SLOTS	(1u << MEMO_BITS)

struct memo_slot {
	uint64_t h[2];			/* 0,0: empty */
	int result;
};

static struct memo_slot *memo_ed, *memo_chain, *memo_link;

/* A 128-bit hash (two 64-bit FNV-1a-style lanes with a final mix). */
static void
memo_hash(uint64_t h[2], const void *a, size_t alen, const void *b,
    size_t blen, const void *c, size_t clen, uint64_t tag)
{
	const void *part[3] = { a, b, c };
	size_t plen[3] = { alen, blen, clen }, i, k;
	uint64_t x = 0xcbf29ce484222325ull ^ tag, y = 0x84222325cbf29ce4ull;
	const uint8_t *p;

	for (k = 0; k < 3; k++) {
		p = part[k];
		for (i = 0; i < plen[k]; i++) {
			x = (x ^ p[i]) * 0x100000001b3ull;
			y = (y ^ p[i]) * 0xff51afd7ed558ccdull + (y >> 29);
		}
	}
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	h[0] = x | 1;			/* never the empty mark */
	h[1] = y;
}

static struct memo_slot *
memo_find(struct memo_slot **tab, const uint64_t h[2], int *hit)
{
	struct memo_slot *s;

	if (*tab == NULL && (*tab = __real_calloc(MEMO_SLOTS,
	    sizeof(**tab))) == NULL)
		return NULL;
	s = &(*tab)[h[0] & (MEMO_SLOTS - 1)];
	*hit = s->h[0] == h[0] && s->h[1] == h[1];
	return s;
}

void
sim_memo_reset(void)
{
	__real_free(memo_ed);
	__real_free(memo_chain);
	__real_free(memo_link);
	memo_ed = memo_chain = memo_link = NULL;
}

int
__wrap_bs_verify(const uint8_t sig[static BS_SIG_LEN], enum bs_domain dom,
    const uint8_t *msg, size_t len, const uint8_t pk[static BS_PK_LEN])
{
	struct memo_slot *s;
	uint64_t h[2];
	int hit = 0, r;

	if (sim_track) {
		memo_hash(h, sig, BS_SIG_LEN, pk, BS_PK_LEN, msg, len,
		    (uint64_t)dom);
		sim_verify_note((unsigned)dom, h);
	}
	if (!sim_memo) {
		sim_ed_real++;
		return __real_bs_verify(sig, dom, msg, len, pk);
	}
	memo_hash(h, sig, BS_SIG_LEN, pk, BS_PK_LEN, msg, len, (uint64_t)dom);
	s = memo_find(&memo_ed, h, &hit);
	if (s != NULL && hit)
		return s->result;
	sim_ed_real++;
	r = __real_bs_verify(sig, dom, msg, len, pk);
	if (s != NULL) {
		s->h[0] = h[0];
		s->h[1] = h[1];
		s->result = r;
	}
	return r;
}

int
__wrap_bs_chain_verify(const uint8_t anchor[static BS_CHAIN_LEN],
    const uint8_t element[static BS_CHAIN_LEN], unsigned hops)
{
	struct memo_slot *s;
	uint64_t h[2];
	int hit = 0, r;

	sim_chain_calls++;
	if (!sim_memo)
		return __real_bs_chain_verify(anchor, element, hops);
	memo_hash(h, anchor, BS_CHAIN_LEN, element, BS_CHAIN_LEN, NULL, 0,
	    hops);
	s = memo_find(&memo_chain, h, &hit);
	if (s != NULL && hit)
		return s->result;
	r = __real_bs_chain_verify(anchor, element, hops);
	if (s != NULL) {
		s->h[0] = h[0];
		s->h[1] = h[1];
		s->result = r;
	}
	return r;
}

int
__wrap_bs_chain_link(const uint8_t ref[static BS_CHAIN_LEN], uint32_t ref_seqno,
    unsigned ref_hops, const uint8_t element[static BS_CHAIN_LEN],
    uint32_t seqno, unsigned hops, unsigned max_steps, unsigned *steps)
{
	int64_t d = bs_chain_dist(ref_seqno, ref_hops, seqno, hops);
	uint8_t pos[12];
	struct memo_slot *s;
	uint64_t h[2];
	int hit = 0, r;

	if (!sim_memo || d > (int64_t)max_steps || -d > (int64_t)max_steps ||
	    ref_hops > BS_MAXHOPS || hops > BS_MAXHOPS)
		return __real_bs_chain_link(ref, ref_seqno, ref_hops, element,
		    seqno, hops, max_steps, steps);
	bs_put32(pos, ref_seqno);
	bs_put32(pos + 4, seqno);
	pos[8] = (uint8_t)ref_hops;
	pos[9] = (uint8_t)hops;
	pos[10] = pos[11] = 0;
	memo_hash(h, ref, BS_CHAIN_LEN, element, BS_CHAIN_LEN, pos,
	    sizeof(pos), 0x6c696e6b);
	s = memo_find(&memo_link, h, &hit);
	if (s != NULL && hit) {
		*steps = (unsigned)(d < 0 ? -d : d);
		return s->result;
	}
	r = __real_bs_chain_link(ref, ref_seqno, ref_hops, element, seqno,
	    hops, max_steps, steps);
	if (s != NULL) {
		s->h[0] = h[0];
		s->h[1] = h[1];
		s->result = r;
	}
	return r;
}

/* ---- heap accounting ----------------------------------------------------- */

static void
acct(void *p, int sign)
{
	if (p != NULL && sim_heap_acct != NULL)
		*sim_heap_acct += sign * (int64_t)malloc_usable_size(p);
}

void *
__wrap_malloc(size_t n)
{
	void *p = __real_malloc(n);

	acct(p, 1);
	return p;
}

void *
__wrap_calloc(size_t n, size_t size)
{
	void *p = __real_calloc(n, size);

	acct(p, 1);
	return p;
}

void *
__wrap_realloc(void *p, size_t n)
{
	int64_t before = 0;
	void *q;

	if (p != NULL && sim_heap_acct != NULL)
		before = (int64_t)malloc_usable_size(p);
	q = __real_realloc(p, n);
	if (q != NULL && sim_heap_acct != NULL)
		*sim_heap_acct += (int64_t)malloc_usable_size(q) - before;
	else if (q == NULL && n == 0 && sim_heap_acct != NULL)
		*sim_heap_acct -= before;
	return q;
}

void *
__wrap_aligned_alloc(size_t align, size_t n)
{
	void *p = __real_aligned_alloc(align, n);

	acct(p, 1);
	return p;
}

void
__wrap_free(void *p)
{
	acct(p, -1);
	__real_free(p);
}

/* ---- a reproducible random source ----------------------------------------- */

static uint8_t rng_key[crypto_stream_chacha20_KEYBYTES];
static uint64_t rng_calls;

/* Each request is the start of its own ChaCha20 stream (nonce = count of
 * requests), so what a request gets depends only on the seed and on how
 * many came before it. */
static void
rng_buf(void *const buf, const size_t size)
{
	uint8_t nonce[crypto_stream_chacha20_NONCEBYTES];

	bs_put64(nonce, rng_calls++);
	(void)crypto_stream_chacha20(buf, (unsigned long long)size, nonce,
	    rng_key);
}

static uint32_t
rng_random(void)
{
	uint8_t b[4];

	rng_buf(b, sizeof(b));
	return bs_get32(b);
}

static const char *
rng_name(void)
{
	return "batsec-sim";
}

static void
rng_stir(void)
{
}

static int
rng_close(void)
{
	return 0;
}

static struct randombytes_implementation rng_impl = {
	.implementation_name = rng_name,
	.random = rng_random,
	.stir = rng_stir,
	.uniform = NULL,		/* libsodium's, on rng_random */
	.buf = rng_buf,
	.close = rng_close,
};

int
sim_rng_install(void)
{
	return randombytes_set_implementation(&rng_impl);
}

void
sim_rng_seed(uint64_t seed)
{
	static const char label[] = "batsec-sim random source";
	crypto_generichash_state st;
	uint8_t s[8];

	bs_put64(s, seed);
	(void)crypto_generichash_init(&st, NULL, 0, sizeof(rng_key));
	(void)crypto_generichash_update(&st, (const uint8_t *)label,
	    sizeof(label) - 1);
	(void)crypto_generichash_update(&st, s, sizeof(s));
	(void)crypto_generichash_final(&st, rng_key, sizeof(rng_key));
	rng_calls = 0;
}
