/*
 * check_forwarder.c — the forwarder's handling of its parser.
 *
 *  - A fake parser (a forked child) writes malformed IPC into a
 *    socketpair whose other end the real forwarder code (fwd_parser_read)
 *    reads: wrong lengths, unknown or wrong-way types, out-of-range
 *    fields, unterminated strings, passed descriptors, messages the state
 *    does not allow.  Each must be answered FWD_CHAN_KILL with a reason,
 *    without crashing the reader; valid messages are accepted, and a
 *    LINK_KEY_REQ is answered with the right key.
 *  - FRAME sending: drops without a parser, of bad sizes or sources, and
 *    when the bounded queue is full.
 *  - fwd_parser_spawn: the child gets exactly fd 3 (the channel) and
 *    /dev/null on 0-2, an empty environment, no blocked signals and the
 *    documented argv (this binary plays the parser when run as "-P").
 *  - Death reporting and the respawn back-off.
 *  - The state directory and the epoch (state.c), and the log rate
 *    limiter (log.c) that keeps per-frame messages bounded.
 *
 * Run as "check_forwarder inject IFNAME hello|junk COUNT" it is a frame
 * injector for tests/t_daemon.sh (batsec frames on a mesh interface).
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <sys/wait.h>

#include <linux/magic.h>

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "forwarder/fwd_parser.h"
#include "proto/ipc.h"
#include "common/log.h"
#include "netio/rawsock.h"
#include "forwarder/state.h"
#include "proto/wire.h"
#include "lib/t_check.h"
#include "lib/t_frames.h"
#include "lib/t_ident.h"
#include "lib/t_ipc.h"

extern char **environ;

static struct bs_identity id_own, id_n1, id_orig;
static uint8_t addr_own[6], addr_n1[6], addr_orig[6];
static const uint8_t mac_n1[6] = { 0x02, 0x01, 0x02, 0x03, 0x04, 0x05 };

#define IF_A	2	/* mesh interfaces the forwarder knows */
#define IF_B	3
#define IF_GONE	5	/* one it removed */
#define IF_NONE	9	/* one that never existed */

static void
keys_init(void)
{
	if (bs_crypto_init() != 0)
		abort();
	t_ident_addr(&id_own, addr_own, 0x11);
	t_ident_addr(&id_n1, addr_n1, 0x22);
	t_ident_addr(&id_orig, addr_orig, 0x33);
}

/* ---- datagrams the fake parser sends -------------------------------------- */

#define DG_MAX	10

struct dgram {
	uint8_t buf[IPC_MAX_MSG + 64];
	size_t len;
	int pass_fd;		/* attach a descriptor (SCM_RIGHTS) */
};

struct script {
	struct dgram d[DG_MAX];
	int n;
};

/* A raw datagram: header {type, len} and payload bytes, unchecked. */
static void
dg_raw(struct script *s, uint16_t type, size_t hdrlen, const void *payload,
    size_t plen)
{
	struct dgram *d = &s->d[s->n++];
	struct ipc_hdr h = { type, (uint16_t)hdrlen, 0 };

	ck_assert_int_le(s->n, DG_MAX);
	ck_assert_uint_le(IPC_HDR_LEN + plen, sizeof(d->buf));
	memcpy(d->buf, &h, IPC_HDR_LEN);
	if (plen > 0)
		memcpy(d->buf + IPC_HDR_LEN, payload, plen);
	d->len = IPC_HDR_LEN + plen;
	d->pass_fd = 0;
}

/* A datagram of a fixed-size payload as the struct is. */
static void
dg_fixed(struct script *s, uint16_t type, const void *obj, size_t size)
{
	dg_raw(s, type, size, obj, size);
}

/* A message that passes layers 1-2, encoded by the ipc module itself. */
static void
dg_valid(struct script *s, uint16_t type, const void *obj, size_t size)
{
	struct dgram *d = &s->d[s->n++];
	char err[256];

	ck_assert_int_le(s->n, DG_MAX);
	ck_assert_msg(ipc_encode(d->buf, sizeof(d->buf), type, obj, size,
	    &d->len, err, sizeof(err)) == 0, "encode: %s", err);
	d->pass_fd = 0;
}

static void
send_dgram(int fd, const struct dgram *d)
{
	struct iovec iov = { .iov_base = (void *)(uintptr_t)d->buf,
	    .iov_len = d->len };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} cm;
	struct msghdr mh;
	int pass = 1;

	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (d->pass_fd) {
		memset(&cm, 0, sizeof(cm));
		mh.msg_control = cm.buf;
		mh.msg_controllen = sizeof(cm.buf);
		cm.h.cmsg_level = SOL_SOCKET;
		cm.h.cmsg_type = SCM_RIGHTS;
		cm.h.cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(&cm.h), &pass, sizeof(int));
	}
	if (sendmsg(fd, &mh, 0) != (ssize_t)d->len)
		_exit(2);
}

/* ---- valid payloads --------------------------------------------------------- */

static void
log_of(struct ipc_log *l, uint8_t level, const char *text)
{
	memset(l, 0, sizeof(*l));
	l->level = level;
	snprintf(l->text, sizeof(l->text), "%s", text);
}

static void
neigh_of(struct ipc_neigh *n, uint32_t ifindex, uint8_t state)
{
	int up = state == IPC_NEIGH_UP;

	*n = t_ipc_neigh((struct t_neigh){ .pk = id_n1.pk, .addr = addr_n1,
	    .mac = mac_n1, .ifindex = ifindex, .state = state,
	    .tq = up ? 200 : 0, .rx_count = up ? 10 : 0 });
}

static void
route_of(struct ipc_route *r, uint32_t ifindex)
{
	*r = t_ipc_route((struct t_route){ .orig_pk = id_orig.pk,
	    .orig_addr = addr_orig, .nexthop = addr_n1, .ifindex = ifindex,
	    .tq = 100, .hops = 2, .epoch = 1 });
}

static void
stats_of(struct ipc_stats *st, uint16_t count)
{
	uint16_t i;

	memset(st, 0, sizeof(*st));
	st->count = count;
	for (i = 0; i < count && i < IPC_STATS_MAX; i++) {
		st->s[i].id = (uint32_t)(i % (IPC_STAT_ID_END - 1)) + 1;
		st->s[i].value = 1000 + i;
	}
}

/* ---- the malformed table ------------------------------------------------------ */

/* Each case builds its script; the last datagram is the bad one. */
typedef void (*case_fn)(struct script *s);

static void
c_short(struct script *s)
{
	dg_raw(s, IPC_LOG, 0, NULL, 0);
	s->d[0].len = 4;		/* half a header */
}

static void
c_len_more(struct script *s)
{
	struct ipc_log l;

	log_of(&l, IPC_LOG_INFO, "x");
	dg_raw(s, IPC_LOG, sizeof(l) + 8, &l, sizeof(l));
}

static void
c_len_less(struct script *s)
{
	struct ipc_log l;

	log_of(&l, IPC_LOG_INFO, "x");
	dg_raw(s, IPC_LOG, sizeof(l) - 8, &l, sizeof(l));
}

static void
c_len_huge(struct script *s)
{
	static uint8_t big[IPC_MAX_PAYLOAD + 16];

	dg_raw(s, IPC_LOG, sizeof(big), big, sizeof(big));
}

static void
c_too_long(struct script *s)
{
	struct ipc_log l;

	log_of(&l, IPC_LOG_INFO, "x");
	dg_raw(s, IPC_LOG, sizeof(l), &l, sizeof(l));
	/* A datagram beyond IPC_MAX_MSG: the reader sees it cut. */
	s->d[0].len = sizeof(s->d[0].buf);
}

static void
c_hdr_reserved(struct script *s)
{
	struct ipc_log l;

	log_of(&l, IPC_LOG_INFO, "x");
	dg_fixed(s, IPC_LOG, &l, sizeof(l));
	s->d[0].buf[4] = 1;
}

static void
c_unknown_type(struct script *s)
{
	uint8_t p[16] = { 0 };

	dg_raw(s, 0x7e, sizeof(p), p, sizeof(p));
}

static void
c_type_zero(struct script *s)
{
	dg_raw(s, 0, 0, NULL, 0);
}

static void
c_wrong_way(struct script *s)
{
	struct ipc_config c;

	memset(&c, 0, sizeof(c));
	memcpy(c.own_pk, id_own.pk, BS_PK_LEN);
	memcpy(c.own_addr, addr_own, BS_ADDR_LEN);
	c.ethertype = 0x88b5;
	c.hello_ms = c.ogm_ms = 1000;
	c.log_level = IPC_LOG_INFO;
	dg_fixed(s, IPC_CONFIG, &c, sizeof(c));	/* forwarder -> parser */
}

static void
c_log_level_low(struct script *s)
{
	struct ipc_log l;

	log_of(&l, 0, "emergency?");
	dg_fixed(s, IPC_LOG, &l, sizeof(l));
}

static void
c_log_level_high(struct script *s)
{
	struct ipc_log l;

	log_of(&l, 9, "x");
	dg_fixed(s, IPC_LOG, &l, sizeof(l));
}

static void
c_log_unterminated(struct script *s)
{
	struct ipc_log l;

	log_of(&l, IPC_LOG_INFO, "");
	memset(l.text, 'A', sizeof(l.text));
	dg_fixed(s, IPC_LOG, &l, sizeof(l));
}

static void
c_log_newline(struct script *s)
{
	struct ipc_log l;

	log_of(&l, IPC_LOG_INFO, "line one\nforged line");
	dg_fixed(s, IPC_LOG, &l, sizeof(l));
}

static void
c_log_after_nul(struct script *s)
{
	struct ipc_log l;

	log_of(&l, IPC_LOG_INFO, "ok");
	l.text[100] = 'x';
	dg_fixed(s, IPC_LOG, &l, sizeof(l));
}

static void
c_log_reserved(struct script *s)
{
	struct ipc_log l;

	log_of(&l, IPC_LOG_INFO, "ok");
	l.reserved[1] = 1;
	dg_fixed(s, IPC_LOG, &l, sizeof(l));
}

static void
c_stats_zero(struct script *s)
{
	struct ipc_stats st;

	stats_of(&st, 0);
	dg_raw(s, IPC_STATS, 8, &st, 8);
}

static void
c_stats_too_many(struct script *s)
{
	struct ipc_stats st;

	stats_of(&st, IPC_STATS_MAX);
	st.count = IPC_STATS_MAX + 1;
	dg_raw(s, IPC_STATS, 8 + 16 * (size_t)IPC_STATS_MAX, &st,
	    8 + 16 * (size_t)IPC_STATS_MAX);
}

static void
c_stats_count_size(struct script *s)
{
	struct ipc_stats st;

	stats_of(&st, 2);
	dg_raw(s, IPC_STATS, 8 + 16, &st, 8 + 16);	/* one entry short */
}

static void
c_stats_unknown_id(struct script *s)
{
	struct ipc_stats st;

	stats_of(&st, 1);
	st.s[0].id = 999;
	dg_raw(s, IPC_STATS, 8 + 16, &st, 8 + 16);
}

static void
c_stats_dup_id(struct script *s)
{
	struct ipc_stats st;

	stats_of(&st, 2);
	st.s[1].id = st.s[0].id;
	dg_raw(s, IPC_STATS, 8 + 32, &st, 8 + 32);
}

static void
c_route_no_neigh(struct script *s)
{
	struct ipc_route r;

	route_of(&r, IF_A);		/* next hop never came up */
	dg_valid(s, IPC_ROUTE_ADD, &r, sizeof(r));
}

static void
c_route_tq0(struct script *s)
{
	struct ipc_neigh n;
	struct ipc_route r;

	neigh_of(&n, IF_A, IPC_NEIGH_UP);
	dg_valid(s, IPC_NEIGH, &n, sizeof(n));
	route_of(&r, IF_A);
	r.tq = 0;
	dg_fixed(s, IPC_ROUTE_ADD, &r, sizeof(r));
}

static void
c_route_hops(struct script *s)
{
	struct ipc_neigh n;
	struct ipc_route r;

	neigh_of(&n, IF_A, IPC_NEIGH_UP);
	dg_valid(s, IPC_NEIGH, &n, sizeof(n));
	route_of(&r, IF_A);
	r.hops = IPC_ROUTE_MAX_HOPS + 1;
	dg_fixed(s, IPC_ROUTE_ADD, &r, sizeof(r));
}

static void
c_route_addr_not_key(struct script *s)
{
	struct ipc_neigh n;
	struct ipc_route r;

	neigh_of(&n, IF_A, IPC_NEIGH_UP);
	dg_valid(s, IPC_NEIGH, &n, sizeof(n));
	route_of(&r, IF_A);
	r.orig_addr[5] ^= 0x10;
	dg_fixed(s, IPC_ROUTE_ADD, &r, sizeof(r));
}

static void
c_route_other_iface(struct script *s)
{
	struct ipc_neigh n;
	struct ipc_route r;

	neigh_of(&n, IF_A, IPC_NEIGH_UP);
	dg_valid(s, IPC_NEIGH, &n, sizeof(n));
	route_of(&r, IF_B);	/* the neighbour is up on IF_A only */
	dg_valid(s, IPC_ROUTE_ADD, &r, sizeof(r));
}

static void
c_neigh_down_again(struct script *s)
{
	struct ipc_neigh n;
	struct ipc_link_key_req q;

	/* Up, down, then a link key for the neighbour that went down. */
	neigh_of(&n, IF_A, IPC_NEIGH_UP);
	dg_valid(s, IPC_NEIGH, &n, sizeof(n));
	neigh_of(&n, IF_A, IPC_NEIGH_DOWN);
	dg_valid(s, IPC_NEIGH, &n, sizeof(n));
	memset(&q, 0, sizeof(q));
	memcpy(q.peer_pk, id_n1.pk, BS_PK_LEN);
	q.ifindex = IF_A;
	dg_valid(s, IPC_LINK_KEY_REQ, &q, sizeof(q));
}

static void
c_neigh_no_iface(struct script *s)
{
	struct ipc_neigh n;

	neigh_of(&n, IF_NONE, IPC_NEIGH_UP);
	dg_valid(s, IPC_NEIGH, &n, sizeof(n));
}

static void
c_neigh_own(struct script *s)
{
	struct ipc_neigh n;

	neigh_of(&n, IF_A, IPC_NEIGH_UP);
	memcpy(n.pk, id_own.pk, BS_PK_LEN);
	memcpy(n.addr, addr_own, BS_ADDR_LEN);
	dg_valid(s, IPC_NEIGH, &n, sizeof(n));
}

static void
c_neigh_state(struct script *s)
{
	struct ipc_neigh n;

	neigh_of(&n, IF_A, IPC_NEIGH_UP);
	n.state = 7;
	dg_fixed(s, IPC_NEIGH, &n, sizeof(n));
}

static void
c_neigh_mcast_mac(struct script *s)
{
	struct ipc_neigh n;

	neigh_of(&n, IF_A, IPC_NEIGH_UP);
	n.mac[0] |= 0x01;
	dg_fixed(s, IPC_NEIGH, &n, sizeof(n));
}

static void
c_neigh_size(struct script *s)
{
	struct ipc_neigh n;

	neigh_of(&n, IF_A, IPC_NEIGH_UP);
	dg_raw(s, IPC_NEIGH, sizeof(n) - 1, &n, sizeof(n) - 1);
}

static void
c_link_key_req_stranger(struct script *s)
{
	struct ipc_link_key_req q;

	memset(&q, 0, sizeof(q));
	memcpy(q.peer_pk, id_orig.pk, BS_PK_LEN);
	q.ifindex = IF_A;
	dg_valid(s, IPC_LINK_KEY_REQ, &q, sizeof(q));
}

static void
c_tt_mcast(struct script *s)
{
	struct ipc_tt t;

	memset(&t, 0, sizeof(t));
	memcpy(t.orig_addr, addr_orig, BS_ADDR_LEN);
	t.count = 1;
	memcpy(t.e[0].mac, mac_n1, BS_ADDR_LEN);
	t.e[0].mac[0] |= 0x01;
	dg_raw(s, IPC_TT, 8 + 8, &t, 8 + 8);
}

static void
c_tt_own(struct script *s)
{
	struct ipc_tt t;

	memset(&t, 0, sizeof(t));
	memcpy(t.orig_addr, addr_own, BS_ADDR_LEN);
	dg_valid(s, IPC_TT, &t, sizeof(t));
}

static void
c_gw_zero(struct script *s)
{
	struct ipc_gw g;

	memset(&g, 0, sizeof(g));
	memcpy(g.orig_addr, addr_orig, BS_ADDR_LEN);
	g.op = IPC_GW_ANNOUNCE;
	g.up = 10;		/* down stays 0 */
	dg_fixed(s, IPC_GW, &g, sizeof(g));
}

static void
c_relay_short(struct script *s)
{
	struct ipc_relay r;

	memset(&r, 0, sizeof(r));
	r.ifindex = IPC_IFINDEX_ALL;
	r.len = 20;		/* below an entry's minimum */
	dg_raw(s, IPC_RELAY, 8 + 20, &r, 8 + 20);
}

static void
c_pass_fd(struct script *s)
{
	struct ipc_log l;

	log_of(&l, IPC_LOG_INFO, "with a descriptor");
	dg_valid(s, IPC_LOG, &l, sizeof(l));
	s->d[0].pass_fd = 1;
}

static void
c_after_valid(struct script *s)
{
	struct ipc_log l;
	struct ipc_stats st;

	/* Good messages first: the bad one is still caught. */
	log_of(&l, IPC_LOG_DEBUG, "fine");
	dg_valid(s, IPC_LOG, &l, sizeof(l));
	stats_of(&st, 3);
	dg_valid(s, IPC_STATS, &st, sizeof(st));
	dg_raw(s, 0x55, 0, NULL, 0);
}

static const struct {
	const char *name;
	case_fn fn;
	const char *why;	/* substring of the reason, or NULL */
} bad_cases[] = {
	{ "short datagram", c_short, NULL },
	{ "len beyond datagram", c_len_more, NULL },
	{ "len short of datagram", c_len_less, NULL },
	{ "len above maximum", c_len_huge, NULL },
	{ "datagram above maximum", c_too_long, NULL },
	{ "header reserved", c_hdr_reserved, NULL },
	{ "unknown type", c_unknown_type, NULL },
	{ "type zero", c_type_zero, NULL },
	{ "forwarder-only type", c_wrong_way, NULL },
	{ "log level 0", c_log_level_low, NULL },
	{ "log level 9", c_log_level_high, NULL },
	{ "log unterminated", c_log_unterminated, NULL },
	{ "log newline", c_log_newline, NULL },
	{ "log bytes after NUL", c_log_after_nul, NULL },
	{ "log reserved", c_log_reserved, NULL },
	{ "stats count 0", c_stats_zero, NULL },
	{ "stats count 65", c_stats_too_many, NULL },
	{ "stats count vs size", c_stats_count_size, NULL },
	{ "stats unknown id", c_stats_unknown_id, NULL },
	{ "stats duplicate id", c_stats_dup_id, NULL },
	{ "route via non-neighbour", c_route_no_neigh, "neighbour" },
	{ "route tq 0", c_route_tq0, NULL },
	{ "route hops", c_route_hops, NULL },
	{ "route addr not key", c_route_addr_not_key, NULL },
	{ "route via other iface", c_route_other_iface, "ifindex 3" },
	{ "link key after neigh down", c_neigh_down_again, "neighbour" },
	{ "neigh unknown iface", c_neigh_no_iface, "ifindex" },
	{ "neigh own address", c_neigh_own, NULL },
	{ "neigh state 7", c_neigh_state, NULL },
	{ "neigh multicast mac", c_neigh_mcast_mac, NULL },
	{ "neigh size", c_neigh_size, NULL },
	{ "link key for stranger", c_link_key_req_stranger, "neighbour" },
	{ "tt multicast client", c_tt_mcast, NULL },
	{ "tt own address", c_tt_own, NULL },
	{ "gw announce 0", c_gw_zero, NULL },
	{ "relay too short", c_relay_short, NULL },
	{ "descriptor passed", c_pass_fd, NULL },
	{ "bad after good", c_after_valid, NULL },
};
#define N_BAD	((int)(sizeof(bad_cases) / sizeof(bad_cases[0])))

/* ---- running a fake parser ------------------------------------------------------ */

static struct fwd_parser fp;

/* A forwarder-side channel to a forked fake parser that sends s. */
static pid_t
fake_parser(const struct script *s)
{
	int sv[2], i;
	pid_t pid;
	char err[256];

	ck_assert_int_eq(ipc_socketpair(sv), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(sv[0]);
		for (i = 0; i < s->n; i++)
			send_dgram(sv[1], &s->d[i]);
		_exit(0);
	}
	close(sv[1]);
	fwd_parser_init(&fp, &id_own);
	ck_assert_msg(fwd_parser_attach(&fp, sv[0], 0, addr_own, err,
	    sizeof(err)) == 0, "attach: %s", err);
	ck_assert_int_eq(ipc_ctx_iface_add(&fp.ctx, IF_A), 0);
	ck_assert_int_eq(ipc_ctx_iface_add(&fp.ctx, IF_B), 0);
	ck_assert_int_eq(ipc_ctx_iface_add(&fp.ctx, IF_GONE), 0);
	ipc_ctx_iface_del(&fp.ctx, IF_GONE);
	return pid;
}

static void
reap_ok(pid_t pid)
{
	int status;

	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "fake parser status 0x%x", (unsigned)status);
}

/* Read until the forwarder code says something other than OK. */
static enum fwd_chan_rc
read_all(char *why, size_t whylen)
{
	enum fwd_chan_rc rc;
	int i;

	for (i = 0; i < 100; i++)
		if ((rc = fwd_parser_read(&fp, why, whylen)) != FWD_CHAN_OK)
			return rc;
	return FWD_CHAN_OK;
}

START_TEST(test_malformed)
{
	static struct script s;
	char why[256] = "";
	enum fwd_chan_rc rc;
	pid_t pid;

	memset(&s, 0, sizeof(s));
	bad_cases[_i].fn(&s);
	pid = fake_parser(&s);
	reap_ok(pid);		/* every datagram is in the socket now */
	rc = read_all(why, sizeof(why));
	ck_assert_msg(rc == FWD_CHAN_KILL, "%s: rc %d (why '%s')",
	    bad_cases[_i].name, rc, why);
	ck_assert_msg(why[0] != '\0', "%s: no reason", bad_cases[_i].name);
	if (bad_cases[_i].why != NULL)
		ck_assert_msg(strstr(why, bad_cases[_i].why) != NULL,
		    "%s: reason '%s' lacks '%s'", bad_cases[_i].name, why,
		    bad_cases[_i].why);
	/* Whatever preceded the bad message was accepted. */
	ck_assert_uint_eq(fp.c.msgs, (uint64_t)(s.n - 1));
	ipc_close(&fp.ipc);
}
END_TEST

/* A zero-byte datagram, like a closed channel, is the end of the parser. */
START_TEST(test_eof)
{
	static struct script s;
	char why[256];

	memset(&s, 0, sizeof(s));
	reap_ok(fake_parser(&s));
	ck_assert_int_eq(read_all(why, sizeof(why)), FWD_CHAN_EOF);
	ipc_close(&fp.ipc);
	ck_assert_int_eq(fwd_parser_read(&fp, why, sizeof(why)), FWD_CHAN_EOF);
}
END_TEST

/* ---- valid traffic ------------------------------------------------------------------ */

/*
 * The fake parser sends a valid conversation and then waits for the
 * forwarder's LINK_KEY answer, which it checks itself: exit 0 when the
 * key is the one the parent's link-key function gave (fake_link_key) and
 * its id matches, and not the static bs_link_key(n1, own).
 */
/* The parent's answer to LINK_KEY_REQ: a fixed key for n1 on IF_A. */
static int
fake_link_key(void *arg, const uint8_t *peer_pk, uint32_t ifindex,
    uint8_t *key, uint8_t *key_id)
{
	(void)arg;
	if (ifindex != IF_A || memcmp(peer_pk, id_n1.pk, BS_PK_LEN) != 0)
		return -1;
	memset(key, 0x5c, BS_LINKKEY_LEN);
	bs_link_keyid(key_id, key);
	return 0;
}

static void __attribute__((noreturn))
fake_parser_conversation(int fd, const struct script *s)
{
	uint8_t key[BS_LINKKEY_LEN], kid[BS_KEYID_LEN];
	struct ipc_link_key k;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct ipc_msg m;
	struct ipc ch;
	char err[256];
	int i;

	for (i = 0; i < s->n; i++)
		send_dgram(fd, &s->d[i]);
	if (ipc_init(&ch, fd, IPC_ROLE_PARSER, 0, err, sizeof(err)) != 0 ||
	    poll(&pfd, 1, 20000) != 1 ||
	    ipc_recv(&ch, &m, err, sizeof(err)) != IPC_RECV_MSG ||
	    ipc_get(&m, IPC_LINK_KEY, &k, sizeof(k)) != 0)
		_exit(3);
	if (bs_link_key(key, &id_n1, id_own.pk) != 0)
		_exit(4);
	if (sodium_memcmp(k.key, key, sizeof(key)) == 0)
		_exit(6);
	memset(key, 0x5c, sizeof(key));
	bs_link_keyid(kid, key);
	if (k.status != IPC_LINK_KEY_OK || k.ifindex != IF_A ||
	    memcmp(k.peer_pk, id_n1.pk, BS_PK_LEN) != 0 ||
	    sodium_memcmp(k.key, key, sizeof(key)) != 0 ||
	    memcmp(k.key_id, kid, sizeof(kid)) != 0)
		_exit(5);
	_exit(0);
}

START_TEST(test_valid_conversation)
{
	static struct script s;
	struct ipc_log l;
	struct ipc_stats st;
	struct ipc_neigh n;
	struct ipc_route r;
	struct ipc_link_key_req q;
	struct pollfd pfd;
	char why[256] = "", err[256];
	enum fwd_chan_rc rc = FWD_CHAN_OK;
	int sv[2], i, status;
	pid_t pid;

	memset(&s, 0, sizeof(s));
	log_of(&l, IPC_LOG_INFO, "hello from the parser");
	dg_valid(&s, IPC_LOG, &l, sizeof(l));
	stats_of(&st, 5);
	dg_valid(&s, IPC_STATS, &st, sizeof(st));
	neigh_of(&n, IF_A, IPC_NEIGH_UP);
	dg_valid(&s, IPC_NEIGH, &n, sizeof(n));
	route_of(&r, IF_A);
	dg_valid(&s, IPC_ROUTE_ADD, &r, sizeof(r));
	route_of(&r, IF_GONE);	/* about a removed interface: stale */
	dg_valid(&s, IPC_ROUTE_ADD, &r, sizeof(r));
	neigh_of(&n, IF_B, IPC_NEIGH_DOWN);	/* not up there: stale too */
	dg_valid(&s, IPC_NEIGH, &n, sizeof(n));
	memset(&q, 0, sizeof(q));
	memcpy(q.peer_pk, id_n1.pk, BS_PK_LEN);
	q.ifindex = IF_A;
	dg_valid(&s, IPC_LINK_KEY_REQ, &q, sizeof(q));

	ck_assert_int_eq(ipc_socketpair(sv), 0);
	if ((pid = fork()) == 0) {
		close(sv[0]);
		fake_parser_conversation(sv[1], &s);
	}
	close(sv[1]);
	fwd_parser_init(&fp, &id_own);
	fwd_parser_link_keys(&fp, fake_link_key);
	ck_assert_msg(fwd_parser_attach(&fp, sv[0], 0, addr_own, err,
	    sizeof(err)) == 0, "%s", err);
	ipc_ctx_iface_add(&fp.ctx, IF_A);
	ipc_ctx_iface_add(&fp.ctx, IF_B);
	ipc_ctx_iface_add(&fp.ctx, IF_GONE);
	ipc_ctx_iface_del(&fp.ctx, IF_GONE);
	for (i = 0; i < 200 && rc == FWD_CHAN_OK; i++) {
		pfd.fd = fp.ipc.fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, 100) > 0)
			rc = fwd_parser_read(&fp, why, sizeof(why));
	}
	ck_assert_msg(rc == FWD_CHAN_EOF, "rc %d: %s", rc, why);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "fake parser: status 0x%x", (unsigned)status);
	ck_assert_uint_eq(fp.c.msgs, 5);
	ck_assert_uint_eq(fp.c.stale, 2);
	ck_assert_uint_eq(fp.c.kills, 0);
	ck_assert_uint_eq(fp.stat[1], 1000);	/* STATS were recorded */
	ck_assert_uint_eq(fp.ctx.n_neigh, 1);	/* NEIGH UP was applied */
	ipc_close(&fp.ipc);
}
END_TEST

/* ---- FRAME sending ---------------------------------------------------------------------- */

START_TEST(test_frame_drops)
{
	static uint8_t payload[IPC_FRAME_MAX + 1];
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t mcast[6] = { 0x01, 0, 0x5e, 0, 0, 1 };
	char err[256];
	int sv[2];

	fwd_parser_init(&fp, &id_own);
	fwd_parser_send_frame(&fp, IF_A, mac_n1, bcast, payload, 100);
	ck_assert_uint_eq(fp.c.drop_no_parser, 1);
	ck_assert_int_eq(ipc_socketpair(sv), 0);
	ck_assert_int_eq(fwd_parser_attach(&fp, sv[0], 0, addr_own, err,
	    sizeof(err)), 0);
	fwd_parser_send_frame(&fp, IF_A, mac_n1, bcast, payload, 0);
	fwd_parser_send_frame(&fp, IF_A, mac_n1, bcast, payload,
	    IPC_FRAME_MAX + 1);
	ck_assert_uint_eq(fp.c.drop_size, 2);
	fwd_parser_send_frame(&fp, IF_A, mcast, bcast, payload, 100);
	ck_assert_uint_eq(fp.c.drop_src, 1);
	fwd_parser_send_frame(&fp, IF_A, mac_n1, bcast, payload,
	    IPC_FRAME_MAX);
	ck_assert_uint_eq(fp.c.frames_sent, 1);
	ipc_close(&fp.ipc);
	close(sv[1]);
}
END_TEST

/* Nobody reads: the socket fills, then the bounded queue, then drops. */
START_TEST(test_frame_queue_bound)
{
	static uint8_t payload[IPC_FRAME_MAX];
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	char err[256];
	int sv[2], i;

	fwd_parser_init(&fp, &id_own);
	ck_assert_int_eq(ipc_socketpair(sv), 0);
	ck_assert_int_eq(fwd_parser_attach(&fp, sv[0], 0, addr_own, err,
	    sizeof(err)), 0);
	for (i = 0; i < 5000; i++) {
		fwd_parser_send_frame(&fp, IF_A, mac_n1, bcast, payload,
		    sizeof(payload));
		ck_assert_uint_le(fp.ipc.queued, FWD_FRAME_QUEUE_MAX +
		    2 * IPC_MAX_MSG);
	}
	ck_assert_uint_gt(fp.c.drop_queue, 0);
	ck_assert_uint_eq(fp.c.frames_sent + fp.c.drop_queue, 5000);
	/* The rest of the queue stays free for a policy snapshot. */
	ck_assert_uint_lt(fp.ipc.queued, IPC_QUEUE_DEFAULT - IPC_POLICY_MAX);
	ipc_close(&fp.ipc);
	close(sv[1]);
}
END_TEST

/* ---- spawning ------------------------------------------------------------------------------- */

/*
 * This binary as the parser ("-P ..."): report what it was given in one
 * LOG message on fd 3.
 */
static void __attribute__((noreturn))
spawn_report(int argc, char **argv)
{
	char text[IPC_LOG_TEXT_MAX], *p = text;
	size_t left = sizeof(text);
	struct dirent *de;
	struct stat st;
	struct sigaction sa;
	sigset_t blocked;
	struct ipc ch;
	char err[128];
	DIR *d;
	int i, n, envc = 0, nulls = 0;

	if (ipc_init(&ch, 3, IPC_ROLE_PARSER, 0, err, sizeof(err)) != 0)
		_exit(10);
	for (i = 0; environ != NULL && environ[i] != NULL; i++)
		envc++;
	for (i = 0; i < 3; i++)
		if (fstat(i, &st) == 0 && S_ISCHR(st.st_mode) &&
		    st.st_rdev == makedev(1, 3))
			nulls++;
	sigprocmask(SIG_SETMASK, NULL, &blocked);
	sigaction(SIGPIPE, NULL, &sa);
	n = snprintf(p, left, "env=%d nulls=%d blocked=%d pipe=%s fds=", envc,
	    nulls, sigismember(&blocked, SIGTERM),
	    sa.sa_handler == SIG_DFL ? "dfl" : "other");
	p += n;
	left -= (size_t)n;
	if ((d = opendir("/proc/self/fd")) == NULL)
		_exit(11);
	while ((de = readdir(d)) != NULL && left > 8)
		if (de->d_name[0] != '.' && atoi(de->d_name) != dirfd(d)) {
			n = snprintf(p, left, "%s,", de->d_name);
			p += n;
			left -= (size_t)n;
		}
	closedir(d);
	for (i = 0; i < argc && left > 40; i++) {
		n = snprintf(p, left, " %s", argv[i]);
		p += n;
		left -= (size_t)n;
	}
	ipc_logf(&ch, IPC_LOG_INFO, "%s", text);
	ipc_flush_wait(&ch, 5000);
	_exit(0);
}

START_TEST(test_spawn_hygiene)
{
	struct sigaction sa;
	struct ipc_msg m;
	struct ipc_log l;
	struct pollfd pfd;
	sigset_t set;
	char err[256];
	int stray, pipefd[2], status, r;

	/* Things a careless spawn would pass on. */
	ck_assert_int_ge(stray = open("/dev/null", O_RDONLY), 0);
	ck_assert_int_eq(pipe(pipefd), 0);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	setenv("BATSEC_SECRET_TEST", "leak", 1);

	fwd_parser_init(&fp, &id_own);
	ck_assert_msg(fwd_parser_setup(&fp, "nobody", "/nonexistent-chroot", 0,
	    err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(fwd_parser_spawn(&fp, addr_own, 1000, err,
	    sizeof(err)) == 0, "%s", err);
	ck_assert_int_gt(fp.pid, 0);
	ck_assert_uint_eq(fp.c.spawns, 1);
	/* A second spawn while one runs is refused. */
	ck_assert_int_eq(fwd_parser_spawn(&fp, addr_own, 1000, err,
	    sizeof(err)), -1);
	pfd.fd = fp.ipc.fd;
	pfd.events = POLLIN;
	ck_assert_int_eq(poll(&pfd, 1, 20000), 1);
	r = ipc_recv(&fp.ipc, &m, err, sizeof(err));
	ck_assert_msg(r == IPC_RECV_MSG, "recv %d: %s", r, err);
	ck_assert_int_eq(ipc_get(&m, IPC_LOG, &l, sizeof(l)), 0);
	ck_assert_msg(strstr(l.text, "env=0 nulls=3 blocked=0 pipe=dfl "
	    "fds=0,1,2,3, batsecd -P -u nobody -r /nonexistent-chroot") ==
	    l.text, "child saw: %s", l.text);
	ck_assert_int_eq(waitpid(fp.pid, &status, 0), fp.pid);
	ck_assert_int_eq(fwd_parser_reaped(&fp, fp.pid, status, 1500), 1);
	ck_assert_int_eq(fp.pid, 0);
	ck_assert_int_lt(fp.ipc.fd, 0);
	close(stray);
	close(pipefd[0]);
	close(pipefd[1]);
}
END_TEST

START_TEST(test_spawn_debug_argv)
{
	struct ipc_msg m;
	struct ipc_log l;
	struct pollfd pfd;
	char err[256];
	int status;

	fwd_parser_init(&fp, &id_own);
	ck_assert_int_eq(fwd_parser_setup(&fp, "batsec", "/var/empty", 1, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(fwd_parser_spawn(&fp, addr_own, 1000, err,
	    sizeof(err)), 0);
	pfd.fd = fp.ipc.fd;
	pfd.events = POLLIN;
	ck_assert_int_eq(poll(&pfd, 1, 20000), 1);
	ck_assert_int_eq(ipc_recv(&fp.ipc, &m, err, sizeof(err)), IPC_RECV_MSG);
	ck_assert_int_eq(ipc_get(&m, IPC_LOG, &l, sizeof(l)), 0);
	ck_assert_msg(strstr(l.text, " batsecd -P -d -u batsec -r /var/empty")
	    != NULL, "child saw: %s", l.text);
	ck_assert_int_eq(waitpid(fp.pid, &status, 0), fp.pid);
	fwd_parser_reaped(&fp, fp.pid, status, 2000);
}
END_TEST

/* ---- death and back-off ------------------------------------------------------------------- */

START_TEST(test_kill_and_reap)
{
	char err[256];
	int sv[2], status;
	pid_t pid;

	ck_assert_int_eq(ipc_socketpair(sv), 0);
	if ((pid = fork()) == 0) {
		close(sv[0]);
		for (;;)
			pause();
	}
	close(sv[1]);
	fwd_parser_init(&fp, &id_own);
	ck_assert_int_eq(fwd_parser_attach(&fp, sv[0], pid, addr_own, err,
	    sizeof(err)), 0);
	fp.spawned_ms = 50000;
	fwd_parser_kill(&fp, "test violation");
	ck_assert_uint_eq(fp.c.kills, 1);
	ck_assert_int_lt(fp.ipc.fd, 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	/* Not ours: ignored.  Ours: recorded, respawn scheduled. */
	ck_assert_int_eq(fwd_parser_reaped(&fp, pid + 100000, status, 50500),
	    0);
	ck_assert_int_eq(fwd_parser_reaped(&fp, pid, status, 50500), 1);
	ck_assert_uint_eq(fp.c.deaths, 1);
	/* Lived 500 ms: the next start waits for a second after the last. */
	ck_assert_uint_eq(fp.respawn_at_ms, 51000);
	ck_assert_int_eq(fwd_parser_respawn_due(&fp, 50999), 0);
	ck_assert_int_eq(fwd_parser_respawn_due(&fp, 51000), 1);
}
END_TEST

START_TEST(test_backoff)
{
	uint64_t t = 100000;
	int i;

	fwd_parser_init(&fp, &id_own);
	/* A crash loop: each parser dies at once; the delay doubles. */
	for (i = 0; i < 8; i++) {
		fp.pid = 4242;
		fp.spawned_ms = t;
		fwd_parser_reaped(&fp, 4242, W_EXITCODE(1, 0), t + 10);
		ck_assert_uint_ge(fp.respawn_at_ms - fp.spawned_ms,
		    FWD_RESPAWN_MIN_MS);
		ck_assert_uint_le(fp.respawn_at_ms - fp.spawned_ms,
		    FWD_RESPAWN_MAX_MS);
		t = fp.respawn_at_ms;
	}
	ck_assert_uint_eq(fp.backoff_ms, FWD_RESPAWN_MAX_MS);
	/* One that lived long resets it: respawned at once. */
	fp.pid = 4242;
	fp.spawned_ms = t;
	fwd_parser_reaped(&fp, 4242, W_EXITCODE(0, SIGKILL),
	    t + FWD_PARSER_STABLE_MS + 5);
	ck_assert_uint_eq(fp.respawn_at_ms, t + FWD_PARSER_STABLE_MS + 5);
	ck_assert_uint_eq(fp.backoff_ms, FWD_RESPAWN_MIN_MS);
}
END_TEST

START_TEST(test_describe_status)
{
	char buf[128];

	fwd_describe_status(W_EXITCODE(1, 0), buf, sizeof(buf));
	ck_assert_str_eq(buf, "exited with status 1");
	fwd_describe_status(W_EXITCODE(0, SIGKILL), buf, sizeof(buf));
	ck_assert_str_eq(buf, "killed by signal SIGKILL");
	fwd_describe_status(W_EXITCODE(0, SIGSYS), buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "SIGSYS (seccomp"));
	fwd_describe_status(W_EXITCODE(159, 0), buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "debug mode"));
	fwd_describe_status(W_EXITCODE(127, 0), buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "could not execute"));
}
END_TEST

/* ---- state directory and epoch ----------------------------------------------------------- */

#define CLOCK_OK	1800000000u	/* a plausible wall clock (2027) */

#define CLOCK_1970	1000u		/* a router without a clock */

static const struct {
	enum bs_epoch_seed mode;
	uint32_t old;
	int have_old;
	uint64_t now_s;
	int on_tmpfs;
	enum state_epoch_how how;
	uint32_t out;
} epoch_cases[] = {
	/* Stored: + 1, whatever the mode, the clock, the file system. */
	{ BS_EPOCH_SEED_AUTO, 41, 1, CLOCK_1970, 0, STATE_EPOCH_COUNTED, 42 },
	{ BS_EPOCH_SEED_AUTO, 41, 1, CLOCK_1970, 1, STATE_EPOCH_COUNTED, 42 },
	{ BS_EPOCH_SEED_AUTO, 41, 1, CLOCK_OK, 1, STATE_EPOCH_COUNTED, 42 },
	{ BS_EPOCH_SEED_CLOCK, 41, 1, CLOCK_1970, 1, STATE_EPOCH_COUNTED, 42 },
	{ BS_EPOCH_SEED_CLOCK, 41, 1, CLOCK_OK, 0, STATE_EPOCH_COUNTED, 42 },
	{ BS_EPOCH_SEED_NONE, 41, 1, UINT32_MAX, 1, STATE_EPOCH_COUNTED, 42 },
	{ BS_EPOCH_SEED_AUTO, CLOCK_OK + 5, 1, CLOCK_OK, 0,
	    STATE_EPOCH_COUNTED, CLOCK_OK + 6 },
	{ BS_EPOCH_SEED_AUTO, 0, 1, 0, 0, STATE_EPOCH_COUNTED, 1 },
	{ BS_EPOCH_SEED_NONE, UINT32_MAX - 1, 1, 0, 0, STATE_EPOCH_COUNTED,
	    UINT32_MAX },
	/* The last epoch has no next. */
	{ BS_EPOCH_SEED_AUTO, UINT32_MAX, 1, CLOCK_OK, 0, STATE_EPOCH_LAST, 0 },
	{ BS_EPOCH_SEED_CLOCK, UINT32_MAX, 1, CLOCK_OK, 1, STATE_EPOCH_LAST,
	    0 },
	{ BS_EPOCH_SEED_NONE, UINT32_MAX, 1, 0, 0, STATE_EPOCH_LAST, 0 },
	/* auto, no file: the clock when plausible, on any file system. */
	{ BS_EPOCH_SEED_AUTO, 0, 0, CLOCK_OK, 0, STATE_EPOCH_CLOCK, CLOCK_OK },
	{ BS_EPOCH_SEED_AUTO, 0, 0, CLOCK_OK, 1, STATE_EPOCH_CLOCK, CLOCK_OK },
	{ BS_EPOCH_SEED_AUTO, 0, 0, STATE_CLOCK_MIN, 1, STATE_EPOCH_CLOCK,
	    STATE_CLOCK_MIN },
	{ BS_EPOCH_SEED_AUTO, 0, 0, STATE_SEED_MAX, 1, STATE_EPOCH_CLOCK,
	    STATE_SEED_MAX },
	/* ... else 1 on persistent storage, refused on tmpfs. */
	{ BS_EPOCH_SEED_AUTO, 0, 0, CLOCK_1970, 0, STATE_EPOCH_FIRST, 1 },
	{ BS_EPOCH_SEED_AUTO, 0, 0, CLOCK_1970, 1, STATE_EPOCH_REFUSED, 0 },
	{ BS_EPOCH_SEED_AUTO, 0, 0, STATE_CLOCK_MIN - 1, 1,
	    STATE_EPOCH_REFUSED, 0 },
	{ BS_EPOCH_SEED_AUTO, 0, 0, (uint64_t)STATE_SEED_MAX + 1, 1,
	    STATE_EPOCH_REFUSED, 0 },
	{ BS_EPOCH_SEED_AUTO, 0, 0, UINT32_MAX, 0, STATE_EPOCH_FIRST, 1 },
	{ BS_EPOCH_SEED_AUTO, 0, 0, (uint64_t)UINT32_MAX + 10, 1,
	    STATE_EPOCH_REFUSED, 0 },
	/* clock, no file: the clock when plausible, else wait. */
	{ BS_EPOCH_SEED_CLOCK, 0, 0, CLOCK_OK, 1, STATE_EPOCH_CLOCK,
	    CLOCK_OK },
	{ BS_EPOCH_SEED_CLOCK, 0, 0, CLOCK_OK, 0, STATE_EPOCH_CLOCK,
	    CLOCK_OK },
	{ BS_EPOCH_SEED_CLOCK, 0, 0, CLOCK_1970, 1, STATE_EPOCH_WAIT, 0 },
	{ BS_EPOCH_SEED_CLOCK, 0, 0, CLOCK_1970, 0, STATE_EPOCH_WAIT, 0 },
	{ BS_EPOCH_SEED_CLOCK, 0, 0, UINT32_MAX, 0, STATE_EPOCH_WAIT, 0 },
	/* none, no file: 1, whatever the clock and the file system. */
	{ BS_EPOCH_SEED_NONE, 0, 0, CLOCK_OK, 0, STATE_EPOCH_FIRST, 1 },
	{ BS_EPOCH_SEED_NONE, 0, 0, CLOCK_OK, 1, STATE_EPOCH_FIRST, 1 },
	{ BS_EPOCH_SEED_NONE, 0, 0, CLOCK_1970, 1, STATE_EPOCH_FIRST, 1 },
};

START_TEST(test_epoch_decide)
{
	uint32_t e = 777;
	enum state_epoch_how how;

	how = state_epoch_decide(epoch_cases[_i].mode, epoch_cases[_i].old,
	    epoch_cases[_i].have_old, epoch_cases[_i].now_s,
	    epoch_cases[_i].on_tmpfs, &e);
	ck_assert_msg(how == epoch_cases[_i].how, "case %d: how %d, not %d",
	    _i, (int)how, (int)epoch_cases[_i].how);
	if (how <= STATE_EPOCH_FIRST)
		ck_assert_msg(e == epoch_cases[_i].out, "case %d: %u, not %u",
		    _i, e, epoch_cases[_i].out);
	else
		ck_assert_uint_eq(e, 777);	/* untouched */
	ck_assert_int_eq(state_clock_plausible(CLOCK_1970), 0);
	ck_assert_int_eq(state_clock_plausible(CLOCK_OK), 1);
}
END_TEST

static const struct {
	const char *text;
	int ok;
	uint32_t value;
} epoch_texts[] = {
	{ "1\n", 1, 1 },
	{ "0\n", 1, 0 },
	{ "4294967295\n", 1, UINT32_MAX },
	{ "4294967296\n", 0, 0 },
	{ "99999999999999999999\n", 0, 0 },
	{ "12", 0, 0 },			/* no newline */
	{ "\n", 0, 0 },
	{ "", 0, 0 },
	{ "012\n", 0, 0 },
	{ "-1\n", 0, 0 },
	{ "+1\n", 0, 0 },
	{ " 1\n", 0, 0 },
	{ "1 \n", 0, 0 },
	{ "1\n\n", 0, 0 },
	{ "0x10\n", 0, 0 },
};

START_TEST(test_epoch_parse)
{
	uint32_t v = 12345;
	char err[128];
	int r;

	r = state_epoch_parse(epoch_texts[_i].text,
	    strlen(epoch_texts[_i].text), &v, "epoch", err, sizeof(err));
	ck_assert_msg((r == 0) == epoch_texts[_i].ok, "'%s': %d",
	    epoch_texts[_i].text, r);
	if (epoch_texts[_i].ok)
		ck_assert_uint_eq(v, epoch_texts[_i].value);
	else
		ck_assert_ptr_nonnull(strstr(err, "epoch"));
}
END_TEST

static char tmpdir[64];

static void
make_tmpdir(void)
{
	t_tmpdir(tmpdir, sizeof(tmpdir), "check_forwarder");
}

static void
rm_tmpdir(void)
{
	t_rmtree(tmpdir);
}

static uint32_t
read_epoch(const char *dir)
{
	char path[256], buf[32];
	uint32_t v = 0;
	FILE *fp_;

	snprintf(path, sizeof(path), "%s/epoch", dir);
	ck_assert_ptr_nonnull(fp_ = fopen(path, "r"));
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), fp_));
	fclose(fp_);
	ck_assert_int_eq(state_epoch_parse(buf, strlen(buf), &v, path, NULL,
	    0), 0);
	return v;
}

START_TEST(test_state_dir_and_bump)
{
	char dir[128], path[160], err[256];
	struct stat st;
	enum state_epoch_how how;
	uint32_t e1, e2;
	FILE *fp_;

	make_tmpdir();
	snprintf(dir, sizeof(dir), "%s/state", tmpdir);
	ck_assert_msg(state_dir_open(dir, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(stat(dir, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0700);
	/* Opening it again is fine. */
	ck_assert_int_eq(state_dir_open(dir, err, sizeof(err)), 0);
	/* First start: 1; then every start goes up by one, the clock does
	 * not matter. */
	ck_assert_int_eq(state_epoch_bump(dir, BS_EPOCH_SEED_NONE, 0, &e1,
	    &how, err, sizeof(err)), 0);
	ck_assert_uint_eq(e1, 1);
	ck_assert_int_eq(how, STATE_EPOCH_FIRST);
	ck_assert_uint_eq(read_epoch(dir), 1);
	ck_assert_int_eq(state_epoch_bump(dir, BS_EPOCH_SEED_AUTO, 0, &e2,
	    &how, err, sizeof(err)), 0);
	ck_assert_uint_eq(e2, 2);
	ck_assert_int_eq(how, STATE_EPOCH_COUNTED);
	ck_assert_int_eq(state_epoch_bump(dir, BS_EPOCH_SEED_CLOCK, CLOCK_OK,
	    &e2, &how, err, sizeof(err)), 0);
	ck_assert_uint_eq(e2, 3);
	ck_assert_uint_eq(read_epoch(dir), 3);
	snprintf(path, sizeof(path), "%s/epoch", dir);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	/* A damaged file stops the start and is left alone. */
	ck_assert_ptr_nonnull(fp_ = fopen(path, "w"));
	fputs("12x\n", fp_);
	fclose(fp_);
	ck_assert_int_eq(state_epoch_bump(dir, BS_EPOCH_SEED_AUTO, CLOCK_OK,
	    &e2, &how, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "epoch"));
	ck_assert_ptr_nonnull(fp_ = fopen(path, "w"));
	fputs("4294967295\n", fp_);
	fclose(fp_);
	ck_assert_int_eq(state_epoch_bump(dir, BS_EPOCH_SEED_AUTO, CLOCK_OK,
	    &e2, &how, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "last one"));
	ck_assert_uint_eq(read_epoch(dir), UINT32_MAX);
	rm_tmpdir();
}
END_TEST

/*
 * One start with the clock in 2106 (the last second a 32-bit epoch can
 * hold), then starts with a right clock: the epoch goes up by one each
 * time and is nowhere near its end.  With epoch-seed clock the clock
 * seeds a missing file once, and is ignored after that.
 */
START_TEST(test_epoch_clock_2106)
{
	char dir[128], path[160], err[256];
	enum state_epoch_how how;
	enum bs_epoch_seed mode;
	uint32_t e;
	int seed;

	make_tmpdir();
	for (seed = 0; seed <= 1; seed++) {
		mode = seed ? BS_EPOCH_SEED_CLOCK : BS_EPOCH_SEED_NONE;
		snprintf(dir, sizeof(dir), "%s/state%d", tmpdir, seed);
		ck_assert_int_eq(state_dir_open(dir, err, sizeof(err)), 0);
		ck_assert_int_eq(state_epoch_bump(dir, mode, seed ? CLOCK_OK :
		    0, &e, &how, err, sizeof(err)), 0);
		ck_assert_uint_eq(e, seed ? CLOCK_OK : 1);
		ck_assert_int_eq(state_epoch_bump(dir, mode, UINT32_MAX, &e,
		    &how, err, sizeof(err)), 0);
		ck_assert_uint_eq(e, (seed ? CLOCK_OK : 1) + 1);
		ck_assert_int_eq(state_epoch_bump(dir, mode, CLOCK_OK, &e,
		    &how, err, sizeof(err)), 0);
		ck_assert_uint_eq(e, (seed ? CLOCK_OK : 1) + 2);
		ck_assert_uint_eq(read_epoch(dir), e);
	}
	/* A seed from a clock in 2106 is not taken either: with
	 * epoch-seed clock the daemon waits (nothing written). */
	snprintf(dir, sizeof(dir), "%s/state2", tmpdir);
	ck_assert_int_eq(state_dir_open(dir, err, sizeof(err)), 0);
	ck_assert_int_eq(state_epoch_bump(dir, BS_EPOCH_SEED_CLOCK,
	    UINT32_MAX, &e, &how, err, sizeof(err)), 1);
	ck_assert_int_eq(how, STATE_EPOCH_WAIT);
	snprintf(path, sizeof(path), "%s/epoch", dir);
	ck_assert_int_eq(access(path, F_OK), -1);
	rm_tmpdir();
}
END_TEST

/*
 * A state directory on tmpfs (or ramfs) forgets the epoch at every boot:
 * with auto and a clock in 1970 the start is refused with an error that
 * names the fixes, and nothing is written; with clock the daemon waits
 * (nothing written either); a plausible clock seeds it; the file, once
 * there, is counted up whatever the clock.  Uses /dev/shm when it is a
 * tmpfs, and the f_type test on its own in any case.  On persistent
 * storage (the test's TMPDIR, when it is not tmpfs) auto starts at 1.
 */
START_TEST(test_epoch_tmpfs)
{
	char dir[128], path[160], err[1024];
	enum state_epoch_how how;
	struct statfs sf;
	uint32_t e;

	ck_assert_int_eq(state_fs_volatile((long)TMPFS_MAGIC), 1);
	ck_assert_int_eq(state_fs_volatile((long)RAMFS_MAGIC), 1);
	ck_assert_int_eq(state_fs_volatile((long)EXT4_SUPER_MAGIC), 0);
	ck_assert_int_eq(state_fs_volatile((long)BTRFS_SUPER_MAGIC), 0);
	make_tmpdir();
	if (statfs(tmpdir, &sf) == 0 && !state_fs_volatile((long)sf.f_type)) {
		snprintf(dir, sizeof(dir), "%s/state", tmpdir);
		ck_assert_int_eq(state_dir_open(dir, err, sizeof(err)), 0);
		ck_assert_int_eq(state_epoch_bump(dir, BS_EPOCH_SEED_AUTO,
		    CLOCK_1970, &e, &how, err, sizeof(err)), 0);
		ck_assert_int_eq(how, STATE_EPOCH_FIRST);
		ck_assert_uint_eq(e, 1);
		ck_assert_uint_eq(read_epoch(dir), 1);
	} else
		fprintf(stderr, "test_epoch_tmpfs: TMPDIR is on tmpfs; "
		    "auto on persistent storage not tested\n");
	rm_tmpdir();
	if (statfs("/dev/shm", &sf) != 0 || sf.f_type != TMPFS_MAGIC) {
		fprintf(stderr, "test_epoch_tmpfs: /dev/shm is no tmpfs; "
		    "only the f_type test ran\n");
		return;
	}
	snprintf(dir, sizeof(dir), "/dev/shm/check_forwarder.%d",
	    (int)getpid());
	snprintf(path, sizeof(path), "%s/epoch", dir);
	ck_assert_int_eq(state_dir_open(dir, err, sizeof(err)), 0);
	ck_assert_int_eq(state_epoch_bump(dir, BS_EPOCH_SEED_AUTO, CLOCK_1970,
	    &e, &how, err, sizeof(err)), -1);
	ck_assert_int_eq(how, STATE_EPOCH_REFUSED);
	ck_assert_ptr_nonnull(strstr(err, "tmpfs"));
	ck_assert_ptr_nonnull(strstr(err, "1970-01-01"));
	ck_assert_ptr_nonnull(strstr(err, "persistent storage"));
	ck_assert_ptr_nonnull(strstr(err, "epoch-seed clock"));
	ck_assert_ptr_nonnull(strstr(err, "epoch-seed none"));
	ck_assert_int_eq(access(path, F_OK), -1);
	ck_assert_int_eq(state_epoch_bump(dir, BS_EPOCH_SEED_CLOCK, CLOCK_1970,
	    &e, &how, err, sizeof(err)), 1);
	ck_assert_int_eq(how, STATE_EPOCH_WAIT);
	ck_assert_int_eq(access(path, F_OK), -1);
	ck_assert_int_eq(state_epoch_bump(dir, BS_EPOCH_SEED_AUTO, CLOCK_OK,
	    &e, &how, err, sizeof(err)), 0);
	ck_assert_int_eq(how, STATE_EPOCH_CLOCK);
	ck_assert_uint_eq(e, CLOCK_OK);
	/* The same boot, started again: counted up, clock or not. */
	ck_assert_int_eq(state_epoch_bump(dir, BS_EPOCH_SEED_AUTO, CLOCK_1970,
	    &e, &how, err, sizeof(err)), 0);
	ck_assert_int_eq(how, STATE_EPOCH_COUNTED);
	ck_assert_uint_eq(e, CLOCK_OK + 1);
	/* none: 1 on tmpfs too (labs). */
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(state_epoch_bump(dir, BS_EPOCH_SEED_NONE, CLOCK_1970,
	    &e, &how, err, sizeof(err)), 0);
	ck_assert_int_eq(how, STATE_EPOCH_FIRST);
	ck_assert_uint_eq(e, 1);
	t_rmtree(dir);
}
END_TEST

START_TEST(test_state_dir_refused)
{
	char dir[128], link_[160], err[256];
	FILE *fp_;

	make_tmpdir();
	/* Writable by others. */
	snprintf(dir, sizeof(dir), "%s/open", tmpdir);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	ck_assert_int_eq(chmod(dir, 0777), 0);
	ck_assert_int_eq(state_dir_open(dir, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "writable"));
	/* A symbolic link to a good directory. */
	ck_assert_int_eq(chmod(dir, 0700), 0);
	snprintf(link_, sizeof(link_), "%s/link", tmpdir);
	ck_assert_int_eq(symlink(dir, link_), 0);
	ck_assert_int_eq(state_dir_open(link_, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "not a directory"));
	/* A file. */
	snprintf(dir, sizeof(dir), "%s/file", tmpdir);
	ck_assert_ptr_nonnull(fp_ = fopen(dir, "w"));
	fclose(fp_);
	ck_assert_int_eq(state_dir_open(dir, err, sizeof(err)), -1);
	/* A parent that does not exist: not created recursively. */
	snprintf(dir, sizeof(dir), "%s/no/such", tmpdir);
	ck_assert_int_eq(state_dir_open(dir, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "cannot create"));
	rm_tmpdir();
}
END_TEST

/* ---- the log rate limiter --------------------------------------------------------------------- */

START_TEST(test_log_rl)
{
	struct log_rl rl = LOG_RL_INIT(3, 2);
	uint64_t sup = 99;
	int i, passed = 0;

	/* A burst of 3, then nothing until time passes. */
	for (i = 0; i < 100; i++)
		passed += log_rl_allow(&rl, 5000, &sup);
	ck_assert_int_eq(passed, 3);
	ck_assert_uint_eq(sup, 0);
	/* 2 per second: after 500 ms one more, and it says 97 were lost. */
	ck_assert_int_eq(log_rl_allow(&rl, 5499, &sup), 0);
	ck_assert_int_eq(log_rl_allow(&rl, 5500, &sup), 1);
	ck_assert_uint_eq(sup, 98);
	/* A long pause refills the burst, never more. */
	for (passed = 0, i = 0; i < 10; i++)
		passed += log_rl_allow(&rl, 1000000, &sup);
	ck_assert_int_eq(passed, 3);
	/* A clock going backwards gives nothing extra. */
	ck_assert_int_eq(log_rl_allow(&rl, 10, &sup), 0);
}
END_TEST

/* ---- frame injector for t_daemon.sh ---------------------------------------------------------- */

static int
inject(const char *ifname, const char *kind, int count)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint8_t buf[512];
	struct bs_identity id;
	struct wire_hello h;
	struct rawsock rs;
	size_t len = 64;
	int i, ifindex = (int)if_nametoindex(ifname);

	if (bs_crypto_init() != 0 || bs_identity_generate(&id) != 0 ||
	    ifindex <= 0 || rawsock_open(&rs, ifindex, RAWSOCK_ETHERTYPE) != 0) {
		perror(ifname);
		return 1;
	}
	memset(buf, 0xee, sizeof(buf));	/* junk: unknown type 0xee */
	if (strcmp(kind, "hello") == 0) {
		memset(&h, 0, sizeof(h));
		h.pk = id.pk;
		h.ifmac = rs.mac;
		h.interval_ms = 1000;
		h.epoch = 1;
		len = t_hello(buf, sizeof(buf), &h, &id);
	}
	for (i = 0; i < count; i++)
		if (rawsock_send(&rs, bcast, buf, len) != 0) {
			perror("send");
			return 1;
		}
	rawsock_close(&rs);
	return 0;
}

static Suite *
forwarder_suite(void)
{
	Suite *s = suite_create("forwarder");
	TCase *tc;

	tc = tcase_create("channel");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_malformed, 0, N_BAD);
	tcase_add_test(tc, test_eof);
	tcase_add_test(tc, test_valid_conversation);
	suite_add_tcase(s, tc);

	tc = tcase_create("frames");
	tcase_add_test(tc, test_frame_drops);
	tcase_add_test(tc, test_frame_queue_bound);
	suite_add_tcase(s, tc);

	/* These start build/batsecd as the parser. */
	tc = tcase_create("spawn");
	tcase_set_tags(tc, T_TAG_NATIVE);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_spawn_hygiene);
	tcase_add_test(tc, test_spawn_debug_argv);
	suite_add_tcase(s, tc);

	tc = tcase_create("process");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_kill_and_reap);
	tcase_add_test(tc, test_backoff);
	tcase_add_test(tc, test_describe_status);
	suite_add_tcase(s, tc);

	tc = tcase_create("state");
	tcase_add_loop_test(tc, test_epoch_decide, 0,
	    (int)(sizeof(epoch_cases) / sizeof(epoch_cases[0])));
	tcase_add_test(tc, test_epoch_clock_2106);
	tcase_add_test(tc, test_epoch_tmpfs);
	tcase_add_loop_test(tc, test_epoch_parse, 0,
	    (int)(sizeof(epoch_texts) / sizeof(epoch_texts[0])));
	tcase_add_test(tc, test_state_dir_and_bump);
	tcase_add_test(tc, test_state_dir_refused);
	tcase_add_test(tc, test_log_rl);
	suite_add_tcase(s, tc);
	return s;
}

int
main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "-P") == 0)
		spawn_report(argc, argv);
	if (argc == 5 && strcmp(argv[1], "inject") == 0)
		return inject(argv[2], argv[3], atoi(argv[4]));
	keys_init();
	return t_run(forwarder_suite());
}
