/*
 * fp_noseccomp.c — bench/footprint only: an LD_PRELOAD library that makes
 * libseccomp's seccomp_load() succeed without loading the filter, so the
 * forwarder can run under valgrind (valgrind 3.19 does not implement the
 * seccomp system call, and the forwarder stops when its filter does not
 * load).  seccomp_attr_set() succeeds too: without that system call
 * libseccomp refuses the KILL_PROCESS action for bad architectures.  The filter costs no user-space instructions once loaded, so the
 * counts do not change.  The parser is exec'd with an empty environment:
 * it never sees this library and loads its own filter as usual.
 * Never install or use this outside the benchmark.
 */
#include <seccomp.h>
#include <stdio.h>

int
seccomp_load(const scmp_filter_ctx ctx)
{
	(void)ctx;
	fputs("fp_noseccomp: seccomp filter NOT loaded (footprint bench)\n",
	    stderr);
	return 0;
}

int
seccomp_attr_set(scmp_filter_ctx ctx, enum scmp_filter_attr attr,
    uint32_t value)
{
	(void)ctx;
	(void)attr;
	(void)value;
	return 0;
}
