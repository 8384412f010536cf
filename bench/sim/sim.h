/*
 * sim.h — the scale simulator: N parser cores (pcore.h, the code batsecd's
 * parser runs) and N small models of the forwarder's origination,
 * aggregation and link authentication (the builders of fwd_orig.h), joined
 * by a topology and driven in virtual time by one event queue.
 *
 * Nothing here talks to a network or a clock: a frame one node's model
 * builds with fwd_hello_build() or struct fwd_agg is handed, after a fixed
 * link delay and a per-link loss draw, to pcore_frame() of every
 * neighbour; what pcore emits (NEIGH, LINK_KEY_REQ, RELAY, ROUTE_*) is
 * applied by the node's forwarder model as batsecd's forwarder would.
 *
 * Verification: real Ed25519 and real hop chains by default.  With
 * memo (--memo) every distinct (signature, message, key) is verified for
 * real once and its result remembered for all nodes, and likewise every
 * distinct hop-chain check; pcore still counts each check it asks for, so
 * the cost columns are the daemon's, only the simulator's CPU time is
 * saved.  Every output line says which mode ran (sim_wrap.c, linked with
 * -Wl,--wrap).
 */
#ifndef BATSEC_SIM_H
#define BATSEC_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "forwarder/fwd_orig.h"
#include "parser/pcore.h"

#define SIM_IFINDEX	1
#define SIM_MTU		1500
#define SIM_LINK_DELAY_MS	2	/* air time + queueing, fixed */
#define SIM_HORIZON	(BS_MAXHOPS + 1)	/* longest route, hops */

enum sim_topo { SIM_CHAIN, SIM_GRID, SIM_RGG };
enum sim_role { SIM_HONEST = 0, SIM_LIAR, SIM_SYBIL };

/* One run's settings. */
struct sim_opts {
	enum sim_topo topo;
	unsigned n;			/* nodes, attackers included */
	double degree;			/* RGG: mean degree wanted */
	double loss;			/* per link and frame, 0..1 */
	uint64_t seed;
	int memo;			/* memoised verification */
	unsigned liars;			/* TQ liars among the n */
	unsigned sybils;		/* Sybil flooders among the n */
	unsigned sybil_keys;		/* stranger keys per flooder */
	unsigned max_s;			/* give up after, virtual s */
	unsigned window_s;		/* measuring window after convergence */
	unsigned settle_s;		/* fixed run length (0: until converged) */
	int quiet;
	int no_burst;			/* without the cold-start burst */
	int hello_sign;			/* every HELLO signed (no tags) */
	unsigned full_every;		/* own OGMs: at least every Nth full
					   (0: FWD_FULL_EVERY; 1: all full,
					   as before compact entries) */
	int no_want;			/* IPC_DESC_WANT ignored */
	int no_sign_ask;		/* IPC_HELLO_SIGN ignored */
	/* --cut A,B,T0,T1: every frame between nodes cut_a and cut_b is
	 * lost from cut_t0_ms to cut_t1_ms (cut_t1_ms 0: no cut). */
	unsigned cut_a, cut_b;
	uint64_t cut_t0_ms, cut_t1_ms;
	int no_fisheye;			/* pcore.no_fisheye: every compact
					   entry relayed, no gap expected */
	unsigned fisheye_hops;		/* 0: pcore's default rule; else */
	unsigned fisheye_gap_max;	/* pcore.fisheye_hops, _gap_max */
	int far_set;			/* --relay-far given: */
	unsigned far_hops, far_ms;	/* fwd_relayq_far() */
	unsigned start_spread_ms;	/* 0: listen from 0, first HELLO at a
					   random phase; else each node
					   starts (listens, sends its first
					   HELLO) at a random time below */
	/* Policy limits to set (batsec-policy(5) "limit NAME VALUE"). */
	unsigned n_limits;
	struct { size_t idx; uint32_t value; } limits[8];
	/* Live mode (sim_live): one real batsecd on a veth, trusted by every
	 * node and joined to nodes 0..live_k-1; each node announces the
	 * client MAC 02:5f:<index + 1, 4 bytes> in its OGMs. */
	const char *live_iface;		/* NULL: no live mode */
	const char *live_policy;	/* write the daemon's policy here */
	uint8_t live_pk[BS_PK_LEN];	/* the daemon's key */
	unsigned live_k;
	unsigned live_secs;		/* wall seconds to run */
};

/* The graph: adjacency lists, BFS distances on demand. */
struct sim_graph {
	unsigned n;
	unsigned *off;			/* n + 1 offsets into adj */
	unsigned *adj;
	unsigned edges;			/* undirected */
	unsigned bridged;		/* RGG: links added to connect it */
};

/* A neighbour in the forwarder model's table (from IPC_NEIGH). */
struct sim_fnb {
	uint8_t pk[BS_PK_LEN];
	uint8_t addr[BS_ADDR_LEN];
	uint8_t rx_count;
	uint8_t tq;
	uint8_t key[BS_LINKKEY_LEN];
	uint8_t key_id[BS_KEYID_LEN];
	uint8_t has_key;
};

struct sim_node {
	struct bs_identity id;
	uint8_t addr[BS_ADDR_LEN];
	uint8_t mac[BS_ADDR_LEN];
	uint8_t role;			/* enum sim_role */
	struct pcore pc;
	struct fwd_orig orig;
	uint32_t hello_seqno;
	uint64_t flush_at;		/* pending relay flush, 0: none */
	uint64_t start_at;		/* deaf and silent before */
	uint64_t hello_at, ogm_at;	/* the regular timers (a burst
					   restarts them: older events are
					   stale) */
	struct fwd_bucket hello_burst;	/* the forwarder's (fwd_burst.h) */
	struct fwd_hsign hsign;		/* HELLO tags or signature */
	uint64_t burst_hello, burst_ogm, burst_refused;
	uint64_t hello_signed;		/* HELLOs sent signed */
	struct sim_fnb *fnb;		/* forwarder's neighbours */
	unsigned n_fnb, cap_fnb;
	struct ipc_link_key_req *req;	/* LINK_KEY_REQs to answer */
	unsigned n_req, cap_req;
	/* What this node sent and what its relay queue lost. */
	uint64_t tx_bytes, tx_frames, relay_lost;
	/* Heap bytes the node's pcore holds (tables; policy apart). */
	int64_t heap_tables, heap_policy;
	/* Sybil flooder: its stranger identities and their seqno. */
	struct bs_identity *syb;
	uint32_t syb_seqno;
};

/* Counters a window measures (differences of two snapshots). */
struct sim_totals {
	uint64_t tx_bytes, tx_frames, rx_frames;
	uint64_t sig_verified, sig_cache_hit, chain_checks;
	uint64_t ogm_accepted, relay_lost;
	uint64_t ed_real;		/* Ed25519 checks actually computed */
	uint64_t lim_frames;		/* frames refused: rate, budget */
	uint64_t lim_entries;		/* entries refused: quota, budget */
};

struct sim_result {
	unsigned n, honest, edges, diameter;
	double degree;
	unsigned bridged;
	int converged;
	double conv_s;			/* virtual s to full reachability */
	double reach;			/* routed / routable honest pairs */
	double honest_paths;		/* routed on honest nodes only */
	unsigned long routable;		/* honest pairs within the horizon */
	unsigned long unroutable;	/* honest pairs beyond it */
	double window_s;
	double bytes_node_s, bytes_link_s, frames_node_s;
	double verif_node_s, cache_hit;	/* Ed25519 per node-s, hit ratio */
	double chain_node_s;
	double mem_tables, mem_policy;	/* bytes per node (heap) */
	double mem_static;		/* sizeof(struct pcore) */
	double orig_per_node;
	double stretch_mean, stretch_max;	/* route hops / BFS hops */
	double best_tq;			/* pairs whose route TQ is the best */
	double tq_ratio;		/* mean route TQ / best TQ */
	unsigned long tq_checked;
	double cpu_s;
	uint64_t relay_lost;
	double lim_frames_node_s, lim_entries_node_s, relay_lost_node_s;
	uint32_t orig_cap;		/* the policy's originator cap */
	int memo;
};

/* sim_topo.c */
int	sim_graph_build(struct sim_graph *g, const struct sim_opts *o);
void	sim_graph_free(struct sim_graph *g);
/* BFS hop distances from s into dist (UINT32_MAX: unreachable). */
void	sim_bfs(const struct sim_graph *g, unsigned s, uint32_t *dist);
int	sim_linked(const struct sim_graph *g, unsigned a, unsigned b);
uint64_t sim_rand(uint64_t *state);
double	sim_unit(uint64_t *state);

/* sim.c */
int	sim_run(const struct sim_opts *o, struct sim_result *r);
/* Live mode: in wall-clock time, for o->live_secs; 0 when it ran. */
int	sim_live(const struct sim_opts *o);

/* sim_live.c: the packet socket and the daemon's policy file. */
int	sim_live_open(const char *iface, int *ifindex);
void	sim_live_close(int fd);
int	sim_live_send(int fd, int ifindex, const uint8_t src[static 6],
	    const uint8_t *frame, size_t len);
long	sim_live_recv(int fd, uint8_t src[static 6], uint8_t dst[static 6],
	    uint8_t *buf, size_t cap);
int	sim_live_policy(const char *path, const uint8_t (*pk)[BS_PK_LEN],
	    unsigned n, const uint8_t daemon_pk[static BS_PK_LEN]);

/* sim_wrap.c: the counting and memoising wrappers (-Wl,--wrap). */
extern int sim_memo;
extern uint64_t sim_ed_real, sim_chain_calls;
extern int64_t *sim_heap_acct;		/* where allocations count */
/* sim.c, SIM_COUNTERS: each verification by node sim_cur (hash h). */
extern int sim_track;
void	sim_verify_note(unsigned dom, const uint64_t h[2]);
int	__wrap_bs_verify(const uint8_t sig[static BS_SIG_LEN],
	    enum bs_domain dom, const uint8_t *msg, size_t len,
	    const uint8_t pk[static BS_PK_LEN]);
int	__real_bs_verify(const uint8_t sig[static BS_SIG_LEN],
	    enum bs_domain dom, const uint8_t *msg, size_t len,
	    const uint8_t pk[static BS_PK_LEN]);
int	__wrap_bs_chain_verify(const uint8_t anchor[static BS_CHAIN_LEN],
	    const uint8_t element[static BS_CHAIN_LEN], unsigned hops);
int	__real_bs_chain_verify(const uint8_t anchor[static BS_CHAIN_LEN],
	    const uint8_t element[static BS_CHAIN_LEN], unsigned hops);
int	__wrap_bs_chain_link(const uint8_t ref[static BS_CHAIN_LEN],
	    uint32_t ref_seqno, unsigned ref_hops,
	    const uint8_t element[static BS_CHAIN_LEN], uint32_t seqno,
	    unsigned hops, unsigned max_steps, unsigned *steps);
int	__real_bs_chain_link(const uint8_t ref[static BS_CHAIN_LEN],
	    uint32_t ref_seqno, unsigned ref_hops,
	    const uint8_t element[static BS_CHAIN_LEN], uint32_t seqno,
	    unsigned hops, unsigned max_steps, unsigned *steps);
void	*__wrap_malloc(size_t n);
void	*__wrap_calloc(size_t n, size_t size);
void	*__wrap_realloc(void *p, size_t n);
void	__wrap_free(void *p);
void	*__wrap_aligned_alloc(size_t align, size_t n);
void	*__real_aligned_alloc(size_t align, size_t n);
void	*__real_malloc(size_t n);
void	*__real_calloc(size_t n, size_t size);
void	*__real_realloc(void *p, size_t n);
void	__real_free(void *p);
void	sim_memo_reset(void);
/* The reproducible random source (sim_wrap.c): install before
 * bs_crypto_init (not in --live mode), seed at the start of each run. */
int	sim_rng_install(void);
void	sim_rng_seed(uint64_t seed);

#endif /* BATSEC_SIM_H */
