/*
 * fwd_pins.c — TOFU pins kept by the forwarder (fwd_pins.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "batsec_policy.h"
#include "common/log.h"
#include "common/pinset.h"
#include "fwd_parser.h"
#include "fwd_pins.h"
#include "fwd_types.h"
#include "proto/ipc.h"
#include "state.h"

/* ---- last use and aging (issue #20) ------------------------------------------ */

static fwd_pins_clock_fn *fwd_pins_clock;

void
fwd_pins_set_clock(fwd_pins_clock_fn *fn)
{
	fwd_pins_clock = fn;
}

/* Unix seconds, or 0 when the clock reads before FWD_PINS_CLOCK_MIN. */
static uint64_t
fwd_pins_now(void)
{
	uint64_t now;

	now = fwd_pins_clock != NULL ? fwd_pins_clock() : (uint64_t)time(NULL);
	return now >= FWD_PINS_CLOCK_MIN ? now : 0;
}

/* pk's pin (its address pinned to pk), or NULL. */
static struct pinset_entry *
fwd_pins_entry(struct fwd_pins *p, const uint8_t pk[static BS_PK_LEN])
{
	struct pinset_entry *e;
	uint8_t addr[BS_ADDR_LEN];

	bs_mesh_addr(addr, pk);
	e = pinset_get(&p->set, addr);
	return e != NULL && memcmp(e->pk, pk, BS_PK_LEN) == 0 ? e : NULL;
}

/*
 * The parser says pk's pin is in use (its key holds a route): its last
 * use is now, written within FWD_PINS_TOUCH_SAVE_MS (or sooner, with the
 * next new pin).
 */
static void
fwd_pins_used(struct fwd_pins *p, const uint8_t pk[static BS_PK_LEN])
{
	struct pinset_entry *e;
	uint64_t now = fwd_pins_now();

	if ((e = fwd_pins_entry(p, pk)) == NULL || now == 0 || e->seen >= now)
		return;
	e->seen = now;
	if (p->save_at_ms == 0)
		p->save_at_ms = log_now_ms() + FWD_PINS_TOUCH_SAVE_MS;
}

size_t
fwd_pins_age(struct fwd_pins *p, uint32_t max_days)
{
	uint64_t now = fwd_pins_now(), max = (uint64_t)max_days * 86400;
	size_t gone;

	if (now == 0 || now <= max ||
	    (gone = pinset_expire(&p->set, now - max)) == 0)
		return 0;
	log_info("TOFU pins: %zu not used for %u days, forgotten (%zu kept)",
	    gone, max_days, p->set.n);
	if (p->save_at_ms == 0 || p->save_at_ms > log_now_ms() +
	    FWD_PINS_SAVE_MS)
		p->save_at_ms = log_now_ms() + FWD_PINS_SAVE_MS;
	p->full_logged = 0;
	return gone;
}

/* `limit pin-max-age` of the effective policy. */
static uint32_t
fwd_pins_max_days(const struct fwd *f)
{
	struct bs_policy_limits l;

	if (f->policy != NULL)
		return f->policy->limits.pin_max_age;
	bs_policy_limits_default(&l);
	return l.pin_max_age;
}

/* Hourly (and at start): forget what was not used for too long. */
static void
fwd_pins_age_due(struct fwd *f, uint64_t now_ms)
{
	if (f->pins.aged_ms != 0 && now_ms >= f->pins.aged_ms &&
	    now_ms - f->pins.aged_ms < FWD_PINS_AGE_MS)
		return;
	f->pins.aged_ms = now_ms != 0 ? now_ms : 1;
	fwd_pins_age(&f->pins, fwd_pins_max_days(f));
}

/*
 * "KEY" or "KEY SECONDS": the key into pk, its last use into *seen (a
 * line without one, or with a bad one, counts as used now).  0, or -1
 * when the key is bad; *badtime when the time was.
 */
static int
fwd_pins_split(const char *s, size_t len, uint8_t pk[static BS_PK_LEN],
    uint64_t *seen, int *badtime)
{
	size_t klen = len, i;
	uint64_t v = 0;

	*seen = fwd_pins_now();
	*badtime = 0;
	if (len > BS_KEY_B64_LEN && s[BS_KEY_B64_LEN] == ' ')
		klen = BS_KEY_B64_LEN;
	if (bs_key_from_b64(pk, s, klen) != 0 || sodium_is_zero(pk, BS_PK_LEN))
		return -1;
	if (klen == len)
		return 0;
	for (i = klen + 1; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (UINT64_MAX - 9) / 10) {
			*badtime = 1;
			return 0;
		}
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (i == klen + 1) {
		*badtime = 1;
		return 0;
	}
	/* A last use in the future counts as now. */
	if (*seen == 0 || v < *seen)
		*seen = v;
	return 0;
}

/* 1 added, 0 its address is pinned already, -1 full or out of memory. */
static int
fwd_pins_add(struct fwd_pins *p, const uint8_t pk[static BS_PK_LEN])
{
	uint8_t addr[BS_ADDR_LEN];
	int r;

	bs_mesh_addr(addr, pk);
	if ((r = pinset_add(&p->set, addr, pk, FWD_PINS_MAX)) == 1)
		pinset_get(&p->set, addr)->seen = fwd_pins_now();
	return r;
}

size_t
fwd_pins_count(const struct fwd_pins *p)
{
	return p->set.n;
}

const uint8_t *
fwd_pins_key(const struct fwd_pins *p, size_t i)
{
	return i < p->set.n ? p->set.v[i].pk : NULL;
}

/* ---- the file ------------------------------------------------------------------ */

static void
fwd_pins_path(const struct fwd *f, char *path, size_t len)
{
	snprintf(path, len, "%s/" FWD_PINS_FILE, f->cfg.state_dir);
}

static void
fwd_pins_line(void *arg, const char *path, size_t lineno, const char *s,
    size_t len)
{
	uint8_t pk[BS_PK_LEN];
	uint64_t seen;
	int r, badtime;

	if (fwd_pins_split(s, len, pk, &seen, &badtime) != 0) {
		log_warnx("%s:%zu: not a base64 key; skipped", path, lineno);
		return;
	}
	if (badtime)
		log_warnx("%s:%zu: bad time of last use; taken as now", path,
		    lineno);
	if ((r = fwd_pins_add(arg, pk)) == 1)
		fwd_pins_entry(arg, pk)->seen = seen;
	else if (r == 0)
		log_warnx("%s:%zu: its mesh address is pinned already "
		    "(a repeated key, or a colliding one); skipped", path,
		    lineno);
	else if (r < 0)
		log_warnx("%s:%zu: more than %d pins, or out of memory; "
		    "skipped", path, lineno, FWD_PINS_MAX);
}

void
fwd_pins_parse(struct fwd_pins *p, const char *path, const char *buf,
    size_t len)
{
	state_lines(path, buf, len, fwd_pins_line, p);
}

int
fwd_pins_start(struct fwd *f, char *err, size_t errlen)
{
	char path[BS_CONF_PATH_MAX + sizeof(FWD_PINS_FILE) + 1];
	int r;

	fwd_pins_path(f, path, sizeof(path));
	if ((r = state_read_lines(path, FWD_PINS_FILE_MAX, fwd_pins_line,
	    &f->pins, err, errlen)) > 0)
		log_info("%s: %zu TOFU pins", path, f->pins.set.n);
	if (r >= 0)
		fwd_pins_age_due(f, log_now_ms());
	return r < 0 ? -1 : 0;
}

/* Write every key, one base64 line each, atomically.  0 or -1. */
static int
fwd_pins_save(const struct fwd *f)
{
	char path[BS_CONF_PATH_MAX + sizeof(FWD_PINS_FILE) + 1];
	const struct pinset *set = &f->pins.set;
	char err[256], *buf;
	size_t i, len = 0;
	int rc;

	if ((buf = malloc(set->n * FWD_PINS_LINE_MAX + 1)) == NULL) {
		log_warnx("writing the TOFU pins: out of memory");
		return -1;
	}
	/* "KEY SECONDS\n": the key and its last use (Unix time). */
	for (i = 0; i < set->n; i++) {
		bs_key_to_b64(buf + len, set->v[i].pk);
		len += BS_KEY_B64_LEN;
		len += (size_t)snprintf(buf + len, FWD_PINS_LINE_MAX -
		    BS_KEY_B64_LEN + 1, " %llu\n",
		    (unsigned long long)set->v[i].seen);
	}
	fwd_pins_path(f, path, sizeof(path));
	if ((rc = bs_file_write_atomic(path, buf, len, 0644, err,
	    sizeof(err))) != 0)
		log_warnx("writing the TOFU pins: %s", err);
	free(buf);
	return rc;
}

void
fwd_pins_tick(struct fwd *f, uint64_t now_ms)
{
	fwd_pins_age_due(f, now_ms);
	if (f->pins.save_at_ms == 0 || now_ms < f->pins.save_at_ms)
		return;
	f->pins.save_at_ms = fwd_pins_save(f) == 0 ? 0 :
	    now_ms + FWD_PINS_RETRY_MS;
}

uint64_t
fwd_pins_due(const struct fwd_pins *p)
{
	return p->save_at_ms;
}

void
fwd_pins_stop(struct fwd *f)
{
	if (f->pins.save_at_ms != 0)
		(void)fwd_pins_save(f);
	fwd_pins_forget(&f->pins);
}

void
fwd_pins_forget(struct fwd_pins *p)
{
	pinset_free(&p->set);
	memset(p, 0, sizeof(*p));
}

/* ---- the parser ------------------------------------------------------------------ */

int
fwd_pins_on_pin(void *arg, const union ipc_payload *u)
{
	struct fwd *f = arg;
	struct fwd_pins *p = &f->pins;
	int r;

	if ((r = fwd_pins_add(p, u->pin.pk)) == 1 && (p->save_at_ms == 0 ||
	    p->save_at_ms > log_now_ms() + FWD_PINS_SAVE_MS))
		p->save_at_ms = log_now_ms() + FWD_PINS_SAVE_MS;
	if (r == 0)
		fwd_pins_used(p, u->pin.pk);
	if (r < 0 && !p->full_logged) {
		log_warnx("TOFU pins: %zu kept, no room for more: new mesh "
		    "addresses are not pinned until pins unused for "
		    "pin-max-age days are forgotten (or stop batsecd and "
		    "remove %s/" FWD_PINS_FILE " to start afresh)", p->set.n,
		    f->cfg.state_dir);
		p->full_logged = 1;
	}
	return 0;
}

void
fwd_pins_push(struct fwd *f)
{
	const struct pinset *set = &f->pins.set;
	struct ipc_pins m;
	size_t i = 0, k;

	while (i < set->n) {
		memset(&m, 0, sizeof(m));
		for (k = 0; k < IPC_PINS_MAX && i < set->n; k++, i++)
			memcpy(m.pk[k], set->v[i].pk, BS_PK_LEN);
		m.count = (uint16_t)k;
		if (fwd_parser_send(&f->parser, IPC_PINS, &m,
		    sizeof(m)) != 0) {
			log_warn("sending the TOFU pins to the parser");
			return;
		}
	}
}
