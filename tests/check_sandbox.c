/*
 * check_sandbox.c — the parser's and the forwarder's sandboxes, as root.
 *
 * Code that runs inside the parser's sandbox cannot use ck_assert (Check
 * writes every passing assertion to a file, which RLIMIT_FSIZE and seccomp
 * forbid), so it runs in a child that reports over a pipe; the test
 * process, still root, asserts on the report and also looks at the child
 * from outside through /proc/PID.  Forbidden system calls are tested in
 * the test process itself with tcase_add_loop_test_raise_signal(SIGSYS).
 *
 * The last test starts a real parser the way the forwarder does: under the
 * forwarder's capabilities and filter, fork + execve of this program with
 * --parser-child, channel on fd 3.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_ether.h>
#include <net/if.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "batsec_crypto.h"
#include "proto/ipc.h"
#include "common/sandbox.h"
#include "lib/t_check.h"

static char root_dir[64];	/* an empty root-owned 0755 directory */

#define NOBODY	"nobody"

static void
put_all(int fd, const void *p, size_t n)
{
	const char *b = p;
	ssize_t r;

	while (n > 0) {
		r = write(fd, b, n);
		if (r <= 0)
			_exit(90);
		b += r;
		n -= (size_t)r;
	}
}

/* 0 when n bytes arrived, -1 on EOF or error. */
static int
get_all(int fd, void *p, size_t n)
{
	char *b = p;
	ssize_t r;

	while (n > 0) {
		r = read(fd, b, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		b += r;
		n -= (size_t)r;
	}
	return 0;
}

/* ---- what a parser does once sandboxed ------------------------------------------ */

struct ops_env {
	struct ipc fwd, par;	/* both ends of a channel */
	int sp[2];		/* a plain socketpair */
};

static void
ops_env_init(struct ops_env *e)
{
	int fds[2];

	if (ipc_socketpair(fds) != 0 ||
	    ipc_init(&e->fwd, fds[0], IPC_ROLE_FORWARDER, 0, NULL, 0) != 0 ||
	    ipc_init(&e->par, fds[1], IPC_ROLE_PARSER, 0, NULL, 0) != 0 ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET, 0, e->sp) != 0)
		_exit(91);
}

/*
 * The allowed loop, inside the parser's seccomp filter: NULL when every
 * operation worked, else the name of the one that did not.
 */
static const char *
parser_ops(struct ops_env *e)
{
	static void *small[1000];
	struct pollfd pfd = { .fd = e->sp[1], .events = POLLIN };
	struct timespec ts = { 0, 1000000 };
	struct ipc_msg m;
	struct timeval tv;
	uint8_t buf[64];
	char *big;
	size_t i;

	if (write(e->sp[0], "ping", 4) != 4)
		return "write";
	if (poll(&pfd, 1, 5000) != 1)
		return "poll";
	if (read(e->sp[1], buf, sizeof(buf)) != 4)
		return "read";
	if (ipc_logf(&e->par, IPC_LOG_INFO, "hello %d", 42) != 0 ||
	    ipc_flush_wait(&e->par, 5000) != 0)
		return "ipc_logf";
	if (ipc_recv(&e->fwd, &m, NULL, 0) != IPC_RECV_MSG)
		return "ipc_recv";
	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0 ||
	    clock_gettime(CLOCK_REALTIME, &ts) != 0 ||
	    clock_gettime(CLOCK_BOOTTIME, &ts) != 0 ||
	    gettimeofday(&tv, NULL) != 0)
		return "clock_gettime";
	ts.tv_sec = 0;
	ts.tv_nsec = 1000000;
	if (nanosleep(&ts, NULL) != 0)
		return "nanosleep";
	for (i = 0; i < 1000; i++)
		if ((small[i] = malloc(16 + i)) == NULL)
			return "malloc small";
	for (i = 0; i < 1000; i++)
		free(small[i]);
	if ((big = malloc(8u << 20)) == NULL)
		return "malloc big";
	memset(big, 0x5a, 8u << 20);
	if ((big = realloc(big, 32u << 20)) == NULL)
		return "realloc";
	memset(big, 0xa5, 32u << 20);
	free(big);
	if ((big = calloc(1, 300000)) == NULL)
		return "calloc";
	free(big);
	if (getrandom(buf, 32, 0) != 32)
		return "getrandom";
	bs_random(buf, sizeof(buf));
	if (getpid() <= 0)
		return "getpid";
	return NULL;
}

/* ---- a sandboxed parser child and its report --------------------------------------- */

struct report {
	int rc;				/* sandbox_parser_enter */
	char err[256];
	uid_t uid[3];
	gid_t gid[3];
	int ngroups;
	gid_t groups[4];
	struct sandbox_caps caps;
	int nnp, dumpable;
	int proc_errno;			/* stat("/proc/self/status") */
	int passwd_errno;		/* stat("/etc/passwd") */
	struct rlimit lim_nofile, lim_nproc, lim_fsize, lim_core, lim_as;
	int seccomp_rc;
	char ops[64];			/* second report: "" or the failed op */
};

static void
report_identity(struct report *r)
{
	struct stat st;

	getresuid(&r->uid[0], &r->uid[1], &r->uid[2]);
	getresgid(&r->gid[0], &r->gid[1], &r->gid[2]);
	r->ngroups = getgroups(4, r->groups);
	sandbox_caps_read(&r->caps);
	r->nnp = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	r->dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	r->proc_errno = stat("/proc/self/status", &st) == 0 ? 0 : errno;
	/*
	 * stat, not open: RLIMIT_NOFILE is the highest open fd + 1, so an
	 * open() may fail with EMFILE before it looks at the path when the
	 * test inherits no gap in its descriptor table (as under CI).
	 */
	r->passwd_errno = stat("/etc/passwd", &st) == 0 ? 0 : errno;
	getrlimit(RLIMIT_NOFILE, &r->lim_nofile);
	getrlimit(RLIMIT_NPROC, &r->lim_nproc);
	getrlimit(RLIMIT_FSIZE, &r->lim_fsize);
	getrlimit(RLIMIT_CORE, &r->lim_core);
	getrlimit(RLIMIT_AS, &r->lim_as);
}

struct child {
	pid_t pid;
	int rep;		/* report pipe, read end */
	int go;			/* go pipe, write end */
};

/*
 * Fork a child that enters the parser sandbox (after pre(), if given),
 * loads the filter, reports, waits for a byte on the go pipe, runs the
 * allowed loop and reports again.
 */
static void
child_start(struct child *c, const char *user, const char *dir,
    void (*pre)(void))
{
	int rp[2], gp[2];
	struct report r;
	struct ops_env env;
	const char *bad;
	char go;

	ck_assert_int_eq(pipe(rp), 0);
	ck_assert_int_eq(pipe(gp), 0);
	c->pid = fork();
	ck_assert_int_ge(c->pid, 0);
	if (c->pid > 0) {
		close(rp[1]);
		close(gp[0]);
		c->rep = rp[0];
		c->go = gp[1];
		return;
	}
	close(rp[0]);
	close(gp[1]);
	memset(&r, 0, sizeof(r));
	ops_env_init(&env);
	if (pre != NULL)
		pre();
	r.rc = sandbox_parser_enter(user, dir, r.err, sizeof(r.err));
	report_identity(&r);
	r.seccomp_rc = r.rc >= 0 ? sandbox_parser_seccomp() : -1;
	put_all(rp[1], &r, sizeof(r));
	if (r.rc < 0 || r.seccomp_rc != 0)
		_exit(2);
	if (read(gp[0], &go, 1) != 1)
		_exit(3);
	bad = parser_ops(&env);
	memset(r.ops, 0, sizeof(r.ops));
	if (bad != NULL)
		strncpy(r.ops, bad, sizeof(r.ops) - 1);
	put_all(rp[1], r.ops, sizeof(r.ops));
	_exit(0);
}

static int
child_wait(struct child *c)
{
	int st;

	close(c->rep);
	close(c->go);
	ck_assert_int_eq(waitpid(c->pid, &st, 0), c->pid);
	return st;
}

/* One "Name:\tvalue" line of /proc/PID/status, or "" when missing. */
static void
proc_status_line(pid_t pid, const char *name, char *out,
    size_t outlen)
{
	char path[64], line[512];
	size_t nl = strlen(name);
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	ck_assert_ptr_nonnull(f = fopen(path, "r"));
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, name, nl) == 0 && line[nl] == ':') {
			snprintf(out, outlen, "%s", line + nl + 1 +
			    strspn(line + nl + 1, " \t"));
			out[strcspn(out, "\n")] = '\0';
			break;
		}
	}
	fclose(f);
}

static void
assert_status(pid_t pid, const char *name, const char *want)
{
	char v[256];

	proc_status_line(pid, name, v, sizeof(v));
	ck_assert_msg(strcmp(v, want) == 0, "/proc/%d/status %s: '%s', want "
	    "'%s'", (int)pid, name, v, want);
}

/* Highest descriptor number open in pid, from /proc/PID/fd. */
static long
proc_max_fd(pid_t pid)
{
	char path[64];
	struct dirent *e;
	DIR *d;
	long top = -1, fd;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	ck_assert_ptr_nonnull(d = opendir(path));
	while ((e = readdir(d)) != NULL) {
		fd = strtol(e->d_name, NULL, 10);
		if (e->d_name[0] != '.' && fd > top)
			top = fd;
	}
	closedir(d);
	return top;
}

/*
 * The hard limit of one line of /proc/PID/limits (readable by anyone,
 * unlike prlimit(2) on another process, which needs CAP_SYS_RESOURCE).
 */
static long
proc_limit(pid_t pid, const char *name)
{
	char path[64], line[256], soft[32], hard[32];
	size_t nl = strlen(name);
	long v = -2;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/limits", (int)pid);
	ck_assert_ptr_nonnull(f = fopen(path, "r"));
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, name, nl) == 0 &&
		    sscanf(line + nl, "%31s %31s", soft, hard) == 2)
			v = strcmp(hard, "unlimited") == 0 ? -1 :
			    strtol(hard, NULL, 10);
	fclose(f);
	return v;
}

START_TEST(parser_sandbox_state)
{
	struct passwd *pw = getpwnam(NOBODY);
	struct child c;
	struct report r;
	char want[128], path[64], link[256], ops[64];
	ssize_t n;
	int st;

	ck_assert_ptr_nonnull(pw);
	child_start(&c, NOBODY, root_dir, NULL);
	ck_assert_int_eq(get_all(c.rep, &r, sizeof(r)), 0);
	ck_assert_msg(r.rc == 0, "enter: %d %s", r.rc, r.err);
	ck_assert_int_eq(r.seccomp_rc, 0);
	/* As the child sees itself, before its filter was loaded. */
	ck_assert_uint_eq(r.uid[0], pw->pw_uid);
	ck_assert_uint_eq(r.uid[1], pw->pw_uid);
	ck_assert_uint_eq(r.uid[2], pw->pw_uid);
	ck_assert_uint_eq(r.gid[0], pw->pw_gid);
	ck_assert_uint_eq(r.gid[2], pw->pw_gid);
	ck_assert_uint_ne(r.uid[0], 0);
	ck_assert_int_eq(r.ngroups, 1);
	ck_assert_uint_eq(r.groups[0], pw->pw_gid);
	ck_assert_uint_eq(r.caps.eff, 0);
	ck_assert_uint_eq(r.caps.prm, 0);
	ck_assert_uint_eq(r.caps.inh, 0);
	ck_assert_uint_eq(r.caps.bnd, 0);
	ck_assert_uint_eq(r.caps.amb, 0);
	ck_assert_int_eq(r.nnp, 1);
	ck_assert_int_eq(r.dumpable, 0);
	ck_assert_int_eq(r.proc_errno, ENOENT);		/* /proc is gone */
	ck_assert_int_eq(r.passwd_errno, ENOENT);	/* so is /etc */
	ck_assert_uint_eq(r.lim_nproc.rlim_max, 0);
	ck_assert_uint_eq(r.lim_core.rlim_max, 0);
#ifndef __SANITIZE_ADDRESS__
	ck_assert_uint_eq(r.lim_fsize.rlim_max, 0);
	ck_assert_uint_eq(r.lim_as.rlim_max, SANDBOX_PARSER_AS_MAX);
#endif
	/* As the kernel shows it from outside, with the filter loaded. */
	snprintf(want, sizeof(want), "%u\t%u\t%u\t%u", (unsigned)pw->pw_uid,
	    (unsigned)pw->pw_uid, (unsigned)pw->pw_uid, (unsigned)pw->pw_uid);
	assert_status(c.pid, "Uid", want);
	snprintf(want, sizeof(want), "%u\t%u\t%u\t%u", (unsigned)pw->pw_gid,
	    (unsigned)pw->pw_gid, (unsigned)pw->pw_gid, (unsigned)pw->pw_gid);
	assert_status(c.pid, "Gid", want);
	assert_status(c.pid, "CapInh", "0000000000000000");
	assert_status(c.pid, "CapPrm", "0000000000000000");
	assert_status(c.pid, "CapEff", "0000000000000000");
	assert_status(c.pid, "CapBnd", "0000000000000000");
	assert_status(c.pid, "CapAmb", "0000000000000000");
	assert_status(c.pid, "NoNewPrivs", "1");
	assert_status(c.pid, "Seccomp", "2");
	snprintf(path, sizeof(path), "/proc/%d/root", (int)c.pid);
	n = readlink(path, link, sizeof(link) - 1);
	ck_assert_int_gt(n, 0);
	link[n] = '\0';
	ck_assert_str_eq(link, root_dir);
	ck_assert_int_eq(proc_limit(c.pid, "Max open files"),
	    proc_max_fd(c.pid) + 1);
	ck_assert_int_eq(proc_limit(c.pid, "Max processes"), 0);
	/* The allowed loop. */
	ck_assert_int_eq(write(c.go, "g", 1), 1);
	ck_assert_int_eq(get_all(c.rep, ops, sizeof(ops)), 0);
	ck_assert_msg(ops[0] == '\0', "failed inside the sandbox: %s", ops);
	st = child_wait(&c);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status 0x%x", st);
}
END_TEST

/* A user that does not exist: "nobody" and a warning. */
START_TEST(parser_user_fallback)
{
	struct child c;
	struct report r;
	char ops[64];
	int st;

	child_start(&c, "batsec-no-such-user", root_dir, NULL);
	ck_assert_int_eq(get_all(c.rep, &r, sizeof(r)), 0);
	ck_assert_msg(r.rc == 1, "enter: %d %s", r.rc, r.err);
	ck_assert_msg(strstr(r.err, "user 'batsec-no-such-user' does not "
	    "exist; the parser runs as 'nobody'") != NULL, "%s", r.err);
	ck_assert_uint_eq(r.uid[0], getpwnam(NOBODY)->pw_uid);
	ck_assert_int_eq(write(c.go, "g", 1), 1);
	ck_assert_int_eq(get_all(c.rep, ops, sizeof(ops)), 0);
	ck_assert_str_eq(ops, "");
	st = child_wait(&c);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}
END_TEST

/* ---- refusals of sandbox_parser_enter ------------------------------------------------ */

static char bad_dir[128];	/* made per case by the table's setup */

static void
mk_bad(mode_t mode, uid_t owner, int with_file)
{
	char path[192];
	int fd;

	snprintf(bad_dir, sizeof(bad_dir), "%s.bad", root_dir);
	ck_assert_int_eq(mkdir(bad_dir, 0755), 0);
	ck_assert_int_eq(chmod(bad_dir, mode), 0);
	ck_assert_int_eq(chown(bad_dir, owner, 0), 0);
	if (with_file) {
		snprintf(path, sizeof(path), "%s/x", bad_dir);
		ck_assert_int_ge(fd = open(path, O_CREAT | O_WRONLY, 0600), 0);
		close(fd);
	}
}

/* Remove what mk_bad made (never root_dir itself). */
static void
rm_bad(void)
{
	char path[192];

	snprintf(path, sizeof(path), "%s.bad/x", root_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s.bad/sub", root_dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s.bad", root_dir);
	rmdir(path);
}

static void
setup_ok(void) { snprintf(bad_dir, sizeof(bad_dir), "%s", root_dir); }
static void
setup_grpw(void) { mk_bad(0775, 0, 0); }
static void
setup_sticky(void) { mk_bad(01777, 0, 0); }
static void
setup_owner(void) { mk_bad(0755, 65534, 0); }
static void
setup_full(void) { mk_bad(0755, 0, 1); }
static void
setup_file(void)
{
	mk_bad(0755, 0, 1);
	snprintf(bad_dir + strlen(bad_dir), sizeof(bad_dir) - strlen(bad_dir),
	    "/x");
}
static void
setup_parent_w(void)
{
	mk_bad(0777, 0, 0);
	snprintf(bad_dir + strlen(bad_dir), sizeof(bad_dir) - strlen(bad_dir),
	    "/sub");
	ck_assert_int_eq(mkdir(bad_dir, 0755), 0);
}
static void
setup_relative(void) { snprintf(bad_dir, sizeof(bad_dir), "tmp"); }
static void
setup_missing(void)
{
	snprintf(bad_dir, sizeof(bad_dir), "%s.none", root_dir);
}

static void
pre_not_root(void)
{
	if (setresuid(65534, 65534, 65534) != 0)
		_exit(92);
}

static void
pre_no_setpcap(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) != 0)
		_exit(93);
	d[0].permitted &= ~(1u << CAP_SETPCAP);
	d[0].effective &= ~(1u << CAP_SETPCAP);
	if (syscall(SYS_capset, &h, d) != 0)
		_exit(94);
}

struct enter_case {
	const char *name;
	const char *user;
	void (*setup)(void);
	void (*pre)(void);
	const char *want;
};

static const struct enter_case enter_cases[] = {
	{ "root user", "root", setup_ok, NULL,
	  "refusing to run the parser as user 'root' (uid 0, gid 0)" },
	{ "relative dir", NOBODY, setup_relative, NULL,
	  "chroot directory 'tmp' is not an absolute path" },
	{ "missing dir", NOBODY, setup_missing, NULL,
	  "No such file or directory" },
	{ "group-writable", NOBODY, setup_grpw, NULL,
	  "is writable by group or others (mode 0775)" },
	{ "sticky top", NOBODY, setup_sticky, NULL,
	  "is writable by group or others (mode 1777)" },
	{ "not root-owned", NOBODY, setup_owner, NULL,
	  "is owned by uid 65534, not root" },
	{ "not empty", NOBODY, setup_full, NULL, "is not empty" },
	{ "a file", NOBODY, setup_file, NULL, "is not a directory" },
	{ "writable parent", NOBODY, setup_parent_w, NULL,
	  "is writable by group or others (mode 0777)" },
	{ "not root", NOBODY, setup_ok, pre_not_root,
	  "the parser must start as root to drop privileges (euid 65534)" },
	{ "no CAP_SETPCAP", NOBODY, setup_ok, pre_no_setpcap,
	  "capability 8 is not permitted" },
};

START_TEST(parser_enter_refused)
{
	const struct enter_case *e = &enter_cases[_i];
	struct child c;
	struct report r;
	int st;

	e->setup();
	child_start(&c, e->user, bad_dir, e->pre);
	ck_assert_int_eq(get_all(c.rep, &r, sizeof(r)), 0);
	st = child_wait(&c);
	rm_bad();
	ck_assert_msg(r.rc == -1, "%s: rc %d (%s)", e->name, r.rc, r.err);
	ck_assert_msg(strstr(r.err, e->want) != NULL, "%s: '%s' lacks '%s'",
	    e->name, r.err, e->want);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2);
}
END_TEST

START_TEST(chroot_prepare)
{
	char dir[128], err[256];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s.new", root_dir);
	ck_assert_int_eq(sandbox_chroot_check(dir, err, sizeof(err)), -1);
	umask(077);
	ck_assert_msg(sandbox_chroot_prepare(dir, err, sizeof(err)) == 0,
	    "%s", err);
	ck_assert_int_eq(lstat(dir, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0755);
	ck_assert_uint_eq(st.st_uid, 0);
	ck_assert_uint_eq(st.st_gid, 0);
	ck_assert_int_eq(sandbox_chroot_check(dir, err, sizeof(err)), 0);
	/* An existing directory with a bad mode is refused, not repaired. */
	ck_assert_int_eq(chmod(dir, 0757), 0);
	ck_assert_int_eq(sandbox_chroot_prepare(dir, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "mode 0757") != NULL, "%s", err);
	ck_assert_int_eq(rmdir(dir), 0);
	ck_assert_int_eq(sandbox_chroot_prepare("rel", err, sizeof(err)), -1);
	ck_assert_int_eq(sandbox_chroot_prepare(NULL, err, sizeof(err)), -1);
}
END_TEST

/* ---- forbidden in the parser: killed with SIGSYS -------------------------------------- */

static uint8_t exec_page[4096] __attribute__((aligned(4096)));

struct forbidden {
	const char *name;
	long nr;
	long a[6];
};

static const struct forbidden parser_forbidden[] = {
	/*
	 * Sanitizer builds answer open and openat with ENOENT instead, so
	 * that a report from inside the sandbox completes (sandbox.c).
	 */
#ifndef __SANITIZE_ADDRESS__
	{ "openat", SYS_openat, { AT_FDCWD, (long)"/", O_RDONLY } },
#ifdef SYS_open
	{ "open", SYS_open, { (long)"/", O_RDONLY } },
#endif
#endif
	{ "socket", SYS_socket, { AF_UNIX, SOCK_DGRAM, 0 } },
	{ "socketpair", SYS_socketpair, { AF_UNIX, SOCK_DGRAM, 0, 0 } },
	{ "connect", SYS_connect, { 0, 0, 0 } },
	{ "execve", SYS_execve, { (long)"/nonexistent", 0, 0 } },
	{ "clone", SYS_clone, { SIGCHLD, 0, 0, 0, 0 } },
#ifdef SYS_fork
	{ "fork", SYS_fork, { 0 } },
#endif
	{ "kill", SYS_kill, { 0, 0 } },
	{ "tgkill", SYS_tgkill, { 0, 0, 0 } },
	{ "ptrace", SYS_ptrace, { PTRACE_TRACEME, 0, 0, 0 } },
#ifdef SYS_mmap2			/* 32-bit: mmap2 takes pages, mmap is old */
	{ "mmap2 exec", SYS_mmap2, { 0, 4096, PROT_READ | PROT_EXEC,
	  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 } },
#else
	{ "mmap exec", SYS_mmap, { 0, 4096, PROT_READ | PROT_EXEC,
	  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 } },
#endif
	{ "mprotect exec", SYS_mprotect, { (long)exec_page, 4096,
	  PROT_READ | PROT_EXEC } },
	{ "dup", SYS_dup, { 0 } },
	{ "setuid", SYS_setuid, { 0 } },
	{ "prctl", SYS_prctl, { PR_SET_DUMPABLE, 1 } },
	{ "ioctl", SYS_ioctl, { 0, TIOCSTI, 0 } },
	{ "ioctl fionbio", SYS_ioctl, { 3, FIONBIO, 0 } },
	{ "chdir", SYS_chdir, { (long)"/" } },
	{ "getdents64", SYS_getdents64, { 0, 0, 0 } },
	{ "setsockopt", SYS_setsockopt, { 3, SOL_SOCKET, SO_RCVBUF, 0, 0 } },
	{ "uname", SYS_uname, { 0 } },
};

START_TEST(parser_forbidden_killed)
{
	const struct forbidden *f = &parser_forbidden[_i];
	char err[256];

	/* No ck_assert from here on: an exit status other than SIGSYS fails. */
	if (sandbox_parser_enter(NOBODY, root_dir, err, sizeof(err)) != 0)
		_exit(3);
	if (sandbox_parser_seccomp() != 0)
		_exit(4);
	syscall(f->nr, f->a[0], f->a[1], f->a[2], f->a[3], f->a[4], f->a[5]);
	_exit(5);
}
END_TEST

/* Debug mode: the number goes to stderr and the exit status says SIGSYS. */
static void
debug_mode_child(int parser, long nr, const char *want)
{
	char err[256], out[512];
	int p[2], st;
	ssize_t n;
	pid_t pid;

	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(p[1], STDERR_FILENO);
		sandbox_set_debug(1);
		if (parser && (sandbox_parser_enter(NOBODY, root_dir, err,
		    sizeof(err)) != 0 || sandbox_parser_seccomp() != 0))
			_exit(3);
		if (!parser && sandbox_forwarder_seccomp(-1) != 0)
			_exit(4);
		syscall(nr, 0, 0, 0, 0, 0, 0);
		_exit(5);
	}
	close(p[1]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	n = read(p[0], out, sizeof(out) - 1);
	close(p[0]);
	ck_assert_int_gt(n, 0);
	out[n] = '\0';
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == SANDBOX_SIGSYS_EXIT,
	    "status 0x%x, stderr '%s'", st, out);
	ck_assert_msg(strstr(out, want) != NULL, "'%s' lacks '%s'", out, want);
}

START_TEST(debug_mode_traps)
{
	char want[64];

	snprintf(want, sizeof(want), "seccomp: system call %d is not allowed",
	    SYS_socket);
	debug_mode_child(1, SYS_socket, want);
	snprintf(want, sizeof(want), "seccomp: system call %d is not allowed",
	    SYS_mount);
	debug_mode_child(0, SYS_mount, want);
}
END_TEST

#ifdef __SANITIZE_ADDRESS__
/*
 * Sanitizer builds: a bug found inside the parser's sandbox still gives a
 * complete, symbolized report (the sandbox primes the symbolizer).
 */
START_TEST(sanitizer_report_in_sandbox)
{
	static char out[16384];
	static char *volatile stale;
	volatile int off = 3;
	char err[256];
	size_t len = 0;
	ssize_t n;
	int fds[2], st;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(fds[1], STDERR_FILENO);
		stale = malloc(16);
		if (sandbox_parser_enter(NOBODY, root_dir, err, sizeof(err)) != 0 ||
		    sandbox_parser_seccomp() != 0)
			_exit(3);
		free(stale);
		stale[off] = 1;		/* use after free */
		_exit(4);
	}
	close(fds[1]);
	while (len < sizeof(out) - 1 &&
	    (n = read(fds[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += (size_t)n;
	out[len] = '\0';
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) != 4, "status 0x%x",
	    st);
	ck_assert_msg(strstr(out, "heap-use-after-free") != NULL &&
	    strstr(out, "sanitizer_report_in_sandbox") != NULL &&
	    strstr(out, "SUMMARY") != NULL, "report: %s", out);
}
END_TEST
#endif

/* ---- the forwarder -------------------------------------------------------------------- */

START_TEST(forwarder_caps_exact)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	struct sandbox_caps c;
	char err[256], path[128];
	int fd;

	/* Something inheritable and ambient first, to see it cleared. */
	ck_assert_int_eq(syscall(SYS_capget, &h, d), 0);
	d[0].inheritable |= 1u << CAP_NET_RAW;
	ck_assert_int_eq(syscall(SYS_capset, &h, d), 0);
	ck_assert_int_eq(prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE,
	    CAP_NET_RAW, 0, 0), 0);
	ck_assert_msg(sandbox_forwarder_caps(err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(sandbox_caps_read(&c), 0);
	ck_assert_uint_eq(c.eff, SANDBOX_FWD_EFFECTIVE);
	ck_assert_uint_eq(c.prm, SANDBOX_FWD_PERMITTED);
	ck_assert_uint_eq(c.inh, 0);
	ck_assert_uint_eq(c.bnd, SANDBOX_FWD_PERMITTED);
	ck_assert_uint_eq(c.amb, 0);
	assert_status(getpid(), "CapEff", "0000000000003000");
	assert_status(getpid(), "CapPrm", "00000000000431e0");
	assert_status(getpid(), "CapBnd", "00000000000431e0");
	/* A dropped capability cannot come back. */
	ck_assert_int_eq(syscall(SYS_capget, &h, d), 0);
	d[0].effective |= 1u << CAP_SYS_ADMIN;
	d[0].permitted |= 1u << CAP_SYS_ADMIN;
	ck_assert_int_eq(syscall(SYS_capset, &h, d), -1);
	ck_assert_int_eq(errno, EPERM);
	/* What the kept ones allow, and what the dropped ones no longer do. */
	ck_assert_int_ge(fd = socket(AF_PACKET, SOCK_RAW, 0), 0);
	close(fd);
	snprintf(path, sizeof(path), "%s.f", root_dir);
	ck_assert_int_ge(fd = open(path, O_CREAT | O_WRONLY, 0600), 0);
	close(fd);
	ck_assert_int_eq(chown(path, 65534, 65534), -1);	/* CAP_CHOWN */
	ck_assert_int_eq(errno, EPERM);
	ck_assert_int_eq(chmod(path, 0), 0);
	ck_assert_int_eq(open(path, O_RDONLY), -1);	/* CAP_DAC_OVERRIDE */
	ck_assert_int_eq(errno, EACCES);
	ck_assert_int_eq(unlink(path), 0);
}
END_TEST

START_TEST(forwarder_caps_not_root)
{
	struct sandbox_caps c;
	char err[256];

	ck_assert_int_eq(setresuid(65534, 65534, 65534), 0);
	ck_assert_int_eq(sandbox_forwarder_caps(err, sizeof(err)), 0);
	ck_assert_int_eq(sandbox_caps_read(&c), 0);
	ck_assert_uint_eq(c.eff, 0);
}
END_TEST

/* The forwarder's sandbox, its one exec that of exe (-1: none). */
static void
fwd_enter(int exe)
{
	char err[256];

	ck_assert_msg(sandbox_forwarder_caps(err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(sandbox_forwarder_seccomp(exe), 0);
}

/* A descriptor of path for sandbox_exe_exec, opened as the forwarder's. */
static int
exe_open(const char *path)
{
	char err[256];
	int fd = sandbox_exe_open(path, err, sizeof(err));

	ck_assert_msg(fd >= SANDBOX_EXE_FD_MIN, "%s", err);
	return fd;
}

/* File work of the forwarder: temp + fsync + rename, modes, listing. */
static void
fwd_files(void)
{
	char dir[128], tmp[160], dst[160];
	struct dirent *e;
	DIR *d;
	int fd, n = 0;

	snprintf(dir, sizeof(dir), "%s.state", root_dir);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	snprintf(tmp, sizeof(tmp), "%s/policy.tmp", dir);
	snprintf(dst, sizeof(dst), "%s/policy", dir);
	ck_assert_int_ge(fd = open(tmp, O_CREAT | O_WRONLY | O_TRUNC |
	    O_CLOEXEC, 0600), 0);
	ck_assert_int_eq(write(fd, "mode open\n", 10), 10);
	ck_assert_int_eq(fsync(fd), 0);
	ck_assert_int_eq(fchmod(fd, 0640), 0);
	ck_assert_int_eq(close(fd), 0);
	ck_assert_int_eq(rename(tmp, dst), 0);
	ck_assert_ptr_nonnull(d = opendir(dir));
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	closedir(d);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(unlink(dst), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}

/* The event-loop kinds of descriptors. */
static void
fwd_descriptors(void)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct itimerspec its = { .it_value = { 0, 1000000 } };
	struct ifreq ifr;
	sigset_t set;
	int ep, fd, sv[2];

	ck_assert_int_ge(ep = epoll_create1(EPOLL_CLOEXEC), 0);
	ck_assert_int_ge(fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC,
	    0), 0);
	close(fd);
	ck_assert_int_ge(fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
	    0), 0);
	close(fd);
	/* Interface queries on any socket (inet sockets are refused). */
	ck_assert_int_ge(fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0), 0);
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	ck_assert_int_eq(ioctl(fd, SIOCGIFINDEX, &ifr), 0);
	ck_assert_int_gt(ifr.ifr_ifindex, 0);
	close(fd);
	ck_assert_int_eq(ipc_socketpair(sv), 0);
	ck_assert_int_eq(epoll_ctl(ep, EPOLL_CTL_ADD, sv[0], &ev), 0);
	ck_assert_int_eq(write(sv[1], "x", 1), 1);
	ck_assert_int_eq(epoll_wait(ep, &ev, 1, 5000), 1);
	close(sv[0]);
	close(sv[1]);
	ck_assert_int_ge(fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC), 0);
	ck_assert_int_eq(timerfd_settime(fd, 0, &its, NULL), 0);
	close(fd);
	ck_assert_int_ge(fd = eventfd(0, EFD_CLOEXEC), 0);
	close(fd);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	ck_assert_int_ge(fd = signalfd(-1, &set, SFD_CLOEXEC), 0);
	close(fd);
	close(ep);
}

/* Start, watch and stop children, as with the parser: exe is /bin/true. */
static void
fwd_children(int exe)
{
	char *const argv[] = { "true", NULL }, *const envp[] = { NULL };
	pid_t pid;
	int st, pfd;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(7);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 7);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		sandbox_exe_exec(exe, argv, envp);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		for (;;)
			sleep(10);
	}
	ck_assert_int_ge(pfd = (int)syscall(SYS_pidfd_open, pid, 0), 0);
	/* SIGKILL: the child inherited Check's SIGTERM handler. */
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	close(pfd);
}

START_TEST(forwarder_allowed)
{
	struct timespec ts = { 0, 1000000 };
	int exe = exe_open("/bin/true");

	fwd_enter(exe);
	fwd_files();
	fwd_descriptors();
	fwd_children(exe);
	ck_assert_ptr_nonnull(getpwnam(NOBODY));
	ck_assert_ptr_null(getpwnam("batsec-no-such-user"));
	ck_assert_int_eq(nanosleep(&ts, NULL), 0);
	ck_assert_int_eq(clock_gettime(CLOCK_MONOTONIC, &ts), 0);
}
END_TEST

/* Stand-ins in forwarder_forbidden: the binary's descriptor, "". */
#define EXE	(-1000L)
#define EMPTY	(-1001L)

static const struct forbidden forwarder_forbidden[] = {
	{ "ptrace", SYS_ptrace, { PTRACE_TRACEME, 0, 0, 0 } },
	{ "ptrace peek", SYS_ptrace, { PTRACE_PEEKDATA, 1, 0, 0 } },
	{ "mount", SYS_mount, { 0, 0, 0, 0, 0 } },
	{ "umount2", SYS_umount2, { (long)"/nonexistent", 0 } },
	{ "kexec_load", SYS_kexec_load, { 0, 0, 0, 0 } },
	{ "init_module", SYS_init_module, { 0, 0, 0 } },
	{ "finit_module", SYS_finit_module, { -1, 0, 0 } },
	{ "bpf", SYS_bpf, { -1, 0, 0 } },
	{ "unshare", SYS_unshare, { CLONE_NEWUSER } },
	{ "setns", SYS_setns, { -1, 0 } },
	{ "clone newuser", SYS_clone, { CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0 } },
	{ "clone newnet", SYS_clone, { CLONE_NEWNET | SIGCHLD, 0, 0, 0, 0 } },
	{ "socket bluetooth", SYS_socket, { AF_BLUETOOTH, SOCK_RAW, 0 } },
	{ "socket key", SYS_socket, { AF_KEY, SOCK_RAW, 2 } },
	{ "ioctl tiocsti", SYS_ioctl, { 0, TIOCSTI, 0 } },
	{ "perf_event_open", SYS_perf_event_open, { 0, 0, -1, -1, 0 } },
	{ "keyctl", SYS_keyctl, { 0, 0, 0, 0, 0 } },
	{ "userfaultfd", SYS_userfaultfd, { 0 } },
	{ "process_vm_readv", SYS_process_vm_readv, { 1, 0, 0, 0, 0, 0 } },
	{ "reboot", SYS_reboot, { 0, 0, 0, 0 } },
	{ "swapon", SYS_swapon, { 0, 0 } },
	{ "pivot_root", SYS_pivot_root, { 0, 0 } },
	{ "open_by_handle_at", SYS_open_by_handle_at, { -1, 0, 0 } },
	{ "prctl set_mm", SYS_prctl, { PR_SET_MM, 0, 0, 0, 0 } },
	{ "execveat", SYS_execveat, { -1, 0, 0, 0, 0 } },
	/* Nothing uses them after the filter is loaded (#20). */
	{ "socket inet", SYS_socket, { AF_INET, SOCK_DGRAM, 0 } },
	{ "socket inet6", SYS_socket, { AF_INET6, SOCK_DGRAM, 0 } },
	{ "ioctl siocsifflags", SYS_ioctl, { 0, SIOCSIFFLAGS, 0 } },
	{ "ioctl siocsifmtu", SYS_ioctl, { 0, SIOCSIFMTU, 0 } },
	{ "ioctl siocsifhwaddr", SYS_ioctl, { 0, SIOCSIFHWADDR, 0 } },
	/* The only exec is sandbox_exe_exec of the binary's descriptor
	 * (EXE below); an absolute path would ignore the descriptor. */
	{ "execve", SYS_execve, { (long)"/bin/true", 0, 0 } },
	{ "execveat path", SYS_execveat, { AT_FDCWD, (long)"/bin/true", 0, 0,
	  0 } },
	{ "execveat exe + path", SYS_execveat, { EXE, (long)"/bin/true", 0,
	  0, AT_EMPTY_PATH } },
	{ "execveat exe, other flags", SYS_execveat, { EXE, EMPTY, 0, 0,
	  AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW } },
	{ "execveat other fd", SYS_execveat, { 0, EMPTY, 0, 0,
	  AT_EMPTY_PATH } },
};

START_TEST(forwarder_forbidden_killed)
{
	const struct forbidden *f = &forwarder_forbidden[_i];
	char *const argv[] = { "true", NULL };
	char err[256];
	long a[6];
	int i, exe = sandbox_exe_open("/bin/true", err, sizeof(err));

	if (exe < 0 || sandbox_forwarder_seccomp(exe) != 0)
		_exit(4);
	for (i = 0; i < 6; i++)
		a[i] = f->a[i] == EXE ? exe : f->a[i] == EMPTY ? (long)"" :
		    f->a[i];
	if (f->nr == SYS_execve || f->nr == SYS_execveat)
		a[f->nr == SYS_execve ? 1 : 2] = (long)argv;
	syscall(f->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	_exit(5);
}
END_TEST

/* The one exec allowed runs the binary; it fails, not kills, when the
 * file cannot run (the filter let it through). */
START_TEST(forwarder_exec_fd)
{
	char *const argv[] = { "true", NULL }, *const envp[] = { NULL };
	int exe = exe_open("/bin/true"), st;
	pid_t pid;

	ck_assert_int_eq(fcntl(exe, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	fwd_enter(exe);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		sandbox_exe_exec(exe, argv, envp);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status 0x%x",
	    st);
}
END_TEST

/* clone3 cannot be filtered by its flags: it says ENOSYS, libc falls back. */
START_TEST(forwarder_clone3_enosys)
{
	fwd_enter(-1);
	errno = 0;
	ck_assert_int_eq(syscall(SYS_clone3, NULL, 0), -1);
	ck_assert_int_eq(errno, ENOSYS);
}
END_TEST

/* ---- the real thing: fork + execve of a parser under the forwarder's sandbox ---------- */

static int
parser_child_main(const char *dir)
{
	struct ops_env env;
	struct sandbox_caps c;
	struct ipc ch;
	const char *bad;
	char err[256];
	uid_t uid;
	int rc;

	if (bs_crypto_init() != 0 ||
	    ipc_init(&ch, 3, IPC_ROLE_PARSER, 0, err, sizeof(err)) != 0)
		return 10;
	ops_env_init(&env);
	rc = sandbox_parser_enter(NOBODY, dir, err, sizeof(err));
	if (rc != 0) {
		ipc_logf(&ch, IPC_LOG_ERR, "enter: %s", err);
		ipc_flush_wait(&ch, 5000);
		return 11;
	}
	uid = getuid();
	if (sandbox_caps_read(&c) != 0 || sandbox_parser_seccomp() != 0) {
		ipc_logf(&ch, IPC_LOG_ERR, "seccomp: %s", strerror(errno));
		ipc_flush_wait(&ch, 5000);
		return 12;
	}
	bad = parser_ops(&env);
	ipc_logf(&ch, IPC_LOG_INFO, "parser uid %u caps %llx %llx %llx %llx "
	    "%llx ops %s", (unsigned)uid, (unsigned long long)c.eff,
	    (unsigned long long)c.prm, (unsigned long long)c.inh,
	    (unsigned long long)c.bnd, (unsigned long long)c.amb,
	    bad != NULL ? bad : "ok");
	return ipc_flush_wait(&ch, 5000) == 0 ? 0 : 13;
}

START_TEST(forwarder_starts_parser)
{
	struct ipc ch;
	struct ipc_msg m;
	struct ipc_log l;
	struct pollfd pfd;
	char err[256], want[128];
	char *const argv[] = { "check_sandbox", "--parser-child", root_dir,
	    NULL }, *const envp[] = { NULL };
	int sv[2], st, r = IPC_RECV_NONE, exe = exe_open(NULL);
	pid_t pid;

	ck_assert_int_eq(ipc_socketpair(sv), 0);
	fwd_enter(exe);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (dup2(sv[1], 3) != 3)
			_exit(126);
		sandbox_exe_exec(exe, argv, envp);
		_exit(127);
	}
	close(sv[1]);
	ck_assert_int_eq(ipc_init(&ch, sv[0], IPC_ROLE_FORWARDER, 0, err,
	    sizeof(err)), 0);
	pfd.fd = ch.fd;
	pfd.events = POLLIN;
	while (r == IPC_RECV_NONE) {
		ck_assert_int_eq(poll(&pfd, 1, 60000), 1);
		r = ipc_recv(&ch, &m, err, sizeof(err));
	}
	ck_assert_msg(r == IPC_RECV_MSG, "recv %d: %s", r, err);
	ck_assert_int_eq(ipc_get(&m, IPC_LOG, &l, sizeof(l)), 0);
	snprintf(want, sizeof(want), "parser uid %u caps 0 0 0 0 0 ops ok",
	    (unsigned)getpwnam(NOBODY)->pw_uid);
	ck_assert_str_eq(l.text, want);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status 0x%x",
	    st);
	ipc_close(&ch);
}
END_TEST

static Suite *
sandbox_suite(void)
{
	Suite *s = suite_create("sandbox");
	TCase *tc;

	tc = tcase_create("parser");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, parser_sandbox_state);
	tcase_add_test(tc, parser_user_fallback);
	tcase_add_loop_test(tc, parser_enter_refused, 0,
	    (int)(sizeof(enter_cases) / sizeof(enter_cases[0])));
	tcase_add_test(tc, chroot_prepare);
	tcase_add_loop_test_raise_signal(tc, parser_forbidden_killed, SIGSYS,
	    0, (int)(sizeof(parser_forbidden) / sizeof(parser_forbidden[0])));
	tcase_add_test(tc, debug_mode_traps);
#ifdef __SANITIZE_ADDRESS__
	tcase_add_test(tc, sanitizer_report_in_sandbox);
#endif
	suite_add_tcase(s, tc);

	tc = tcase_create("forwarder");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, forwarder_caps_exact);
	tcase_add_test(tc, forwarder_caps_not_root);
	tcase_add_test(tc, forwarder_allowed);
	tcase_add_loop_test_raise_signal(tc, forwarder_forbidden_killed,
	    SIGSYS, 0,
	    (int)(sizeof(forwarder_forbidden) / sizeof(forwarder_forbidden[0])));
	tcase_add_test(tc, forwarder_clone3_enosys);
	tcase_add_test(tc, forwarder_exec_fd);
	tcase_add_test(tc, forwarder_starts_parser);
	suite_add_tcase(s, tc);
	return s;
}

/* What a failed test may leave next to root_dir. */
static void
cleanup_aside(void)
{
	static const char *const files[] = { ".state/policy",
	    ".state/policy.tmp", ".f", ".bad/x" };
	static const char *const dirs[] = { ".state", ".new", ".bad/sub",
	    ".bad" };
	char path[192];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root_dir, files[i]);
		unlink(path);
	}
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root_dir, dirs[i]);
		rmdir(path);
	}
}

int
main(int argc, char **argv)
{
	int rc;

	/* Trap instead of kill: stderr names a system call a new libc needs. */
	if (getenv("BATSEC_SECCOMP_DEBUG") != NULL)
		sandbox_set_debug(1);
	if (argc == 3 && strcmp(argv[1], "--parser-child") == 0)
		return parser_child_main(argv[2]);
	if (geteuid() != 0) {
		/* tests/run counts this line: the suite needs root. */
		printf("check_sandbox: needs root\n0%%: Checks: 1, Failures: 1, "
		    "Errors: 0\n");
		return EXIT_FAILURE;
	}
	if (bs_crypto_init() != 0)
		return EXIT_FAILURE;
	snprintf(root_dir, sizeof(root_dir), "/tmp/bs-chroot.XXXXXX");
	if (mkdtemp(root_dir) == NULL || chmod(root_dir, 0755) != 0) {
		perror("check_sandbox: mkdtemp");
		return EXIT_FAILURE;
	}
	rc = t_run(sandbox_suite());
	cleanup_aside();
	rmdir(root_dir);
	return rc;
}
