/*
 * fwd_pins.h — the forwarder's copy of the parser's TOFU pins (mode open,
 * batsec-policy(5)), kept in the state directory so that they outlive
 * the parser and the daemon.
 *
 * The parser decides: a stranger key that held a route for `limit
 * pin-after` seconds pins its mesh address (pcore_trust.h) and it sends
 * the key up (IPC_PIN).  The forwarder stores the key (at most
 * FWD_PINS_MAX, first come first kept, one per address) with the time of
 * its last use (Unix seconds: when it was pinned, and each time the
 * parser sends a pinned key again, about hourly while the key holds a
 * route), writes STATE_DIR/pins (a line "BASE64KEY SECONDS" per pin,
 * atomically; a line of a key alone, as older versions wrote, counts as
 * used at start) a few seconds after a change and when it stops, and
 * hands every new parser the keys kept so far (IPC_PINS) right after its
 * policy.  Without this a crashed, killed or restarted parser would
 * forget its pins, and a key colliding with a pinned address could take
 * it over.  At start and hourly, pins not used for `limit pin-max-age`
 * days are forgotten (none while the clock reads before 2024, and a last
 * use in the future counts as now).
 *
 * The module's state is struct fwd_pins (fwd_types.h), f->pins; what
 * needs only the pins takes that, what needs the forwarder (the state
 * directory, the channel) takes the forwarder.
 */
#ifndef BATSEC_FWD_PINS_H
#define BATSEC_FWD_PINS_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"

struct fwd;
struct fwd_pins;
union ipc_payload;

#define FWD_PINS_MAX		4096	/* as PCORE_PIN_MAX */
#define FWD_PINS_FILE		"pins"
/* "KEY SECONDS\n": a key, a space, up to 20 digits. */
#define FWD_PINS_LINE_MAX	(BS_KEY_B64_LEN + 1 + 20 + 1)
#define FWD_PINS_FILE_MAX	((size_t)FWD_PINS_MAX * FWD_PINS_LINE_MAX)
/* A pin's use (the parser's IPC_PIN again) is written within this. */
#define FWD_PINS_TOUCH_SAVE_MS	3600000
/* Pins unused for `limit pin-max-age` days are looked for this often. */
#define FWD_PINS_AGE_MS		3600000
/* A clock before 2024-01-01 is no clock: no last use, no aging. */
#define FWD_PINS_CLOCK_MIN	1704067200ULL
/* A change is written this long after it (pins come in bursts). */
#define FWD_PINS_SAVE_MS	5000
/* After a failed write, the next try. */
#define FWD_PINS_RETRY_MS	60000

/* Read STATE_DIR/pins (missing: no pins).  0, or -1 with err. */
int	fwd_pins_start(struct fwd *f, char *err, size_t errlen);
/* Write what changed, then forget everything (fwd_pins_forget). */
void	fwd_pins_stop(struct fwd *f);
/* Forget every key and any write due, writing nothing. */
void	fwd_pins_forget(struct fwd_pins *p);

/*
 * The keys of a pins file's len bytes in buf (path names it in warnings):
 * every line must be a base64 key (44 characters); any other line is
 * skipped with a warning naming path:line, as is a key whose address is
 * pinned already, and everything beyond FWD_PINS_MAX.  fwd_pins_start()
 * reads the file through it; the fuzz target pinstore calls it directly.
 */
void	fwd_pins_parse(struct fwd_pins *p, const char *path, const char *buf,
	    size_t len);
/* Keys kept, and the i-th one's BS_PK_LEN bytes (NULL past the end). */
size_t	fwd_pins_count(const struct fwd_pins *p);
const uint8_t *fwd_pins_key(const struct fwd_pins *p, size_t i);

/*
 * IPC_PIN from the parser (a channel handler, fwd_parser.h; arg a struct
 * fwd): keep the key (a key whose address is pinned already, or one
 * beyond FWD_PINS_MAX, is ignored; the first time the pins are full, a
 * warning says so) and schedule a write.  Always 0.
 */
int	fwd_pins_on_pin(void *arg, const union ipc_payload *u);
/* Queue every kept key to a new parser (IPC_PINS). */
void	fwd_pins_push(struct fwd *f);
/* Write the file when a change is due, forget pins unused for too long
 * (forwarder timers). */
void	fwd_pins_tick(struct fwd *f, uint64_t now_ms);
/*
 * Forget the pins not used for max_days days (by the real-time clock);
 * how many went (a write is then due).  fwd_pins_tick does it hourly.
 */
size_t	fwd_pins_age(struct fwd_pins *p, uint32_t max_days);
/* Tests: the real-time clock in Unix seconds (NULL: time()). */
typedef uint64_t fwd_pins_clock_fn(void);
void	fwd_pins_set_clock(fwd_pins_clock_fn *fn);
/* When fwd_pins_tick next has work, or 0. */
uint64_t fwd_pins_due(const struct fwd_pins *p);

#endif /* BATSEC_FWD_PINS_H */
