/*
 * sandbox.c — capabilities, privilege drop and seccomp filters of the
 * forwarder and the parser.  The design is explained in sandbox.h.
 *
 * Capabilities are handled with the raw capget/capset system calls and
 * prctl(2), without libcap.  The seccomp policies are data: tables of
 * allowed system calls grouped by purpose, loaded with libseccomp.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/bpf.h>
#include <linux/if_tun.h>
#include <linux/securebits.h>
#include <pwd.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "log.h"
#include "sandbox.h"

/*
 * musl's headers define the large-file names as macros for the plain
 * functions (pread64 -> pread), which would turn SCMP_SYS(pread64) into
 * the name of another (or no) system call.  The rules below name system
 * calls, not functions.
 */
#undef pread64
#undef pwrite64
#undef prlimit64

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#define SB_ASAN	1
#else
#define SB_ASAN	0
#endif

static int sb_debug;

void
sandbox_set_debug(int on)
{
	sb_debug = on != 0;
}

/* ---- capabilities --------------------------------------------------------- */

/* The highest capability number this kernel knows (cached). */
static int
sb_cap_last(void)
{
	static int last = -1;
	int c;

	if (last < 0) {
		for (c = 0; c < 64; c++)
			if (prctl(PR_CAPBSET_READ, c, 0, 0, 0) < 0)
				break;
		last = c - 1;
	}
	return last;
}

static int
sb_capget(uint64_t *eff, uint64_t *prm, uint64_t *inh)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d) != 0)
		return -1;
	*eff = d[0].effective | (uint64_t)d[1].effective << 32;
	*prm = d[0].permitted | (uint64_t)d[1].permitted << 32;
	*inh = d[0].inheritable | (uint64_t)d[1].inheritable << 32;
	return 0;
}

static int
sb_capset(uint64_t eff, uint64_t prm, uint64_t inh)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	d[0].effective = (uint32_t)eff;
	d[1].effective = (uint32_t)(eff >> 32);
	d[0].permitted = (uint32_t)prm;
	d[1].permitted = (uint32_t)(prm >> 32);
	d[0].inheritable = (uint32_t)inh;
	d[1].inheritable = (uint32_t)(inh >> 32);
	return (int)syscall(SYS_capset, &h, d);
}

int
sandbox_caps_read(struct sandbox_caps *c)
{
	int cap, last = sb_cap_last();

	memset(c, 0, sizeof(*c));
	if (sb_capget(&c->eff, &c->prm, &c->inh) != 0)
		return -1;
	for (cap = 0; cap <= last; cap++) {
		if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1)
			c->bnd |= SANDBOX_CAP(cap);
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, cap, 0, 0) == 1)
			c->amb |= SANDBOX_CAP(cap);
	}
	return 0;
}

/* Drop every capability not in keep from the bounding set (CAP_SETPCAP). */
static int
sb_bounding_keep(uint64_t keep, char *err, size_t errlen)
{
	int cap, last = sb_cap_last();

	for (cap = 0; cap <= last; cap++) {
		if ((keep & SANDBOX_CAP(cap)) ||
		    prctl(PR_CAPBSET_READ, cap, 0, 0, 0) != 1)
			continue;
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0)
			return log_errf(err, errlen, "sandbox: dropping capability "
			    "%d from the bounding set: %s", cap, strerror(errno));
	}
	return 0;
}

static int
sb_ambient_clear(char *err, size_t errlen)
{
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0)
		return log_errf(err, errlen, "sandbox: clearing the ambient "
		    "capabilities: %s", strerror(errno));
	return 0;
}

/* The first capability of want that have lacks, or -1. */
static int
sb_cap_missing(uint64_t have, uint64_t want)
{
	int cap;

	for (cap = 0; cap < 64; cap++)
		if ((want & SANDBOX_CAP(cap)) && !(have & SANDBOX_CAP(cap)))
			return cap;
	return -1;
}

int
sandbox_forwarder_caps(char *err, size_t errlen)
{
	struct sandbox_caps c;
	int miss;

	if (geteuid() != 0)
		return 0;
	if (sandbox_caps_read(&c) != 0)
		return log_errf(err, errlen, "sandbox: capget: %s",
		    strerror(errno));
	if ((miss = sb_cap_missing(c.prm & c.bnd, SANDBOX_FWD_PERMITTED)) >= 0)
		return log_errf(err, errlen, "sandbox: capability %d is not "
		    "permitted; batsecd needs CAP_NET_ADMIN, CAP_NET_RAW, "
		    "CAP_SETUID, CAP_SETGID, CAP_SYS_CHROOT, CAP_SETPCAP and "
		    "CAP_KILL", miss);
	if (sb_bounding_keep(SANDBOX_FWD_PERMITTED, err, errlen) != 0 ||
	    sb_ambient_clear(err, errlen) != 0)
		return -1;
	if (sb_capset(SANDBOX_FWD_EFFECTIVE, SANDBOX_FWD_PERMITTED, 0) != 0)
		return log_errf(err, errlen, "sandbox: capset: %s",
		    strerror(errno));
	if (sandbox_caps_read(&c) != 0 || c.eff != SANDBOX_FWD_EFFECTIVE ||
	    c.prm != SANDBOX_FWD_PERMITTED || c.inh != 0 ||
	    c.bnd != SANDBOX_FWD_PERMITTED || c.amb != 0)
		return log_errf(err, errlen, "sandbox: capability sets are not "
		    "what was set");
	return 0;
}

int
sandbox_kill(pid_t pid, int sig)
{
	const uint64_t k = SANDBOX_CAP(CAP_KILL);
	uint64_t eff, prm, inh;
	int r, saved, raised = 0;

	if (sb_capget(&eff, &prm, &inh) == 0 && (prm & k) && !(eff & k) &&
	    sb_capset(eff | k, prm, inh) == 0)
		raised = 1;
	r = kill(pid, sig);
	saved = errno;
	if (raised)
		(void)sb_capset(eff, prm, inh);
	errno = saved;
	return r;
}

/* ---- the chroot directory ------------------------------------------------- */

/* One directory of the chroot path: root-owned, not writable by others. */
static int
sb_dir_ok(const char *path, int top, char *err, size_t errlen)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return log_errf(err, errlen, "sandbox: chroot directory %s: %s",
		    path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return log_errf(err, errlen, "sandbox: chroot path %s is not a "
		    "directory", path);
	if (st.st_uid != 0)
		return log_errf(err, errlen, "sandbox: chroot path %s is owned by "
		    "uid %u, not root", path, (unsigned)st.st_uid);
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) &&
	    (top || !(st.st_mode & S_ISVTX)))
		return log_errf(err, errlen, "sandbox: chroot path %s is writable "
		    "by group or others (mode %04o)", path,
		    (unsigned)(st.st_mode & 07777));
	return 0;
}

static int
sb_dir_empty(const char *path, char *err, size_t errlen)
{
	struct dirent *e;
	DIR *d;
	int found = 0;

	if ((d = opendir(path)) == NULL)
		return log_errf(err, errlen, "sandbox: chroot directory %s: %s",
		    path, strerror(errno));
	while (!found && (e = readdir(d)) != NULL)
		found = strcmp(e->d_name, ".") != 0 &&
		    strcmp(e->d_name, "..") != 0;
	closedir(d);
	if (found)
		return log_errf(err, errlen, "sandbox: chroot directory %s is not "
		    "empty", path);
	return 0;
}

/* Check dir and write its canonical path (what gets chrooted) to real. */
static int
sb_chroot_resolve(const char *dir, char real[PATH_MAX], char *err,
    size_t errlen)
{
	char up[PATH_MAX];
	char *slash;

	if (dir == NULL || dir[0] != '/')
		return log_errf(err, errlen, "sandbox: chroot directory '%s' is "
		    "not an absolute path", dir != NULL ? dir : "");
	if (realpath(dir, real) == NULL)
		return log_errf(err, errlen, "sandbox: chroot directory %s: %s",
		    dir, strerror(errno));
	if (sb_dir_ok(real, 1, err, errlen) != 0)
		return -1;
	memcpy(up, real, PATH_MAX);
	while ((slash = strrchr(up, '/')) != NULL && up[1] != '\0') {
		slash[slash == up ? 1 : 0] = '\0';	/* parent; "/" stays */
		if (sb_dir_ok(up, 0, err, errlen) != 0)
			return -1;
	}
	return sb_dir_empty(real, err, errlen);
}

int
sandbox_chroot_check(const char *dir, char *err, size_t errlen)
{
	char real[PATH_MAX];

	return sb_chroot_resolve(dir, real, err, errlen);
}

int
sandbox_chroot_prepare(const char *dir, char *err, size_t errlen)
{
	struct stat st;

	if (dir != NULL && dir[0] == '/' && lstat(dir, &st) != 0 &&
	    errno == ENOENT) {
		if (mkdir(dir, 0755) != 0)
			return log_errf(err, errlen, "sandbox: creating chroot "
			    "directory %s: %s", dir, strerror(errno));
		if (chown(dir, 0, 0) != 0 || chmod(dir, 0755) != 0)
			return log_errf(err, errlen, "sandbox: chroot directory "
			    "%s: %s", dir, strerror(errno));
	}
	return sandbox_chroot_check(dir, err, errlen);
}

/* ---- the parser's privilege drop ----------------------------------------- */

/* Highest open descriptor + 1, read before /proc goes out of reach. */
static long
sb_fd_limit(void)
{
	struct dirent *e;
	DIR *d;
	long fd, top = -1;
	char *end;

	if ((d = opendir("/proc/self/fd")) != NULL) {
		while ((e = readdir(d)) != NULL) {
			fd = strtol(e->d_name, &end, 10);
			if (*end == '\0' && end != e->d_name &&
			    fd != dirfd(d) && fd > top)
				top = fd;
		}
		closedir(d);
		return top + 1;
	}
	for (fd = 0; fd < 1024; fd++)
		if (fcntl((int)fd, F_GETFD) != -1)
			top = fd;
	return top + 1;
}

/* The bits the parser needs for its own drop, raised to effective. */
#define SB_PARSER_NEEDS	(SANDBOX_CAP(CAP_SETUID) | SANDBOX_CAP(CAP_SETGID) | \
    SANDBOX_CAP(CAP_SYS_CHROOT) | SANDBOX_CAP(CAP_SETPCAP))

static int
sb_raise_permitted(char *err, size_t errlen)
{
	uint64_t eff, prm, inh;
	int miss;

	if (sb_capget(&eff, &prm, &inh) != 0)
		return log_errf(err, errlen, "sandbox: capget: %s",
		    strerror(errno));
	if ((miss = sb_cap_missing(prm, SB_PARSER_NEEDS)) >= 0)
		return log_errf(err, errlen, "sandbox: capability %d is not "
		    "permitted; the parser needs CAP_SETUID, CAP_SETGID, "
		    "CAP_SYS_CHROOT and CAP_SETPCAP to drop privileges", miss);
	if (eff != prm && sb_capset(prm, prm, inh) != 0)
		return log_errf(err, errlen, "sandbox: capset: %s",
		    strerror(errno));
	return 0;
}

/*
 * The user's entry, from /etc/passwd read directly; through NSS
 * (getpwnam) only when that file cannot be read.  The parser's user is a
 * local system account, and going through NSS maps its modules
 * (libnss_systemd, with libm and libcap behind it: 0.7 MB of each
 * process's resident set) for good.  batsec.conf(5) says so.
 */
static struct passwd *
sb_getpw(const char *user)
{
	struct passwd *pw = NULL;
	FILE *f = fopen("/etc/passwd", "re");

	if (f == NULL)
		return getpwnam(user);
	while ((pw = fgetpwent(f)) != NULL && strcmp(pw->pw_name, user) != 0)
		;
	(void)fclose(f);
	return pw;
}

/* The user, else "nobody" with a warning; never uid or gid 0. */
static int
sb_user(const char *user, uid_t *uid, gid_t *gid, int *fallback,
    char *err, size_t errlen)
{
	struct passwd *pw = NULL;

	*fallback = 0;
	if (user != NULL && user[0] != '\0')
		pw = sb_getpw(user);
	if (pw == NULL) {
		*fallback = 1;
		pw = sb_getpw("nobody");
	}
	if (pw == NULL)
		return log_errf(err, errlen, "sandbox: neither user '%s' nor "
		    "'nobody' exists", user != NULL ? user : "");
	if (pw->pw_uid == 0 || pw->pw_gid == 0)
		return log_errf(err, errlen, "sandbox: refusing to run the parser "
		    "as user '%s' (uid %u, gid %u)", pw->pw_name,
		    (unsigned)pw->pw_uid, (unsigned)pw->pw_gid);
	*uid = pw->pw_uid;
	*gid = pw->pw_gid;
	return 0;
}

int
sandbox_parser_user_check(const char *user, const char *group, char *err,
    size_t errlen)
{
	struct group *gr;
	char **m;
	uid_t uid;
	gid_t gid;
	int fallback, bad = 0;
	FILE *f;

	if (group == NULL || group[0] == '\0')
		return 0;
	if (sb_user(user, &uid, &gid, &fallback, err, errlen) != 0)
		return -1;
	if (fallback)
		user = "nobody";
	/* As the control socket looks its group up (control.c). */
	if ((f = fopen("/etc/group", "re")) != NULL) {
		while ((gr = fgetgrent(f)) != NULL &&
		    strcmp(gr->gr_name, group) != 0)
			;
	} else
		gr = getgrnam(group);
	if (gr != NULL) {
		bad = gr->gr_gid == gid;
		for (m = gr->gr_mem; !bad && m != NULL && *m != NULL; m++)
			bad = strcmp(*m, user) == 0;
	}
	if (f != NULL)
		(void)fclose(f);
	if (bad)
		return log_errf(err, errlen, "sandbox: the parser's user '%s' "
		    "is in the control socket's group '%s': a parser that "
		    "escaped its sandbox could edit the trust; give it a "
		    "group of its own", user, group);
	return 0;
}

/* Everything that needs capabilities, while we still have them. */
static int
sb_lock_caps(char *err, size_t errlen)
{
	const unsigned long bits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
	    SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED |
	    SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;

	if (sb_bounding_keep(0, err, errlen) != 0 ||
	    sb_ambient_clear(err, errlen) != 0)
		return -1;
	if (prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) != 0)
		return log_errf(err, errlen, "sandbox: PR_SET_SECUREBITS: %s",
		    strerror(errno));
	return 0;
}

static int
sb_switch_user(const char *root, uid_t uid, gid_t gid, char *err,
    size_t errlen)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;

	if (chroot(root) != 0 || chdir("/") != 0)
		return log_errf(err, errlen, "sandbox: chroot %s: %s", root,
		    strerror(errno));
	if (setgroups(1, &gid) != 0 || setresgid(gid, gid, gid) != 0 ||
	    setresuid(uid, uid, uid) != 0)
		return log_errf(err, errlen, "sandbox: switching to uid %u gid %u: "
		    "%s", (unsigned)uid, (unsigned)gid, strerror(errno));
	if (setuid(0) != -1 || setgid(0) != -1)
		return log_errf(err, errlen, "sandbox: could switch back to root");
	if (getresuid(&ru, &eu, &su) != 0 || getresgid(&rg, &eg, &sg) != 0 ||
	    ru != uid || eu != uid || su != uid || rg != gid || eg != gid ||
	    sg != gid)
		return log_errf(err, errlen, "sandbox: user ids are not the ones "
		    "set");
	return 0;
}

static int
sb_caps_none(char *err, size_t errlen)
{
	struct sandbox_caps c;

	if (sb_capset(0, 0, 0) != 0)
		return log_errf(err, errlen, "sandbox: capset: %s",
		    strerror(errno));
	if (sandbox_caps_read(&c) != 0 || c.eff != 0 || c.prm != 0 ||
	    c.inh != 0 || c.bnd != 0 || c.amb != 0)
		return log_errf(err, errlen, "sandbox: capabilities remain after "
		    "the drop");
	return 0;
}

static int
sb_rlimit(int res, rlim_t v, const char *name, char *err,
    size_t errlen)
{
	struct rlimit rl = { .rlim_cur = v, .rlim_max = v };

	if (setrlimit(res, &rl) != 0)
		return log_errf(err, errlen, "sandbox: setrlimit %s: %s", name,
		    strerror(errno));
	return 0;
}

static int
sb_parser_limits(long nofile, char *err, size_t errlen)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
		return log_errf(err, errlen, "sandbox: prctl: %s",
		    strerror(errno));
	if (sb_rlimit(RLIMIT_NOFILE, (rlim_t)nofile, "NOFILE", err,
	    errlen) != 0 ||
	    sb_rlimit(RLIMIT_NPROC, 0, "NPROC", err, errlen) != 0 ||
	    sb_rlimit(RLIMIT_CORE, 0, "CORE", err, errlen) != 0)
		return -1;
	if (SB_ASAN)
		return 0;
	if (sb_rlimit(RLIMIT_FSIZE, 0, "FSIZE", err, errlen) != 0 ||
	    sb_rlimit(RLIMIT_AS, SANDBOX_PARSER_AS_MAX, "AS", err, errlen) != 0)
		return -1;
	return 0;
}

/*
 * Sanitizer builds: what the sanitizers would read from /proc later, read
 * now, before chroot and seccomp.  Symbolizing one address loads the module
 * list and the symbolizer's state, so a report from inside the sandbox can
 * still name functions.  LeakSanitizer's end-of-process check needs ptrace,
 * a helper task and /proc, none of which the parser has afterwards: run it
 * now, which also disables the one at exit.
 */
static void
sb_sanitizer_prepare(void)
{
#ifdef __SANITIZE_ADDRESS__
	char buf[256];

	__sanitizer_sandbox_on_notify(NULL);
	__sanitizer_symbolize_pc(__builtin_return_address(0), "%p %F %L", buf,
	    sizeof(buf));
	__lsan_do_leak_check();
#endif
}

int
sandbox_parser_enter(const char *user, const char *chroot_dir, char *err,
    size_t errlen)
{
	char root[PATH_MAX];
	uid_t uid = 0;
	gid_t gid = 0;
	int fallback = 0;
	long nofile;

	if (geteuid() != 0)
		return log_errf(err, errlen, "sandbox: the parser must start as "
		    "root to drop privileges (euid %u)", (unsigned)geteuid());
	if (sb_raise_permitted(err, errlen) != 0 ||
	    sb_user(user, &uid, &gid, &fallback, err, errlen) != 0 ||
	    sb_chroot_resolve(chroot_dir, root, err, errlen) != 0)
		return -1;
	nofile = sb_fd_limit();
	sb_sanitizer_prepare();
	if (sb_lock_caps(err, errlen) != 0 ||
	    sb_switch_user(root, uid, gid, err, errlen) != 0 ||
	    sb_caps_none(err, errlen) != 0 ||
	    sb_parser_limits(nofile, err, errlen) != 0)
		return -1;
	if (fallback) {
		log_errf(err, errlen, "sandbox: user '%s' does not exist; the "
		    "parser runs as 'nobody'", user != NULL ? user : "");
		return 1;
	}
	return 0;
}

/* ---- the parser's binary ------------------------------------------------------ */

/*
 * The path argument of the one exec the forwarder's filter allows: the
 * filter compares the pointer, so it must be this object's address.
 */
static const char sb_empty_path[1] = "";

int
sandbox_exe_open(const char *path, char *err, size_t errlen)
{
	int fd, hi;

	if (path == NULL)
		path = "/proc/self/exe";
	if ((fd = open(path, O_PATH | O_CLOEXEC)) < 0)
		return log_errf(err, errlen, "sandbox: opening %s: %s", path,
		    strerror(errno));
	if (fd >= SANDBOX_EXE_FD_MIN)
		return fd;
	/* Above the descriptors a child sets up before its exec. */
	hi = fcntl(fd, F_DUPFD_CLOEXEC, SANDBOX_EXE_FD_MIN);
	(void)close(fd);
	if (hi < 0)
		return log_errf(err, errlen, "sandbox: %s: F_DUPFD: %s", path,
		    strerror(errno));
	return hi;
}

int
sandbox_exe_exec(int exe_fd, char *const argv[], char *const envp[])
{
	return (int)syscall(SYS_execveat, exe_fd, sb_empty_path, argv, envp,
	    AT_EMPTY_PATH);
}

/* ---- seccomp ------------------------------------------------------------------ */

/*
 * The allow-lists are lists of needs, each spelt with the system call
 * names of every architecture batsec is built for (x86-64, and the
 * routers' 32-bit MIPS o32 and ARM EABI and 64-bit arm64): a 32-bit
 * kernel has mmap2, _llseek, fcntl64, fstat64 and the *_time64 calls
 * (glibc 2.34 and later tries those first, the old ones after ENOSYS),
 * ARM's uid calls are the *32 ones, and arm64 lacks the calls that have
 * an *at or p* replacement.  Rules are kept by name: a name that is not
 * a system call of the filter's architecture is left out of that filter
 * (sb_add_rules), a name libseccomp does not know at all fails the load.
 * So one table serves every build, and sandbox_seccomp_export() can
 * build the filter of another architecture for tests/check_seccomp_arch.
 *
 * socketcall(2), the multiplexed socket call of the 32-bit ABIs that
 * had no direct socket calls (MIPS o32 has both; glibc uses the direct
 * ones there), fails with ENOSYS in both filters instead of being allowed:
 * its arguments are behind a pointer that seccomp cannot read, so
 * allowing it would allow socket(AF_INET) and everything else the
 * socket(2) rules refuse.  libc's fallback on ENOSYS is the direct call.
 *
 * One allow-list entry: a system call, optionally with one condition on
 * an argument (OR-ed when a call has several entries), or an errno to
 * return instead of allowing it.
 */
struct sb_rule {
	const char *name;	/* libseccomp's name of the system call */
	enum scmp_compare op;	/* 0: no condition */
	unsigned arg;
	scmp_datum_t a, b;	/* SCMP_CMP_MASKED_EQ: mask a, value b */
	int err;		/* non-zero: fail with this errno */
};

#define ALLOW(name)		{ #name, 0, 0, 0, 0, 0 }
/* Argument i masked with m equals v. */
#define ALLOW_M(name, i, m, v)	{ #name, SCMP_CMP_MASKED_EQ, i, m, v, 0 }
/* A 32-bit (int) argument equals v, whatever the upper register bits. */
#define ALLOW_EQ(name, i, v)	ALLOW_M(name, i, 0xffffffffu, v)
/* No executable mappings: the prot argument (index 2) lacks PROT_EXEC. */
#define ALLOW_NOEXEC(name)	ALLOW_M(name, 2, PROT_EXEC, 0)
#define DENY(name, e)		{ #name, 0, 0, 0, 0, e }

static const struct sb_rule sb_parser_rules[] = {
	/* The channel (fd 3) and stderr. */
	ALLOW(read), ALLOW(write), ALLOW(writev),
	ALLOW(recvmsg), ALLOW(sendmsg), ALLOW(sendmmsg), ALLOW(recvfrom),
	ALLOW(sendto), DENY(socketcall, ENOSYS),
	/* glibc's send(2) on MIPS o32 is the send system call (seen killing
	 * the parser in the emulated router), not sendto. */
	ALLOW(send),
	/* Waiting for the channel. */
	ALLOW(poll), ALLOW(ppoll), ALLOW(ppoll_time64),
	/* Clocks and sleeping (the vDSO covers most clock reads; MIPS and
	 * 32-bit ARM kernels may lack a vDSO clock). */
	ALLOW(clock_gettime), ALLOW(clock_gettime64), ALLOW(gettimeofday),
	ALLOW(clock_nanosleep), ALLOW(clock_nanosleep_time64),
	ALLOW(nanosleep),
	/* Randomness: libsodium's randombytes. */
	ALLOW(getrandom),
	/* Memory: malloc and free; nothing executable. */
	ALLOW(brk), ALLOW_NOEXEC(mmap), ALLOW_NOEXEC(mmap2),
	ALLOW_NOEXEC(mprotect), ALLOW(munmap), ALLOW(mremap), ALLOW(madvise),
	/* Signals and exit; restart_syscall resumes the poll(2) that a
	 * SIGSTOP / SIGCONT (job control, a debugger) interrupted.
	 * sigreturn: the 32-bit ABIs' return from a handler without
	 * SA_SIGINFO. */
	ALLOW(rt_sigreturn), ALLOW(sigreturn), ALLOW(restart_syscall),
	ALLOW(exit), ALLOW(exit_group),
	/* What libc does by itself (stdio on stderr, error paths). */
	ALLOW(close), ALLOW(fstat), ALLOW(fstat64), ALLOW(newfstatat),
	ALLOW(fstatat64), ALLOW(statx), ALLOW(getpid),
};

/*
 * Sanitizer builds only (found by running the tests with SANITIZE=1):
 * what the runtime does at exit (sigaltstack) and while it writes a report
 * (locks, isatty on stderr, /proc/self/exe).  A report also tries to open
 * files and to start an external symbolizer: those fail with an errno
 * instead of killing, so the report is complete rather than cut off by
 * SIGSYS (the chroot is empty anyway).  Release builds never load these.
 */
static const struct sb_rule sb_parser_asan_rules[] = {
	ALLOW(sigaltstack), ALLOW(futex), ALLOW(sched_yield), ALLOW(gettid),
	ALLOW_EQ(ioctl, 1, TCGETS), ALLOW(readlink),
	DENY(open, ENOENT), DENY(openat, ENOENT), DENY(pipe2, EMFILE),
	DENY(pipe, EMFILE),
};

static const struct sb_rule sb_forwarder_rules[] = {
	/* Descriptors. */
	ALLOW(read), ALLOW(readv), ALLOW(pread64), ALLOW(write), ALLOW(writev),
	ALLOW(pwrite64), ALLOW(lseek), ALLOW(_llseek), ALLOW(close),
	ALLOW(close_range), ALLOW(dup), ALLOW(dup2), ALLOW(dup3),
	ALLOW(fcntl), ALLOW(fcntl64), ALLOW(pipe2),
	ALLOW(fstat), ALLOW(fstat64), ALLOW(newfstatat), ALLOW(fstatat64),
	ALLOW(statx), ALLOW(fstatfs), ALLOW(fstatfs64),
	/* Sockets: unix (control, syslog, channel), netlink, packet.  No
	 * inet socket: interfaces are configured over rtnetlink, and the
	 * TAP's index is looked up before the filter is loaded.  No
	 * socketcall (above). */
	ALLOW_EQ(socket, 0, AF_UNIX), ALLOW_EQ(socket, 0, AF_NETLINK),
	ALLOW_EQ(socket, 0, AF_PACKET), DENY(socketcall, ENOSYS),
	ALLOW(socketpair), ALLOW(bind), ALLOW(listen), ALLOW(accept4),
	ALLOW(connect), ALLOW(getsockname), ALLOW(getpeername),
	ALLOW(getsockopt), ALLOW(setsockopt), ALLOW(shutdown),
	ALLOW(sendto), ALLOW(send), ALLOW(sendmsg), ALLOW(sendmmsg),
	ALLOW(recvfrom), ALLOW(recv), ALLOW(recvmsg), ALLOW(recvmmsg),
	ALLOW(recvmmsg_time64),
	/* The in-kernel relay (fastpath.h): loaded before the filter;
	 * afterwards only its maps are read and written and links made. */
	ALLOW_EQ(bpf, 0, BPF_MAP_LOOKUP_ELEM),
	ALLOW_EQ(bpf, 0, BPF_MAP_UPDATE_ELEM),
	ALLOW_EQ(bpf, 0, BPF_MAP_DELETE_ELEM),
	ALLOW_EQ(bpf, 0, BPF_MAP_GET_NEXT_KEY),
	ALLOW_EQ(bpf, 0, BPF_MAP_LOOKUP_AND_DELETE_ELEM),
	ALLOW_EQ(bpf, 0, BPF_LINK_CREATE),
	/* ioctl: TAP, interface queries, and what libc asks of a tty.  No
	 * SIOCS*: every interface change goes over rtnetlink. */
	ALLOW_EQ(ioctl, 1, TUNSETIFF), ALLOW_EQ(ioctl, 1, TUNGETIFF),
	ALLOW_EQ(ioctl, 1, TUNSETPERSIST), ALLOW_EQ(ioctl, 1, TUNSETOFFLOAD),
	ALLOW_EQ(ioctl, 1, SIOCGIFINDEX), ALLOW_EQ(ioctl, 1, SIOCGIFNAME),
	ALLOW_EQ(ioctl, 1, SIOCGIFFLAGS), ALLOW_EQ(ioctl, 1, SIOCGIFMTU),
	ALLOW_EQ(ioctl, 1, SIOCGIFHWADDR),
	ALLOW_EQ(ioctl, 1, FIONREAD), ALLOW_EQ(ioctl, 1, FIONBIO),
	ALLOW_EQ(ioctl, 1, FIOCLEX), ALLOW_EQ(ioctl, 1, TCGETS),
	ALLOW_EQ(ioctl, 1, TIOCGWINSZ),
	/* The event loop. */
	ALLOW(epoll_create1), ALLOW(epoll_ctl), ALLOW(epoll_wait),
	ALLOW(epoll_pwait), ALLOW(epoll_pwait2), ALLOW(poll), ALLOW(ppoll),
	ALLOW(ppoll_time64), ALLOW(pselect6), ALLOW(pselect6_time64),
	ALLOW(eventfd2), ALLOW(signalfd4),
	ALLOW(timerfd_create), ALLOW(timerfd_settime),
	ALLOW(timerfd_settime64), ALLOW(timerfd_gettime),
	ALLOW(timerfd_gettime64), ALLOW(timer_create), ALLOW(timer_settime),
	ALLOW(timer_settime64), ALLOW(timer_gettime), ALLOW(timer_gettime64),
	ALLOW(timer_delete),
	/* Clocks and sleeping. */
	ALLOW(clock_gettime), ALLOW(clock_gettime64), ALLOW(clock_getres),
	ALLOW(clock_getres_time64), ALLOW(gettimeofday), ALLOW(time),
	ALLOW(clock_nanosleep), ALLOW(clock_nanosleep_time64),
	ALLOW(nanosleep),
	/* Memory; executable mappings for the dynamic loader of an exec. */
	ALLOW(brk), ALLOW(mmap), ALLOW(mmap2), ALLOW(munmap), ALLOW(mremap),
	ALLOW(mprotect), ALLOW(madvise),
	/* Files: policy and state (temp + fsync + rename), syslog, nss,
	 * the control socket's mode and owner. */
	ALLOW(openat), ALLOW(getdents64), ALLOW(readlink), ALLOW(readlinkat),
	ALLOW(access), ALLOW(faccessat), ALLOW(faccessat2), ALLOW(rename),
	ALLOW(renameat), ALLOW(renameat2), ALLOW(unlink), ALLOW(unlinkat),
	ALLOW(mkdir), ALLOW(mkdirat), ALLOW(rmdir), ALLOW(fsync),
	ALLOW(fdatasync),
	ALLOW(ftruncate), ALLOW(ftruncate64), ALLOW(fchmod), ALLOW(fchmodat),
	ALLOW(chmod), ALLOW(fchown), ALLOW(fchown32), ALLOW(fchownat),
	ALLOW(umask), ALLOW(flock), ALLOW(getcwd), ALLOW(chdir),
	/* Processes: start (fork + sandbox_exe_exec: the one execveat that
	 * sb_exec_rule allows, no execve), watch, stop the parser.  No
	 * namespaces; clone3 cannot be filtered, so libc falls back to clone. */
	ALLOW_M(clone, 0, CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWNET |
	    CLONE_NEWPID | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWCGROUP, 0),
	DENY(clone3, ENOSYS), ALLOW(wait4), ALLOW(waitid),
	ALLOW(pidfd_open), ALLOW(pidfd_send_signal), ALLOW(kill),
	ALLOW(tgkill), ALLOW(exit), ALLOW(exit_group),
	ALLOW(getpid), ALLOW(getppid), ALLOW(gettid), ALLOW(setsid),
	ALLOW(getpgrp), ALLOW(sched_yield), ALLOW(sched_getaffinity),
	ALLOW(futex), ALLOW(futex_time64), ALLOW(getrandom), ALLOW(uname),
	ALLOW(sysinfo), ALLOW(getrusage), ALLOW(prlimit64), ALLOW(getrlimit),
	ALLOW(ugetrlimit), ALLOW(setrlimit),
	/* What the dynamic loader and libc start-up of an exec'd parser do
	 * (the thread pointer: arch_prctl on x86-64, set_thread_area on
	 * MIPS, ARM's private set_tls). */
	ALLOW(arch_prctl), ALLOW(set_thread_area), ALLOW(set_tls),
	ALLOW(set_tid_address), ALLOW(set_robust_list), ALLOW(rseq),
	/* Signals. */
	ALLOW(rt_sigaction), ALLOW(rt_sigprocmask), ALLOW(rt_sigreturn),
	ALLOW(sigreturn), ALLOW(rt_sigtimedwait), ALLOW(rt_sigtimedwait_time64),
	ALLOW(rt_sigsuspend), ALLOW(sigaltstack), ALLOW(restart_syscall),
	/* Credentials: the parser's drop (setuid(0) must fail, not kill). */
	ALLOW(getuid), ALLOW(geteuid), ALLOW(getgid), ALLOW(getegid),
	ALLOW(getresuid), ALLOW(getresgid), ALLOW(getgroups),
	ALLOW(setgroups), ALLOW(setresuid), ALLOW(setresgid), ALLOW(setuid),
	ALLOW(setgid),
	ALLOW(getuid32), ALLOW(geteuid32), ALLOW(getgid32), ALLOW(getegid32),
	ALLOW(getresuid32), ALLOW(getresgid32), ALLOW(getgroups32),
	ALLOW(setgroups32), ALLOW(setresuid32), ALLOW(setresgid32),
	ALLOW(setuid32), ALLOW(setgid32),
	ALLOW(capget), ALLOW(capset), ALLOW(chroot), ALLOW(seccomp),
	ALLOW_EQ(prctl, 0, PR_SET_NO_NEW_PRIVS),
	ALLOW_EQ(prctl, 0, PR_GET_NO_NEW_PRIVS),
	ALLOW_EQ(prctl, 0, PR_SET_DUMPABLE), ALLOW_EQ(prctl, 0, PR_GET_DUMPABLE),
	ALLOW_EQ(prctl, 0, PR_CAPBSET_READ), ALLOW_EQ(prctl, 0, PR_CAPBSET_DROP),
	ALLOW_EQ(prctl, 0, PR_CAP_AMBIENT),
	ALLOW_EQ(prctl, 0, PR_SET_SECUREBITS),
	ALLOW_EQ(prctl, 0, PR_GET_SECUREBITS),
	ALLOW_EQ(prctl, 0, PR_SET_PDEATHSIG),
	ALLOW_EQ(prctl, 0, PR_SET_NAME), ALLOW_EQ(prctl, 0, PR_GET_NAME),
	ALLOW_EQ(prctl, 0, PR_SET_SECCOMP), ALLOW_EQ(prctl, 0, PR_GET_SECCOMP),
	/* MIPS' dynamic loader reads the floating-point mode for each
	 * library it maps (seen killing the exec'd parser in the emulated
	 * MIPS router; found with strace there). */
	ALLOW_EQ(prctl, 0, PR_GET_FP_MODE),
};

/*
 * AddressSanitizer's runtime (its internal_open is open(2), not openat),
 * an exec'd sanitized parser's start, and LeakSanitizer's check at exit,
 * which stops the process's threads with ptrace from a helper task: only
 * the requests it makes.
 */
static const struct sb_rule sb_forwarder_asan_rules[] = {
	ALLOW(open), ALLOW(getdents), ALLOW(personality), ALLOW(mincore),
	ALLOW_EQ(prctl, 0, PR_SET_PTRACER), ALLOW_EQ(prctl, 0, PR_GET_PDEATHSIG),
	ALLOW_EQ(ptrace, 0, PTRACE_ATTACH), ALLOW_EQ(ptrace, 0, PTRACE_DETACH),
	ALLOW_EQ(ptrace, 0, PTRACE_CONT), ALLOW_EQ(ptrace, 0, PTRACE_KILL),
	ALLOW_EQ(ptrace, 0, PTRACE_GETREGSET),
#ifdef PTRACE_GETREGS		/* not on arm64: GETREGSET only */
	ALLOW_EQ(ptrace, 0, PTRACE_GETREGS),
#endif
#ifdef PTRACE_GETFPREGS
	ALLOW_EQ(ptrace, 0, PTRACE_GETFPREGS),
#endif
};

static void
sb_put(char *buf, size_t *n, size_t cap, const char *s)
{
	while (*s != '\0' && *n < cap)
		buf[(*n)++] = *s++;
}

static void
sb_put_num(char *buf, size_t *n, size_t cap, long v)
{
	char tmp[24];
	size_t i = 0;
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;

	do
		tmp[i++] = (char)('0' + u % 10);
	while ((u /= 10) != 0 && i < sizeof(tmp));
	if (v < 0 && *n < cap)
		buf[(*n)++] = '-';
	while (i > 0 && *n < cap)
		buf[(*n)++] = tmp[--i];
}

/* Debug mode's SIGSYS handler: async-signal-safe calls only. */
static void
sb_sigsys(int sig, siginfo_t *si, void *uctx)
{
	char buf[160];
	size_t n = 0;

	(void)sig;
	(void)uctx;
	sb_put(buf, &n, sizeof(buf), "batsecd[");
	sb_put_num(buf, &n, sizeof(buf), (long)getpid());
	sb_put(buf, &n, sizeof(buf), "]: seccomp: system call ");
	sb_put_num(buf, &n, sizeof(buf), si->si_syscall);
	sb_put(buf, &n, sizeof(buf), " is not allowed (name it with: "
	    "scmp_sys_resolver ");
	sb_put_num(buf, &n, sizeof(buf), si->si_syscall);
	sb_put(buf, &n, sizeof(buf), ")\n");
	if (write(STDERR_FILENO, buf, n) < 0) {
		/* Nothing more can be done about it here. */
	}
	_exit(SANDBOX_SIGSYS_EXIT);
}

static int
sb_trap_handler(void)
{
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sb_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&set);
	sigaddset(&set, SIGSYS);
	if (sigaction(SIGSYS, &sa, NULL) != 0 ||
	    sigprocmask(SIG_UNBLOCK, &set, NULL) != 0)
		return -1;
	return 0;
}

/*
 * Adds the rules.  They are added with the native number (a pseudo number
 * for a call the build machine lacks), which libseccomp translates for
 * the filter's architecture, leaving out a rule whose call that
 * architecture does not have.  -EINVAL for a name libseccomp does not
 * know.
 */
static int
sb_add_rules(scmp_filter_ctx ctx, const struct sb_rule *r, size_t n)
{
	struct scmp_arg_cmp cmp;
	uint32_t act;
	size_t i;
	int nr, rc;

	for (i = 0; i < n; i++) {
		nr = seccomp_syscall_resolve_name(r[i].name);
		if (nr == __NR_SCMP_ERROR)
			return -EINVAL;
		act = r[i].err != 0 ? SCMP_ACT_ERRNO((uint32_t)r[i].err) :
		    SCMP_ACT_ALLOW;
		if (r[i].op == 0) {
			rc = seccomp_rule_add(ctx, act, nr, 0);
		} else {
			cmp.arg = r[i].arg;
			cmp.op = r[i].op;
			cmp.datum_a = r[i].a;
			cmp.datum_b = r[i].b;
			rc = seccomp_rule_add_array(ctx, act, nr, 1, &cmp);
		}
		if (rc != 0)
			return rc;
	}
	return 0;
}

/*
 * The forwarder's only exec: execveat(exe_fd, sb_empty_path, argv, envp,
 * AT_EMPTY_PATH), which runs the file exe_fd refers to.  With another
 * path pointer (an absolute path ignores the descriptor), another
 * descriptor or other flags it kills.  exe_fd < 0: no exec at all.
 */
static int
sb_exec_rule(scmp_filter_ctx ctx, int exe_fd)
{
	if (exe_fd < 0)
		return 0;
	return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(execveat), 3,
	    SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, (scmp_datum_t)exe_fd),
	    SCMP_A1(SCMP_CMP_EQ, (scmp_datum_t)(uintptr_t)sb_empty_path),
	    SCMP_A4(SCMP_CMP_MASKED_EQ, 0xffffffffu, AT_EMPTY_PATH));
}

/*
 * A filter for arch (seccomp_arch_native() for the one to load) with
 * default action def: rules, then extra, then the exec rule.  NULL with
 * errno.
 */
static scmp_filter_ctx
sb_build(uint32_t arch, uint32_t def, const struct sb_rule *rules, size_t n,
    const struct sb_rule *extra, size_t nextra, int exe_fd)
{
	scmp_filter_ctx ctx;
	int rc;

	ctx = seccomp_init(def);
	if (ctx == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	rc = 0;
	if (arch != seccomp_arch_native()) {
		rc = seccomp_arch_add(ctx, arch);
		if (rc == 0)
			rc = seccomp_arch_remove(ctx, SCMP_ARCH_NATIVE);
	}
	if (rc == 0)
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
		    SCMP_ACT_KILL_PROCESS);
	if (rc == 0)
		rc = sb_add_rules(ctx, rules, n);
	if (rc == 0)
		rc = sb_add_rules(ctx, extra, nextra);
	if (rc == 0)
		rc = sb_exec_rule(ctx, exe_fd);
	if (rc != 0) {
		seccomp_release(ctx);
		errno = rc < 0 ? -rc : EINVAL;
		return NULL;
	}
	return ctx;
}

static int
sb_load(const struct sb_rule *rules, size_t n,
    const struct sb_rule *extra, size_t nextra, int exe_fd)
{
	scmp_filter_ctx ctx;
	int rc;

	if (sb_debug && sb_trap_handler() != 0)
		return -1;
	ctx = sb_build(seccomp_arch_native(),
	    sb_debug ? SCMP_ACT_TRAP : SCMP_ACT_KILL_PROCESS, rules, n,
	    extra, nextra, exe_fd);
	if (ctx == NULL)
		return -1;
	rc = seccomp_load(ctx);
	seccomp_release(ctx);
	if (rc != 0) {
		errno = rc < 0 ? -rc : EINVAL;
		return -1;
	}
	return 0;
}

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

int
sandbox_parser_seccomp(void)
{
	return sb_load(sb_parser_rules, NELEM(sb_parser_rules),
	    sb_parser_asan_rules, SB_ASAN ? NELEM(sb_parser_asan_rules) : 0,
	    -1);
}

int
sandbox_forwarder_seccomp(int exe_fd)
{
	return sb_load(sb_forwarder_rules, NELEM(sb_forwarder_rules),
	    sb_forwarder_asan_rules,
	    SB_ASAN ? NELEM(sb_forwarder_asan_rules) : 0, exe_fd);
}

int
sandbox_seccomp_export(uint32_t arch, enum sandbox_filter which, int exe_fd,
    int bpf, int fd)
{
	scmp_filter_ctx ctx;
	int rc;

	if (which == SANDBOX_FILTER_PARSER)
		ctx = sb_build(arch, SCMP_ACT_KILL_PROCESS, sb_parser_rules,
		    NELEM(sb_parser_rules), sb_parser_asan_rules,
		    SB_ASAN ? NELEM(sb_parser_asan_rules) : 0, -1);
	else
		ctx = sb_build(arch, SCMP_ACT_KILL_PROCESS,
		    sb_forwarder_rules, NELEM(sb_forwarder_rules),
		    sb_forwarder_asan_rules,
		    SB_ASAN ? NELEM(sb_forwarder_asan_rules) : 0, exe_fd);
	if (ctx == NULL)
		return -1;
	rc = bpf ? seccomp_export_bpf(ctx, fd) : seccomp_export_pfc(ctx, fd);
	seccomp_release(ctx);
	if (rc != 0) {
		errno = rc < 0 ? -rc : EIO;
		return -1;
	}
	return 0;
}
