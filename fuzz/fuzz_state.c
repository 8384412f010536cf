/*
 * fuzz_state.c — the epoch file of the state directory (src/forwarder/state.c):
 * state_epoch_parse() on the file's bytes, then state_epoch_decide() on
 * what it accepted, in every epoch-seed mode, on tmpfs or not, at clock
 * values around its edges.
 *
 * The file is batsecd's own (mode 0600 in a 0700 directory), but it is
 * read back after a crash, a full disk or an admin's editor, and a wrong
 * epoch breaks the node's routing for everyone (peers drop OGMs of an
 * epoch older than the newest they saw), so it is parsed like any other
 * outside input.
 *
 * Oracles (abort): accepted text is canonical, exactly "%u\n" of the
 * value; a refusal is one line that names the file; the next epoch is
 * the stored one + 1 whatever the mode, clock and file system (LAST for
 * UINT32_MAX); without a stored one the clock when it lies in
 * [STATE_CLOCK_MIN, STATE_SEED_MAX] (not with none), else WAIT (clock),
 * REFUSED (auto on tmpfs) or 1 (auto elsewhere, none); *out is written
 * only when an epoch was chosen.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forwarder/state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_NAME	"/var/lib/batsec/epoch"

static void
fz_check(int cond)
{
	if (!cond)
		abort();
}

static void
fuzz_next(uint32_t old, int have_old, uint64_t now_s, int on_tmpfs,
    enum bs_epoch_seed mode)
{
	int plausible = now_s >= STATE_CLOCK_MIN && now_s <= STATE_SEED_MAX;
	enum state_epoch_how how;
	uint32_t out = 0;

	how = state_epoch_decide(mode, old, have_old, now_s, on_tmpfs, &out);
	if (have_old && old == UINT32_MAX)
		fz_check(how == STATE_EPOCH_LAST && out == 0);
	else if (have_old)
		fz_check(how == STATE_EPOCH_COUNTED && out == old + 1);
	else if (mode != BS_EPOCH_SEED_NONE && plausible)
		fz_check(how == STATE_EPOCH_CLOCK && out == now_s);
	else if (mode == BS_EPOCH_SEED_CLOCK)
		fz_check(how == STATE_EPOCH_WAIT && out == 0);
	else if (mode == BS_EPOCH_SEED_AUTO && on_tmpfs)
		fz_check(how == STATE_EPOCH_REFUSED && out == 0);
	else
		fz_check(how == STATE_EPOCH_FIRST && out == 1);
}

/* Every mode, on tmpfs and not. */
static void
fuzz_next_all(uint32_t old, int have_old, uint64_t now_s)
{
	static const enum bs_epoch_seed modes[] = { BS_EPOCH_SEED_AUTO,
	    BS_EPOCH_SEED_CLOCK, BS_EPOCH_SEED_NONE };
	size_t m;

	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		fuzz_next(old, have_old, now_s, 0, modes[m]);
		fuzz_next(old, have_old, now_s, 1, modes[m]);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t clocks[] = { 0, 1, STATE_CLOCK_MIN - 1,
	    STATE_CLOCK_MIN, STATE_CLOCK_MIN + 1, STATE_SEED_MAX,
	    STATE_SEED_MAX + 1, UINT32_MAX - 1, UINT32_MAX,
	    (uint64_t)UINT32_MAX + 1, UINT64_MAX };
	char err[256], canon[16];
	uint32_t v = 0;
	size_t i;
	int n;

	err[0] = '\0';
	if (state_epoch_parse((const char *)data, size, &v, FUZZ_NAME, err,
	    sizeof(err)) != 0) {
		fz_check(strncmp(err, FUZZ_NAME ": ", strlen(FUZZ_NAME) + 2) ==
		    0 && strchr(err, '\n') == NULL);
		return 0;
	}
	n = snprintf(canon, sizeof(canon), "%" PRIu32 "\n", v);
	fz_check(n > 0 && (size_t)n == size && memcmp(canon, data, size) == 0);
	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		fuzz_next_all(v, 1, clocks[i]);
		fuzz_next_all(v, 0, clocks[i]);
	}
	fuzz_next_all(v, 1, (uint64_t)v + 1);
	fuzz_next_all(v, 0, v);
	return 0;
}
