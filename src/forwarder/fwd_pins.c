/*
 * fwd_pins.c — TOFU pins kept by the forwarder (fwd_pins.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "common/log.h"
#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "forwarder.h"
#include "fwd_pins.h"
#include "fwd_trust.h"
#include "proto/ipc.h"
#include "common/pinset.h"

static struct {
	struct pinset set;
	uint64_t save_at_ms;		/* 0: nothing to write */
	int full_logged;		/* "full" said once */
} fwd_pins_st;

/* 1 added, 0 its address is pinned already, -1 full or out of memory. */
static int
fwd_pins_add(const uint8_t pk[static BS_PK_LEN])
{
	uint8_t addr[BS_ADDR_LEN];

	bs_mesh_addr(addr, pk);
	return pinset_add(&fwd_pins_st.set, addr, pk, FWD_PINS_MAX);
}

size_t
fwd_pins_count(void)
{
	return fwd_pins_st.set.n;
}

const uint8_t *
fwd_pins_key(size_t i)
{
	return i < fwd_pins_st.set.n ? fwd_pins_st.set.v[i].pk : NULL;
}

/* ---- the file ------------------------------------------------------------------ */

static void
fwd_pins_path(const struct fwd *f, char *path, size_t len)
{
	snprintf(path, len, "%s/" FWD_PINS_FILE, f->cfg.state_dir);
}

static void
fwd_pins_line(const void *arg, const char *path, size_t lineno,
    const char *s, size_t len)
{
	uint8_t pk[BS_PK_LEN];
	int r;

	(void)arg;
	if (bs_key_from_b64(pk, s, len) != 0 || sodium_is_zero(pk,
	    sizeof(pk))) {
		log_warnx("%s:%zu: not a base64 key; skipped", path, lineno);
		return;
	}
	if ((r = fwd_pins_add(pk)) == 0)
		log_warnx("%s:%zu: its mesh address is pinned already "
		    "(a repeated key, or a colliding one); skipped", path,
		    lineno);
	else if (r < 0)
		log_warnx("%s:%zu: more than %d pins, or out of memory; "
		    "skipped", path, lineno, FWD_PINS_MAX);
}

void
fwd_pins_parse(const char *path, const char *buf, size_t len)
{
	fwd_store_lines(path, buf, len, fwd_pins_line, NULL);
}

int
fwd_pins_start(const struct fwd *f, char *err, size_t errlen)
{
	char path[BS_CONF_PATH_MAX + sizeof(FWD_PINS_FILE) + 1];
	int r;

	fwd_pins_path(f, path, sizeof(path));
	if ((r = fwd_store_read(path, FWD_PINS_FILE_MAX, fwd_pins_line, NULL,
	    err, errlen)) > 0)
		log_info("%s: %zu TOFU pins", path, fwd_pins_st.set.n);
	return r < 0 ? -1 : 0;
}

/* Write every key, one base64 line each, atomically.  0 or -1. */
static int
fwd_pins_save(const struct fwd *f)
{
	char path[BS_CONF_PATH_MAX + sizeof(FWD_PINS_FILE) + 1];
	const size_t line = BS_KEY_B64_LEN + 1;
	char err[256], *buf;
	size_t i;
	int rc;

	if ((buf = malloc(fwd_pins_st.set.n * line + 1)) == NULL) {
		log_warnx("writing the TOFU pins: out of memory");
		return -1;
	}
	for (i = 0; i < fwd_pins_st.set.n; i++) {
		bs_key_to_b64(buf + i * line, fwd_pins_st.set.v[i].pk);
		buf[i * line + line - 1] = '\n';
	}
	fwd_pins_path(f, path, sizeof(path));
	if ((rc = bs_file_write_atomic(path, buf, fwd_pins_st.set.n * line, 0644,
	    err, sizeof(err))) != 0)
		log_warnx("writing the TOFU pins: %s", err);
	free(buf);
	return rc;
}

void
fwd_pins_tick(const struct fwd *f, uint64_t now_ms)
{
	if (fwd_pins_st.save_at_ms == 0 || now_ms < fwd_pins_st.save_at_ms)
		return;
	fwd_pins_st.save_at_ms = fwd_pins_save(f) == 0 ? 0 :
	    now_ms + FWD_PINS_RETRY_MS;
}

uint64_t
fwd_pins_due(void)
{
	return fwd_pins_st.save_at_ms;
}

void
fwd_pins_stop(const struct fwd *f)
{
	if (fwd_pins_st.save_at_ms != 0)
		(void)fwd_pins_save(f);
	fwd_pins_forget();
}

void
fwd_pins_forget(void)
{
	pinset_free(&fwd_pins_st.set);
	memset(&fwd_pins_st, 0, sizeof(fwd_pins_st));
}

/* ---- the parser ------------------------------------------------------------------ */

int
fwd_pins_on_pin(struct fwd *f, const struct ipc_msg *m)
{
	struct ipc_pin p;
	int r;

	if (ipc_get(m, IPC_PIN, &p, sizeof(p)) != 0)
		return -1;
	if ((r = fwd_pins_add(p.pk)) == 1 && fwd_pins_st.save_at_ms == 0)
		fwd_pins_st.save_at_ms = log_now_ms() + FWD_PINS_SAVE_MS;
	if (r < 0 && !fwd_pins_st.full_logged) {
		log_warnx("TOFU pins: %zu kept, no room for more: new mesh "
		    "addresses are no longer pinned (stop batsecd and remove "
		    "%s/" FWD_PINS_FILE " to start afresh)", fwd_pins_st.set.n,
		    f->cfg.state_dir);
		fwd_pins_st.full_logged = 1;
	}
	return 0;
}

void
fwd_pins_push(struct fwd *f)
{
	struct ipc_pins m;
	size_t i = 0, k;

	while (i < fwd_pins_st.set.n) {
		memset(&m, 0, sizeof(m));
		for (k = 0; k < IPC_PINS_MAX && i < fwd_pins_st.set.n; k++, i++)
			memcpy(m.pk[k], fwd_pins_st.set.v[i].pk, BS_PK_LEN);
		m.count = (uint16_t)k;
		if (ipc_send(&f->parser.ipc, IPC_PINS, &m, sizeof(m)) != 0) {
			log_warn("sending the TOFU pins to the parser");
			return;
		}
	}
}
