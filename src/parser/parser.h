/*
 * parser.h — batsecd's sandboxed parser process (`batsecd -P`).
 *
 * The forwarder starts it by fork + execve of its own binary as
 *	batsecd -P [-d] -u USER -r CHROOT
 * with the channel (a SOCK_SEQPACKET socket) on fd 3, /dev/null on fds
 * 0-2 and no other descriptor.  USER and CHROOT are not secret and come
 * on the command line, so the parser drops its privileges before it
 * reads a single byte from the channel:
 *
 *	check fd 3, sodium_init, sandbox_parser_enter(USER, CHROOT),
 *	sandbox_parser_seccomp, then the loop.
 *
 * The loop waits on the channel only.  The first message must be CONFIG;
 * then policy snapshots, IFACE changes and FRAMEs are fed to the parser
 * core (pcore.h), whose LOG and STATS messages go back.  The parser has
 * no stdio: it logs through the channel.  It exits when the forwarder
 * closes the channel, and with status 1 when the forwarder sends
 * something it must not (a bug there; it will be restarted).
 */
#ifndef BATSEC_PARSER_H
#define BATSEC_PARSER_H

#include <stddef.h>

#define PARSER_CHAN_FD		3
/* Bytes the parser may queue towards the forwarder. */
#define PARSER_QUEUE_MAX	(1u << 20)
/* Channel messages handled between two looks at the clock. */
#define PARSER_MSGS_PER_WAKE	64

struct parser_args {
	int debug;			/* -d: seccomp traps and reports */
	const char *user;		/* -u */
	const char *chroot_dir;		/* -r */
};

/*
 * Strict: exactly "-P", optionally "-d", "-u USER", "-r CHROOT" in that
 * order; USER and CHROOT follow batsec.conf(5)'s rules.  0, or -1 with err.
 */
int	parser_parse_args(int argc, char **argv, struct parser_args *pa,
	    char *err, size_t errlen);

/* batsecd -P: never returns. */
void	parser_main(int argc, char **argv) __attribute__((noreturn));

#endif /* BATSEC_PARSER_H */
