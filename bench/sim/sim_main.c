/*
 * sim_main.c — batsec-sim: command line, the sweep `make sim` runs, and
 * the results table.
 *
 *	batsec-sim [options]		one run, one table row
 *	batsec-sim --sweep [options]	the preset series (see usage)
 *	batsec-sim --check [options]	exit 1 unless every routable pair
 *					is routed on a best-TQ path
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_keys.h"
#include "batsec_policy.h"
#include "sim.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: batsec-sim [--topo chain|grid|rgg] [-n NODES] [--degree D]\n"
	    "         [--loss P] [--seed S] [--memo] [--liars K] [--sybils K]\n"
	    "         [--sybil-keys S] [--max SEC] [--window SEC] [--settle SEC]\n"
	    "         [--limit NAME=VALUE ...] [--check | --check-reach]\n"
	    "         [--no-header] [--no-burst] [--start-spread MS]\n"
	    "         [--full-every N] [--no-fisheye | --fisheye HOPS,GAP]\n"
	    "         [--hello-sign] [--no-want] [--no-sign-ask]\n"
	    "         [--cut A,B,T0,T1] [--relay-far HOPS,MS]\n"
	    "       batsec-sim --live IFACE --live-pub FILE --live-k K\n"
	    "         --live-secs SEC [--live-policy FILE] [options]\n"
	    "       batsec-sim --sweep [--sizes N,N,...] [--memo-from N]\n"
	    "         [--attack-n N] [--loss P] [--seed S]\n"
	    "         (defaults: rgg, sizes 100,300,1000, memo from 300, then\n"
	    "         1 %% and 5 %% TQ liars and 1 %% Sybil flooders of 1000\n"
	    "         keys each at --attack-n 300; 0 skips the attacks)\n"
	    "Virtual time; intervals, hop penalty, MTU and caps as batsecd's\n"
	    "defaults.  --memo verifies each distinct signature and hop chain\n"
	    "once for all nodes (the 'verify' column says 'memo'); the per-node\n"
	    "verification counts are pcore's own, in both modes.\n"
	    "--check: exit 1 unless every pair within %u hops is routed with\n"
	    "the best TQ the links allow (use --loss 0 and --settle 80: the\n"
	    "links need 64 HELLOs to settle); --check-reach: routed at all.\n"
	    "--no-burst: without the cold-start burst (fwd_burst.h);\n"
	    "--full-every N: own OGMs full at least every Nth (default as\n"
	    "batsecd, FWD_FULL_EVERY; 1: every OGM full and signed, as\n"
	    "before compact entries);\n"
	    "--hello-sign: every HELLO signed (before HELLO version 3),\n"
	    "instead of link tags once neighbours hold the link keys;\n"
	    "--no-want: nodes do not ask for the full entries of single\n"
	    "originators they miss (IPC_DESC_WANT is ignored);\n"
	    "--no-sign-ask: a node that hears tagged HELLOs it cannot check\n"
	    "from a node that does not list it does not sign its next HELLO\n"
	    "(IPC_HELLO_SIGN is ignored; only the periodic signed HELLO and\n"
	    "the other requests link two nodes that dropped each other);\n"
	    "--cut A,B,T0,T1: every frame between nodes A and B (linked in\n"
	    "the graph) is lost from T0 to T1 virtual seconds; on stderr,\n"
	    "when one and both dropped the other and when both held each\n"
	    "other again ('relink S s after the cut', or 'not re-linked');\n"
	    "--no-fisheye: relays hand on every compact entry (no fisheye\n"
	    "gap by hops, pcore_fisheye_gap), receivers expect none;\n"
	    "--fisheye HOPS,GAP: gap 2 from HOPS relayed hops on, doubling\n"
	    "with the hops, at most GAP (1, 2, 4 or 8; default 8,4);\n"
	    "--relay-far HOPS,MS: compact entries relayed with HOPS or more\n"
	    "hops wait up to MS in the relay queue (default as batsecd,\n"
	    "FWD_RELAY_FAR_HOPS and FWD_RELAY_FAR_MULT relay delays);\n"
	    "HOPS 0: every entry waits the relay delay, as before;\n"
	    "SIM_COUNTERS=1 in the environment: pcore's counters per node\n"
	    "and second of the window, and every 5 virtual s the originators\n"
	    "missing and pairs unrouted (loops, dead ends), on stderr;\n"
	    "--start-spread MS: each node starts (listens, sends its first\n"
	    "HELLO at once, as batsecd) at a random time below MS, instead\n"
	    "of listening from 0 with its first HELLO at a random phase.\n",
	    SIM_HORIZON);
}

/* --cut A,B,T0,T1 (seconds, T0 < T1, A != B). */
static int
parse_cut(struct sim_opts *o, const char *arg)
{
	double t0, t1;
	int end = 0;

	if (sscanf(arg, "%u,%u,%lf,%lf%n", &o->cut_a, &o->cut_b, &t0, &t1,
	    &end) != 4 || arg[end] != '\0' || o->cut_a == o->cut_b ||
	    !(t0 >= 0) || !(t1 > t0) || t1 > 1e6) {
		fprintf(stderr, "batsec-sim: --cut A,B,T0,T1: two nodes and "
		    "0 <= T0 < T1 seconds\n");
		return -1;
	}
	o->cut_t0_ms = (uint64_t)(t0 * 1000 + 0.5);
	o->cut_t1_ms = (uint64_t)(t1 * 1000 + 0.5);
	return 0;
}

static const char *
topo_name(enum sim_topo t)
{
	return t == SIM_CHAIN ? "chain" : t == SIM_GRID ? "grid" : "rgg";
}

static void
header(void)
{
	printf("%-5s %6s %5s %4s %-6s %-9s %6s %6s %6s %8s %8s %6s %7s %5s "
	    "%7s %6s %8s %8s %11s %6s %6s %6s %6s %8s %7s\n",
	    "topo", "nodes", "deg", "diam", "verify", "attack", "conv_s",
	    "reach%", "honst%", "B/node/s", "B/link/s", "fr/n/s", "sig/n/s",
	    "hit%", "chain/s", "orig/n", "tbl_KiB", "pol_KiB", "stretch", "bTQ%", "tqr%", "limF/s", "limE/s", "rqlost/s",
	    "cpu_s");
}

static void
row(const struct sim_opts *o, const struct sim_result *r)
{
	char attack[16] = "-", conv[16], st[24];

	if (o->liars > 0)
		snprintf(attack, sizeof(attack), "liar%u", o->liars);
	else if (o->sybils > 0)
		snprintf(attack, sizeof(attack), "syb%ux%u", o->sybils,
		    o->sybil_keys);
	if (r->converged)
		snprintf(conv, sizeof(conv), "%.1f", r->conv_s);
	else
		snprintf(conv, sizeof(conv), ">%u", o->settle_s > 0 ?
		    o->settle_s : o->max_s);
	snprintf(st, sizeof(st), "%.3f/%.2f", r->stretch_mean,
	    r->stretch_max);
	printf("%-5s %6u %5.1f %4u %-6s %-9s %6s %6.2f %6.2f %8.0f %8.0f "
	    "%6.1f %7.1f %5.1f %7.0f %6.0f %8.1f %8.1f %11s %6.1f %6.1f %6.1f %6.1f "
	    "%8.2f %7.0f\n",
	    topo_name(o->topo), r->n, r->degree, r->diameter,
	    r->memo ? "memo" : "real", attack, conv, 100 * r->reach,
	    100 * r->honest_paths, r->bytes_node_s, r->bytes_link_s,
	    r->frames_node_s, r->verif_node_s, 100 * r->cache_hit,
	    r->chain_node_s, r->orig_per_node,
	    (r->mem_tables + r->mem_static) / 1024, r->mem_policy / 1024, st,
	    100 * r->best_tq, 100 * r->tq_ratio, r->lim_frames_node_s,
	    r->lim_entries_node_s, r->relay_lost_node_s, r->cpu_s);
	fflush(stdout);
}

enum { CHECK_NONE, CHECK_BEST, CHECK_REACH };

static int
one(const struct sim_opts *o, int check)
{
	struct sim_result r;

	if (sim_run(o, &r) != 0)
		return 1;
	row(o, &r);
	if (check == CHECK_NONE)
		return 0;
	if (check == CHECK_REACH) {
		if (!r.converged || r.reach < 1.0) {
			printf("check failed: converged %d, reach %.4f\n",
			    r.converged, r.reach);
			return 1;
		}
		printf("check ok: %lu pairs routed, converged after %.1f "
		    "virtual s\n", r.routable, r.conv_s);
		return 0;
	}
	if (!r.converged || r.reach < 1.0 || r.best_tq < 1.0 ||
	    r.tq_checked == 0) {
		printf("check failed: converged %d, reach %.4f, best-TQ "
		    "%.4f of %lu pairs\n", r.converged, r.reach, r.best_tq,
		    r.tq_checked);
		return 1;
	}
	printf("check ok: %lu pairs routed, all on best-TQ paths, converged "
	    "after %.1f virtual s\n", r.routable, r.conv_s);
	return 0;
}

/* --live-pub FILE: the daemon's public key (batsec-ctl key public). */
static int
read_pub(const char *path, uint8_t pk[static BS_PK_LEN])
{
	char line[128];
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL || fgets(line, sizeof(line), f) == NULL) {
		if (f != NULL)
			fclose(f);
		fprintf(stderr, "batsec-sim: --live-pub %s: unreadable\n",
		    path);
		return -1;
	}
	fclose(f);
	n = strcspn(line, "\r\n");
	if (bs_key_from_b64(pk, line, n) != 0) {
		fprintf(stderr, "batsec-sim: --live-pub %s: not a public key\n",
		    path);
		return -1;
	}
	return 0;
}

/* --limit NAME=VALUE: a policy limit, as batsec-policy(5) names it. */
static int
add_limit(struct sim_opts *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	unsigned long v;
	char *end;
	size_t i;

	if (eq == NULL || o->n_limits >= sizeof(o->limits) /
	    sizeof(o->limits[0]))
		goto bad;
	for (i = 0; i < BS_POLICY_LIMIT_COUNT; i++)
		if (strlen(bs_policy_limit_defs[i].name) == (size_t)(eq - arg) &&
		    strncmp(bs_policy_limit_defs[i].name, arg,
		    (size_t)(eq - arg)) == 0)
			break;
	v = strtoul(eq + 1, &end, 10);
	if (i == BS_POLICY_LIMIT_COUNT || *end != '\0' ||
	    v < bs_policy_limit_defs[i].min || v > bs_policy_limit_defs[i].max)
		goto bad;
	o->limits[o->n_limits].idx = i;
	o->limits[o->n_limits].value = (uint32_t)v;
	o->n_limits++;
	return 0;
bad:
	fprintf(stderr, "batsec-sim: --limit '%s': not NAME=VALUE with a "
	    "batsec-policy(5) limit name and a value in its range (at most "
	    "8)\n", arg);
	return -1;
}

/* The series `make sim` prints. */
static int
sweep(struct sim_opts base, const char *sizes, unsigned memo_from,
    unsigned attack_n)
{
	char *list = strdup(sizes), *tok, *save = NULL;
	struct sim_opts o;
	int rc = 0;

	if (list == NULL)
		return 1;
	header();
	for (tok = strtok_r(list, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		o = base;
		o.n = (unsigned)strtoul(tok, NULL, 10);
		o.memo = o.n >= memo_from;
		rc |= one(&o, 0);
	}
	free(list);
	if (attack_n == 0)
		return rc;
	/* Attacks: k = 1 % and 5 % liars; 1 % flooders, 1000 keys each. */
	o = base;
	o.n = attack_n;
	o.memo = 1;
	o.settle_s = 40;
	o.liars = (attack_n + 99) / 100;
	rc |= one(&o, 0);
	o.liars = (attack_n + 19) / 20;
	rc |= one(&o, 0);
	o.liars = 0;
	o.sybils = (attack_n + 99) / 100;
	o.sybil_keys = 1000;
	rc |= one(&o, 0);
	return rc;
}

int
main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "topo", required_argument, NULL, 't' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "degree", required_argument, NULL, 'd' },
		{ "loss", required_argument, NULL, 'l' },
		{ "seed", required_argument, NULL, 's' },
		{ "memo", no_argument, NULL, 'm' },
		{ "liars", required_argument, NULL, 'L' },
		{ "sybils", required_argument, NULL, 'Y' },
		{ "sybil-keys", required_argument, NULL, 'K' },
		{ "max", required_argument, NULL, 'M' },
		{ "window", required_argument, NULL, 'w' },
		{ "settle", required_argument, NULL, 'S' },
		{ "check", no_argument, NULL, 'c' },
		{ "check-reach", no_argument, NULL, 'r' },
		{ "sweep", no_argument, NULL, 'W' },
		{ "sizes", required_argument, NULL, 'z' },
		{ "memo-from", required_argument, NULL, 'f' },
		{ "attack-n", required_argument, NULL, 'a' },
		{ "no-header", no_argument, NULL, 'H' },
		{ "limit", required_argument, NULL, 'P' },
		{ "no-burst", no_argument, NULL, 'B' },
		{ "full-every", required_argument, NULL, 'F' },
		{ "hello-sign", no_argument, NULL, 'g' },
		{ "no-fisheye", no_argument, NULL, 'E' },
		{ "no-want", no_argument, NULL, 'q' },
		{ "no-sign-ask", no_argument, NULL, 'A' },
		{ "cut", required_argument, NULL, 'x' },
		{ "fisheye", required_argument, NULL, 'e' },
		{ "relay-far", required_argument, NULL, 'R' },
		{ "start-spread", required_argument, NULL, 'G' },
		{ "live", required_argument, NULL, 'i' },
		{ "live-pub", required_argument, NULL, 'p' },
		{ "live-policy", required_argument, NULL, 'o' },
		{ "live-k", required_argument, NULL, 'k' },
		{ "live-secs", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct sim_opts o = {
		.topo = SIM_RGG, .n = 100, .degree = 10, .loss = 0.05,
		.seed = 1, .sybil_keys = 1000, .max_s = 120, .window_s = 10,
	};
	const char *sizes = "100,300,1000";
	unsigned memo_from = 300, attack_n = 300;
	int c, check = 0, do_sweep = 0, hdr = 1, have_pub = 0;

	while ((c = getopt_long(argc, argv, "n:h", lo, NULL)) != -1) {
		switch (c) {
		case 't':
			if (strcmp(optarg, "chain") == 0)
				o.topo = SIM_CHAIN;
			else if (strcmp(optarg, "grid") == 0)
				o.topo = SIM_GRID;
			else if (strcmp(optarg, "rgg") == 0)
				o.topo = SIM_RGG;
			else {
				fprintf(stderr, "batsec-sim: --topo: '%s' is "
				    "not chain, grid or rgg\n", optarg);
				return 2;
			}
			break;
		case 'n': o.n = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'd': o.degree = strtod(optarg, NULL); break;
		case 'l': o.loss = strtod(optarg, NULL); break;
		case 's': o.seed = strtoull(optarg, NULL, 10); break;
		case 'm': o.memo = 1; break;
		case 'L': o.liars = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'Y': o.sybils = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'K': o.sybil_keys = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'M': o.max_s = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'w': o.window_s = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'S': o.settle_s = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'c': check = CHECK_BEST; break;
		case 'r': check = CHECK_REACH; break;
		case 'W': do_sweep = 1; break;
		case 'z': sizes = optarg; break;
		case 'f': memo_from = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'a': attack_n = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'H': hdr = 0; break;
		case 'B': o.no_burst = 1; break;
		case 'g': o.hello_sign = 1; break;
		case 'F': o.full_every = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'E': o.no_fisheye = 1; break;
		case 'q': o.no_want = 1; break;
		case 'A': o.no_sign_ask = 1; break;
		case 'x':
			if (parse_cut(&o, optarg) != 0)
				return 2;
			break;
		case 'e':
			if (sscanf(optarg, "%u,%u", &o.fisheye_hops,
			    &o.fisheye_gap_max) != 2 || o.fisheye_hops == 0 ||
			    o.fisheye_hops > BS_MAXHOPS ||
			    (o.fisheye_gap_max != 1 && o.fisheye_gap_max != 2 &&
			    o.fisheye_gap_max != 4 && o.fisheye_gap_max != 8)) {
				fprintf(stderr, "batsec-sim: --fisheye HOPS,GAP"
				    ": HOPS 1..%u, GAP 1, 2, 4 or 8\n",
				    BS_MAXHOPS);
				return 2;
			}
			break;
		case 'R':
			if (sscanf(optarg, "%u,%u", &o.far_hops, &o.far_ms) !=
			    2 || o.far_hops > BS_MAXHOPS || o.far_ms > 60000) {
				fprintf(stderr, "batsec-sim: --relay-far HOPS,MS"
				    ": HOPS 0..%u, MS 0..60000\n", BS_MAXHOPS);
				return 2;
			}
			o.far_set = 1;
			break;
		case 'G': o.start_spread_ms = (unsigned)strtoul(optarg, NULL,
		    10);
			break;
		case 'P':
			if (add_limit(&o, optarg) != 0)
				return 2;
			break;
		case 'i': o.live_iface = optarg; break;
		case 'p':
			if (read_pub(optarg, o.live_pk) != 0)
				return 2;
			have_pub = 1;
			break;
		case 'o': o.live_policy = optarg; break;
		case 'k': o.live_k = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'T': o.live_secs = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc || o.n < 2 || o.n > 100000 || o.loss < 0 ||
	    o.loss >= 1 || o.window_s == 0 || o.degree <= 0 ||
	    o.liars + o.sybils >= o.n) {
		fprintf(stderr, "batsec-sim: bad arguments (nodes 2..100000, "
		    "loss 0..<1, window > 0, attackers < nodes)\n");
		usage(stderr);
		return 2;
	}
	/* In virtual time every random byte comes from --seed (sim_wrap.c);
	 * live mode talks to a real daemon and keeps the system's. */
	if (o.live_iface == NULL && sim_rng_install() != 0) {
		fprintf(stderr, "batsec-sim: no reproducible random source\n");
		return 1;
	}
	if (bs_crypto_init() != 0) {
		fprintf(stderr, "batsec-sim: libsodium did not start\n");
		return 1;
	}
	if (o.live_iface != NULL) {
		if (!have_pub || o.live_k == 0 || o.live_k > o.n ||
		    o.live_secs == 0 || o.sybils > 0 || o.cut_t1_ms != 0) {
			fprintf(stderr, "batsec-sim: --live needs --live-pub, "
			    "--live-k 1..nodes, --live-secs > 0, no flooders, "
			    "no --cut\n");
			return 2;
		}
		return sim_live(&o) == 0 ? 0 : 1;
	}
	if (do_sweep)
		return sweep(o, sizes, memo_from, attack_n);
	if (hdr)
		header();
	return one(&o, check);
}
