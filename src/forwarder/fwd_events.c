/*
 * fwd_events.c — the event ring of `batsec-ctl event` (fwd_events.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fwd_events.h"

static const char *const fwd_event_kinds[FWD_EV_KINDS] = {
	[FWD_EV_ROUTE] = "route",
	[FWD_EV_NEIGH] = "neighbour",
	[FWD_EV_GATEWAY] = "gateway",
	[FWD_EV_TRUST] = "trust",
	[FWD_EV_SETTING] = "setting",
	[FWD_EV_CLIENT] = "client",
};

const char *
fwd_event_kind_name(unsigned kind)
{
	return kind < FWD_EV_KINDS ? fwd_event_kinds[kind] : "?";
}

void
fwd_events_init(struct fwd_events *e)
{
	memset(e, 0, sizeof(*e));
}

static void
fwd_event_clean(char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f)
			*s = '?';
}

void
fwd_events_add(struct fwd_events *e, uint64_t now_ms,
    enum fwd_event_kind kind, const char *action, const uint8_t *addr,
    const char *fmt, ...)
{
	struct fwd_event *ev;
	va_list ap;

	e->last++;
	ev = &e->ring[e->last % FWD_EVENTS_RING];
	memset(ev, 0, sizeof(*ev));
	ev->seq = e->last;
	ev->time_ms = now_ms;
	ev->kind = (uint8_t)kind;
	if (addr != NULL) {
		ev->has_addr = 1;
		memcpy(ev->addr, addr, sizeof(ev->addr));
	}
	(void)snprintf(ev->action, sizeof(ev->action), "%s", action);
	va_start(ap, fmt);
	(void)vsnprintf(ev->detail, sizeof(ev->detail), fmt, ap);
	va_end(ap);
	fwd_event_clean(ev->action);
	fwd_event_clean(ev->detail);
}

void
fwd_events_note(struct fwd_events *e, enum fwd_event_kind kind,
    const char *action, const uint8_t *addr, const char *fmt, ...)
{
	char detail[FWD_EVENT_DETAIL_MAX + 1];
	struct timespec ts;
	va_list ap;

	(void)clock_gettime(CLOCK_REALTIME, &ts);
	va_start(ap, fmt);
	(void)vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	fwd_events_add(e, (uint64_t)ts.tv_sec * 1000 +
	    (uint64_t)ts.tv_nsec / 1000000, kind, action, addr, "%s", detail);
}

size_t
fwd_events_since(const struct fwd_events *e, uint64_t cursor,
    const struct fwd_event **out, size_t max, uint64_t *lost)
{
	uint64_t first, s;
	size_t n = 0;

	*lost = 0;
	if (cursor > e->last)
		cursor = 0;
	/* The oldest event still in the ring. */
	first = e->last >= FWD_EVENTS_RING ? e->last - FWD_EVENTS_RING + 1 : 1;
	if (cursor + 1 < first) {
		*lost = first - cursor - 1;
		cursor = first - 1;
	}
	for (s = cursor + 1; s <= e->last && n < max; s++)
		out[n++] = &e->ring[s % FWD_EVENTS_RING];
	return n;
}
