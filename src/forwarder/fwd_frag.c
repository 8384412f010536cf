/*
 * fwd_frag.c — FRAG reassembly and cutting (fwd_frag.h).
 */
#include <stdlib.h>
#include <string.h>

#include "fwd_frag.h"

COUNTERS_DEFINE(fwd_frag_count_name, fwd_frag_count_get, fwd_frag_counters,
    FWD_FRAG_COUNT_LIST)

void
fwd_frag_init(struct fwd_frag *r)
{
	memset(r, 0, sizeof(*r));
}

void
fwd_frag_fini(struct fwd_frag *r)
{
	free(r->mem);
	r->mem = NULL;
	memset(r->c, 0, sizeof(r->c));
}

static void
fwd_frag_free(struct fwd_frag_chain *ch)
{
	uint8_t *buf = ch->buf;

	memset(ch, 0, sizeof(*ch));
	ch->buf = buf;
}

void
fwd_frag_expire(struct fwd_frag *r, uint64_t now_ms)
{
	size_t i;

	for (i = 0; i < FWD_FRAG_CHAINS; i++)
		if (r->c[i].used &&
		    now_ms - r->c[i].first_ms >= FWD_FRAG_TIMEOUT_MS) {
			r->cnt.frag_drop_timeout++;
			fwd_frag_free(&r->c[i]);
		}
}

size_t
fwd_frag_in_use(const struct fwd_frag *r, const uint8_t *from,
    const uint8_t *orig)
{
	size_t i, n = 0;

	for (i = 0; i < FWD_FRAG_CHAINS; i++)
		if (r->c[i].used && (from == NULL ||
		    memcmp(r->c[i].from, from, BS_ADDR_LEN) == 0) &&
		    (orig == NULL ||
		    memcmp(r->c[i].orig, orig, BS_ADDR_LEN) == 0))
			n++;
	return n;
}

/* The buffers, on first use: 0, or -1. */
static int
fwd_frag_mem(struct fwd_frag *r)
{
	size_t i;

	if (r->mem != NULL)
		return 0;
	if ((r->mem = malloc((size_t)FWD_FRAG_CHAINS *
	    WIRE_FRAG_TOTAL_MAX)) == NULL)
		return -1;
	for (i = 0; i < FWD_FRAG_CHAINS; i++)
		r->c[i].buf = r->mem + i * WIRE_FRAG_TOTAL_MAX;
	return 0;
}

/* The oldest chain that came from neighbour from (and of orig, if set). */
static struct fwd_frag_chain *
fwd_frag_oldest(struct fwd_frag *r, const uint8_t *from, const uint8_t *orig,
    size_t *count)
{
	struct fwd_frag_chain *ch, *old = NULL;
	size_t i;

	*count = 0;
	for (i = 0; i < FWD_FRAG_CHAINS; i++) {
		ch = &r->c[i];
		if (!ch->used || memcmp(ch->from, from, BS_ADDR_LEN) != 0 ||
		    (orig != NULL && memcmp(ch->orig, orig, BS_ADDR_LEN) != 0))
			continue;
		(*count)++;
		if (old == NULL || ch->order < old->order)
			old = ch;
	}
	return old;
}

/*
 * The chain of (orig, seqno), or a new one for neighbour from: the
 * oldest of (orig, from) when that pair has FWD_FRAG_PER_ORIG, else the
 * oldest of from when it has FWD_FRAG_PER_NEIGH, else a free buffer,
 * else the oldest of the neighbour that holds the most (all counted
 * evicted).  So a neighbour's pieces push out only chains it brought,
 * unless it holds more than any other.
 */
static struct fwd_frag_chain *
fwd_frag_chain(struct fwd_frag *r, const uint8_t *from, const uint8_t *orig,
    uint32_t seqno, uint64_t now_ms)
{
	struct fwd_frag_chain *ch, *free_ch = NULL, *pair, *nb, *old;
	size_t i, n_pair, n_nb, n, most = 0;

	for (i = 0; i < FWD_FRAG_CHAINS; i++) {
		ch = &r->c[i];
		if (!ch->used) {
			if (free_ch == NULL)
				free_ch = ch;
		} else if (ch->seqno == seqno &&
		    memcmp(ch->orig, orig, BS_ADDR_LEN) == 0)
			return ch;
	}
	pair = fwd_frag_oldest(r, from, orig, &n_pair);
	nb = fwd_frag_oldest(r, from, NULL, &n_nb);
	if (n_pair >= FWD_FRAG_PER_ORIG)
		ch = pair;
	else if (n_nb >= FWD_FRAG_PER_NEIGH)
		ch = nb;
	else if (free_ch != NULL)
		ch = free_ch;
	else {
		ch = NULL;
		for (i = 0; i < FWD_FRAG_CHAINS; i++) {
			old = fwd_frag_oldest(r, r->c[i].from, NULL, &n);
			if (n > most) {
				most = n;
				ch = old;
			}
		}
		if (ch == NULL)		/* not reached: all are used */
			ch = &r->c[0];
	}
	if (ch->used) {
		r->cnt.frag_drop_evicted++;
		fwd_frag_free(ch);
	}
	ch->used = 1;
	memcpy(ch->orig, orig, BS_ADDR_LEN);
	memcpy(ch->from, from, BS_ADDR_LEN);
	ch->seqno = seqno;
	ch->first_ms = now_ms;
	ch->order = ++r->order;
	return ch;
}

int
fwd_frag_add(struct fwd_frag *r, const uint8_t from[static BS_ADDR_LEN],
    const uint8_t orig[static BS_ADDR_LEN],
    uint32_t seqno, uint16_t total, uint16_t offset,
    const uint8_t *piece, size_t piece_len, uint64_t now_ms,
    const uint8_t **out, size_t *out_len)
{
	struct fwd_frag_chain *ch;
	size_t i, end = (size_t)offset + piece_len;

	r->cnt.frag_received++;
	fwd_frag_expire(r, now_ms);
	/* The parser's bounds, checked again: this is where they matter. */
	if (total < WIRE_FRAG_TOTAL_MIN || total > WIRE_FRAG_TOTAL_MAX ||
	    piece_len == 0 || piece_len >= total || end > total) {
		r->cnt.frag_drop_size++;
		return -1;
	}
	if (fwd_frag_mem(r) != 0) {
		r->cnt.frag_drop_nomem++;
		return -1;
	}
	ch = fwd_frag_chain(r, from, orig, seqno, now_ms);
	if (ch->total == 0)
		ch->total = total;
	else if (ch->total != total) {
		/* Two frames under one seqno, or a lie: neither is kept. */
		r->cnt.frag_drop_size++;
		fwd_frag_free(ch);
		return -1;
	}
	for (i = 0; i < ch->npiece; i++) {
		if (ch->p[i].off == offset && ch->p[i].len == piece_len) {
			r->cnt.frag_drop_dup++;
			return -1;
		}
		if (offset < ch->p[i].off + ch->p[i].len &&
		    ch->p[i].off < end) {
			r->cnt.frag_drop_overlap++;
			return -1;
		}
	}
	if (ch->npiece == FWD_FRAG_MAX) {
		r->cnt.frag_drop_count++;
		fwd_frag_free(ch);
		return -1;
	}
	memcpy(ch->buf + offset, piece, piece_len);
	ch->p[ch->npiece].off = offset;
	ch->p[ch->npiece].len = (uint16_t)piece_len;
	ch->npiece++;
	ch->have = (uint16_t)(ch->have + piece_len);
	/* Pieces never overlap and lie within total: all of it is there. */
	if (ch->have < ch->total)
		return 0;
	memcpy(r->out, ch->buf, ch->total);
	*out = r->out;
	*out_len = ch->total;
	r->cnt.frag_reassembled++;
	fwd_frag_free(ch);
	return 1;
}

int
fwd_frag_plan(size_t len, size_t max, size_t *n, size_t *size)
{
	size_t k;

	if (max == 0 || len == 0)
		return -1;
	k = (len + max - 1) / max;
	if (k > FWD_FRAG_MAX)
		return -1;
	*n = k;
	*size = (len + k - 1) / k;
	return 0;
}
