/*
 * sandbox.h — privilege drop, capabilities and seccomp filters of the two
 * batsecd processes.
 *
 * Forwarder (batsecd), after it opened what it needs at start-up:
 *	sandbox_chroot_prepare(conf.chroot_dir, err, sizeof err);
 *	sandbox_forwarder_caps(err, sizeof err);
 *	... sodium_init, load keys, open TAP / AF_PACKET / netlink / control
 *	exe = sandbox_exe_open(NULL, err, sizeof err);	(before the filter)
 *	sandbox_forwarder_seccomp(exe);
 *	... fork + sandbox_exe_exec(exe, "batsecd -P", channel on fd 3)
 *	    for each parser
 *
 * Parser (batsecd -P), still uid 0 with the few capabilities it inherited:
 *	r = sandbox_parser_enter(conf.user, conf.chroot_dir, err, sizeof err);
 *	(r < 0: fatal; r == 1: err holds a warning to log over the channel)
 *	... bs_crypto_init, ipc_init(fd 3), allocate tables
 *	sandbox_parser_seccomp();
 *	... main loop: only the channel, memory, clocks and randomness
 *
 * How the capabilities flow (the reason for the permitted-only ones):
 * the forwarder stays uid 0 and keeps CAP_NET_ADMIN and CAP_NET_RAW
 * effective for TAP, netlink and raw sockets.  CAP_SETUID, CAP_SETGID,
 * CAP_SYS_CHROOT and CAP_SETPCAP stay in its permitted set only: it never
 * uses them itself, but a parser it starts is a fork + exec by uid 0,
 * and exec gives uid 0 a permitted (and effective) set equal to the
 * bounding set, limited by no_new_privs to what the forwarder still
 * permits.  So the parser starts with exactly those seven capabilities,
 * which is what it needs to chroot, switch to the batsec user and drop
 * its bounding set (CAP_SETPCAP), and it then ends with none.  CAP_KILL
 * is permitted-only too, raised by sandbox_kill() just for the kill(2) of
 * a parser that broke the IPC contract: the parser runs as another user,
 * so uid 0 without CAP_KILL gets EPERM.  Every other
 * capability is gone from the forwarder's bounding set, so no exec can
 * ever bring it back: CAP_BPF and CAP_PERFMON (the systemd unit grants
 * them) serve only to load the in-kernel relay before this drop.
 *
 * Seccomp filters are inherited across fork and exec and stack: the
 * parser runs under the forwarder's filter and its own.  So the forwarder's
 * allow-list must also cover the parser's start-up (the dynamic loader,
 * getpwnam, chroot, setres[ug]id, capset, prctl, setrlimit, seccomp),
 * and the parser's own list decides what it may do afterwards.
 */
#ifndef BATSEC_SANDBOX_H
#define BATSEC_SANDBOX_H

#include <linux/capability.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define SANDBOX_CAP(c)		(UINT64_C(1) << (c))
/* What the forwarder keeps, exactly (sandbox_forwarder_caps). */
#define SANDBOX_FWD_EFFECTIVE	(SANDBOX_CAP(CAP_NET_ADMIN) | \
    SANDBOX_CAP(CAP_NET_RAW))
#define SANDBOX_FWD_PERMITTED	(SANDBOX_FWD_EFFECTIVE | \
    SANDBOX_CAP(CAP_SETUID) | SANDBOX_CAP(CAP_SETGID) | \
    SANDBOX_CAP(CAP_SYS_CHROOT) | SANDBOX_CAP(CAP_SETPCAP) | \
    SANDBOX_CAP(CAP_KILL))

/* The parser's address-space limit (not applied under AddressSanitizer). */
#define SANDBOX_PARSER_AS_MAX	(256u << 20)
/* Exit status after a blocked system call in debug mode (128 + SIGSYS). */
#define SANDBOX_SIGSYS_EXIT	159

/* Capability sets of the calling process, as bit masks. */
struct sandbox_caps {
	uint64_t eff, prm, inh;	/* capget(2) */
	uint64_t bnd;		/* PR_CAPBSET_READ */
	uint64_t amb;		/* PR_CAP_AMBIENT_IS_SET */
};

/* 0, or -1 with errno. */
int sandbox_caps_read(struct sandbox_caps *c);

/*
 * Debug mode (batsecd -d): filters loaded afterwards trap a blocked system
 * call instead of killing, and a SIGSYS handler writes
 *	"batsecd[PID]: seccomp: system call NR is not allowed ..."
 * to stderr with write(2) and _exits with SANDBOX_SIGSYS_EXIT, so a new
 * libc that needs a new system call is easy to diagnose.
 */
void sandbox_set_debug(int on);

/*
 * The parser's chroot directory must be an absolute path to an empty
 * directory owned by root and not writable by group or others, and every
 * directory above it must be root-owned and not writable by group or
 * others unless sticky (like /tmp), so nobody but root can replace it.
 * sandbox_chroot_check verifies that; sandbox_chroot_prepare first creates
 * the directory (root:root 0755) when it is missing.  0, or -1 with err.
 */
int sandbox_chroot_check(const char *dir, char *err, size_t errlen);
int sandbox_chroot_prepare(const char *dir, char *err, size_t errlen);

/*
 * Enter the parser's sandbox; the caller must be euid 0 (the exec'd
 * parser, or a forked child of the forwarder).  In order: raise the
 * permitted capabilities to effective; resolve `user` with getpwnam (a
 * missing user falls back to "nobody"; uid or gid 0 is refused); check
 * chroot_dir; drop the whole bounding set, clear the ambient set and lock
 * the securebits; chroot + chdir("/"); setgroups to the user's one group,
 * setresgid, setresuid; verify that setuid(0) and setgid(0) fail; clear all
 * capability sets and verify they are empty; PR_SET_NO_NEW_PRIVS;
 * PR_SET_DUMPABLE 0; rlimits NOFILE = highest open fd + 1, NPROC 0,
 * FSIZE 0, CORE 0, AS SANDBOX_PARSER_AS_MAX (AS and FSIZE are left alone
 * under AddressSanitizer, which maps terabytes of shadow memory and must
 * be able to write its report to a log file).
 * Returns 0; 1 when it fell back to "nobody" (err then holds the warning
 * to log); -1 with err on any failure (the caller must exit).
 */
int sandbox_parser_enter(const char *user, const char *chroot_dir, char *err,
    size_t errlen);

/*
 * The forwarder, at the start: -1 with err when the user the parser will
 * run as (user, or "nobody" when user does not exist, as
 * sandbox_parser_enter() picks it) has group (the control socket's) as
 * its primary group or is listed as a member of it in /etc/group (NSS
 * when that file cannot be read): a parser that escaped its sandbox would
 * then reach the control socket.  0 when not, or when group is NULL, ""
 * or does not exist.
 */
int sandbox_parser_user_check(const char *user, const char *group,
    char *err, size_t errlen);

/*
 * Load the parser's seccomp filter (default: kill the process).  Call it
 * after every allocation and set-up is done.  0, or -1 with errno.
 */
int sandbox_parser_seccomp(void);

/*
 * Forwarder, as euid 0: keep exactly SANDBOX_FWD_EFFECTIVE effective and
 * SANDBOX_FWD_PERMITTED permitted (and bounding), nothing inheritable or
 * ambient.  Not root: nothing to do, returns 0.  -1 with err when a needed
 * capability is missing or a step fails.  Raw capget/capset and prctl.
 */
int sandbox_forwarder_caps(char *err, size_t errlen);
/*
 * kill(2) with CAP_KILL raised to effective for the call when it is
 * permitted (the forwarder's), and lowered again; errno is kill's.
 */
int sandbox_kill(pid_t pid, int sig);

/*
 * The parser is started from a descriptor of the binary, not by path:
 * sandbox_exe_open() opens path (NULL: /proc/self/exe, our own binary)
 * O_PATH | O_CLOEXEC, at a descriptor of at least SANDBOX_EXE_FD_MIN so
 * a child's fds 0-3 never clobber it, before the forwarder's filter is
 * loaded; the descriptor, or -1 with err.  It keeps the file that was
 * started, also when a package upgrade replaces the path.
 * sandbox_exe_exec() is execveat(exe_fd, "", argv, envp, AT_EMPTY_PATH)
 * (close-on-exec, so the parser does not inherit it); it returns only on
 * failure, -1 with errno.
 */
#define SANDBOX_EXE_FD_MIN	4
int sandbox_exe_open(const char *path, char *err, size_t errlen);
int sandbox_exe_exec(int exe_fd, char *const argv[], char *const envp[]);

/*
 * Load the forwarder's seccomp filter.  Its only exec is
 * sandbox_exe_exec(exe_fd, ...) exactly (the descriptor, the path
 * argument's address, the flags); no execve, no other execveat.
 * exe_fd < 0: no exec at all.  0, or -1 with errno.
 */
int sandbox_forwarder_seccomp(int exe_fd);

/*
 * The parser's or the forwarder's filter as it would be built for arch,
 * a libseccomp architecture token (SCMP_ARCH_X86_64, SCMP_ARCH_MIPSEL,
 * SCMP_ARCH_ARM, SCMP_ARCH_AARCH64, ...; the same values as the kernel's
 * AUDIT_ARCH_*), written to fd: the BPF program that seccomp(2) would get
 * when bpf, else libseccomp's readable pseudo filter code.  Default
 * action: kill the process (batsecd -d's trap is not exported).  exe_fd
 * as for sandbox_forwarder_seccomp (ignored for the parser).  Loads
 * nothing.  0, or -1 with errno (EINVAL: an architecture libseccomp does
 * not know, or a rule's system call it does not know).
 */
enum sandbox_filter { SANDBOX_FILTER_PARSER, SANDBOX_FILTER_FORWARDER };
int sandbox_seccomp_export(uint32_t arch, enum sandbox_filter which,
    int exe_fd, int bpf, int fd);

#endif /* BATSEC_SANDBOX_H */
