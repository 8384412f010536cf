/*
 * fwd_events.h — the event ring behind `batsec-ctl event`: route,
 * neighbour, gateway, trust and settings changes, numbered from 1 in the
 * order they happened, the last FWD_EVENTS_RING kept.
 *
 * There are no subscribers: a client holds a cursor (the number of the
 * last event it saw) and asks for what came after it (the "events"
 * command, polled); one that asks too late for events already overwritten
 * is told how many it lost.  So no client, however slow, holds the daemon
 * up or costs it memory.
 */
#ifndef BATSEC_FWD_EVENTS_H
#define BATSEC_FWD_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#define FWD_EVENTS_RING		256	/* events kept */
#define FWD_EVENT_DETAIL_MAX	95	/* bytes of detail, without NUL */
#define FWD_EVENTS_BATCH	64	/* events per reply */

enum fwd_event_kind {
	FWD_EV_ROUTE = 0,
	FWD_EV_NEIGH,
	FWD_EV_GATEWAY,
	FWD_EV_TRUST,
	FWD_EV_SETTING,
	FWD_EV_CLIENT,
	FWD_EV_KINDS
};

struct fwd_event {
	uint64_t seq;			/* 1, 2, ...; 0: empty slot */
	uint64_t time_ms;		/* log_now_ms() when it happened */
	uint8_t kind;			/* enum fwd_event_kind */
	uint8_t has_addr;
	uint8_t addr[6];		/* the originator, neighbour, ... */
	char action[16];		/* "add", "up", "block", "set", ... */
	char detail[FWD_EVENT_DETAIL_MAX + 1];
};

struct fwd_events {
	struct fwd_event ring[FWD_EVENTS_RING];
	uint64_t last;			/* seq of the newest, 0: none */
};

void	fwd_events_init(struct fwd_events *e);
/*
 * Record an event; addr may be NULL.  action is cut to 15 bytes, the
 * detail (printf-style) to FWD_EVENT_DETAIL_MAX; control characters
 * become '?'.
 */
void	fwd_events_add(struct fwd_events *e, uint64_t now_ms,
	    enum fwd_event_kind kind, const char *action,
	    const uint8_t *addr, const char *fmt, ...)
	    __attribute__((format(printf, 6, 7)));
/* fwd_events_add stamped with the wall clock (CLOCK_REALTIME, in ms). */
void	fwd_events_note(struct fwd_events *e, enum fwd_event_kind kind,
	    const char *action, const uint8_t *addr, const char *fmt, ...)
	    __attribute__((format(printf, 5, 6)));
/*
 * Events after cursor, oldest first, at most max of them into out (as
 * pointers into the ring, valid until the next add).  *lost gets the
 * number of events after cursor that were overwritten before this call
 * (0 when none).  A cursor beyond the newest event (a daemon restarted
 * under a client) counts as 0.  Returns the number stored.
 */
size_t	fwd_events_since(const struct fwd_events *e, uint64_t cursor,
	    const struct fwd_event **out, size_t max, uint64_t *lost);
/* "route", "neighbour", "gateway", "trust", "setting", "client"; "?"
 * otherwise. */
const char *fwd_event_kind_name(unsigned kind);

#endif /* BATSEC_FWD_EVENTS_H */
