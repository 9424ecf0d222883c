// SPDX-License-Identifier: GPL-2.0-or-later
/* --contains from the scan: which definitions can hold a member of a type, at any depth. */
#include "input/dwarf/raw/scanP.h"

/* A name met as a definition or as an aggregate word, by its ll_scan_word() hash. */
struct name_node {
	uint64_t hash;
	bool defined;		/* a definition hit has the name */
	bool reached;		/* it may hold the type at some depth */
	uint32_t first_edge;	/* + 1 into edges: the definitions whose words name it */
};

struct edge {
	uint32_t hit;
	uint32_t next;		/* + 1; 0 ends the list */
};

struct reach {
	struct name_node *nodes;
	size_t nr_nodes;
	struct ll_slots at;	/* into nodes, by hash */
	struct edge *edges;
	size_t nr_edges;
	uint32_t *queue;	/* reached nodes whose edges are not followed yet */
	size_t nr_queue;
	uint32_t *hit_node;	/* by hit: its name's node */
};

static uint64_t node_hash_of(const void *ctx, size_t i)
{
	return ((const struct reach *)ctx)->nodes[i].hash;
}

static uint32_t node_of(struct reach *g, uint64_t hash)
{
	size_t at;

	ll_slots_reserve(&g->at, g->nr_nodes + 1, node_hash_of, g);
	for (at = ll_slots_first(&g->at, hash); ll_slots_get(&g->at, at);
	     at = ll_slots_next(&g->at, at))
		if (g->nodes[ll_slots_get(&g->at, at) - 1].hash == hash)
			return (uint32_t)(ll_slots_get(&g->at, at) - 1);
	g->nodes = xgrow(g->nodes, g->nr_nodes, sizeof(*g->nodes));
	g->nodes[g->nr_nodes] = (struct name_node){ .hash = hash };
	ll_slots_put(&g->at, at, g->nr_nodes);
	return (uint32_t)g->nr_nodes++;
}

static void reach_node(struct reach *g, uint32_t n)
{
	if (g->nodes[n].reached)
		return;
	g->nodes[n].reached = true;
	g->queue = xgrow(g->queue, g->nr_queue, sizeof(*g->queue));
	g->queue[g->nr_queue++] = n;
}

static bool is_definition(const struct ll_scan_hit *h)
{
	return !h->declaration && !h->settled;
}

/*
 * The graph of R's definitions: each name's node, reached at once where a
 * definition of it has a word spelled TARGET or words not known; an edge
 * from each aggregate word to the definition whose words hold it.
 */
static void make_graph(struct reach *g, const struct ll_scan_result *r,
		       const char *const *names, uint64_t target)
{
	g->hit_node = xcalloc(r->nr_hits ? r->nr_hits : 1, sizeof(*g->hit_node));
	for (size_t i = 0; i < r->nr_hits; i++) {
		const struct ll_scan_hit *h = &r->hits[i];

		if (!is_definition(h))
			continue;
		uint32_t n = node_of(g, ll_scan_word(names[h->query], false));

		g->hit_node[i] = n;
		g->nodes[n].defined = true;
		if (!h->words_known)
			reach_node(g, n);
	}
	for (size_t i = 0; i < r->nr_hits; i++) {
		const struct ll_scan_hit *h = &r->hits[i];

		for (size_t k = 0; is_definition(h) && h->words_known && k < h->nr_words; k++) {
			uint64_t word = r->words[h->words_at + k];

			if ((word & ~(uint64_t)LL_SCAN_WORD_AGGREGATE) == target)
				reach_node(g, g->hit_node[i]);
			if (!(word & LL_SCAN_WORD_AGGREGATE))
				continue;
			uint32_t n = node_of(g, word & ~(uint64_t)LL_SCAN_WORD_AGGREGATE);

			g->edges = xgrow(g->edges, g->nr_edges, sizeof(*g->edges));
			g->edges[g->nr_edges] = (struct edge){ (uint32_t)i, g->nodes[n].first_edge };
			g->nodes[n].first_edge = (uint32_t)++g->nr_edges;
		}
	}
	/* A struct no definition names (read where the scan could not say): it may. */
	for (size_t n = 0; n < g->nr_nodes; n++)
		if (!g->nodes[n].defined)
			reach_node(g, (uint32_t)n);
}

size_t ll_scan_words_reach(struct ll_scan_result *r, const char *const *names, const char *word)
{
	struct reach g = { 0 };
	size_t marked = 0;
	bool any_known = false;

	for (size_t i = 0; i < r->nr_hits && !any_known; i++)
		any_known = r->hits[i].words_known;
	if (!any_known || !word)
		return 0;
	make_graph(&g, r, names, ll_scan_word(word, false));
	while (g.nr_queue) {
		uint32_t n = g.queue[--g.nr_queue];

		for (uint32_t e = g.nodes[n].first_edge; e; e = g.edges[e - 1].next)
			reach_node(&g, g.hit_node[g.edges[e - 1].hit]);
	}
	for (size_t i = 0; i < r->nr_hits; i++) {
		struct ll_scan_hit *h = &r->hits[i];

		if (is_definition(h) && !g.nodes[g.hit_node[i]].reached && !h->nothing_needed) {
			h->nothing_needed = true;
			marked++;
		}
	}
	ll_free_all(g.nodes, g.edges, g.queue, g.hit_node);
	ll_slots_release(&g.at);
	return marked;
}
