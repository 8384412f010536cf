/*
 * fuzz_fastpath.c — the in-kernel relay's eBPF program (src/netio/fastpath.c):
 * the input is a mode byte and one Ethernet frame as a mesh interface
 * receives it, run through the program the kernel verified with
 * BPF_PROG_TEST_RUN, over the tables of tests/lib/t_fastpath.h.  Mode
 * bit 0: the frame's keyid is set to the neighbour's; bit 1: its hop tag
 * is computed afresh with the neighbour's key (as the neighbour would
 * send it), so mutations get past the tag check and reach the window,
 * the route and the rewrite.  Needs root (CAP_BPF); the first
 * input moves the process into a network namespace of its own.
 *
 * The verifier already proves the program memory-safe; this target
 * checks what it decides.  Oracle (abort): t_fpm_judge() — a reference
 * of DP2.md's relay over libsodium's SipHash with replay windows of its
 * own, kept across inputs as the program's maps are: what the program
 * relays the reference relays the same way (a fresh counter of a relay
 * lane, the next link's tag); what the reference relays the program
 * relays; verified replays are dropped; any other frame leaves the
 * program unchanged.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netio/fastpath.h"
#include "lib/t_fastpath.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct fastpath fz_fp;

static void
fz_open(void)
{
	static int done;
	char err[256];

	if (done)
		return;
	done = 1;
	if (unshare(CLONE_NEWNET) != 0)
		fprintf(stderr, "fuzz_fastpath: unshare: %s (running in this "
		    "namespace)\n", strerror(errno));
	if (t_fpm_open(&fz_fp, err, sizeof(err)) != 0) {
		fprintf(stderr, "fuzz_fastpath: %s (run as root on Linux 6.6 "
		    "or newer)\n", err);
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t out[T_FPM_FRAME_MAX], frame[T_FPM_FRAME_MAX];
	const char *why;
	int verdict;
	uint8_t mode;

	/* The program runs on frames of at least an Ethernet header. */
	if (size < 1 + 14 || size > 1 + T_FPM_FRAME_MAX)
		return 0;
	mode = data[0];
	size--;
	memcpy(frame, data + 1, size);
	data = frame;
	if ((mode & 1) && size >= 22)
		memcpy(frame + 18, t_fpm_in_hop.keyid, 4);
	if (mode & 2)
		t_fpm_retag(frame, size, t_fpm_in_hop.key);
	fz_open();
	memset(out, 0, sizeof(out));
	if (fastpath_test_run(&fz_fp, data, size, out, sizeof(out),
	    &verdict) != 0) {
		/* The kernel builds no test packet of an IPv4 or IPv6
		 * ethertype with less than an IP header after it. */
		if (errno == EINVAL)
			return 0;
		fprintf(stderr, "fuzz_fastpath: test run: %s\n",
		    strerror(errno));
		abort();
	}
	if ((why = t_fpm_judge(data, size, verdict, out)) != NULL) {
		fprintf(stderr, "fuzz_fastpath: %s\n", why);
		abort();
	}
	return 0;
}
