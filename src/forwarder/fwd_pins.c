/*
 * fwd_pins.c — TOFU pins kept by the forwarder (fwd_pins.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "common/log.h"
#include "common/pinset.h"
#include "fwd_parser.h"
#include "fwd_pins.h"
#include "fwd_types.h"
#include "proto/ipc.h"
#include "state.h"

/* 1 added, 0 its address is pinned already, -1 full or out of memory. */
static int
fwd_pins_add(struct fwd_pins *p, const uint8_t pk[static BS_PK_LEN])
{
	uint8_t addr[BS_ADDR_LEN];

	bs_mesh_addr(addr, pk);
	return pinset_add(&p->set, addr, pk, FWD_PINS_MAX);
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
	int r;

	if (bs_key_from_b64(pk, s, len) != 0 || sodium_is_zero(pk,
	    sizeof(pk))) {
		log_warnx("%s:%zu: not a base64 key; skipped", path, lineno);
		return;
	}
	if ((r = fwd_pins_add(arg, pk)) == 0)
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
	return r < 0 ? -1 : 0;
}

/* Write every key, one base64 line each, atomically.  0 or -1. */
static int
fwd_pins_save(const struct fwd *f)
{
	char path[BS_CONF_PATH_MAX + sizeof(FWD_PINS_FILE) + 1];
	const struct pinset *set = &f->pins.set;
	const size_t line = BS_KEY_B64_LEN + 1;
	char err[256], *buf;
	size_t i;
	int rc;

	if ((buf = malloc(set->n * line + 1)) == NULL) {
		log_warnx("writing the TOFU pins: out of memory");
		return -1;
	}
	for (i = 0; i < set->n; i++) {
		bs_key_to_b64(buf + i * line, set->v[i].pk);
		buf[i * line + line - 1] = '\n';
	}
	fwd_pins_path(f, path, sizeof(path));
	if ((rc = bs_file_write_atomic(path, buf, set->n * line, 0644, err,
	    sizeof(err))) != 0)
		log_warnx("writing the TOFU pins: %s", err);
	free(buf);
	return rc;
}

void
fwd_pins_tick(struct fwd *f, uint64_t now_ms)
{
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

	if ((r = fwd_pins_add(p, u->pin.pk)) == 1 && p->save_at_ms == 0)
		p->save_at_ms = log_now_ms() + FWD_PINS_SAVE_MS;
	if (r < 0 && !p->full_logged) {
		log_warnx("TOFU pins: %zu kept, no room for more: new mesh "
		    "addresses are no longer pinned (stop batsecd and remove "
		    "%s/" FWD_PINS_FILE " to start afresh)", p->set.n,
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
