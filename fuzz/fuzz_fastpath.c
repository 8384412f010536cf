/*
 * fuzz_fastpath.c — the in-kernel relay's eBPF program (src/netio/fastpath.c):
 * the input is one Ethernet frame as a mesh interface receives it, run
 * through the program the kernel verified with BPF_PROG_TEST_RUN, over
 * the tables of tests/lib/t_fastpath.h.  Needs root (CAP_BPF); the first
 * input moves the process into a network namespace of its own.
 *
 * The verifier already proves the program memory-safe; this target
 * checks what it decides.  Oracle (abort): t_fpm_judge() — a frame the
 * program relays, batsecd's own relay would relay the same way, byte for
 * byte; one batsecd relays (without Ethernet padding) the program
 * relays; any other frame leaves the program unchanged.
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
	static uint8_t out[T_FPM_FRAME_MAX];
	const char *why;
	int verdict;

	/* The program runs on frames of at least an Ethernet header. */
	if (size < 14 || size > T_FPM_FRAME_MAX)
		return 0;
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
