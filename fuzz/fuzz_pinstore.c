/*
 * fuzz_pinstore.c — the TOFU pin store of the state directory
 * (STATE_DIR/pins, src/forwarder/fwd_pins.c): the input is the file's bytes, read
 * with fwd_pins_parse() as fwd_pins_start() reads them.
 *
 * batsecd writes the file itself (one base64 key a line), but reads it
 * back after a crash, a full disk or an admin's editor, and every key it
 * keeps goes to the parser as IPC_PINS, whose checks refuse the whole
 * message for one bad key, so it is parsed like any other outside input.
 *
 * Oracles (abort): at most FWD_PINS_MAX keys are kept, one per mesh
 * address, none all zero, each a line of the input in base64; the kept
 * keys fit IPC_PINS messages that the parser's checks accept; parsing
 * the same bytes again keeps nothing new.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "forwarder/fwd_pins.h"
#include "forwarder/fwd_types.h"
#include "proto/ipc.h"
#include "common/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_PATH	"/var/lib/batsec/pins"

static struct fwd_pins fuzz_pins;	/* a forwarder's f->pins */

static void
fz_check(int cond)
{
	if (!cond)
		abort();
}

/* The key's base64 begins one of the input's lines, alone or followed
 * by a space (its time of last use). */
static int
fuzz_in_input(const uint8_t pk[static BS_PK_LEN], const char *in, size_t len)
{
	char b64[BS_KEY_B64_LEN + 1];
	size_t pos = 0, end;

	bs_key_to_b64(b64, pk);
	while (pos < len) {
		end = pos;
		while (end < len && in[end] != '\n')
			end++;
		if ((end - pos == BS_KEY_B64_LEN || (end - pos >
		    BS_KEY_B64_LEN && in[pos + BS_KEY_B64_LEN] == ' ')) &&
		    memcmp(in + pos, b64, BS_KEY_B64_LEN) == 0)
			return 1;
		pos = end + 1;
	}
	return 0;
}

/* The keys in IPC_PINS messages of IPC_PINS_MAX, as fwd_pins_push sends
 * them, pass the parser-side checks. */
static void
fuzz_check_messages(size_t n)
{
	static struct ipc_pins m;
	static uint8_t buf[IPC_MAX_MSG];
	static struct ipc_msg msg;
	size_t i = 0, k, len;

	while (i < n) {
		memset(&m, 0, sizeof(m));
		for (k = 0; k < IPC_PINS_MAX && i < n; k++, i++)
			memcpy(m.pk[k], fwd_pins_key(&fuzz_pins, i), BS_PK_LEN);
		m.count = (uint16_t)k;
		fz_check(ipc_encode(buf, sizeof(buf), IPC_PINS, &m, sizeof(m),
		    &len, NULL, 0) == 0);
		fz_check(ipc_msg_parse(&msg, buf, len, IPC_ROLE_PARSER, NULL,
		    0) == 0);
	}
}

static void
fuzz_check_kept(const char *in, size_t len)
{
	uint8_t a[BS_ADDR_LEN], b[BS_ADDR_LEN];
	size_t n = fwd_pins_count(&fuzz_pins), i, j;

	fz_check(n <= FWD_PINS_MAX);
	fz_check(fwd_pins_key(&fuzz_pins, n) == NULL);
	for (i = 0; i < n; i++) {
		fz_check(fwd_pins_key(&fuzz_pins, i) != NULL);
		fz_check(!sodium_is_zero(fwd_pins_key(&fuzz_pins, i),
		    BS_PK_LEN));
		fz_check(fuzz_in_input(fwd_pins_key(&fuzz_pins, i), in, len));
		bs_mesh_addr(a, fwd_pins_key(&fuzz_pins, i));
		for (j = 0; j < i; j++) {
			bs_mesh_addr(b, fwd_pins_key(&fuzz_pins, j));
			fz_check(memcmp(a, b, BS_ADDR_LEN) != 0);
		}
	}
	fuzz_check_messages(n);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int inited;
	const char *in = (const char *)data;
	size_t n;

	if (!inited) {
		if (bs_crypto_init() != 0)
			abort();
		log_init(LOG_DEST_STDERR, LOG_ERR, "fuzz_pinstore");
		inited = 1;
	}
	if (size > FWD_PINS_FILE_MAX)
		return 0;	/* fwd_pins_start() refuses larger files */
	fwd_pins_parse(&fuzz_pins, FUZZ_PATH, in, size);
	fuzz_check_kept(in, size);
	n = fwd_pins_count(&fuzz_pins);
	fwd_pins_parse(&fuzz_pins, FUZZ_PATH, in, size);
	fz_check(fwd_pins_count(&fuzz_pins) == n);
	/* Reading schedules no write. */
	fz_check(fwd_pins_due(&fuzz_pins) == 0);
	fwd_pins_forget(&fuzz_pins);
	fz_check(fwd_pins_count(&fuzz_pins) == 0);
	return 0;
}
