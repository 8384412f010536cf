/*
 * sim_topo.c — the simulator's topologies (chain, grid, random geometric
 * graph) as adjacency lists, BFS, and a small seeded PRNG (so a run is
 * the same for the same seed).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* splitmix64 */
uint64_t
sim_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
double
sim_unit(uint64_t *state)
{
	return (double)(sim_rand(state) >> 11) / 9007199254740992.0;
}

/* An edge list, turned into adjacency lists by sim_graph_finish. */
struct elist {
	unsigned (*e)[2];
	size_t n, cap;
};

static int
elist_add(struct elist *l, unsigned a, unsigned b)
{
	unsigned (*p)[2];

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		if ((p = realloc(l->e, l->cap * sizeof(*l->e))) == NULL)
			return -1;
		l->e = p;
	}
	l->e[l->n][0] = a;
	l->e[l->n][1] = b;
	l->n++;
	return 0;
}

static int
graph_finish(struct sim_graph *g, const struct elist *l)
{
	unsigned *fill;
	size_t i;

	g->off = calloc(g->n + 1, sizeof(*g->off));
	g->adj = calloc(2 * l->n + 1, sizeof(*g->adj));
	fill = calloc(g->n + 1, sizeof(*fill));
	if (g->off == NULL || g->adj == NULL || fill == NULL) {
		free(fill);
		return -1;
	}
	for (i = 0; i < l->n; i++) {
		g->off[l->e[i][0] + 1]++;
		g->off[l->e[i][1] + 1]++;
	}
	for (i = 0; i < g->n; i++)
		g->off[i + 1] += g->off[i];
	for (i = 0; i < l->n; i++) {
		unsigned a = l->e[i][0], b = l->e[i][1];

		g->adj[g->off[a] + fill[a]++] = b;
		g->adj[g->off[b] + fill[b]++] = a;
	}
	g->edges = (unsigned)l->n;
	free(fill);
	return 0;
}

static int
build_chain(struct elist *l, unsigned n)
{
	unsigned i;

	for (i = 0; i + 1 < n; i++)
		if (elist_add(l, i, i + 1) != 0)
			return -1;
	return 0;
}

/* rows x cols, 4-neighbourhood; the last row may be partial. */
static int
build_grid(struct elist *l, unsigned n)
{
	unsigned cols = (unsigned)ceil(sqrt((double)n)), i;

	for (i = 0; i < n; i++) {
		if ((i + 1) % cols != 0 && i + 1 < n &&
		    elist_add(l, i, i + 1) != 0)
			return -1;
		if (i + cols < n && elist_add(l, i, i + cols) != 0)
			return -1;
	}
	return 0;
}

/* Component label of every node (union-find with path halving). */
static unsigned
uf_find(unsigned *p, unsigned x)
{
	while (p[x] != x) {
		p[x] = p[p[x]];
		x = p[x];
	}
	return x;
}

/*
 * Unit square, radius for the mean degree wanted (pi r^2 (n-1) = deg),
 * every pair tested.  A graph that falls apart is joined: each
 * smaller component gets one link from its node nearest to the largest
 * component (counted in g->bridged and reported).
 */
static int
build_rgg(struct sim_graph *g, struct elist *l, const struct sim_opts *o)
{
	unsigned n = o->n, i, j, *par = NULL, *size = NULL, big = 0;
	double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
	double r = sqrt(o->degree / (M_PI * (n > 1 ? n - 1 : 1)));
	uint64_t st = o->seed * 7919 + 17;
	int rc = -1;

	par = malloc(n * sizeof(*par));
	size = calloc(n, sizeof(*size));
	if (x == NULL || y == NULL || par == NULL || size == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		x[i] = sim_unit(&st);
		y[i] = sim_unit(&st);
		par[i] = i;
	}
	/* All pairs: O(n^2) distance tests, a second at n = 10 000. */
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			double dx = x[i] - x[j], dy = y[i] - y[j];

			if (dx * dx + dy * dy > r * r)
				continue;
			if (elist_add(l, i, j) != 0)
				goto out;
			par[uf_find(par, i)] = uf_find(par, j);
		}
	for (i = 0; i < n; i++)
		size[uf_find(par, i)]++;
	for (i = 0; i < n; i++)
		if (size[i] > size[big])
			big = i;
	for (;;) {
		unsigned bi = 0, bj = 0;
		double best = 1e9;

		/* The pair (outside, inside the big component) closest. */
		for (i = 0; i < n; i++) {
			if (uf_find(par, i) == uf_find(par, big))
				continue;
			for (j = 0; j < n; j++) {
				double dx = x[i] - x[j], dy = y[i] - y[j];

				if (uf_find(par, j) != uf_find(par, big) ||
				    dx * dx + dy * dy >= best)
					continue;
				best = dx * dx + dy * dy;
				bi = i;
				bj = j;
			}
		}
		if (best >= 1e9)
			break;
		if (elist_add(l, bi, bj) != 0)
			goto out;
		par[uf_find(par, bi)] = uf_find(par, bj);
		g->bridged++;
	}
	rc = 0;
out:
	free(x);
	free(y);
	free(par);
	free(size);
	return rc;
}

int
sim_graph_build(struct sim_graph *g, const struct sim_opts *o)
{
	struct elist l = { NULL, 0, 0 };
	int r;

	memset(g, 0, sizeof(*g));
	g->n = o->n;
	switch (o->topo) {
	case SIM_CHAIN:
		r = build_chain(&l, o->n);
		break;
	case SIM_GRID:
		r = build_grid(&l, o->n);
		break;
	default:
		r = build_rgg(g, &l, o);
		break;
	}
	if (r == 0)
		r = graph_finish(g, &l);
	free(l.e);
	return r;
}

void
sim_graph_free(struct sim_graph *g)
{
	free(g->off);
	free(g->adj);
	memset(g, 0, sizeof(*g));
}

int
sim_linked(const struct sim_graph *g, unsigned a, unsigned b)
{
	unsigned k;

	for (k = g->off[a]; k < g->off[a + 1]; k++)
		if (g->adj[k] == b)
			return 1;
	return 0;
}

void
sim_bfs(const struct sim_graph *g, unsigned s, uint32_t *dist)
{
	unsigned *q = malloc(g->n * sizeof(*q)), h = 0, t = 0, k, u;

	for (u = 0; u < g->n; u++)
		dist[u] = UINT32_MAX;
	if (q == NULL)
		return;
	dist[s] = 0;
	q[t++] = s;
	while (h < t) {
		u = q[h++];
		for (k = g->off[u]; k < g->off[u + 1]; k++)
			if (dist[g->adj[k]] == UINT32_MAX) {
				dist[g->adj[k]] = dist[u] + 1;
				q[t++] = g->adj[k];
			}
	}
	free(q);
}
