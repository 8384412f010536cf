/*
 * fwd_burst.c — the token buckets that bound the cold-start burst
 * (fwd_burst.h).
 */
#include "fwd_burst.h"

uint64_t
fwd_bucket_want(struct fwd_bucket *b, uint64_t now_ms, uint32_t delay_ms)
{
	uint64_t at = now_ms + delay_ms;

	if (b->due_ms != 0)
		return b->due_ms;
	if (b->sent_ms != 0 && at < b->sent_ms + FWD_BURST_GAP_MS)
		at = b->sent_ms + FWD_BURST_GAP_MS;
	b->due_ms = at > 0 ? at : 1;
	return b->due_ms;
}

uint64_t
fwd_bucket_due(const struct fwd_bucket *b)
{
	return b->due_ms;
}

/* Refill: one token per interval, at most FWD_BURST_TOKENS (full at the
 * first use).  A clock that went back refills nothing. */
static void
fwd_bucket_refill(struct fwd_bucket *b, uint32_t interval_ms, uint64_t now_ms)
{
	uint64_t full = (uint64_t)FWD_BURST_TOKENS * interval_ms;

	if (!b->started) {
		b->started = 1;
		b->credit_ms = full;
	} else if (now_ms > b->at_ms) {
		b->credit_ms += now_ms - b->at_ms;
		if (b->credit_ms > full)
			b->credit_ms = full;
	}
	b->at_ms = now_ms;
}

int
fwd_bucket_take(struct fwd_bucket *b, uint32_t interval_ms, uint64_t now_ms)
{
	if (b->due_ms == 0 || now_ms < b->due_ms)
		return FWD_BURST_NONE;
	b->due_ms = 0;
	fwd_bucket_refill(b, interval_ms, now_ms);
	if (interval_ms == 0 || b->credit_ms < interval_ms)
		return FWD_BURST_REFUSED;
	b->credit_ms -= interval_ms;
	b->sent_ms = now_ms;
	return FWD_BURST_SEND;
}
