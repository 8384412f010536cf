/*
 * fastpath.c — the in-kernel UNICAST/ECHO relay (see fastpath.h): its
 * eBPF program, assembled here instruction by instruction, its maps, and
 * the bpf(2) calls that load, attach, fill and read them.
 *
 * The replay windows and concurrency.  Several CPUs may run the program
 * over frames of one (neighbour, lane) at once (RSS, RPS, several
 * queues), and on PREEMPT_RT one run may be preempted by another on the
 * same CPU.  No lock is taken (a bpf_spin_lock would need BTF, which this
 * loader does not build); a window is lock-free instead:
 *	slot[c mod 256]	the newest counter + 1 of that residue seen;
 *	highest		the newest counter seen (a hint, see below).
 * A counter c is fresh iff c + 256 > highest and slot[c mod 256] <= c;
 * it is taken by one atomic compare-and-exchange of that slot from the
 * value read to c + 1.  A slot only grows, and only a compare-and-exchange
 * that found exactly the value its CPU checked succeeds, so one counter is
 * taken at most once whatever the interleaving: a copy racing the first
 * on another CPU finds the slot changed and is dropped (as is, rarely, a
 * fresh counter 256 * k apart that raced it).  highest is raised with one
 * compare-and-exchange attempt; losing it (another CPU raised it) leaves
 * it lower than it might be, which only lets an older counter that no
 * slot has seen pass the "older than the window" check: never a replay.
 * Within the window this is exactly DP2.md's rule (greater than the
 * highest, or within the last 256 and not seen).
 *
 * A window's key holds the hop key id, so a new hop key (a new epoch)
 * starts new windows; the forwarder deletes the windows of keys no longer
 * in use.  The program creates a window (a copy of the zero map's empty
 * one, BPF_NOEXIST: one of two racing creators wins, both then use it).
 *
 * Our own counters: lane 1 + the CPU the program runs on (frames on a
 * CPU of FASTPATH_LANES - 1 or above go to user space: receivers keep
 * that many windows), the low 56 bits ctr_base (set
 * from the wall clock when the program is loaded, so a reload does not
 * repeat counters under a key that stayed) plus an atomic fetch-and-add
 * on that CPU's slot of a per-CPU array: atomic, because of PREEMPT_RT.
 *
 * Who relays a frame.  The program either redirects a frame (it never
 * reaches the AF_PACKET socket) or leaves it unchanged on its way up
 * (TC_ACT_OK) or drops a verified replay; nothing is written into the
 * frame before the last check passed, so user space never sees a frame
 * the program relayed, and relays only frames the program passed.
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

/* Byte offsets in the frame (Ethernet header, then the v2 hop part). */
#define FP_ETH_SRC	6
#define FP_ETH_TYPE	12
#define FP_ETH_HLEN	14
#define FP_H_TYPE	14
#define FP_H_VERSION	15
#define FP_H_TTL	16
#define FP_H_RSV	17
#define FP_H_KEYID	18
#define FP_H_CTR	22
#define FP_H_TAG	30
#define FP_H_DST	38
#define FP_H_SRC	44
#define FP_H_E2E	52		/* bytes 24..51 of the payload: 38..65 */
#define FP_H_END	66		/* Ethernet + hop part + e2e header */
#define FP_OVERHEAD	68		/* payload = 68 + ciphertext */
#define FP_AEAD_TAG	16
#define FP_INNER_MIN	14		/* WIRE_INNER_MIN */
#define FP_INNER_MAX	1518		/* WIRE_INNER_MAX */
#define FP_ECHO_LEN	6
#define FP_T_UNICAST	0x40
#define FP_T_ECHO	0x42
#define FP_VERSION	2
#define FP_LANE_SHIFT	56
#define FP_LOW_MASK	((1ULL << FP_LANE_SHIFT) - 1)
#define FP_SIP_LEN	60		/* bytes covered by the hop tag */

/* struct __sk_buff fields */
#define FP_SKB_LEN	((int16_t)offsetof(struct __sk_buff, len))
#define FP_SKB_PKTTYPE	((int16_t)offsetof(struct __sk_buff, pkt_type))
#define FP_SKB_IFINDEX	((int16_t)offsetof(struct __sk_buff, ifindex))
#define FP_SKB_VLAN	((int16_t)offsetof(struct __sk_buff, vlan_present))
#define FP_SKB_DATA	((int16_t)offsetof(struct __sk_buff, data))
#define FP_SKB_DATA_END	((int16_t)offsetof(struct __sk_buff, data_end))

/* Map values (must match the program's offsets). */
struct fp_route_val {
	uint32_t ifindex;
	uint8_t mac[FASTPATH_ADDR_LEN];
	uint16_t pad;
};

struct fp_neigh_val {
	struct fastpath_count c;	/* 0..39 */
	uint64_t k0;			/* 40: the key's first 8 bytes, LE */
	uint64_t k1;			/* 48 */
	uint8_t keyid[FASTPATH_KEYID_LEN]; /* 56 */
	uint32_t has_key;		/* 60 */
};

struct fp_iface_val {
	struct fastpath_count c;	/* 0..39 */
	uint8_t mac[FASTPATH_ADDR_LEN];	/* 40 */
	uint16_t pad;
	uint32_t mtu;			/* 48 */
	uint32_t pad2;
};

struct fp_alive_val {
	uint64_t until_ns;		/* 0 */
	uint64_t ctr_base;		/* 8 */
};

struct fp_window {
	uint64_t highest;		/* 0 */
	uint64_t slot[FASTPATH_WINDOW];	/* 8: newest counter + 1 */
};

#define FP_C_RX_FRAMES	0
#define FP_C_RX_BYTES	8
#define FP_C_TX_FRAMES	16
#define FP_C_TX_BYTES	24
#define FP_C_REPLAY	32
#define FP_N_K0		((int16_t)offsetof(struct fp_neigh_val, k0))
#define FP_N_K1		((int16_t)offsetof(struct fp_neigh_val, k1))
#define FP_N_KEYID	((int16_t)offsetof(struct fp_neigh_val, keyid))
#define FP_N_HAS_KEY	((int16_t)offsetof(struct fp_neigh_val, has_key))
#define FP_I_MAC	((int16_t)offsetof(struct fp_iface_val, mac))
#define FP_I_MTU	((int16_t)offsetof(struct fp_iface_val, mtu))

_Static_assert(sizeof(struct fastpath_count) == 40, "counter layout");
_Static_assert(offsetof(struct fastpath_count, drop_replay) == FP_C_REPLAY,
    "replay counter");
_Static_assert(offsetof(struct fp_neigh_val, k0) == 40, "neigh key");
_Static_assert(sizeof(struct fp_neigh_val) == 64, "neigh value");
_Static_assert(offsetof(struct fp_iface_val, mac) == 40, "iface mac");
_Static_assert(offsetof(struct fp_iface_val, mtu) == 48, "iface mtu");
_Static_assert(sizeof(struct fastpath_neigh_key) == 12, "neigh key");
_Static_assert(sizeof(struct fastpath_replay_key) == 16, "replay key");
_Static_assert(sizeof(struct fp_window) == 8 + 8 * FASTPATH_WINDOW,
    "window");
_Static_assert(FASTPATH_WINDOW == 256, "the slot index is a byte");

/* Stack slots (negative offsets from r10). */
#define FP_FP_NKEY	(-16)	/* neigh key: ifindex, MAC, pad */
#define FP_FP_RKEY	(-24)	/* route key: address, pad */
#define FP_FP_PKEY	(-40)	/* replay key: ifindex, MAC, lane, pad,
				   keyid */
#define FP_FP_INEIGH	(-48)	/* spilled: the sender's entry */
#define FP_FP_ONEIGH	(-56)	/* spilled: the next hop's entry */
#define FP_FP_OIFACE	(-64)	/* spilled: the out interface's entry */
#define FP_FP_IIFACE	(-72)	/* spilled: the in interface's entry */
#define FP_FP_INIF	(-80)	/* the receiving ifindex */
#define FP_FP_AKEY	(-88)	/* key 0 of the array maps */
#define FP_FP_LOW	(-96)	/* the frame's counter, low 56 bits */
#define FP_FP_WIN	(-104)	/* spilled: the window */
#define FP_FP_LANE	(-112)	/* our lane: 1 + cpu */
#define FP_FP_BASE	(-120)	/* ctr_base */

#define FP_INSNS_MAX	2048
#define FP_TO_PASS	0x7fff	/* jump offset placeholders */
#define FP_TO_DROP	0x7ffe

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

/* A forward jump's target is here: patch the jump at insn k. */
static void
fp_land(struct fp_asm *a, size_t k)
{
	if (k < FP_INSNS_MAX)
		a->i[k].off = (int16_t)(a->n - k - 1);
}

#define R0 0
#define R1 1
#define R2 2
#define R3 3
#define R4 4
#define R5 5
#define R6 6
#define R7 7
#define R8 8
#define R9 9
#define R10 10

#define ALU(op, d, s)	fp_emit(a, BPF_ALU64 | (op) | BPF_X, d, s, 0, 0)
#define ALU_IMM(op, d, v) fp_emit(a, BPF_ALU64 | (op) | BPF_K, d, 0, 0, v)
#define MOV_REG(d, s)	ALU(BPF_MOV, d, s)
#define MOV_IMM(d, v)	ALU_IMM(BPF_MOV, d, v)
#define ADD_REG(d, s)	ALU(BPF_ADD, d, s)
#define ADD_IMM(d, v)	ALU_IMM(BPF_ADD, d, v)
#define SUB_IMM(d, v)	ALU_IMM(BPF_SUB, d, v)
#define AND_IMM(d, v)	ALU_IMM(BPF_AND, d, v)
#define AND_REG(d, s)	ALU(BPF_AND, d, s)
#define LSH_IMM(d, v)	ALU_IMM(BPF_LSH, d, v)
#define RSH_IMM(d, v)	ALU_IMM(BPF_RSH, d, v)
#define OR_REG(d, s)	ALU(BPF_OR, d, s)
#define XOR_REG(d, s)	ALU(BPF_XOR, d, s)
#define XOR_IMM(d, v)	ALU_IMM(BPF_XOR, d, v)
/* Byte order: host to/from little or big endian, bits wide. */
#define TO_LE(d, bits)	fp_emit(a, BPF_ALU | BPF_END | BPF_TO_LE, d, 0, 0, bits)
#define TO_BE(d, bits)	fp_emit(a, BPF_ALU | BPF_END | BPF_TO_BE, d, 0, 0, bits)
#define LDX(sz, d, s, o) fp_emit(a, BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define STX(sz, d, s, o) fp_emit(a, BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define ST(sz, d, o, v)	fp_emit(a, BPF_ST | BPF_MEM | (sz), d, 0, o, v)
#define XADD(d, s, o)	fp_emit(a, BPF_STX | BPF_ATOMIC | BPF_DW, d, s, o, BPF_ADD)
/* s = fetch_add(*(d + o), s) */
#define FETCH_ADD(d, s, o) fp_emit(a, BPF_STX | BPF_ATOMIC | BPF_DW, d, s, o, \
			    BPF_ADD | BPF_FETCH)
/* r0 = cmpxchg(*(d + o), r0, s) */
#define CMPXCHG(d, s, o) fp_emit(a, BPF_STX | BPF_ATOMIC | BPF_DW, d, s, o, \
			    BPF_CMPXCHG)
#define CALL(fn)	fp_emit(a, BPF_JMP | BPF_CALL, 0, 0, 0, fn)
#define EXIT()		fp_emit(a, BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* Compares with an immediate: 32-bit over bytes and fields, 64-bit (the
 * verifier's bounds for pointer arithmetic) over lengths. */
#define PASS_IF_IMM(op, d, v) fp_emit(a, BPF_JMP32 | (op) | BPF_K, d, 0, FP_TO_PASS, v)
#define PASS_IF_IMM64(op, d, v) fp_emit(a, BPF_JMP | (op) | BPF_K, d, 0, FP_TO_PASS, v)
#define PASS_IF_REG(op, d, s) fp_emit(a, BPF_JMP | (op) | BPF_X, d, s, FP_TO_PASS, 0)
#define PASS_IF_NULL(d)	fp_emit(a, BPF_JMP | BPF_JEQ | BPF_K, d, 0, FP_TO_PASS, 0)
#define DROP_IF_REG(op, d, s) fp_emit(a, BPF_JMP | (op) | BPF_X, d, s, FP_TO_DROP, 0)
/* Forward jumps to a label: the insn's index, fp_land() when there. */
#define JMP_IMM(op, d, v) (fp_emit(a, BPF_JMP | (op) | BPF_K, d, 0, 0, v), a->n - 1)
#define JMP_REG(op, d, s) (fp_emit(a, BPF_JMP | (op) | BPF_X, d, s, 0, 0), a->n - 1)

static void
fp_ld_imm64(struct fp_asm *a, uint8_t dst, uint64_t v)
{
	fp_emit(a, BPF_LD | BPF_DW | BPF_IMM, dst, 0, 0, (int32_t)(uint32_t)v);
	fp_emit(a, 0, 0, 0, 0, (int32_t)(uint32_t)(v >> 32));
}

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

/* ---- SipHash-2-4 ---- */

/* x = rotl(x, b), r0 the scratch register. */
static void
fp_rotl(struct fp_asm *a, uint8_t x, int b)
{
	MOV_REG(R0, x);
	LSH_IMM(x, b);
	RSH_IMM(R0, 64 - b);
	OR_REG(x, R0);
}

/* v0..v3 in r1..r4. */
static void
fp_sipround(struct fp_asm *a)
{
	ADD_REG(R1, R2); fp_rotl(a, R2, 13); XOR_REG(R2, R1); fp_rotl(a, R1, 32);
	ADD_REG(R3, R4); fp_rotl(a, R4, 16); XOR_REG(R4, R3);
	ADD_REG(R1, R4); fp_rotl(a, R4, 21); XOR_REG(R4, R1);
	ADD_REG(R3, R2); fp_rotl(a, R2, 17); XOR_REG(R2, R3); fp_rotl(a, R3, 32);
}

/* The message word in r5 through the state. */
static void
fp_sipblock(struct fp_asm *a)
{
	XOR_REG(R4, R5);
	fp_sipround(a);
	fp_sipround(a);
	XOR_REG(R1, R5);
}

/* r5 = the 8 bytes at p + off, as a little-endian word. */
static void
fp_sipload(struct fp_asm *a, uint8_t p, int16_t off)
{
	LDX(BPF_DW, R5, p, off);
	TO_LE(R5, 64);
}

/*
 * r1 = SipHash-2-4(key of the neighbour entry in r0) over the 60 covered
 * bytes: the frame at r7 (checked to FP_H_END) and its last 16 bytes at
 * r8 (checked to 16).  Clobbers r0..r5.
 */
static void
fp_siphash(struct fp_asm *a)
{
	LDX(BPF_DW, R1, R0, FP_N_K0);
	LDX(BPF_DW, R2, R0, FP_N_K1);
	MOV_REG(R3, R1);
	MOV_REG(R4, R2);
	fp_ld_imm64(a, R5, 0x736f6d6570736575ULL);
	XOR_REG(R1, R5);
	fp_ld_imm64(a, R5, 0x646f72616e646f6dULL);
	XOR_REG(R2, R5);
	fp_ld_imm64(a, R5, 0x6c7967656e657261ULL);
	XOR_REG(R3, R5);
	fp_ld_imm64(a, R5, 0x7465646279746573ULL);
	XOR_REG(R4, R5);
	/* bytes 0..15 of the payload */
	fp_sipload(a, R7, FP_ETH_HLEN);
	fp_sipblock(a);
	fp_sipload(a, R7, FP_ETH_HLEN + 8);
	fp_sipblock(a);
	/* bytes 24..51 */
	fp_sipload(a, R7, FP_H_DST);
	fp_sipblock(a);
	fp_sipload(a, R7, FP_H_DST + 8);
	fp_sipblock(a);
	fp_sipload(a, R7, FP_H_DST + 16);
	fp_sipblock(a);
	/* bytes 48..51, then the first 4 of the AEAD tag */
	LDX(BPF_W, R5, R8, 0);
	TO_LE(R5, 32);
	LSH_IMM(R5, 32);
	LDX(BPF_W, R0, R7, FP_H_DST + 24);
	TO_LE(R0, 32);
	OR_REG(R5, R0);
	fp_sipblock(a);
	fp_sipload(a, R8, 4);
	fp_sipblock(a);
	/* the last 4, and the length in the top byte */
	LDX(BPF_W, R5, R8, 12);
	TO_LE(R5, 32);
	fp_ld_imm64(a, R0, (uint64_t)FP_SIP_LEN << 56);
	OR_REG(R5, R0);
	fp_sipblock(a);
	XOR_IMM(R3, 0xff);
	fp_sipround(a);
	fp_sipround(a);
	fp_sipround(a);
	fp_sipround(a);
	XOR_REG(R1, R2);
	XOR_REG(R1, R3);
	XOR_REG(R1, R4);
}

/* ---- the program's parts ---- */

/*
 * Checks that the frame is a v2 UNICAST or ECHO of the right length, not
 * from us: r6 = ctx, r7 = data (checked to FP_H_END), r8 = its last 16
 * bytes (checked), r9 = its length after the Ethernet header.
 */
static void
fp_asm_checks(struct fp_asm *a, uint16_t ethertype,
    const uint8_t own[static FASTPATH_ADDR_LEN])
{
	uint32_t own_lo, own_hi;
	size_t j_linear, j_unicast, j_len_ok;

	MOV_REG(R6, R1);
	LDX(BPF_W, R9, R6, FP_SKB_LEN);
	PASS_IF_IMM64(BPF_JLT, R9, FP_ETH_HLEN + FP_OVERHEAD + FP_ECHO_LEN);
	PASS_IF_IMM64(BPF_JGT, R9, FP_ETH_HLEN + FP_OVERHEAD + FP_INNER_MAX);
	SUB_IMM(R9, FP_ETH_HLEN);
	/* All of it in the linear part (for the AEAD tag at its end). */
	LDX(BPF_W, R7, R6, FP_SKB_DATA);
	LDX(BPF_W, R2, R6, FP_SKB_DATA_END);
	MOV_REG(R3, R7);
	ADD_REG(R3, R9);
	ADD_IMM(R3, FP_ETH_HLEN);
	j_linear = JMP_REG(BPF_JLE, R3, R2);
	MOV_REG(R1, R6);
	MOV_REG(R2, R9);
	ADD_IMM(R2, FP_ETH_HLEN);
	CALL(BPF_FUNC_skb_pull_data);
	PASS_IF_IMM(BPF_JNE, R0, 0);
	fp_land(a, j_linear);
	LDX(BPF_W, R7, R6, FP_SKB_DATA);
	LDX(BPF_W, R2, R6, FP_SKB_DATA_END);
	MOV_REG(R3, R7);
	ADD_IMM(R3, FP_H_END);
	PASS_IF_REG(BPF_JGT, R3, R2);
	MOV_REG(R8, R9);
	SUB_IMM(R8, FP_AEAD_TAG - FP_ETH_HLEN);
	ADD_REG(R8, R7);
	MOV_REG(R3, R8);
	ADD_IMM(R3, FP_AEAD_TAG);
	PASS_IF_REG(BPF_JGT, R3, R2);

	LDX(BPF_W, R0, R6, FP_SKB_PKTTYPE);
	PASS_IF_IMM(BPF_JNE, R0, 0);		/* PACKET_HOST */
	/*
	 * A VLAN tag the kernel took out of the frame at ingress: not ours
	 * to relay.  The socket filter (rawsock.c) refuses tagged frames; a
	 * frame passed on reaches it, or the VLAN device the tag is for, as
	 * if no relay were attached (batsecd(8), "In-kernel relay").
	 */
	LDX(BPF_W, R0, R6, FP_SKB_VLAN);
	PASS_IF_IMM(BPF_JNE, R0, 0);
	/* The frame's bytes as a little-endian load sees them. */
	LDX(BPF_H, R0, R7, FP_ETH_TYPE);
	TO_BE(R0, 16);
	PASS_IF_IMM(BPF_JNE, R0, ethertype);
	/* The type, and the length it allows. */
	LDX(BPF_B, R0, R7, FP_H_TYPE);
	j_unicast = JMP_IMM(BPF_JEQ, R0, FP_T_UNICAST);
	PASS_IF_IMM(BPF_JNE, R0, FP_T_ECHO);
	PASS_IF_IMM64(BPF_JNE, R9, FP_OVERHEAD + FP_ECHO_LEN);
	j_len_ok = JMP_IMM(BPF_JA, 0, 0);
	fp_land(a, j_unicast);
	PASS_IF_IMM64(BPF_JLT, R9, FP_OVERHEAD + FP_INNER_MIN);
	fp_land(a, j_len_ok);
	LDX(BPF_B, R0, R7, FP_H_VERSION);
	PASS_IF_IMM(BPF_JNE, R0, FP_VERSION);
	LDX(BPF_B, R0, R7, FP_H_RSV);
	PASS_IF_IMM(BPF_JNE, R0, 0);
	LDX(BPF_B, R0, R7, FP_H_TTL);
	PASS_IF_IMM(BPF_JLE, R0, 1);		/* user space counts drop_ttl */
	/* Mesh form: locally administered, unicast. */
	LDX(BPF_B, R0, R7, FP_H_DST);
	AND_IMM(R0, 3);
	PASS_IF_IMM(BPF_JNE, R0, 2);
	LDX(BPF_B, R0, R7, FP_H_SRC);
	AND_IMM(R0, 3);
	PASS_IF_IMM(BPF_JNE, R0, 2);
	/* Our own, back from the mesh: user space drops and counts it. */
	memcpy(&own_lo, own, 4);
	own_hi = (uint32_t)own[4] | ((uint32_t)own[5] << 8);
	LDX(BPF_W, R0, R7, FP_H_SRC);
	LDX(BPF_H, R1, R7, FP_H_SRC + 4);
	fp_emit(a, BPF_JMP32 | BPF_JNE | BPF_K, R0, 0, 1, (int32_t)own_lo);
	PASS_IF_IMM(BPF_JEQ, R1, (int32_t)own_hi);
}

/*
 * The deadline, the sender (a neighbour on the receiving interface with a
 * hop key, the frame's keyid its key's), the hop tag.
 */
static void
fp_asm_verify(struct fp_asm *a, const struct fastpath *fp)
{
	/* Only while the forwarder keeps the maps: its deadline not past. */
	ST(BPF_W, R10, FP_FP_AKEY, 0);
	fp_lookup(a, fp->alive_fd, FP_FP_AKEY);
	LDX(BPF_DW, R1, R0, (int16_t)offsetof(struct fp_alive_val, ctr_base));
	STX(BPF_DW, R10, R1, FP_FP_BASE);
	LDX(BPF_DW, R1, R0, (int16_t)offsetof(struct fp_alive_val, until_ns));
	STX(BPF_DW, R10, R1, FP_FP_LOW);
	CALL(BPF_FUNC_ktime_get_ns);
	LDX(BPF_DW, R1, R10, FP_FP_LOW);
	PASS_IF_REG(BPF_JGT, R0, R1);
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
	STX(BPF_DW, R10, R0, FP_FP_INEIGH);
	LDX(BPF_W, R1, R0, FP_N_HAS_KEY);
	PASS_IF_IMM(BPF_JEQ, R1, 0);
	LDX(BPF_W, R1, R0, FP_N_KEYID);
	LDX(BPF_W, R2, R7, FP_H_KEYID);
	PASS_IF_REG(BPF_JNE, R1, R2);
	/* The tag (the 8 bytes as SipHash's output in little endian). */
	fp_siphash(a);
	LDX(BPF_DW, R0, R7, FP_H_TAG);
	TO_LE(R0, 64);
	PASS_IF_REG(BPF_JNE, R0, R1);
}

/*
 * The counter through the window of (sender, lane, keyid): to DROP when
 * seen or older than the window, taken otherwise (see the top).
 */
static void
fp_asm_replay(struct fp_asm *a, const struct fastpath *fp)
{
	size_t j_have, j_high;

	/* The window's key. */
	LDX(BPF_W, R0, R10, FP_FP_NKEY);
	STX(BPF_W, R10, R0, FP_FP_PKEY);
	LDX(BPF_W, R0, R10, FP_FP_NKEY + 4);
	STX(BPF_W, R10, R0, FP_FP_PKEY + 4);
	LDX(BPF_H, R0, R10, FP_FP_NKEY + 8);
	STX(BPF_H, R10, R0, FP_FP_PKEY + 8);
	LDX(BPF_B, R0, R7, FP_H_CTR);		/* the lane: the top byte */
	STX(BPF_B, R10, R0, FP_FP_PKEY + 10);
	ST(BPF_B, R10, FP_FP_PKEY + 11, 0);
	LDX(BPF_W, R0, R7, FP_H_KEYID);
	STX(BPF_W, R10, R0, FP_FP_PKEY + 12);
	/* The counter's low 56 bits. */
	LDX(BPF_DW, R0, R7, FP_H_CTR);
	TO_BE(R0, 64);
	fp_ld_imm64(a, R1, FP_LOW_MASK);
	AND_REG(R0, R1);
	STX(BPF_DW, R10, R0, FP_FP_LOW);
	/* The window, created empty when there is none. */
	fp_ld_map(a, R1, fp->replay_fd);
	MOV_REG(R2, R10);
	ADD_IMM(R2, FP_FP_PKEY);
	CALL(BPF_FUNC_map_lookup_elem);
	j_have = JMP_IMM(BPF_JNE, R0, 0);
	fp_lookup(a, fp->zero_fd, FP_FP_AKEY);
	MOV_REG(R3, R0);
	fp_ld_map(a, R1, fp->replay_fd);
	MOV_REG(R2, R10);
	ADD_IMM(R2, FP_FP_PKEY);
	MOV_IMM(R4, BPF_NOEXIST);
	CALL(BPF_FUNC_map_update_elem);
	fp_lookup(a, fp->replay_fd, FP_FP_PKEY);
	fp_land(a, j_have);
	STX(BPF_DW, R10, R0, FP_FP_WIN);
	/* Older than the window: low + 256 <= highest. */
	LDX(BPF_DW, R1, R10, FP_FP_LOW);
	MOV_REG(R2, R1);
	ADD_IMM(R2, FASTPATH_WINDOW);
	LDX(BPF_DW, R3, R0, 0);
	DROP_IF_REG(BPF_JLE, R2, R3);
	/* Its slot: seen when slot > low; else take it (low + 1). */
	MOV_REG(R2, R1);
	AND_IMM(R2, FASTPATH_WINDOW - 1);
	LSH_IMM(R2, 3);
	MOV_REG(R3, R0);
	ADD_REG(R3, R2);
	MOV_REG(R4, R1);
	ADD_IMM(R4, 1);
	LDX(BPF_DW, R0, R3, 8);
	DROP_IF_REG(BPF_JGE, R0, R4);
	MOV_REG(R5, R0);
	CMPXCHG(R3, R4, 8);
	DROP_IF_REG(BPF_JNE, R0, R5);		/* another CPU took it first */
	/* highest = max(highest, low): one attempt. */
	LDX(BPF_DW, R3, R10, FP_FP_WIN);
	LDX(BPF_DW, R0, R3, 0);
	j_high = JMP_REG(BPF_JGE, R0, R1);
	CMPXCHG(R3, R1, 0);
	fp_land(a, j_high);
}

/* The route, the next hop (a neighbour with a hop key), the out and in
 * interfaces, the MTU: all spilled. */
static void
fp_asm_lookups(struct fp_asm *a, const struct fastpath *fp)
{
	/* The route. */
	LDX(BPF_W, R0, R7, FP_H_DST);
	STX(BPF_W, R10, R0, FP_FP_RKEY);
	LDX(BPF_H, R0, R7, FP_H_DST + 4);
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
	LDX(BPF_W, R1, R0, FP_N_HAS_KEY);
	PASS_IF_IMM(BPF_JEQ, R1, 0);
	STX(BPF_DW, R10, R0, FP_FP_ONEIGH);
	/* The out interface (the key's first 4 bytes), and its MTU. */
	fp_lookup(a, fp->iface_fd, FP_FP_NKEY);
	LDX(BPF_W, R1, R0, FP_I_MTU);
	PASS_IF_REG(BPF_JGT, R9, R1);		/* user space: drop_too_big */
	STX(BPF_DW, R10, R0, FP_FP_OIFACE);
	/* The receiving interface. */
	fp_lookup(a, fp->iface_fd, FP_FP_INIF);
	STX(BPF_DW, R10, R0, FP_FP_IIFACE);
	/* Our lane: 1 + cpu, below FASTPATH_LANES (DP2.md allows 255;
	 * receivers keep FASTPATH_LANES windows). */
	CALL(BPF_FUNC_get_smp_processor_id);
	PASS_IF_IMM64(BPF_JGE, R0, FASTPATH_LANES - 1);
	ADD_IMM(R0, 1);
	STX(BPF_DW, R10, R0, FP_FP_LANE);
	fp_lookup(a, fp->ctr_fd, FP_FP_AKEY);
}

/* Count; rewrite the MACs, TTL - 1, keyid, counter, tag; redirect.  r0 =
 * this CPU's counter slot.  Nothing here may go to PASS. */
static void
fp_asm_relay(struct fp_asm *a)
{
	/* Our counter: lane << 56 | (base + n) & low. */
	MOV_IMM(R1, 1);
	FETCH_ADD(R0, R1, 0);
	LDX(BPF_DW, R2, R10, FP_FP_BASE);
	ADD_REG(R1, R2);
	fp_ld_imm64(a, R2, FP_LOW_MASK);
	AND_REG(R1, R2);
	LDX(BPF_DW, R2, R10, FP_FP_LANE);
	LSH_IMM(R2, FP_LANE_SHIFT);
	OR_REG(R1, R2);
	TO_BE(R1, 64);
	STX(BPF_DW, R7, R1, FP_H_CTR);
	/* The counts. */
	MOV_IMM(R1, 1);
	LDX(BPF_DW, R0, R10, FP_FP_IIFACE);
	XADD(R0, R1, FP_C_RX_FRAMES);
	XADD(R0, R9, FP_C_RX_BYTES);
	LDX(BPF_DW, R0, R10, FP_FP_INEIGH);
	XADD(R0, R1, FP_C_RX_FRAMES);
	XADD(R0, R9, FP_C_RX_BYTES);
	LDX(BPF_DW, R2, R10, FP_FP_OIFACE);
	XADD(R2, R1, FP_C_TX_FRAMES);
	XADD(R2, R9, FP_C_TX_BYTES);
	LDX(BPF_DW, R0, R10, FP_FP_ONEIGH);
	XADD(R0, R1, FP_C_TX_FRAMES);
	XADD(R0, R9, FP_C_TX_BYTES);
	/* Ethernet: to the next hop, from the out interface. */
	LDX(BPF_W, R1, R10, FP_FP_NKEY + 4);
	STX(BPF_W, R7, R1, 0);
	LDX(BPF_H, R1, R10, FP_FP_NKEY + 8);
	STX(BPF_H, R7, R1, 4);
	LDX(BPF_W, R1, R2, FP_I_MAC);
	STX(BPF_W, R7, R1, FP_ETH_SRC);
	LDX(BPF_H, R1, R2, FP_I_MAC + 4);
	STX(BPF_H, R7, R1, FP_ETH_SRC + 4);
	/* The hop part for the next link. */
	LDX(BPF_B, R1, R7, FP_H_TTL);
	SUB_IMM(R1, 1);
	STX(BPF_B, R7, R1, FP_H_TTL);
	LDX(BPF_W, R1, R0, FP_N_KEYID);
	STX(BPF_W, R7, R1, FP_H_KEYID);
	fp_siphash(a);
	TO_LE(R1, 64);
	STX(BPF_DW, R7, R1, FP_H_TAG);
	LDX(BPF_W, R1, R10, FP_FP_NKEY);
	MOV_IMM(R2, 0);				/* egress */
	CALL(BPF_FUNC_redirect);
	EXIT();
}

/* The replay counter of the sender (spilled), then drop. */
static void
fp_asm_drop(struct fp_asm *a)
{
	MOV_IMM(R1, 1);
	LDX(BPF_DW, R0, R10, FP_FP_INEIGH);
	XADD(R0, R1, FP_C_REPLAY);
	MOV_IMM(R0, FASTPATH_DROP);
	EXIT();
}

/* The whole program; 0, or -1 when it did not fit (a bug). */
static int
fp_assemble(struct fp_asm *a, const struct fastpath *fp, uint16_t ethertype,
    const uint8_t own[static FASTPATH_ADDR_LEN])
{
	size_t k, pass, drop;

	memset(a, 0, sizeof(*a));
	fp_asm_checks(a, ethertype, own);
	fp_asm_verify(a, fp);
	fp_asm_replay(a, fp);
	fp_asm_lookups(a, fp);
	fp_asm_relay(a);
	drop = a->n;
	fp_asm_drop(a);
	pass = a->n;
	MOV_IMM(R0, FASTPATH_PASS);
	EXIT();
	if (a->overflow)
		return -1;
	for (k = 0; k < drop; k++) {
		if (BPF_CLASS(a->i[k].code) != BPF_JMP &&
		    BPF_CLASS(a->i[k].code) != BPF_JMP32)
			continue;
		if (a->i[k].off == FP_TO_PASS)
			a->i[k].off = (int16_t)(pass - k - 1);
		else if (a->i[k].off == FP_TO_DROP)
			a->i[k].off = (int16_t)(drop - k - 1);
	}
	return 0;
}

/* ---- bpf(2) ---------------------------------------------------------------- */

static long
fp_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* A hash map (max entries allocated on demand), or with max 0 an array
 * of one element (per CPU with percpu). */
static int
fp_map_create_type(const char *name, uint32_t key, uint32_t val, uint32_t max,
    int percpu)
{
	union bpf_attr at;

	memset(&at, 0, sizeof(at));
	at.map_type = max == 0 ? (percpu ? BPF_MAP_TYPE_PERCPU_ARRAY :
	    BPF_MAP_TYPE_ARRAY) : BPF_MAP_TYPE_HASH;
	at.key_size = key;
	at.value_size = val;
	at.max_entries = max == 0 ? 1 : max;
	at.map_flags = max == 0 ? 0 : BPF_F_NO_PREALLOC;
	(void)snprintf(at.map_name, sizeof(at.map_name), "%s", name);
	return (int)fp_bpf(BPF_MAP_CREATE, &at);
}

static int
fp_map_create(const char *name, uint32_t key, uint32_t val, uint32_t max)
{
	return fp_map_create_type(name, key, val, max, 0);
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
	fp->alive_fd = fp->replay_fd = fp->zero_fd = fp->ctr_fd = -1;
	fp->ctr_base = 0;
}

void
fastpath_close(struct fastpath *fp)
{
	fp_close_fd(&fp->prog_fd);
	fp_close_fd(&fp->route_fd);
	fp_close_fd(&fp->neigh_fd);
	fp_close_fd(&fp->iface_fd);
	fp_close_fd(&fp->alive_fd);
	fp_close_fd(&fp->replay_fd);
	fp_close_fd(&fp->zero_fd);
	fp_close_fd(&fp->ctr_fd);
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

/*
 * Where our lanes' counters start: the wall clock in ms << 16 (2^16
 * frames a millisecond and CPU before a later load could meet them), in
 * the low 56 bits.
 */
static uint64_t
fp_ctr_base(void)
{
	struct timespec ts;
	uint64_t ms;

	(void)clock_gettime(CLOCK_REALTIME, &ts);
	ms = (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
	return (ms << 16) & FP_LOW_MASK;
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
	    sizeof(struct fastpath_neigh_key), sizeof(struct fp_neigh_val),
	    FASTPATH_NEIGH_MAX);
	fp->iface_fd = fp_map_create("batsec_iface", 4,
	    sizeof(struct fp_iface_val), FASTPATH_IFACES_MAX);
	fp->alive_fd = fp_map_create("batsec_alive", 4,
	    sizeof(struct fp_alive_val), 0);
	fp->replay_fd = fp_map_create("batsec_replay",
	    sizeof(struct fastpath_replay_key), sizeof(struct fp_window),
	    FASTPATH_REPLAY_MAX);
	fp->zero_fd = fp_map_create("batsec_zero", 4, sizeof(struct fp_window),
	    0);
	fp->ctr_fd = fp_map_create_type("batsec_ctr", 4, 8, 0, 1);
	fp->ctr_base = fp_ctr_base();
	if (fp->route_fd < 0 || fp->neigh_fd < 0 || fp->iface_fd < 0 ||
	    fp->alive_fd < 0 || fp->replay_fd < 0 || fp->zero_fd < 0 ||
	    fp->ctr_fd < 0) {
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
	struct fp_alive_val v;
	uint32_t key = 0;

	v.until_ns = until_ns;
	v.ctr_base = fp->ctr_base;
	return fp_elem(BPF_MAP_UPDATE_ELEM, fp->alive_fd, &key, &v, BPF_ANY);
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

/* The SipHash key's halves as SipHash reads them (little endian). */
static uint64_t
fp_le64(const uint8_t *p)
{
	uint64_t v = 0;
	int k;

	for (k = 7; k >= 0; k--)
		v = (v << 8) | p[k];
	return v;
}

static void
fp_le64_put(uint8_t *p, uint64_t v)
{
	int k;

	for (k = 0; k < 8; k++, v >>= 8)
		p[k] = (uint8_t)v;
}

static void
fp_neigh_val(struct fp_neigh_val *v, const struct fastpath_hop *hop)
{
	memset(v, 0, sizeof(*v));
	if (hop == NULL)
		return;
	v->k0 = fp_le64(hop->key);
	v->k1 = fp_le64(hop->key + 8);
	memcpy(v->keyid, hop->keyid, FASTPATH_KEYID_LEN);
	v->has_key = 1;
}

int
fastpath_neigh_add(const struct fastpath *fp, uint32_t ifindex,
    const uint8_t mac[static FASTPATH_ADDR_LEN],
    const struct fastpath_hop *hop, struct fastpath_count *taken)
{
	struct fastpath_neigh_key k;
	struct fp_neigh_val want, cur;

	if (taken != NULL)
		memset(taken, 0, sizeof(*taken));
	fp_neigh_key(&k, ifindex, mac);
	fp_neigh_val(&want, hop);
	if (fp_elem(BPF_MAP_LOOKUP_ELEM, fp->neigh_fd, &k, &cur, 0) == 0) {
		if (cur.has_key == want.has_key && cur.k0 == want.k0 &&
		    cur.k1 == want.k1 && memcmp(cur.keyid, want.keyid,
		    FASTPATH_KEYID_LEN) == 0)
			return 0;
		/* Another key: its counts taken, then afresh. */
		if (fp_elem(BPF_MAP_LOOKUP_AND_DELETE_ELEM, fp->neigh_fd, &k,
		    &cur, 0) == 0 && taken != NULL)
			*taken = cur.c;
	}
	if (fp_elem(BPF_MAP_UPDATE_ELEM, fp->neigh_fd, &k, &want,
	    BPF_NOEXIST) == 0 || errno == EEXIST)
		return 0;
	return -1;
}

int
fastpath_neigh_hop(const struct fastpath *fp, uint32_t ifindex,
    const uint8_t mac[static FASTPATH_ADDR_LEN], struct fastpath_hop *hop)
{
	struct fastpath_neigh_key k;
	struct fp_neigh_val v;

	fp_neigh_key(&k, ifindex, mac);
	memset(hop, 0, sizeof(*hop));
	if (fp_elem(BPF_MAP_LOOKUP_ELEM, fp->neigh_fd, &k, &v, 0) != 0)
		return -1;
	if (!v.has_key)
		return 0;
	fp_le64_put(hop->key, v.k0);
	fp_le64_put(hop->key + 8, v.k1);
	memcpy(hop->keyid, v.keyid, FASTPATH_KEYID_LEN);
	return 1;
}

static int
fp_neigh_read(const struct fastpath *fp, int cmd, uint32_t ifindex,
    const uint8_t mac[static FASTPATH_ADDR_LEN], struct fastpath_count *c)
{
	struct fastpath_neigh_key k;
	struct fp_neigh_val v;

	fp_neigh_key(&k, ifindex, mac);
	memset(c, 0, sizeof(*c));
	if (fp_elem(cmd, fp->neigh_fd, &k, &v, 0) != 0)
		return -1;
	*c = v.c;
	return 0;
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

size_t
fastpath_replay_keys(const struct fastpath *fp,
    struct fastpath_replay_key *out, size_t max)
{
	return fp_keys(fp->replay_fd, sizeof(*out), (uint8_t *)out, max);
}

int
fastpath_replay_del(const struct fastpath *fp,
    const struct fastpath_replay_key *k)
{
	return fp_elem(BPF_MAP_DELETE_ELEM, fp->replay_fd, k, NULL, 0);
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

int
fastpath_test_repeat(const struct fastpath *fp, const uint8_t *frame,
    size_t len, uint32_t repeat, int *verdict, uint32_t *ns)
{
	union bpf_attr at;

	memset(&at, 0, sizeof(at));
	at.test.prog_fd = (uint32_t)fp->prog_fd;
	at.test.data_in = (uint64_t)(uintptr_t)frame;
	at.test.data_size_in = (uint32_t)len;
	at.test.repeat = repeat;
	if (fp_bpf(BPF_PROG_TEST_RUN, &at) != 0)
		return -1;
	*verdict = (int)at.test.retval;
	*ns = at.test.duration;
	return 0;
}
