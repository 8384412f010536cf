/*
 * check_seccomp_arch.c — the parser's and the forwarder's seccomp filters
 * as they are built for each architecture batsec runs on (x86-64, and the
 * routers' mipsel, 32-bit ARM and arm64), whatever machine runs the test.
 *
 * sandbox_seccomp_export() writes the BPF program of a filter for another
 * architecture; a small interpreter of classic BPF (the instructions
 * libseccomp emits; any other one fails the test) runs it over a
 * struct seccomp_data of that architecture, so the test asserts what the
 * kernel would decide: each call the code path makes on that architecture
 * (the 32-bit ABIs' mmap2, fstat64, *_time64, ...) is allowed, and
 * dangerous ones (execve, ptrace, socket in the parser, socket(AF_INET) in
 * the forwarder, executable mappings) kill, and socketcall fails with
 * ENOSYS where the architecture has it.  Nothing is loaded; but libseccomp
 * asks the kernel about its actions before building a filter, so under
 * qemu-user (no seccomp(2)) the program says SKIP and runs no test.
 */
#include <check.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/if_tun.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/sandbox.h"
#include "lib/t_check.h"

struct arch {
	const char *name;
	uint32_t token;		/* SCMP_ARCH_*, which is the AUDIT_ARCH_* */
	int bits;
};

static const struct arch arches[] = {
	{ "x86-64", SCMP_ARCH_X86_64, 64 },
	{ "mipsel", SCMP_ARCH_MIPSEL, 32 },
	{ "arm", SCMP_ARCH_ARM, 32 },
	{ "aarch64", SCMP_ARCH_AARCH64, 64 },
};

/* The exported program of one filter. */
struct prog {
	struct sock_filter *insn;
	size_t n;
};

static void
export(const struct arch *a, enum sandbox_filter which, struct prog *p)
{
	FILE *f = tmpfile();
	long len;

	ck_assert_ptr_nonnull(f);
	ck_assert_msg(sandbox_seccomp_export(a->token, which, 5, 1,
	    fileno(f)) == 0, "%s: export: %s", a->name, strerror(errno));
	len = lseek(fileno(f), 0, SEEK_END);
	ck_assert_int_gt(len, 0);
	ck_assert_int_eq(len % (long)sizeof(struct sock_filter), 0);
	p->n = (size_t)len / sizeof(struct sock_filter);
	ck_assert_uint_le(p->n, BPF_MAXINSNS);
	p->insn = malloc((size_t)len);
	ck_assert_ptr_nonnull(p->insn);
	ck_assert_int_eq(pread(fileno(f), p->insn, (size_t)len, 0), len);
	fclose(f);
}

/* A 32-bit word of the seccomp_data at byte offset k. */
static uint32_t
word(const struct seccomp_data *d, uint32_t k)
{
	uint32_t w;

	ck_assert_msg(k % 4 == 0 && k + 4 <= sizeof(*d),
	    "BPF load at offset %u", k);
	memcpy(&w, (const uint8_t *)d + k, 4);
	return w;
}

/* The action the program returns for d (classic BPF, as the kernel runs it). */
static uint32_t
run(const struct prog *p, const struct seccomp_data *d)
{
	uint32_t A = 0, X = 0, mem[BPF_MEMWORDS] = { 0 };
	size_t pc = 0, steps = 0;

	for (;;) {
		const struct sock_filter *i;
		uint32_t k;
		int jump;

		ck_assert_msg(pc < p->n, "BPF ran off its end");
		ck_assert_uint_lt(steps++, 100000);
		i = &p->insn[pc++];
		k = i->k;
		switch (i->code) {
		case BPF_LD | BPF_W | BPF_ABS:	A = word(d, k); continue;
		case BPF_LD | BPF_IMM:		A = k; continue;
		case BPF_LDX | BPF_IMM:		X = k; continue;
		case BPF_LD | BPF_MEM:
			ck_assert_uint_lt(k, BPF_MEMWORDS); A = mem[k]; continue;
		case BPF_LDX | BPF_MEM:
			ck_assert_uint_lt(k, BPF_MEMWORDS); X = mem[k]; continue;
		case BPF_ST:
			ck_assert_uint_lt(k, BPF_MEMWORDS); mem[k] = A; continue;
		case BPF_STX:
			ck_assert_uint_lt(k, BPF_MEMWORDS); mem[k] = X; continue;
		case BPF_ALU | BPF_AND | BPF_K:	A &= k; continue;
		case BPF_ALU | BPF_OR | BPF_K:	A |= k; continue;
		case BPF_MISC | BPF_TAX:	X = A; continue;
		case BPF_MISC | BPF_TXA:	A = X; continue;
		case BPF_RET | BPF_K:		return k;
		case BPF_RET | BPF_A:		return A;
		case BPF_JMP | BPF_JA:		pc += k; continue;
		case BPF_JMP | BPF_JEQ | BPF_K:	jump = A == k; break;
		case BPF_JMP | BPF_JGT | BPF_K:	jump = A > k; break;
		case BPF_JMP | BPF_JGE | BPF_K:	jump = A >= k; break;
		case BPF_JMP | BPF_JSET | BPF_K: jump = (A & k) != 0; break;
		default:
			ck_abort_msg("BPF instruction 0x%04x at %zu not "
			    "interpreted", i->code, pc - 1);
			return 0;
		}
		pc += jump ? i->jt : i->jf;
	}
}

/*
 * MIPS o32 has both socketcall(2) and direct socket calls (the kernel's
 * syscall_o32.tbl); libseccomp names the direct ones by pseudo numbers,
 * as for x86's multiplexed calls, so their numbers are here.
 */
static const struct { const char *name; int nr; } o32_socket[] = {
	{ "bind", 4169 }, { "connect", 4170 }, { "recvfrom", 4176 },
	{ "recvmsg", 4177 }, { "send", 4178 }, { "sendmsg", 4179 },
	{ "sendto", 4180 },
	{ "socket", 4183 }, { "recvmmsg", 4335 }, { "sendmmsg", 4343 },
};

static int
sysnr(const struct arch *a, const char *name)
{
	int nr = seccomp_syscall_resolve_name_arch(a->token, name);
	int i;

	if (nr < 0 && a->token == SCMP_ARCH_MIPSEL)
		for (i = 0; i < T_NELEM(o32_socket); i++)
			if (strcmp(o32_socket[i].name, name) == 0)
				nr = o32_socket[i].nr;
	ck_assert_msg(nr >= 0, "%s has no system call %s", a->name, name);
	return nr;
}

/* What the filter of a does with the call name and its arguments. */
static uint32_t
verdict(const struct arch *a, const struct prog *p, const char *name,
    uint64_t a0, uint64_t a1, uint64_t a2)
{
	struct seccomp_data d;
	int nr = sysnr(a, name);

	memset(&d, 0, sizeof(d));
	d.nr = nr;
	d.arch = a->token;
	d.instruction_pointer = 0x400000;
	d.args[0] = a0;
	d.args[1] = a1;
	d.args[2] = a2;
	return run(p, &d);
}

#define ALLOWED		SCMP_ACT_ALLOW
#define KILLED		SCMP_ACT_KILL_PROCESS
#define NOSYS		SCMP_ACT_ERRNO(ENOSYS)

/* One expectation: the call with up to three arguments, on the
 * architectures of mask (1 << index in arches[]; 0: all of them). */
struct want {
	unsigned mask;
	const char *name;
	uint64_t a0, a1, a2;
	uint32_t act;
};

#define X86	(1u << 0)
#define MIPS	(1u << 1)
#define ARM	(1u << 2)
#define A64	(1u << 3)
#define B32	(MIPS | ARM)
#define ALL	0u

#define RW	(PROT_READ | PROT_WRITE)
#define RWX	(PROT_READ | PROT_WRITE | PROT_EXEC)

/*
 * The parser's main loop and its libc (glibc: the *_time64 calls first on
 * the 32-bit ABIs, the old ones after ENOSYS; mmap2 for mmap; fstat64 or
 * statx for stdio on stderr), and what it must never do.
 */
static const struct want parser_wants[] = {
	{ ALL, "read", 3, 0, 0, ALLOWED }, { ALL, "write", 2, 0, 0, ALLOWED },
	{ ALL, "writev", 2, 0, 0, ALLOWED },
	{ ALL, "recvmsg", 3, 0, 0, ALLOWED }, { ALL, "sendmsg", 3, 0, 0, ALLOWED },
	{ ALL, "sendto", 3, 0, 0, ALLOWED }, { ALL, "recvfrom", 3, 0, 0, ALLOWED },
	{ MIPS | ARM, "send", 3, 0, 0x4040, ALLOWED },
	{ ALL, "ppoll", 0, 1, 0, ALLOWED },
	{ X86 | B32, "poll", 0, 1, 1000, ALLOWED },
	{ B32, "ppoll_time64", 0, 1, 0, ALLOWED },
	{ ALL, "clock_gettime", 1, 0, 0, ALLOWED },
	{ B32, "clock_gettime64", 1, 0, 0, ALLOWED },
	{ ALL, "gettimeofday", 0, 0, 0, ALLOWED },
	{ ALL, "clock_nanosleep", 1, 0, 0, ALLOWED },
	{ B32, "clock_nanosleep_time64", 1, 0, 0, ALLOWED },
	{ ALL, "getrandom", 0, 32, 0, ALLOWED },
	{ ALL, "brk", 0, 0, 0, ALLOWED },
	{ X86 | A64, "mmap", 0, 4096, RW, ALLOWED },
	{ B32, "mmap2", 0, 4096, RW, ALLOWED },
	{ ALL, "mprotect", 0x10000, 4096, PROT_READ, ALLOWED },
	{ ALL, "munmap", 0x10000, 4096, 0, ALLOWED },
	{ ALL, "mremap", 0x10000, 4096, 8192, ALLOWED },
	{ ALL, "madvise", 0x10000, 4096, 0, ALLOWED },
	{ ALL, "rt_sigreturn", 0, 0, 0, ALLOWED },
	{ B32, "sigreturn", 0, 0, 0, ALLOWED },
	{ ALL, "restart_syscall", 0, 0, 0, ALLOWED },
	{ ALL, "exit", 0, 0, 0, ALLOWED }, { ALL, "exit_group", 1, 0, 0, ALLOWED },
	{ ALL, "close", 4, 0, 0, ALLOWED },
	{ X86 | A64, "fstat", 2, 0, 0, ALLOWED },
	{ X86 | A64, "newfstatat", 2, 0, 0, ALLOWED },
	{ B32, "fstat64", 2, 0, 0, ALLOWED },
	{ B32, "fstatat64", 2, 0, 0, ALLOWED },
	{ B32, "statx", 2, 0, 0, ALLOWED },
	{ ALL, "getpid", 0, 0, 0, ALLOWED },
	/* Never. */
	{ X86 | A64, "mmap", 0, 4096, RWX, KILLED },
	{ B32, "mmap2", 0, 4096, RWX, KILLED },
	{ ALL, "mprotect", 0x10000, 4096, PROT_READ | PROT_EXEC, KILLED },
	{ ALL, "execve", 0, 0, 0, KILLED }, { ALL, "execveat", 5, 0, 0, KILLED },
	{ ALL, "ptrace", 16, 1, 0, KILLED },
	{ ALL, "socket", AF_UNIX, SOCK_STREAM, 0, KILLED },
	{ ALL, "socket", AF_INET, SOCK_DGRAM, 0, KILLED },
	{ ALL, "connect", 3, 0, 0, KILLED },
#ifndef __SANITIZE_ADDRESS__	/* the sanitizer's report: isatty, open */
	{ ALL, "ioctl", 2, 0x5401 /* TCGETS, x86 */, 0, KILLED },
	{ ALL, "openat", 0, 0, 0, KILLED },
	{ X86 | B32, "open", 0, 0, 0, KILLED },
#endif
	{ ALL, "clone", 0, 0, 0, KILLED }, { ALL, "kill", 1, 9, 0, KILLED },
	{ ALL, "setuid", 0, 0, 0, KILLED },
	/* socketcall(SYS_SOCKET), (SYS_SENDMSG), (SYS_RECVMSG): its
	 * arguments are behind a pointer, so never allowed. */
	{ MIPS, "socketcall", 1, 0, 0, NOSYS },
	{ MIPS, "socketcall", 16, 0, 0, NOSYS },
	{ MIPS, "socketcall", 17, 0, 0, NOSYS },
};

/*
 * The forwarder: its event loop, sockets, files, starting and watching
 * the parser (the parser's own start-up runs under this filter too:
 * dynamic loader, thread pointer, credentials drop), and what it must
 * never do.
 */
static const struct want forwarder_wants[] = {
	{ ALL, "read", 3, 0, 0, ALLOWED }, { ALL, "write", 3, 0, 0, ALLOWED },
	{ ALL, "openat", 0, 0, 0, ALLOWED }, { ALL, "close", 3, 0, 0, ALLOWED },
	{ X86 | A64, "lseek", 3, 0, 0, ALLOWED },
	{ B32, "_llseek", 3, 0, 0, ALLOWED },
	{ X86 | A64, "fcntl", 3, 1, 0, ALLOWED },
	{ B32, "fcntl64", 3, 1, 0, ALLOWED },
	{ B32, "fstat64", 3, 0, 0, ALLOWED },
	{ B32, "fstatat64", 3, 0, 0, ALLOWED },
	{ ALL, "statx", 3, 0, 0, ALLOWED },
	{ B32, "ftruncate64", 3, 0, 0, ALLOWED },
	{ ALL, "socket", AF_UNIX, SOCK_DGRAM, 0, ALLOWED },
	{ ALL, "socket", AF_NETLINK, SOCK_RAW, 0, ALLOWED },
	{ ALL, "socket", AF_PACKET, SOCK_RAW, 0, ALLOWED },
	{ ALL, "bind", 3, 0, 0, ALLOWED }, { ALL, "sendto", 3, 0, 0, ALLOWED },
	{ ALL, "recvmsg", 3, 0, 0, ALLOWED },
	{ ALL, "recvmmsg", 3, 0, 0, ALLOWED },
	{ B32, "recvmmsg_time64", 3, 0, 0, ALLOWED },
	{ ALL, "epoll_ctl", 3, 1, 4, ALLOWED },
	{ ALL, "epoll_pwait", 3, 0, 8, ALLOWED },
	{ ALL, "timerfd_create", 1, 0, 0, ALLOWED },
	{ ALL, "timerfd_settime", 5, 0, 0, ALLOWED },
	{ B32, "timerfd_settime64", 5, 0, 0, ALLOWED },
	{ B32, "clock_gettime64", 1, 0, 0, ALLOWED },
	{ B32, "futex_time64", 0, 0, 0, ALLOWED },
	{ B32, "rt_sigtimedwait_time64", 0, 0, 0, ALLOWED },
	{ B32, "ppoll_time64", 0, 0, 0, ALLOWED },
	{ B32, "mmap2", 0, 4096, RWX, ALLOWED },
	{ X86 | A64, "mmap", 0, 4096, RWX, ALLOWED },
	{ ALL, "ioctl", 3, TUNSETIFF, 0, ALLOWED },
	{ ALL, "clone", SIGCHLD, 0, 0, ALLOWED },
	{ ALL, "wait4", 9, 0, 0, ALLOWED }, { ALL, "kill", 9, 9, 0, ALLOWED },
	{ ALL, "set_robust_list", 0, 0, 0, ALLOWED },
	{ X86, "arch_prctl", 0x1002, 0, 0, ALLOWED },
	{ MIPS, "set_thread_area", 0, 0, 0, ALLOWED },
	{ ARM, "set_tls", 0, 0, 0, ALLOWED },
	{ ARM, "ugetrlimit", 7, 0, 0, ALLOWED },
	{ B32, "sigreturn", 0, 0, 0, ALLOWED },
	{ ALL, "setresuid", 1, 1, 1, ALLOWED },
	{ MIPS | X86 | A64, "setgroups", 0, 0, 0, ALLOWED },
	{ ARM, "setgroups32", 0, 0, 0, ALLOWED },
	{ ARM, "setresuid32", 1, 1, 1, ALLOWED },
	{ ARM, "getuid32", 0, 0, 0, ALLOWED },
	{ ALL, "capset", 0, 0, 0, ALLOWED }, { ALL, "chroot", 0, 0, 0, ALLOWED },
	{ ALL, "seccomp", 1, 0, 0, ALLOWED },
	{ ALL, "prctl", PR_SET_NO_NEW_PRIVS, 1, 0, ALLOWED },
	{ ALL, "prctl", PR_CAPBSET_DROP, 0, 0, ALLOWED },
	{ MIPS, "prctl", PR_GET_FP_MODE, 0, 0, ALLOWED },	/* ld.so */
	{ ALL, "prctl", PR_SET_FP_MODE, 0, 0, KILLED },
	/* Never. */
	{ ALL, "execve", 0, 0, 0, KILLED },
	{ ALL, "execveat", 5, 0, 0x1000, KILLED },	/* another path */
	{ ALL, "socket", AF_INET, SOCK_DGRAM, 0, KILLED },
	{ ALL, "socket", AF_INET6, SOCK_STREAM, 0, KILLED },
	{ ALL, "clone", SIGCHLD | CLONE_NEWNET, 0, 0, KILLED },
	{ ALL, "clone", SIGCHLD | CLONE_NEWUSER, 0, 0, KILLED },
	{ ALL, "clone3", 0, 0, 0, NOSYS },
	{ ALL, "ioctl", 3, 0x8914 /* SIOCSIFFLAGS */, 0, KILLED },
	{ ALL, "prctl", PR_SET_MM, 0, 0, KILLED },
	{ ALL, "mount", 0, 0, 0, KILLED }, { ALL, "unshare", 0, 0, 0, KILLED },
	{ ALL, "setns", 3, 0, 0, KILLED },
	{ ALL, "init_module", 0, 0, 0, KILLED },
	{ ALL, "bpf", 5 /* BPF_PROG_LOAD */, 0, 0, KILLED },
#ifndef __SANITIZE_ADDRESS__	/* LeakSanitizer's ptrace requests */
	{ ALL, "ptrace", 16, 1, 0, KILLED },
#endif
	{ MIPS, "socketcall", 1 /* SYS_SOCKET */, 0, 0, NOSYS },
	{ MIPS, "socketcall", 3 /* SYS_CONNECT */, 0, 0, NOSYS },
	{ MIPS, "socketcall", 11 /* SYS_SENDTO */, 0, 0, NOSYS },
	{ MIPS, "socketcall", 17 /* SYS_RECVMSG */, 0, 0, NOSYS },
};

static void
check_wants(const struct arch *a, const struct prog *p,
    const struct want *w, size_t n)
{
	size_t i;
	unsigned bit = 1u << (a - arches);

	for (i = 0; i < n; i++) {
		uint32_t got;

		if (w[i].mask != 0 && (w[i].mask & bit) == 0)
			continue;
		got = verdict(a, p, w[i].name, w[i].a0, w[i].a1, w[i].a2);
		ck_assert_msg(got == w[i].act, "%s: %s(%#llx, %#llx, %#llx): "
		    "action %#x, want %#x", a->name, w[i].name,
		    (unsigned long long)w[i].a0, (unsigned long long)w[i].a1,
		    (unsigned long long)w[i].a2, got, w[i].act);
	}
}

/* _i: the parser's filter on arches[_i], then the forwarder's. */
START_TEST(filter_verdicts)
{
	int fwd = _i >= T_NELEM(arches);
	const struct arch *a = &arches[_i % T_NELEM(arches)];
	struct prog p;

	export(a, fwd ? SANDBOX_FILTER_FORWARDER : SANDBOX_FILTER_PARSER, &p);
	if (fwd)
		check_wants(a, &p, forwarder_wants,
		    (size_t)T_NELEM(forwarder_wants));
	else
		check_wants(a, &p, parser_wants, (size_t)T_NELEM(parser_wants));
	free(p.insn);
}
END_TEST

/* Another architecture's system call (right number, wrong AUDIT_ARCH)
 * kills: a filter built for mipsel does not judge x86-64 calls. */
START_TEST(wrong_arch_kills)
{
	const struct arch *a = &arches[_i];
	const struct arch *o = &arches[(_i + 1) % T_NELEM(arches)];
	struct seccomp_data d;
	struct prog p;

	export(a, SANDBOX_FILTER_PARSER, &p);
	memset(&d, 0, sizeof(d));
	d.nr = sysnr(a, "read");
	d.arch = o->token;
	ck_assert_uint_eq(run(&p, &d), KILLED);
	d.arch = a->token;
	ck_assert_uint_eq(run(&p, &d), ALLOWED);
	free(p.insn);
}
END_TEST

/* The readable form names the 32-bit calls (what an auditor reads). */
START_TEST(pfc_mipsel)
{
	FILE *f = tmpfile();
	char buf[65536];
	size_t n;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sandbox_seccomp_export(SCMP_ARCH_MIPSEL,
	    SANDBOX_FILTER_PARSER, -1, 0, fileno(f)), 0);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\"mmap2\""));
	ck_assert_ptr_nonnull(strstr(buf, "\"clock_gettime64\""));
	ck_assert_ptr_nonnull(strstr(buf, "\"socketcall\""));
	ck_assert_ptr_null(strstr(buf, "\"newfstatat\""));
}
END_TEST

START_TEST(unknown_arch)
{
	FILE *f = tmpfile();

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sandbox_seccomp_export(0x1234, SANDBOX_FILTER_PARSER,
	    -1, 1, fileno(f)), -1);
	fclose(f);
}
END_TEST

static Suite *
seccomp_arch_suite(void)
{
	Suite *s = suite_create("seccomp_arch");
	TCase *tc = tcase_create("export");

	tcase_add_loop_test(tc, filter_verdicts, 0, 2 * T_NELEM(arches));
	tcase_add_loop_test(tc, wrong_arch_kills, 0, T_NELEM(arches));
	tcase_add_test(tc, pfc_mipsel);
	tcase_add_test(tc, unknown_arch);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	scmp_filter_ctx probe;

	/*
	 * libseccomp asks the kernel whether it has the default action
	 * (SECCOMP_RET_KILL_PROCESS) before it builds any filter, also one
	 * only exported; qemu-user has no seccomp(2), so there it cannot.
	 */
	probe = seccomp_init(SCMP_ACT_KILL_PROCESS);
	if (probe == NULL) {
		printf("SKIP: check_seccomp_arch: libseccomp cannot build a "
		    "filter here (seccomp_init fails: no seccomp(2), as under "
		    "qemu-user)\n");
		return t_run(suite_create("seccomp_arch"));
	}
	seccomp_release(probe);
	return t_run(seccomp_arch_suite());
}
