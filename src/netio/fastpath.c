/*
 * fastpath.c — the in-kernel UNICAST relay (see fastpath.h): its eBPF
 * program, assembled here instruction by instruction, its maps, and the
 * bpf(2) calls that load, attach, fill and read them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/bpf.h>

#include "fastpath.h"

/* Linux 6.6 (tcx) names, absent from older headers. */
#define FP_TCX_INGRESS		46	/* enum bpf_attach_type */

/* ---- the program ------------------------------------------------------------ */

/* Byte offsets in the frame (Ethernet header, then the UNICAST header). */
#define FP_ETH_SRC	6
#define FP_ETH_TYPE	12
#define FP_U_TYPE	14
#define FP_U_VERSION	15
#define FP_U_TTL	16
#define FP_U_RSV1	17
#define FP_U_DST	18
#define FP_U_SRC	24
#define FP_U_INNER_LEN	30
#define FP_U_RSV2	32
#define FP_U_END	34		/* Ethernet + UNICAST headers */
#define FP_ETH_HLEN	14
#define FP_U_HLEN	20		/* WIRE_UNICAST_HDR_LEN */
#define FP_INNER_MIN	14		/* WIRE_INNER_MIN */
#define FP_INNER_MAX	1518		/* WIRE_INNER_MAX */
#define FP_T_UNICAST	0x40		/* WIRE_T_UNICAST */
#define FP_VERSION	1		/* WIRE_VERSION */

/* struct __sk_buff fields */
#define FP_SKB_LEN	((int16_t)offsetof(struct __sk_buff, len))
#define FP_SKB_PKTTYPE	((int16_t)offsetof(struct __sk_buff, pkt_type))
#define FP_SKB_IFINDEX	((int16_t)offsetof(struct __sk_buff, ifindex))
#define FP_SKB_DATA	((int16_t)offsetof(struct __sk_buff, data))
#define FP_SKB_DATA_END	((int16_t)offsetof(struct __sk_buff, data_end))

/* Map values (must match the program's offsets). */
struct fp_route_val {
	uint32_t ifindex;
	uint8_t mac[FASTPATH_ADDR_LEN];
	uint16_t pad;
};

struct fp_iface_val {
	struct fastpath_count c;	/* 0..31 */
	uint8_t mac[FASTPATH_ADDR_LEN];	/* 32 */
	uint16_t pad;
	uint32_t mtu;			/* 40 */
	uint32_t pad2;
};

_Static_assert(sizeof(struct fastpath_count) == 32, "counter layout");
_Static_assert(offsetof(struct fp_iface_val, mac) == 32, "iface mac");
_Static_assert(offsetof(struct fp_iface_val, mtu) == 40, "iface mtu");
_Static_assert(sizeof(struct fastpath_neigh_key) == 12, "neigh key");

/* Stack slots (negative offsets from r10). */
#define FP_FP_NKEY	(-16)	/* neigh key: ifindex, MAC, pad */
#define FP_FP_RKEY	(-24)	/* route key: address, pad */
#define FP_FP_ONEIGH	(-32)	/* spilled: the next hop's counters */
#define FP_FP_INIF	(-40)	/* the receiving ifindex */
#define FP_FP_OIFACE	(-48)	/* spilled: the out interface's entry */
#define FP_FP_AKEY	(-56)	/* the alive map's key: 0 */

#define FP_INSNS_MAX	160
#define FP_TO_PASS	0x7fff	/* jump offset placeholder */

struct fp_asm {
	struct bpf_insn i[FP_INSNS_MAX];
	size_t n;
	int overflow;
};

static void
fp_emit(struct fp_asm *a, uint8_t code, uint8_t dst, uint8_t src,
    int16_t off, int32_t imm)
{
	struct bpf_insn *x;

	if (a->n >= FP_INSNS_MAX) {
		a->overflow = 1;
		return;
	}
	x = &a->i[a->n++];
	memset(x, 0, sizeof(*x));
	x->code = code;
	x->dst_reg = dst & 0x0f;
	x->src_reg = src & 0x0f;
	x->off = off;
	x->imm = imm;
}

#define R0 0
#define R1 1
#define R2 2
#define R3 3
#define R6 6
#define R7 7
#define R8 8
#define R9 9
#define R10 10

#define MOV_REG(d, s)	fp_emit(a, BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV_IMM(d, v)	fp_emit(a, BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, v)
#define ADD_IMM(d, v)	fp_emit(a, BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, v)
#define SUB_IMM(d, v)	fp_emit(a, BPF_ALU64 | BPF_SUB | BPF_K, d, 0, 0, v)
#define AND_IMM(d, v)	fp_emit(a, BPF_ALU64 | BPF_AND | BPF_K, d, 0, 0, v)
#define LSH_IMM(d, v)	fp_emit(a, BPF_ALU64 | BPF_LSH | BPF_K, d, 0, 0, v)
#define OR_REG(d, s)	fp_emit(a, BPF_ALU64 | BPF_OR | BPF_X, d, s, 0, 0)
#define LDX(sz, d, s, o) fp_emit(a, BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define STX(sz, d, s, o) fp_emit(a, BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define ST(sz, d, o, v)	fp_emit(a, BPF_ST | BPF_MEM | (sz), d, 0, o, v)
#define XADD(d, s, o)	fp_emit(a, BPF_STX | BPF_ATOMIC | BPF_DW, d, s, o, BPF_ADD)
#define CALL(fn)	fp_emit(a, BPF_JMP | BPF_CALL, 0, 0, 0, fn)
#define EXIT()		fp_emit(a, BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* 32-bit compares with an immediate, 64-bit between registers. */
#define PASS_IF_IMM(op, d, v) fp_emit(a, BPF_JMP32 | (op) | BPF_K, d, 0, FP_TO_PASS, v)
#define PASS_IF_REG(op, d, s) fp_emit(a, BPF_JMP | (op) | BPF_X, d, s, FP_TO_PASS, 0)
#define PASS_IF_NULL(d)	fp_emit(a, BPF_JMP | BPF_JEQ | BPF_K, d, 0, FP_TO_PASS, 0)

static void
fp_ld_map(struct fp_asm *a, uint8_t dst, int fd)
{
	fp_emit(a, BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_FD, 0, fd);
	fp_emit(a, 0, 0, 0, 0, 0);
}

/* r0 = lookup(map, r10 + key_off); to PASS when there is none. */
static void
fp_lookup(struct fp_asm *a, int map_fd, int16_t key_off)
{
	fp_ld_map(a, R1, map_fd);
	MOV_REG(R2, R10);
	ADD_IMM(R2, key_off);
	CALL(BPF_FUNC_map_lookup_elem);
	PASS_IF_NULL(R0);
}

/* Checks that the frame is a well-formed UNICAST not from us: r9 = its
 * length after the Ethernet header.  r6 = ctx, r7 = data. */
static void
fp_asm_checks(struct fp_asm *a, uint16_t ethertype,
    const uint8_t own[static FASTPATH_ADDR_LEN])
{
	uint32_t own_lo, own_hi;

	MOV_REG(R6, R1);
	LDX(BPF_W, R7, R6, FP_SKB_DATA);
	LDX(BPF_W, R2, R6, FP_SKB_DATA_END);
	MOV_REG(R3, R7);
	ADD_IMM(R3, FP_U_END);
	PASS_IF_REG(BPF_JGT, R3, R2);
	LDX(BPF_W, R0, R6, FP_SKB_PKTTYPE);
	PASS_IF_IMM(BPF_JNE, R0, 0);		/* PACKET_HOST */
	/* The frame's bytes as a little-endian load sees them. */
	LDX(BPF_H, R0, R7, FP_ETH_TYPE);
	PASS_IF_IMM(BPF_JNE, R0, (int32_t)((ethertype >> 8) |
	    ((ethertype & 0xff) << 8)));
	LDX(BPF_B, R0, R7, FP_U_TYPE);
	PASS_IF_IMM(BPF_JNE, R0, FP_T_UNICAST);
	LDX(BPF_B, R0, R7, FP_U_VERSION);
	PASS_IF_IMM(BPF_JNE, R0, FP_VERSION);
	LDX(BPF_B, R0, R7, FP_U_RSV1);
	PASS_IF_IMM(BPF_JNE, R0, 0);
	LDX(BPF_H, R0, R7, FP_U_RSV2);
	PASS_IF_IMM(BPF_JNE, R0, 0);
	LDX(BPF_B, R0, R7, FP_U_TTL);
	PASS_IF_IMM(BPF_JLE, R0, 1);		/* user space counts drop_ttl */
	/* Mesh form: locally administered, unicast. */
	LDX(BPF_B, R0, R7, FP_U_DST);
	AND_IMM(R0, 3);
	PASS_IF_IMM(BPF_JNE, R0, 2);
	LDX(BPF_B, R0, R7, FP_U_SRC);
	AND_IMM(R0, 3);
	PASS_IF_IMM(BPF_JNE, R0, 2);
	/* Our own, back from the mesh: user space drops and counts it. */
	memcpy(&own_lo, own, 4);
	own_hi = (uint32_t)own[4] | ((uint32_t)own[5] << 8);
	LDX(BPF_W, R0, R7, FP_U_SRC);
	LDX(BPF_H, R1, R7, FP_U_SRC + 4);
	fp_emit(a, BPF_JMP32 | BPF_JNE | BPF_K, R0, 0, 1, (int32_t)own_lo);
	PASS_IF_IMM(BPF_JEQ, R1, (int32_t)own_hi);
	/* Inner length (big-endian) in range, and the frame exactly that
	 * long: padding and trailing bytes are user space's to judge. */
	LDX(BPF_B, R9, R7, FP_U_INNER_LEN);
	LSH_IMM(R9, 8);
	LDX(BPF_B, R0, R7, FP_U_INNER_LEN + 1);
	OR_REG(R9, R0);
	PASS_IF_IMM(BPF_JLT, R9, FP_INNER_MIN);
	PASS_IF_IMM(BPF_JGT, R9, FP_INNER_MAX);
	ADD_IMM(R9, FP_U_HLEN);
	LDX(BPF_W, R0, R6, FP_SKB_LEN);
	SUB_IMM(R0, FP_ETH_HLEN);
	PASS_IF_REG(BPF_JNE, R0, R9);
}

/* The lookups: r8 = the sender's counters; the next hop's and the out
 * interface's entries spilled; r0 = the receiving interface's entry. */
static void
fp_asm_lookups(struct fp_asm *a, const struct fastpath *fp)
{
	/* Only while the forwarder keeps the maps: its deadline not past. */
	ST(BPF_W, R10, FP_FP_AKEY, 0);
	fp_lookup(a, fp->alive_fd, FP_FP_AKEY);
	LDX(BPF_DW, R8, R0, 0);
	CALL(BPF_FUNC_ktime_get_ns);
	PASS_IF_REG(BPF_JGT, R0, R8);
	/* The sender must be a neighbour on the receiving interface. */
	LDX(BPF_W, R0, R6, FP_SKB_IFINDEX);
	STX(BPF_W, R10, R0, FP_FP_INIF);
	STX(BPF_W, R10, R0, FP_FP_NKEY);
	LDX(BPF_W, R0, R7, FP_ETH_SRC);
	STX(BPF_W, R10, R0, FP_FP_NKEY + 4);
	LDX(BPF_H, R0, R7, FP_ETH_SRC + 4);
	STX(BPF_H, R10, R0, FP_FP_NKEY + 8);
	ST(BPF_H, R10, FP_FP_NKEY + 10, 0);
	fp_lookup(a, fp->neigh_fd, FP_FP_NKEY);
	MOV_REG(R8, R0);
	/* The route. */
	LDX(BPF_W, R0, R7, FP_U_DST);
	STX(BPF_W, R10, R0, FP_FP_RKEY);
	LDX(BPF_H, R0, R7, FP_U_DST + 4);
	STX(BPF_H, R10, R0, FP_FP_RKEY + 4);
	ST(BPF_H, R10, FP_FP_RKEY + 6, 0);
	fp_lookup(a, fp->route_fd, FP_FP_RKEY);
	/* Its next hop must be a neighbour too (the key's pad stays 0). */
	LDX(BPF_W, R1, R0, 0);
	STX(BPF_W, R10, R1, FP_FP_NKEY);
	LDX(BPF_W, R1, R0, 4);
	STX(BPF_W, R10, R1, FP_FP_NKEY + 4);
	LDX(BPF_H, R1, R0, 8);
	STX(BPF_H, R10, R1, FP_FP_NKEY + 8);
	fp_lookup(a, fp->neigh_fd, FP_FP_NKEY);
	STX(BPF_DW, R10, R0, FP_FP_ONEIGH);
	/* The out interface (the key's first 4 bytes), and its MTU. */
	fp_lookup(a, fp->iface_fd, FP_FP_NKEY);
	LDX(BPF_W, R1, R0, (int16_t)offsetof(struct fp_iface_val, mtu));
	PASS_IF_REG(BPF_JGT, R9, R1);		/* user space: drop_too_big */
	STX(BPF_DW, R10, R0, FP_FP_OIFACE);
	/* The receiving interface. */
	fp_lookup(a, fp->iface_fd, FP_FP_INIF);
}

/* Count, rewrite, TTL - 1, redirect. */
static void
fp_asm_relay(struct fp_asm *a)
{
	MOV_IMM(R1, 1);
	XADD(R0, R1, 0);			/* in iface rx */
	XADD(R0, R9, 8);
	XADD(R8, R1, 0);			/* sender rx */
	XADD(R8, R9, 8);
	LDX(BPF_DW, R2, R10, FP_FP_OIFACE);
	XADD(R2, R1, 16);			/* out iface tx */
	XADD(R2, R9, 24);
	LDX(BPF_DW, R3, R10, FP_FP_ONEIGH);
	XADD(R3, R1, 16);			/* next hop tx */
	XADD(R3, R9, 24);
	/* Ethernet: to the next hop, from the out interface. */
	LDX(BPF_W, R0, R10, FP_FP_NKEY + 4);
	STX(BPF_W, R7, R0, 0);
	LDX(BPF_H, R0, R10, FP_FP_NKEY + 8);
	STX(BPF_H, R7, R0, 4);
	LDX(BPF_W, R0, R2, (int16_t)offsetof(struct fp_iface_val, mac));
	STX(BPF_W, R7, R0, FP_ETH_SRC);
	LDX(BPF_H, R0, R2, (int16_t)offsetof(struct fp_iface_val, mac) + 4);
	STX(BPF_H, R7, R0, FP_ETH_SRC + 4);
	LDX(BPF_B, R0, R7, FP_U_TTL);
	SUB_IMM(R0, 1);
	STX(BPF_B, R7, R0, FP_U_TTL);
	LDX(BPF_W, R1, R10, FP_FP_NKEY);
	MOV_IMM(R2, 0);				/* egress */
	CALL(BPF_FUNC_redirect);
	EXIT();
}

/* The whole program; 0, or -1 when it did not fit (a bug). */
static int
fp_assemble(struct fp_asm *a, const struct fastpath *fp, uint16_t ethertype,
    const uint8_t own[static FASTPATH_ADDR_LEN])
{
	size_t k, pass;

	memset(a, 0, sizeof(*a));
	fp_asm_checks(a, ethertype, own);
	fp_asm_lookups(a, fp);
	fp_asm_relay(a);
	pass = a->n;
	MOV_IMM(R0, FASTPATH_PASS);
	EXIT();
	if (a->overflow)
		return -1;
	for (k = 0; k < pass; k++)
		if (a->i[k].off == FP_TO_PASS &&
		    (BPF_CLASS(a->i[k].code) == BPF_JMP ||
		    BPF_CLASS(a->i[k].code) == BPF_JMP32))
			a->i[k].off = (int16_t)(pass - k - 1);
	return 0;
}

/* ---- bpf(2) ---------------------------------------------------------------- */

static long
fp_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* A hash map (max entries allocated on demand), or with max 0 an array
 * of one element. */
static int
fp_map_create(const char *name, uint32_t key, uint32_t val, uint32_t max)
{
	union bpf_attr at;

	memset(&at, 0, sizeof(at));
	at.map_type = max == 0 ? BPF_MAP_TYPE_ARRAY : BPF_MAP_TYPE_HASH;
	at.key_size = key;
	at.value_size = val;
	at.max_entries = max == 0 ? 1 : max;
	at.map_flags = max == 0 ? 0 : BPF_F_NO_PREALLOC;
	(void)snprintf(at.map_name, sizeof(at.map_name), "%s", name);
	return (int)fp_bpf(BPF_MAP_CREATE, &at);
}

static int
fp_elem(int cmd, int fd, const void *key, void *val, uint64_t flags)
{
	union bpf_attr at;

	memset(&at, 0, sizeof(at));
	at.map_fd = (uint32_t)fd;
	at.key = (uint64_t)(uintptr_t)key;
	at.value = (uint64_t)(uintptr_t)val;
	at.flags = flags;
	return (int)fp_bpf(cmd, &at);
}

/* Up to max keys of ksize bytes from the map into out. */
static size_t
fp_keys(int fd, size_t ksize, uint8_t *out, size_t max)
{
	union bpf_attr at;
	size_t n = 0;

	while (n < max) {
		memset(&at, 0, sizeof(at));
		at.map_fd = (uint32_t)fd;
		at.key = n == 0 ? 0 : (uint64_t)(uintptr_t)(out +
		    (n - 1) * ksize);
		at.next_key = (uint64_t)(uintptr_t)(out + n * ksize);
		if (fp_bpf(BPF_MAP_GET_NEXT_KEY, &at) != 0)
			break;
		n++;
	}
	return n;
}

static void
fp_close_fd(int *fd)
{
	if (*fd >= 0)
		(void)close(*fd);
	*fd = -1;
}

void
fastpath_init(struct fastpath *fp)
{
	fp->prog_fd = fp->route_fd = fp->neigh_fd = fp->iface_fd = -1;
	fp->alive_fd = -1;
}

void
fastpath_close(struct fastpath *fp)
{
	fp_close_fd(&fp->prog_fd);
	fp_close_fd(&fp->route_fd);
	fp_close_fd(&fp->neigh_fd);
	fp_close_fd(&fp->iface_fd);
	fp_close_fd(&fp->alive_fd);
}

int
fastpath_loaded(const struct fastpath *fp)
{
	return fp->prog_fd >= 0;
}

/* The verifier's log ends with its verdict; keep the last line. */
static void
fp_log_tail(const char *log, char *out, size_t outlen)
{
	size_t n = strlen(log);
	const char *p;

	while (n > 0 && (log[n - 1] == '\n' || log[n - 1] == ' '))
		n--;
	p = log + n;
	while (p > log && p[-1] != '\n')
		p--;
	(void)snprintf(out, outlen, "%.*s", (int)(log + n - p), p);
}

static int
fp_load(struct fastpath *fp, const struct fp_asm *a, char *err,
    size_t errlen)
{
	static char log[16384];
	char last[160];
	union bpf_attr at;
	int saved;

	memset(&at, 0, sizeof(at));
	at.prog_type = BPF_PROG_TYPE_SCHED_CLS;
	at.insns = (uint64_t)(uintptr_t)a->i;
	at.insn_cnt = (uint32_t)a->n;
	at.license = (uint64_t)(uintptr_t)"BSD";
	(void)snprintf(at.prog_name, sizeof(at.prog_name), "batsec_relay");
	fp->prog_fd = (int)fp_bpf(BPF_PROG_LOAD, &at);
	if (fp->prog_fd >= 0)
		return 0;
	saved = errno;
	/* Once more with the verifier's log, to say why. */
	log[0] = '\0';
	at.log_buf = (uint64_t)(uintptr_t)log;
	at.log_size = sizeof(log);
	at.log_level = 1;
	fp->prog_fd = (int)fp_bpf(BPF_PROG_LOAD, &at);
	if (fp->prog_fd >= 0)
		return 0;
	fp_log_tail(log, last, sizeof(last));
	(void)snprintf(err, errlen, "loading the relay program: %s%s%s",
	    strerror(saved), last[0] != '\0' ? ": " : "", last);
	errno = saved;
	return -1;
}

int
fastpath_open(struct fastpath *fp, uint16_t ethertype,
    const uint8_t own[static FASTPATH_ADDR_LEN], char *err, size_t errlen)
{
	static struct fp_asm a;
	int saved;

	fastpath_init(fp);
	fp->route_fd = fp_map_create("batsec_route", 8,
	    sizeof(struct fp_route_val), FASTPATH_ROUTES_MAX);
	fp->neigh_fd = fp_map_create("batsec_neigh",
	    sizeof(struct fastpath_neigh_key), sizeof(struct fastpath_count),
	    FASTPATH_NEIGH_MAX);
	fp->iface_fd = fp_map_create("batsec_iface", 4,
	    sizeof(struct fp_iface_val), FASTPATH_IFACES_MAX);
	fp->alive_fd = fp_map_create("batsec_alive", 4, 8, 0);
	if (fp->route_fd < 0 || fp->neigh_fd < 0 || fp->iface_fd < 0 ||
	    fp->alive_fd < 0) {
		saved = errno;
		(void)snprintf(err, errlen, "creating the relay's maps: %s",
		    strerror(saved));
		goto fail;
	}
	if (fp_assemble(&a, fp, ethertype, own) != 0) {
		saved = E2BIG;
		(void)snprintf(err, errlen, "assembling the relay program: "
		    "too long");
		goto fail;
	}
	if (fp_load(fp, &a, err, errlen) != 0) {
		saved = errno;
		goto fail;
	}
	return 0;
fail:
	fastpath_close(fp);
	errno = saved;
	return -1;
}

int
fastpath_attach(const struct fastpath *fp, int ifindex)
{
	union bpf_attr at;

	if (fp->prog_fd < 0 || ifindex <= 0) {
		errno = EBADF;
		return -1;
	}
	memset(&at, 0, sizeof(at));
	at.link_create.prog_fd = (uint32_t)fp->prog_fd;
	at.link_create.target_ifindex = (uint32_t)ifindex;
	at.link_create.attach_type = FP_TCX_INGRESS;
	return (int)fp_bpf(BPF_LINK_CREATE, &at);
}

/* ---- the maps --------------------------------------------------------------- */

uint64_t
fastpath_now_ns(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int
fastpath_alive(const struct fastpath *fp, uint64_t until_ns)
{
	uint32_t key = 0;

	return fp_elem(BPF_MAP_UPDATE_ELEM, fp->alive_fd, &key, &until_ns,
	    BPF_ANY);
}

static void
fp_route_key(uint8_t key[static 8], const uint8_t orig[static FASTPATH_ADDR_LEN])
{
	memset(key, 0, 8);
	memcpy(key, orig, FASTPATH_ADDR_LEN);
}

int
fastpath_route_set(const struct fastpath *fp,
    const uint8_t orig[static FASTPATH_ADDR_LEN], uint32_t ifindex,
    const uint8_t nexthop_mac[static FASTPATH_ADDR_LEN])
{
	struct fp_route_val v;
	uint8_t key[8];

	fp_route_key(key, orig);
	memset(&v, 0, sizeof(v));
	v.ifindex = ifindex;
	memcpy(v.mac, nexthop_mac, FASTPATH_ADDR_LEN);
	return fp_elem(BPF_MAP_UPDATE_ELEM, fp->route_fd, key, &v, BPF_ANY);
}

int
fastpath_route_get(const struct fastpath *fp,
    const uint8_t orig[static FASTPATH_ADDR_LEN], uint32_t *ifindex,
    uint8_t nexthop_mac[static FASTPATH_ADDR_LEN])
{
	struct fp_route_val v;
	uint8_t key[8];

	fp_route_key(key, orig);
	if (fp_elem(BPF_MAP_LOOKUP_ELEM, fp->route_fd, key, &v, 0) != 0)
		return -1;
	*ifindex = v.ifindex;
	memcpy(nexthop_mac, v.mac, FASTPATH_ADDR_LEN);
	return 0;
}

int
fastpath_route_del(const struct fastpath *fp,
    const uint8_t orig[static FASTPATH_ADDR_LEN])
{
	uint8_t key[8];

	fp_route_key(key, orig);
	return fp_elem(BPF_MAP_DELETE_ELEM, fp->route_fd, key, NULL, 0);
}

size_t
fastpath_route_keys(const struct fastpath *fp, uint8_t *out, size_t max)
{
	static uint8_t keys[FASTPATH_ROUTES_MAX][8];
	size_t n, i;

	if (max > FASTPATH_ROUTES_MAX)
		max = FASTPATH_ROUTES_MAX;
	n = fp_keys(fp->route_fd, 8, &keys[0][0], max);
	for (i = 0; i < n; i++)
		memcpy(out + i * FASTPATH_ADDR_LEN, keys[i], FASTPATH_ADDR_LEN);
	return n;
}

static void
fp_neigh_key(struct fastpath_neigh_key *k, uint32_t ifindex,
    const uint8_t mac[static FASTPATH_ADDR_LEN])
{
	memset(k, 0, sizeof(*k));
	k->ifindex = ifindex;
	memcpy(k->mac, mac, FASTPATH_ADDR_LEN);
}

int
fastpath_neigh_add(const struct fastpath *fp, uint32_t ifindex,
    const uint8_t mac[static FASTPATH_ADDR_LEN])
{
	struct fastpath_neigh_key k;
	struct fastpath_count c;

	fp_neigh_key(&k, ifindex, mac);
	memset(&c, 0, sizeof(c));
	if (fp_elem(BPF_MAP_UPDATE_ELEM, fp->neigh_fd, &k, &c,
	    BPF_NOEXIST) == 0 || errno == EEXIST)
		return 0;
	return -1;
}

static int
fp_neigh_read(const struct fastpath *fp, int cmd, uint32_t ifindex,
    const uint8_t mac[static FASTPATH_ADDR_LEN], struct fastpath_count *c)
{
	struct fastpath_neigh_key k;

	fp_neigh_key(&k, ifindex, mac);
	memset(c, 0, sizeof(*c));
	return fp_elem(cmd, fp->neigh_fd, &k, c, 0);
}

int
fastpath_neigh_get(const struct fastpath *fp, uint32_t ifindex,
    const uint8_t mac[static FASTPATH_ADDR_LEN], struct fastpath_count *c)
{
	return fp_neigh_read(fp, BPF_MAP_LOOKUP_ELEM, ifindex, mac, c);
}

int
fastpath_neigh_take(const struct fastpath *fp, uint32_t ifindex,
    const uint8_t mac[static FASTPATH_ADDR_LEN], struct fastpath_count *c)
{
	return fp_neigh_read(fp, BPF_MAP_LOOKUP_AND_DELETE_ELEM, ifindex, mac,
	    c);
}

size_t
fastpath_neigh_keys(const struct fastpath *fp,
    struct fastpath_neigh_key *out, size_t max)
{
	return fp_keys(fp->neigh_fd, sizeof(*out), (uint8_t *)out, max);
}

int
fastpath_iface_add(const struct fastpath *fp, uint32_t ifindex,
    const uint8_t mac[static FASTPATH_ADDR_LEN], uint32_t mtu)
{
	struct fp_iface_val v;

	memset(&v, 0, sizeof(v));
	memcpy(v.mac, mac, FASTPATH_ADDR_LEN);
	v.mtu = mtu;
	return fp_elem(BPF_MAP_UPDATE_ELEM, fp->iface_fd, &ifindex, &v,
	    BPF_ANY);
}

static int
fp_iface_read(const struct fastpath *fp, int cmd, uint32_t ifindex,
    struct fastpath_count *c)
{
	struct fp_iface_val v;

	memset(c, 0, sizeof(*c));
	if (fp_elem(cmd, fp->iface_fd, &ifindex, &v, 0) != 0)
		return -1;
	*c = v.c;
	return 0;
}

int
fastpath_iface_get(const struct fastpath *fp, uint32_t ifindex,
    struct fastpath_count *c)
{
	return fp_iface_read(fp, BPF_MAP_LOOKUP_ELEM, ifindex, c);
}

int
fastpath_iface_take(const struct fastpath *fp, uint32_t ifindex,
    struct fastpath_count *c)
{
	return fp_iface_read(fp, BPF_MAP_LOOKUP_AND_DELETE_ELEM, ifindex, c);
}

size_t
fastpath_iface_keys(const struct fastpath *fp, uint32_t *out, size_t max)
{
	return fp_keys(fp->iface_fd, sizeof(*out), (uint8_t *)out, max);
}

int
fastpath_test_run(const struct fastpath *fp, const uint8_t *frame,
    size_t len, uint8_t *out, size_t outcap, int *verdict)
{
	union bpf_attr at;

	memset(&at, 0, sizeof(at));
	at.test.prog_fd = (uint32_t)fp->prog_fd;
	at.test.data_in = (uint64_t)(uintptr_t)frame;
	at.test.data_size_in = (uint32_t)len;
	at.test.data_out = (uint64_t)(uintptr_t)out;
	at.test.data_size_out = (uint32_t)outcap;
	at.test.repeat = 1;
	if (fp_bpf(BPF_PROG_TEST_RUN, &at) != 0)
		return -1;
	*verdict = (int)at.test.retval;
	return 0;
}
