/*
 * check_parser_proc.c — the real sandboxed parser process over the fuzz
 * corpora, as root.
 *
 * Each test starts `batsecd -P -u nobody -r CHROOT` with the forwarder's
 * own code (fwd_parser_spawn: socketpair, channel on fd 3, /dev/null on
 * 0-2, empty environment), from a process that has entered the forwarder's
 * sandbox first (its capabilities and seccomp filter, which the parser
 * inherits and stacks with its own).  The test then plays the forwarder:
 * CONFIG, a policy snapshot, IFACE events, and the inputs as received
 * FRAMEs; every message the parser sends back goes through the
 * forwarder's handler (fwd_parser_read: layers 1-3 of ipc.h, the policy
 * gate of fwd_admit.h against the policy the test sent, with the
 * certificates and pins the parser sent, LINK_KEY answers with the
 * test's identity).  At the end the parser must
 *
 *   - still be running, in its sandbox (uid nobody, no capabilities,
 *     seccomp filter mode with both filters, no_new_privs);
 *   - have counted every frame the forwarder passed on (STATS rx_frames),
 *     sent nothing the forwarder refused, and lost no message (emit_failed);
 *   - exit with status 0 when the forwarder closes the channel.
 *
 * So a C library or libsodium that starts needing a new system call on
 * some parsing path fails here (killed by SIGSYS), not in a deployment.
 *
 * Inputs (paths below the source tree, found from this program's path):
 *   wire     every file of fuzz/corpus/wire, as one frame each, under an
 *            open policy, and again (with the captures below) under a CA
 *            policy whose anchor certified gen_wire's HELLO key;
 *   pcore    every file of fuzz/corpus/pcore, a conversation in
 *            fuzz_pcore.c's record format, replayed as the forwarder's
 *            messages (see pp_pcore_file): all of them through one
 *            parser, then each through a parser of its own;
 *   mutants  prefixes, an appended byte and single-byte changes of every
 *            wire corpus frame and of the frames of the first pcore files:
 *            malformed frames that are valid IPC messages;
 *   pcap     the batsec frames of the captures named in
 *            $BATSEC_PARSER_PCAP (space-separated; tests/t_parser_corpus.sh
 *            sets it), else of every tests/pcap/NAME.pcap; only when there
 *            is one;
 *   death    the parser killed with SIGSYS on purpose: the test notices.
 *
 * Without root the program prints a failed Check summary, as
 * check_sandbox does.  BATSEC_SECCOMP_DEBUG=1 starts the parser with -d
 * (a blocked system call exits with status 159 instead of killing).
 * BATSEC_PARSER_WIRE_DIR and BATSEC_PARSER_PCORE_DIR replace the two
 * corpus directories (a campaign's queue, for instance).
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "batsec_policy.h"
#include "forwarder/fwd_admit.h"
#include "forwarder/fwd_parser.h"
#include "forwarder/fwd_pins.h"
#include "forwarder/fwd_types.h"
#include "forwarder/ipc_check.h"
#include "proto/ipc.h"
#include "common/log.h"
#include "common/sandbox.h"

#include "lib/t_check.h"
#include "lib/t_ident.h"
#include "lib/t_ipc.h"
#include "lib/t_pcore_in.h"
#include "lib/t_policy.h"

#define PP_USER		"nobody"
#define PP_ETHERTYPE	0x88b5
#define PP_FILE_MAX	(1u << 20)	/* larger corpus files: refused */
#define PP_PCAP_MAX	(64u << 20)	/* and larger captures */
#define PP_WAIT_MS	120000		/* for the parser's STATS */
#define PP_READ_EVERY	16		/* frames between two reads */

static const uint8_t pp_bcast[BS_ADDR_LEN] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff
};
/* fuzz/gen_wire.c's CA (its identity 3), which certifies its identity 0. */
#define PP_WIRE_CA_SEED	0x84
/* The HELLO interface MAC of fuzz/gen_wire.c (and tests/pcap/mkpcap.py). */
static const uint8_t pp_wire_src[BS_ADDR_LEN] = {
	0x00, 0x16, 0x3e, 0x01, 0x02, 0x03
};

/* ---- inputs, loaded before any test -------------------------------------- */

struct blob {
	char name[96];			/* "wire/abc", "valid.pcap#12" */
	uint8_t *p;
	size_t len;
	uint8_t src[BS_ADDR_LEN];	/* pcap frames only */
	uint8_t dst[BS_ADDR_LEN];
};

struct blobs {
	struct blob *v;
	size_t n, cap;
};

static struct blobs in_wire, in_pcore, in_pcap;
static char top_dir[PATH_MAX];		/* the source tree */
static char batsecd_path[PATH_MAX];
static char root_dir[64];		/* the parser's chroot */
static uid_t nobody_uid;
static struct bs_identity own_id;
static uint8_t own_addr[BS_ADDR_LEN];
static uint8_t pp_pk[T_PCIN_NIDS][BS_PK_LEN];
static uint8_t pp_ca_pk[BS_PK_LEN];
static int pp_debug;

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("check_parser_proc: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	/* tests/run counts this line. */
	printf("0%%: Checks: 1, Failures: 1, Errors: 0\n");
	exit(EXIT_FAILURE);
}

static struct blob *
blobs_add(struct blobs *b, const char *name, const uint8_t *p, size_t len)
{
	struct blob *e;

	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		if ((b->v = realloc(b->v, b->cap * sizeof(*b->v))) == NULL)
			die("out of memory");
	}
	e = &b->v[b->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	if ((e->p = malloc(len > 0 ? len : 1)) == NULL)
		die("out of memory");
	if (len > 0)
		memcpy(e->p, p, len);
	e->len = len;
	return e;
}

/* The whole of a regular file, at most max bytes. */
static uint8_t *
read_file(const char *path, size_t max, size_t *len)
{
	struct stat st;
	uint8_t *buf;
	FILE *f;

	if ((f = fopen(path, "rb")) == NULL)
		die("%s: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < 0 || (size_t)st.st_size > max)
		die("%s: not a regular file of at most %zu bytes", path, max);
	if ((buf = malloc((size_t)st.st_size + 1)) == NULL)
		die("out of memory");
	*len = fread(buf, 1, (size_t)st.st_size, f);
	if (*len != (size_t)st.st_size || ferror(f))
		die("%s: short read", path);
	fclose(f);
	return buf;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Every regular file of a directory, in name order, labelled "what/NAME";
 * none is an error.  The directory is $env when set (for trying a
 * campaign's queue, e.g. fuzz/out/pcore/main/queue), else top_dir/rel.
 */
static void
load_dir(struct blobs *b, const char *what, const char *env, const char *rel)
{
	char dir[PATH_MAX + 64], path[PATH_MAX * 2], label[96];
	const char *over = getenv(env);
	char **names = NULL;
	size_t n = 0, i, len;
	struct dirent *e;
	struct stat st;
	uint8_t *p;
	DIR *d;

	if (over != NULL)
		snprintf(dir, sizeof(dir), "%s", over);
	else
		snprintf(dir, sizeof(dir), "%s/%s", top_dir, rel);
	if ((d = opendir(dir)) == NULL)
		die("%s: %s", dir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_name[0] == '.' || stat(path, &st) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (names == NULL || (names[n] = strdup(e->d_name)) == NULL)
			die("out of memory");
		n++;
	}
	closedir(d);
	if (n == 0)
		die("%s: no input files", dir);
	qsort(names, n, sizeof(*names), name_cmp);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		p = read_file(path, PP_FILE_MAX, &len);
		snprintf(label, sizeof(label), "%s/%.40s", what, names[i]);
		blobs_add(b, label, p, len);
		free(p);
		free(names[i]);
	}
	free(names);
}

static uint32_t
pcap_u32(const uint8_t *p, int swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

/*
 * The frames of a classic pcap file (Ethernet link type) whose ethertype
 * is batsec's: what the forwarder's raw socket would pass on.
 */
static void
load_pcap(struct blobs *b, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t len, off = 24, incl, n = 0;
	char label[96];
	uint8_t *p = read_file(path, PP_PCAP_MAX, &len);
	struct blob *e;
	uint32_t magic;
	int swap;

	if (len < 24)
		die("%s: not a pcap file (too short)", path);
	memcpy(&magic, p, sizeof(magic));
	if (magic == 0xa1b2c3d4 || magic == 0xa1b23c4d)
		swap = 0;
	else if (magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1)
		swap = 1;
	else
		die("%s: not a classic pcap file (magic 0x%08x)", path, magic);
	if (pcap_u32(p + 20, swap) != 1)
		die("%s: link type %u, not Ethernet", path,
		    pcap_u32(p + 20, swap));
	while (off < len) {
		if (len - off < 16)
			die("%s: truncated record header at %zu", path, off);
		incl = pcap_u32(p + off + 8, swap);
		off += 16;
		if (incl > len - off)
			die("%s: record at %zu runs past the end", path, off);
		if (incl >= 14 && bs_get16(p + off + 12) == PP_ETHERTYPE) {
			snprintf(label, sizeof(label), "%.60s#%zu", base, n);
			e = blobs_add(b, label, p + off + 14, incl - 14);
			memcpy(e->dst, p + off, BS_ADDR_LEN);
			memcpy(e->src, p + off + 6, BS_ADDR_LEN);
			n++;
		}
		off += incl;
	}
	if (n == 0)
		die("%s: no frame with ethertype 0x%04x", path, PP_ETHERTYPE);
	free(p);
}

static void
load_pcaps(void)
{
	char dir[PATH_MAX + 16], path[PATH_MAX * 2];
	char *list, *tok, *save = NULL;
	const char *env = getenv("BATSEC_PARSER_PCAP");
	struct dirent *e;
	size_t l;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/tests/pcap", top_dir);
	if (env == NULL && (d = opendir(dir)) != NULL) {
		while ((e = readdir(d)) != NULL) {
			l = strlen(e->d_name);
			if (l < 6 || strcmp(e->d_name + l - 5, ".pcap") != 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			load_pcap(&in_pcap, path);
		}
		closedir(d);
	}
	if (env == NULL)
		return;
	if ((list = strdup(env)) == NULL)
		die("out of memory");
	for (tok = strtok_r(list, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save))
		load_pcap(&in_pcap, tok);
	free(list);
}

/* top_dir and batsecd_path from /proc/self/exe: B/tests/check_parser_proc. */
static void
find_paths(void)
{
	char exe[PATH_MAX], *s;
	ssize_t n;
	int i;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		die("readlink /proc/self/exe: %s", strerror(errno));
	exe[n] = '\0';
	for (i = 0; i < 2; i++) {	/* strip tests/check_parser_proc */
		if ((s = strrchr(exe, '/')) == NULL || s == exe)
			die("%s: not B/tests/check_parser_proc", exe);
		*s = '\0';
	}
	snprintf(batsecd_path, sizeof(batsecd_path), "%.*s/batsecd",
	    PATH_MAX - 9, exe);
	if ((s = strrchr(exe, '/')) == NULL || s == exe)
		die("%s: no source tree above the build directory", exe);
	*s = '\0';
	snprintf(top_dir, sizeof(top_dir), "%s", exe);
	if (access(batsecd_path, X_OK) != 0)
		die("%s: %s (run make first)", batsecd_path, strerror(errno));
}

static void
make_identities(void)
{
	int i;

	t_ident_addr(&own_id, own_addr, T_PCIN_OWN_SEED);
	for (i = 0; i < T_PCIN_NIDS; i++)
		t_ident_pk(pp_pk[i], T_PCIN_PEER_SEED(i));
	t_ident_pk(pp_ca_pk, PP_WIRE_CA_SEED);
}

/* ---- playing the forwarder ----------------------------------------------- */

/*
 * The forwarder behind the channel, as far as its policy gate needs one
 * (fwd_admit.h): the policy the test sent last, the certificates and pins
 * the parser sent.  Every parser message passes the gate, so a correct
 * parser that the gate would kill fails the test.
 */
static struct fwd pf;
static const struct fwd_chan_handler pf_handlers[] = {
	{ IPC_CERT, fwd_admit_on_cert },
	{ IPC_PIN, fwd_pins_on_pin },
	{ 0, NULL }
};

/* pol becomes the forwarder's policy (it takes it over). */
static void
pf_policy(struct bs_policy *pol)
{
	bs_policy_free(pf.policy);
	pf.policy = pol;
	pf.policy_serial++;
}

struct pp {
	struct fwd_parser *fp;		/* &pf.parser */
	pid_t pid;
	uint32_t serial;		/* of the last policy snapshot */
	uint64_t offered;		/* to fwd_parser_send_frame */
	uint64_t expect;		/* of those, the ones it passes on */
	unsigned since_read;
	int eof_sent;			/* we closed: exit 0 is due */
	const char *where;		/* the input being fed */
	char err[512];			/* what went wrong, or "" */
	/* pcore conversations: the ifindex of interface A (0) and B (1),
	 * 0 while it is removed. */
	uint32_t ifx[2];
};

static void __attribute__((format(printf, 2, 3)))
pp_fail(struct pp *p, const char *fmt, ...)
{
	char buf[384];
	va_list ap;

	if (p->err[0] != '\0')		/* the first reason counts */
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	snprintf(p->err, sizeof(p->err), "%s (while feeding %s)", buf,
	    p->where != NULL ? p->where : "the set-up");
}

/*
 * The parser closed the channel or broke it: how did it end?  Only an
 * exit with status 0 after our EOF is right.
 */
static void
pp_reap(struct pp *p, const char *what)
{
	char how[128];
	int st;

	if (p->pid > 0 && waitpid(p->pid, &st, 0) == p->pid) {
		p->pid = 0;
		if (p->eof_sent && WIFEXITED(st) && WEXITSTATUS(st) == 0)
			return;
		fwd_describe_status(st, how, sizeof(how));
		pp_fail(p, "%s: the parser %s%s", what, how, p->eof_sent ?
		    " after EOF" : "");
	} else
		pp_fail(p, "%s: the parser is gone", what);
}


/*
 * One turn of the forwarder's loop: wait up to timeout_ms for the
 * channel, send what is queued, handle what the parser sent (at most
 * FWD_MSGS_PER_READ messages, as the forwarder does per wake-up).
 * Returns 1 when there was something to read.
 */
static int
pp_pump(struct pp *p, int timeout_ms)
{
	struct pollfd pfd;
	enum fwd_chan_rc rc;
	char why[256] = "";
	int r;

	if (p->err[0] != '\0' || p->fp->ipc.fd < 0 || p->pid == 0)
		return 0;
	pfd.fd = p->fp->ipc.fd;
	pfd.events = ipc_poll_events(&p->fp->ipc);
	pfd.revents = 0;
	r = poll(&pfd, 1, timeout_ms);
	if (r < 0 && errno != EINTR)
		pp_fail(p, "poll: %s", strerror(errno));
	if (r <= 0)
		return 0;
	if ((pfd.revents & POLLOUT) && !p->eof_sent &&
	    ipc_flush(&p->fp->ipc) < 0) {
		pp_reap(p, "sending to it");
		return 0;
	}
	if (!(pfd.revents & (POLLIN | POLLHUP | POLLERR)))
		return 0;
	rc = fwd_parser_read(p->fp, why, sizeof(why));
	if (rc == FWD_CHAN_KILL)
		pp_fail(p, "the forwarder's checks refused a parser message: "
		    "%s", why);
	else if (rc == FWD_CHAN_EOF)
		pp_reap(p, "reading from it");
	return 1;
}

/* Pump until the queue towards the parser is empty. */
static void
pp_drain(struct pp *p)
{
	uint64_t end = log_now_ms() + PP_WAIT_MS;

	while (p->err[0] == '\0' && ipc_pending(&p->fp->ipc)) {
		if (log_now_ms() > end) {
			pp_fail(p, "the parser took nothing for %d s",
			    PP_WAIT_MS / 1000);
			return;
		}
		pp_pump(p, 1000);
	}
}

static void
pp_send(struct pp *p, uint16_t type, const void *obj, size_t size)
{
	if (p->err[0] != '\0')
		return;
	if (fwd_parser_send(p->fp, type, obj, size) != 0)
		pp_fail(p, "sending %s: %s", ipc_type_name(type),
		    errno == EINVAL ? ipc_error(&p->fp->ipc) : strerror(errno));
}

/* A received frame, as fwd_ifaces_rx hands it over. */
static void
pp_frame(struct pp *p, uint32_t ifindex, const uint8_t *src,
    const uint8_t *dst, const uint8_t *data, size_t len)
{
	if (p->err[0] != '\0')
		return;
	p->offered++;
	if (len > 0 && len <= IPC_FRAME_MAX && ipc_mac_is_unicast(src))
		p->expect++;
	fwd_parser_send_frame(p->fp, ifindex, src, dst, data, len);
	if (ipc_pending(&p->fp->ipc))
		pp_drain(p);
	else if (++p->since_read >= PP_READ_EVERY) {
		/* Everything the parser has said so far, so that it never
		 * has to queue much (emit_failed must stay 0). */
		p->since_read = 0;
		while (pp_pump(p, 0) == 1)
			;
	}
}

/* As fwd_send_config, with fuzz_pcore.c's values. */
static void
pp_config(struct pp *p, uint8_t hop_penalty, uint8_t level)
{
	struct ipc_config c = t_ipc_config((struct t_config){
	    .pk = own_id.pk, .ethertype = PP_ETHERTYPE, .epoch = T_PCIN_EPOCH,
	    .hello_ms = 1000, .ogm_ms = 1000, .hop_penalty = hop_penalty,
	    .log_level = level });

	pp_send(p, IPC_CONFIG, &c, sizeof(c));
}

/*
 * The inputs arrive much faster than real traffic, and from few sources:
 * at the default rates most frames would be dropped by the token buckets
 * before any parsing.  So every "-rate" and "-burst" limit is set to its
 * maximum (the buckets themselves are check_pcore's business).
 */
static void
pp_roomy_limits(struct bs_policy *pol)
{
	const struct bs_policy_limit_def *d;
	size_t i;

	for (i = 0; i < BS_POLICY_LIMIT_COUNT; i++) {
		d = &bs_policy_limit_defs[i];
		if (strstr(d->name, "-rate") != NULL ||
		    strstr(d->name, "-burst") != NULL)
			memcpy((uint8_t *)&pol->limits + d->offset, &d->max,
			    sizeof(d->max));
	}
}

/*
 * A policy snapshot, as fuzz_pcore.c's POLICY record builds it: mode
 * open (bit 0 of mode) or allowlist, rates as above unless bits 1..5 ask
 * for tiny limits, trust and gateway bit masks over the identities pp_pk,
 * and the two limits when not 0: t_pcin_policy_fill(), which
 * fuzz_pcore.c uses too.
 */
static void
pp_policy(struct pp *p, uint8_t mode, uint8_t trust, uint8_t gw,
    uint8_t clients, uint8_t cap)
{
	struct bs_policy *pol = bs_policy_new();
	uint8_t *buf;
	size_t n;

	ck_assert_ptr_nonnull(pol);
	pp_roomy_limits(pol);
	ck_assert_int_eq(t_pcin_policy_fill(pol, mode, trust, gw, clients,
	    cap, (const uint8_t (*)[BS_PK_LEN])pp_pk, T_PCIN_NIDS), 0);
	buf = t_policy_snapshot(pol, &n);
	if (p->err[0] == '\0' &&
	    fwd_parser_send_policy(p->fp, ++p->serial, buf, n) != 0)
		pp_fail(p, "sending policy %u: %s", p->serial, strerror(errno));
	free(buf);
	pf_policy(pol);
	/* Policies in a row (the pcore corpus has many): let the parser
	 * take each, so the frames after them find room in the queue. */
	pp_drain(p);
}

/*
 * Mode ca with gen_wire's CA as the anchor, rates as above: the
 * certificates and revocation records in the wire corpus get verified
 * (pcore_trust.c, which reads the wall clock in a real parser).
 */
static void
pp_policy_ca(struct pp *p)
{
	struct bs_policy *pol = NULL;
	char text[256], key[BS_KEY_B64_LEN + 1], err[256];
	uint8_t *buf;
	size_t n;
	int tl;

	bs_key_to_b64(key, pp_ca_pk);
	tl = snprintf(text, sizeof(text), "mode ca\nanchor %s name wire-ca\n",
	    key);
	ck_assert_msg(bs_policy_parse_buf(text, (size_t)tl, "ca policy", NULL,
	    0, &pol, err, sizeof(err)) == 0, "%s", err);
	pp_roomy_limits(pol);
	buf = t_policy_snapshot(pol, &n);
	if (p->err[0] == '\0' &&
	    fwd_parser_send_policy(p->fp, ++p->serial, buf, n) != 0)
		pp_fail(p, "sending policy %u: %s", p->serial, strerror(errno));
	free(buf);
	pf_policy(pol);
	/* Policies in a row (the pcore corpus has many): let the parser
	 * take each, so the frames after them find room in the queue. */
	pp_drain(p);
}

/* As fwd_if_tell, with the forwarder's ipc_ctx bookkeeping around it. */
static void
pp_iface(struct pp *p, uint32_t ifindex, uint8_t state)
{
	int gone = state == IPC_IFACE_REMOVED;
	struct ipc_iface m;
	char name[16];

	snprintf(name, sizeof(name), "pp%u", (unsigned)ifindex);
	m = t_ipc_iface((struct t_iface){ .ifindex = ifindex,
	    .mtu = gone ? 0 : 1630, .mac = gone ? NULL : t_pcin_macs[0],
	    .state = state, .name = name });
	if (!gone && ipc_ctx_iface_add(&p->fp->ctx, ifindex) != 0)
		pp_fail(p, "ipc_ctx_iface_add %u", (unsigned)ifindex);
	pp_send(p, IPC_IFACE, &m, sizeof(m));
	if (state == IPC_IFACE_REMOVED)
		ipc_ctx_iface_del(&p->fp->ctx, ifindex);
}

/* Wait until the parser's STATS count every frame passed on so far. */
static void
pp_wait_counted(struct pp *p)
{
	uint64_t end = log_now_ms() + PP_WAIT_MS;

	pp_drain(p);
	while (p->err[0] == '\0' &&
	    p->fp->stat[IPC_STAT_RX_FRAMES] < p->expect) {
		if (log_now_ms() > end) {
			pp_fail(p, "after %d s the parser has counted %llu of "
			    "the %llu frames", PP_WAIT_MS / 1000,
			    (unsigned long long)p->fp->stat[IPC_STAT_RX_FRAMES],
			    (unsigned long long)p->expect);
			return;
		}
		pp_pump(p, 1000);
	}
}

/* ---- pcore conversations ------------------------------------------------- */

/*
 * Interface numbers of the pcore conversations.  A removed interface that
 * comes back gets a new number, as in Linux.  Numbers are recycled within
 * PP_IFX (the forwarder's ipc_ctx remembers IPC_CTX_MAX_IFACES), and only
 * once the parser is known to have handled the removal: otherwise a late
 * message about the old interface would meet the new one in ipc_ctx.
 */
#define PP_IFX		30
#define PP_IFX_BASE	2
enum { IFS_UNUSED, IFS_LIVE, IFS_GONE, IFS_SAFE };
static uint8_t pp_ifs[PP_IFX];

/* Everything sent so far has been handled by the parser. */
static void
pp_sync(struct pp *p)
{
	static const uint8_t junk[1] = { 0xff };
	unsigned i;

	/* A frame on no interface: counted (drop_iface) after the rest. */
	pp_frame(p, 1, t_pcin_macs[5], pp_bcast, junk, sizeof(junk));
	pp_wait_counted(p);
	for (i = 0; i < PP_IFX; i++)
		if (pp_ifs[i] == IFS_GONE)
			pp_ifs[i] = IFS_SAFE;
}

static uint32_t
pp_new_ifindex(struct pp *p)
{
	unsigned pass, i;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < PP_IFX; i++)
			if (pp_ifs[i] == IFS_UNUSED || pp_ifs[i] == IFS_SAFE) {
				pp_ifs[i] = IFS_LIVE;
				return PP_IFX_BASE + i;
			}
		pp_sync(p);
	}
	pp_fail(p, "no interface number left");
	return 0;
}

/* Interface A (sel 0) or B (sel 1) of a conversation changes state. */
static void
pp_sel(struct pp *p, unsigned sel, uint8_t state)
{
	if (p->ifx[sel] == 0) {
		if (state == IPC_IFACE_REMOVED)
			return;
		if ((p->ifx[sel] = pp_new_ifindex(p)) == 0)
			return;
	}
	pp_iface(p, p->ifx[sel], state);
	if (state == IPC_IFACE_REMOVED) {
		pp_ifs[p->ifx[sel] - PP_IFX_BASE] = IFS_GONE;
		p->ifx[sel] = 0;
	}
}

/* One record of fuzz_pcore.c's format at r (rem bytes): bytes used, 0 ends. */
static size_t
pp_record(struct pp *p, const uint8_t *r, size_t rem, uint8_t level)
{
	size_t len;

	switch (r[0]) {
	case T_PCIN_FRAME:
		if (rem < 5 || (len = bs_get16(r + 3)) > rem - 5 ||
		    len > IPC_FRAME_MAX)
			return 0;
		/* The forwarder hears nothing on a removed interface. */
		if (p->ifx[r[1] & 1] != 0)
			pp_frame(p, p->ifx[r[1] & 1],
			    t_pcin_macs[r[2] % T_PCIN_NMACS], pp_bcast, r + 5,
			    len);
		return 5 + len;
	case T_PCIN_TICK:		/* the parser runs on its own clock */
		return rem < 3 ? 0 : 3;
	case T_PCIN_IFACE:
		if (rem < 3)
			return 0;
		pp_sel(p, r[1] & 1, r[2] % 3);
		return 3;
	case T_PCIN_POLICY:
		if (rem < 6)
			return 0;
		pp_policy(p, r[1], r[2], r[3], r[4], r[5]);
		return 6;
	case T_PCIN_CONFIG:
		if (rem < 2)
			return 0;
		pp_config(p, r[1], level);
		return 2;
	case T_PCIN_KEYS:		/* the forwarder answers with its key */
		return rem < 2 ? 0 : 2;
	default:
		return 0;
	}
}

/*
 * One conversation.  The last one is forgotten first: both interfaces go
 * down (the parser drops their neighbours) and a policy that admits
 * nobody removes every originator.  Then it starts as in fuzz_pcore.c:
 * CONFIG (log level by bit 1 of the first byte), A up, B down, the policy
 * by bit 0, and the records follow.
 */
static void
pp_pcore_file(struct pp *p, const struct blob *b)
{
	uint8_t level;
	size_t off = 1, used;

	if (b->len < 1)
		return;
	level = (b->p[0] & 2) ? IPC_LOG_DEBUG : IPC_LOG_INFO;
	if (p->ifx[0] != 0)
		pp_sel(p, 0, IPC_IFACE_DOWN);
	if (p->ifx[1] != 0)
		pp_sel(p, 1, IPC_IFACE_DOWN);
	pp_policy(p, 0, 0, 0, 0, 0);
	pp_config(p, 30, level);
	pp_sel(p, 0, IPC_IFACE_UP);
	pp_sel(p, 1, IPC_IFACE_DOWN);
	pp_policy(p, b->p[0] & 1, 0x07, 0x05, 0, 0);
	while (off < b->len && p->err[0] == '\0' &&
	    (used = pp_record(p, b->p + off, b->len - off, level)) != 0)
		off += used;
}

/* ---- start and finish ---------------------------------------------------- */

/* The forwarder's sandbox, which the parser inherits and stacks. */
static void
fwd_enter(int exe_fd)
{
	static int entered;	/* per test: Check forks a child for each */
	char err[256];

	if (entered++)
		return;
	ck_assert_msg(sandbox_forwarder_caps(err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(sandbox_forwarder_seccomp(exe_fd), 0);
}

static void
pp_start(struct pp *p)
{
	static int exe = -1;	/* the filter allows this one descriptor */
	char err[256];

	memset(p, 0, sizeof(*p));
	memset(pp_ifs, 0, sizeof(pp_ifs));
	fwd_admit_stop(&pf);
	fwd_pins_forget(&pf.pins);
	bs_policy_free(pf.policy);
	memset(&pf, 0, sizeof(pf));
	pf.id = own_id;
	memcpy(pf.own_addr, own_addr, BS_ADDR_LEN);
	/* Until the first snapshot the parser admits nobody, nor do we. */
	pf.policy = bs_policy_new();
	ck_assert_ptr_nonnull(pf.policy);
	pf.policy_serial = 1;
	if (exe < 0)
		exe = sandbox_exe_open(batsecd_path, err, sizeof(err));
	ck_assert_msg(exe >= 0, "%s", err);
	p->fp = &pf.parser;
	fwd_parser_init(p->fp, &own_id);
	fwd_parser_handlers(p->fp, pf_handlers, &pf);
	fwd_parser_gate(p->fp, fwd_admit_gate, &pf);
	/* The parser is batsecd: fwd_parser_setup keeps a descriptor set. */
	p->fp->exe_fd = exe;
	ck_assert_msg(fwd_parser_setup(p->fp, PP_USER, root_dir, pp_debug,
	    err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(p->fp->exe_fd, exe);
	fwd_enter(exe);
	ck_assert_msg(fwd_parser_spawn(p->fp, own_addr, log_now_ms(), err,
	    sizeof(err)) == 0, "%s", err);
	p->pid = p->fp->pid;
	pp_config(p, 30, IPC_LOG_INFO);
}

/* The usual start of a single-interface test: open policy, ifindex 2 up. */
static void
pp_start_simple(struct pp *p)
{
	pp_start(p);
	pp_policy(p, 1, 0x0f, 0x05, 0, 0);
	pp_iface(p, PP_IFX_BASE, IPC_IFACE_UP);
	pp_ifs[0] = IFS_LIVE;
}

/* One "Name:\tvalue" line of /proc/PID/status: the value, or "". */
static void
proc_status(pid_t pid, const char *name, char *out, size_t outlen)
{
	char path[64], line[256];
	size_t n = strlen(name);
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, name, n) == 0 && line[n] == ':') {
			snprintf(out, outlen, "%s", line + n + 1 +
			    strspn(line + n + 1, " \t"));
			out[strcspn(out, "\n")] = '\0';
			break;
		}
	fclose(f);
}

static void
pp_assert_sandboxed(pid_t pid)
{
	static const char *const zero[] = { "CapInh", "CapPrm", "CapEff",
	    "CapBnd", "CapAmb" };
	char v[128], want[64];
	size_t i;

	snprintf(want, sizeof(want), "%u\t%u\t%u\t%u", (unsigned)nobody_uid,
	    (unsigned)nobody_uid, (unsigned)nobody_uid, (unsigned)nobody_uid);
	proc_status(pid, "Uid", v, sizeof(v));
	ck_assert_msg(strcmp(v, want) == 0, "parser Uid: '%s'", v);
	for (i = 0; i < sizeof(zero) / sizeof(zero[0]); i++) {
		proc_status(pid, zero[i], v, sizeof(v));
		ck_assert_msg(strcmp(v, "0000000000000000") == 0,
		    "parser %s: '%s'", zero[i], v);
	}
	proc_status(pid, "NoNewPrivs", v, sizeof(v));
	ck_assert_str_eq(v, "1");
	proc_status(pid, "Seccomp", v, sizeof(v));
	ck_assert_msg(strcmp(v, "2") == 0, "parser Seccomp: '%s'", v);
	/* The forwarder's filter and its own. */
	proc_status(pid, "Seccomp_filters", v, sizeof(v));
	ck_assert_msg(atoi(v) >= 2, "parser Seccomp_filters: '%s'", v);
}

/* The counters the parser reported, on one line, for the log. */
static void
pp_print(const struct pp *p, const char *what)
{
	char line[1536];
	size_t n;
	uint32_t id;

	n = (size_t)snprintf(line, sizeof(line), "%s: %llu frames offered, "
	    "%llu passed on; forwarder accepted %llu messages;", what,
	    (unsigned long long)p->offered,
	    (unsigned long long)p->fp->c.frames_sent,
	    (unsigned long long)p->fp->c.msgs);
	for (id = 1; id < IPC_STAT_ID_END && n < sizeof(line); id++)
		if (p->fp->stat[id] != 0 && ipc_stat_name(id) != NULL)
			n += (size_t)snprintf(line + n, sizeof(line) - n,
			    " %s %llu", ipc_stat_name(id),
			    (unsigned long long)p->fp->stat[id]);
	printf("%s\n", line);
	fflush(stdout);
}

/*
 * The forwarder closes the channel (half: shutdown for writing, so that
 * what the parser still sends is read and checked): the parser must read
 * what is left and exit with status 0.
 */
static void
pp_eof(struct pp *p, const char *what)
{
	uint64_t end;

	int level = log_get_level();

	pp_drain(p);
	ck_assert_msg(p->err[0] == '\0', "%s: %s", what, p->err);
	p->eof_sent = 1;
	ck_assert_int_eq(shutdown(p->fp->ipc.fd, SHUT_WR), 0);
	/* Answers to its last LINK_KEY_REQs cannot go: no warning for that. */
	log_set_level(LOG_ERR);
	end = log_now_ms() + PP_WAIT_MS;
	while (p->err[0] == '\0' && p->pid > 0 && log_now_ms() < end)
		pp_pump(p, 1000);
	log_set_level(level);
	ck_assert_msg(p->err[0] == '\0', "%s: %s", what, p->err);
	ck_assert_msg(p->pid == 0, "%s: the parser still runs %d s after EOF",
	    what, PP_WAIT_MS / 1000);
	/* It answered every heartbeat (one after each policy). */
	ck_assert_msg(p->fp->hb_seq > 0 && p->fp->hb_acked == p->fp->hb_seq,
	    "%s: heartbeats answered: %u of %u", what, p->fp->hb_acked,
	    p->fp->hb_seq);
	ipc_close(&p->fp->ipc);
}

/*
 * The end of a test: every frame counted, nothing refused or lost, the
 * parser alive and sandboxed, every heartbeat answered, and a clean exit
 * on EOF.
 */
static void
pp_finish(struct pp *p, const char *what)
{
	pp_wait_counted(p);
	pp_drain(p);
	ck_assert_msg(p->err[0] == '\0', "%s: %s", what, p->err);
	pp_print(p, what);
	ck_assert_msg(p->fp->stat[IPC_STAT_RX_FRAMES] == p->expect,
	    "%s: rx_frames %llu, %llu frames passed on", what,
	    (unsigned long long)p->fp->stat[IPC_STAT_RX_FRAMES],
	    (unsigned long long)p->expect);
	ck_assert_uint_eq(p->fp->c.frames_sent, p->expect);
	ck_assert_uint_eq(p->fp->c.drop_queue, 0);
	ck_assert_msg(p->fp->stat[IPC_STAT_EMIT_FAILED] == 0,
	    "%s: the parser could not send %llu messages", what,
	    (unsigned long long)p->fp->stat[IPC_STAT_EMIT_FAILED]);
	ck_assert_msg(p->offered > 0, "%s: no input", what);
	pp_assert_sandboxed(p->pid);
	pp_eof(p, what);
}

/* ---- the tests ----------------------------------------------------------- */

static const uint8_t *
pp_dst(const uint8_t *frame, size_t len)
{
	/* UNICAST (0x40) goes to our interface, the rest is broadcast. */
	return len > 0 && frame[0] == 0x40 ? t_pcin_macs[0] : pp_bcast;
}

START_TEST(wire_corpus)
{
	static struct pp p;
	size_t i;

	pp_start_simple(&p);
	for (i = 0; i < in_wire.n; i++) {
		p.where = in_wire.v[i].name;
		pp_frame(&p, PP_IFX_BASE, pp_wire_src,
		    pp_dst(in_wire.v[i].p, in_wire.v[i].len), in_wire.v[i].p,
		    in_wire.v[i].len);
	}
	p.where = "fuzz/corpus/wire (end)";
	pp_finish(&p, "wire");
}
END_TEST

/* The same frames under a CA policy, and the captures too. */
START_TEST(wire_ca)
{
	static struct pp p;
	size_t i;

	pp_start(&p);
	pp_policy_ca(&p);
	pp_iface(&p, PP_IFX_BASE, IPC_IFACE_UP);
	for (i = 0; i < in_wire.n; i++) {
		p.where = in_wire.v[i].name;
		pp_frame(&p, PP_IFX_BASE, pp_wire_src,
		    pp_dst(in_wire.v[i].p, in_wire.v[i].len), in_wire.v[i].p,
		    in_wire.v[i].len);
	}
	for (i = 0; i < in_pcap.n; i++) {
		p.where = in_pcap.v[i].name;
		pp_frame(&p, PP_IFX_BASE, in_pcap.v[i].src, in_pcap.v[i].dst,
		    in_pcap.v[i].p, in_pcap.v[i].len);
	}
	p.where = "fuzz/corpus/wire under mode ca (end)";
	pp_finish(&p, "wire-ca");
}
END_TEST

START_TEST(pcore_corpus)
{
	static struct pp p;
	size_t i;

	pp_start(&p);
	for (i = 0; i < in_pcore.n; i++) {
		p.where = in_pcore.v[i].name;
		pp_pcore_file(&p, &in_pcore.v[i]);
	}
	p.where = "fuzz/corpus/pcore (end)";
	pp_finish(&p, "pcore");
}
END_TEST

/*
 * Each conversation again, with a parser of its own: the tables, replay
 * windows and the memory of departed keys start empty, as fuzz_pcore.c
 * starts every input, so every conversation reaches as deep as it can.
 * Each parser must exit with status 0 at EOF (the counters are checked
 * in pcore_corpus, which waits for STATS; here that would cost a second
 * per file).
 */
/*
 * Under ASan each parser start maps its shadow memory and the run took
 * 2.5 minutes of CI; there every 4th conversation has a parser of its
 * own (all of them still go through pcore_corpus's parser, and through
 * replay_pcore in process).
 */
#ifdef __SANITIZE_ADDRESS__
#define PP_EACH_STEP	4
#else
#define PP_EACH_STEP	1
#endif

START_TEST(pcore_each)
{
	static struct pp p;
	size_t i;

	for (i = 0; i < in_pcore.n; i += PP_EACH_STEP) {
		pp_start(&p);
		p.where = in_pcore.v[i].name;
		pp_pcore_file(&p, &in_pcore.v[i]);
		pp_eof(&p, in_pcore.v[i].name);
	}
}
END_TEST

/*
 * The frame itself, then prefixes (every length up to 32, then every 29th,
 * and len - 1), one byte appended, and single bits changed at the start,
 * the middle and the end: frames the codec must refuse or take apart.
 */
static void
pp_mutants(struct pp *p, uint32_t ifindex, const uint8_t *src,
    const uint8_t *f, size_t len)
{
	static uint8_t buf[IPC_FRAME_MAX];
	const uint8_t *dst = pp_dst(f, len);
	size_t cut, at[8], i;

	if (len == 0 || len > IPC_FRAME_MAX)
		return;
	pp_frame(p, ifindex, src, dst, f, len);
	for (cut = 1; cut < len; cut += cut < 32 ? 1 : 29)
		pp_frame(p, ifindex, src, dst, f, cut);
	if (len > 32)
		pp_frame(p, ifindex, src, dst, f, len - 1);
	if (len < IPC_FRAME_MAX) {
		memcpy(buf, f, len);
		buf[len] = 0;
		pp_frame(p, ifindex, src, dst, buf, len + 1);
	}
	at[0] = 0; at[1] = 1; at[2] = 2; at[3] = 3;
	at[4] = len / 4; at[5] = len / 2; at[6] = len - 65; at[7] = len - 1;
	for (i = 0; i < 8; i++) {
		if (at[i] >= len)	/* len - 65 wrapped */
			continue;
		memcpy(buf, f, len);
		buf[at[i]] ^= (uint8_t)(i & 1 ? 0x80 : 0x01);
		pp_frame(p, ifindex, src, dst, buf, len);
	}
}

/* The frames of the first pcore conversations (of the corpus, by name). */
#define PP_MUTANT_PCORE_FILES	8

static void
pp_pcore_mutants(struct pp *p, const struct blob *b)
{
	size_t off = 1, len;
	const uint8_t *r;

	while (off < b->len && p->err[0] == '\0') {
		r = b->p + off;
		switch (r[0]) {
		case T_PCIN_FRAME:
			if (b->len - off < 5 ||
			    (len = bs_get16(r + 3)) > b->len - off - 5)
				return;
			pp_mutants(p, PP_IFX_BASE,
			    t_pcin_macs[r[2] % T_PCIN_NMACS], r + 5, len);
			off += 5 + len;
			break;
		case T_PCIN_TICK:
		case T_PCIN_IFACE:
			off += 3;
			break;
		case T_PCIN_POLICY:
			off += 6;
			break;
		case T_PCIN_CONFIG:
		case T_PCIN_KEYS:
			off += 2;
			break;
		default:
			return;
		}
	}
}

START_TEST(mutants)
{
	static struct pp p;
	size_t i;

	pp_start_simple(&p);
	for (i = 0; i < in_wire.n; i++) {
		p.where = in_wire.v[i].name;
		pp_mutants(&p, PP_IFX_BASE, pp_wire_src, in_wire.v[i].p,
		    in_wire.v[i].len);
	}
	for (i = 0; i < in_pcore.n && i < PP_MUTANT_PCORE_FILES; i++) {
		p.where = in_pcore.v[i].name;
		pp_pcore_mutants(&p, &in_pcore.v[i]);
	}
	p.where = "the mutants (end)";
	pp_finish(&p, "mutants");
}
END_TEST

START_TEST(pcap_frames)
{
	static struct pp p;
	size_t i;

	pp_start_simple(&p);
	for (i = 0; i < in_pcap.n; i++) {
		p.where = in_pcap.v[i].name;
		pp_frame(&p, PP_IFX_BASE, in_pcap.v[i].src, in_pcap.v[i].dst,
		    in_pcap.v[i].p, in_pcap.v[i].len);
	}
	p.where = "the captures (end)";
	pp_finish(&p, "pcap");
}
END_TEST

/* A parser that dies is noticed, with the signal named. */
START_TEST(death_noticed)
{
	static struct pp p;
	uint64_t end;
	size_t i;

	pp_start_simple(&p);
	for (i = 0; i < in_wire.n && i < 4; i++)
		pp_frame(&p, PP_IFX_BASE, pp_wire_src, pp_bcast,
		    in_wire.v[i].p, in_wire.v[i].len);
	pp_wait_counted(&p);	/* it runs its loop, under seccomp */
	ck_assert_msg(p.err[0] == '\0', "%s", p.err);
	ck_assert_int_eq(sandbox_kill(p.pid, SIGSYS), 0);
	end = log_now_ms() + PP_WAIT_MS;
	while (p.err[0] == '\0' && log_now_ms() < end)
		pp_pump(&p, 1000);
	ck_assert_msg(strstr(p.err, "killed by signal SIGSYS") != NULL,
	    "'%s'", p.err);
	ipc_close(&p.fp->ipc);
}
END_TEST

static Suite *
parser_proc_suite(void)
{
	Suite *s = suite_create("parser_proc");
	TCase *tc;

	tc = tcase_create("wire");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, wire_corpus);
	tcase_add_test(tc, wire_ca);
	suite_add_tcase(s, tc);

	tc = tcase_create("pcore");
	tcase_set_timeout(tc, 900);
	tcase_add_test(tc, pcore_corpus);
	tcase_add_test(tc, pcore_each);
	suite_add_tcase(s, tc);

	tc = tcase_create("mutants");
	tcase_set_timeout(tc, 900);
	tcase_add_test(tc, mutants);
	suite_add_tcase(s, tc);

	if (in_pcap.n > 0) {
		tc = tcase_create("pcap");
		tcase_set_timeout(tc, 900);
		tcase_add_test(tc, pcap_frames);
		suite_add_tcase(s, tc);
	}

	tc = tcase_create("death");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, death_noticed);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	struct passwd *pw;
	int rc;

	if (getenv("BATSEC_SECCOMP_DEBUG") != NULL)
		pp_debug = 1;
	if (geteuid() != 0) {
		/* tests/run counts this line: the suite needs root. */
		printf("check_parser_proc: needs root\n0%%: Checks: 1, "
		    "Failures: 1, Errors: 0\n");
		return EXIT_FAILURE;
	}
	if (bs_crypto_init() != 0)
		die("libsodium initialisation failed");
	log_init(LOG_DEST_STDERR, LOG_INFO, "check_parser_proc");
	find_paths();
	make_identities();
	load_dir(&in_wire, "wire", "BATSEC_PARSER_WIRE_DIR", "fuzz/corpus/wire");
	load_dir(&in_pcore, "pcore", "BATSEC_PARSER_PCORE_DIR",
	    "fuzz/corpus/pcore");
	load_pcaps();
	if ((pw = getpwnam(PP_USER)) == NULL)
		die("no user %s", PP_USER);
	nobody_uid = pw->pw_uid;
	snprintf(root_dir, sizeof(root_dir), "/tmp/bs-chroot.XXXXXX");
	if (mkdtemp(root_dir) == NULL || chmod(root_dir, 0755) != 0)
		die("mkdtemp: %s", strerror(errno));
	rc = t_run(parser_proc_suite());
	rmdir(root_dir);
	return rc;
}
