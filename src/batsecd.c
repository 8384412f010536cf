/*
 * batsecd.c — main(): `batsecd -P ...` runs the sandboxed parser
 * (parser.c), anything else the privileged forwarder (forwarder.c).
 * See batsecd(8).
 */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
/*
 * Fuzzing builds weaken checks for coverage; a daemon built that way
 * must never exist.  Harnesses link the libraries, never this file.
 */
#error "batsecd must not be built with FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
#endif

#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "common/config.h"
#include "forwarder/forwarder.h"
#include "parser/parser.h"
#include "common/version.h"

int
main(int argc, char **argv)
{
	struct bs_args args;
	char err[512];

	/*
	 * A fixed mmap threshold (glibc's default size).  Left dynamic,
	 * glibc raises it to the size of every large block freed (a policy
	 * read, a resized signature cache), and the tables allocated after
	 * that come from the brk heap, where freeing them seldom gives the
	 * memory back.  Both roles start here; the parser is exec'ed.
	 */
#ifdef __GLIBC__	/* musl has no mallopt and no brk heap to pin */
	(void)mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif

	/* The parser role has its own, stricter command line (parser.h). */
	if (argc >= 2 && argv[1] != NULL && strcmp(argv[1], "-P") == 0)
		parser_main(argc, argv);
	if (config_parse_args(argc, argv, &args, err, sizeof(err)) != 0) {
		fprintf(stderr, "batsecd: %s; usage: batsecd %s\n", err,
		    config_usage());
		return 1;
	}
	if (args.version) {
		printf("batsecd %s\n", BATSEC_VERSION);
		return 0;
	}
	return forwarder_main(&args);
}
