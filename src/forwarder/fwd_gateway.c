/*
 * fwd_gateway.c — gateway election of a client node (fwd_gateway.h).
 */
#include <string.h>

#include "common/config.h"
#include "common/log.h"
#include "fwd_data.h"
#include "fwd_gateway.h"
#include "fwd_gwsel.h"
#include "fwd_tables.h"
#include "fwd_types.h"

void
fwd_gw_reset(struct fwd *f)
{
	if (f->data != NULL) {
		f->data->gw.has_sel = 0;
		f->data->gw.client = f->cfg.gw_mode == BS_GW_CLIENT;
	}
	f->gw_dirty = 1;
}

void
fwd_gw_elect(struct fwd *f)
{
	struct fwd_gw_cand c[FWD_GW_MAX];
	const struct fwd_route *rt;
	const struct fwd_gw *g;
	struct fwd_gwc *gc;
	size_t n = 0, cur = 0;
	int i, was = -1;

	f->gw_dirty = 0;
	if (f->data == NULL || f->tables == NULL)
		return;
	gc = &f->data->gw;
	gc->client = f->cfg.gw_mode == BS_GW_CLIENT;
	if (!gc->client) {
		gc->has_sel = 0;
		return;
	}
	while (n < FWD_GW_MAX && (g = fwd_gw_next(f->tables, &cur)) != NULL) {
		rt = fwd_route_find(f->tables, g->orig_addr);
		if (rt == NULL || rt->tq == 0)
			continue;
		memcpy(c[n].addr, g->orig_addr, BS_ADDR_LEN);
		c[n].tq = rt->tq;
		c[n].down = g->down;
		if (gc->has_sel && memcmp(gc->sel, g->orig_addr,
		    BS_ADDR_LEN) == 0)
			was = (int)n;
		n++;
	}
	i = fwd_gw_select(c, n, f->cfg.gw_sel_class, was);
	if (i >= 0 && i == was)
		return;
	if (i < 0) {
		if (gc->has_sel) {
			log_info("gateway %02x:%02x:%02x:%02x:%02x:%02x lost, "
			    "none left to select", gc->sel[0], gc->sel[1],
			    gc->sel[2], gc->sel[3], gc->sel[4], gc->sel[5]);
			fwd_events_note(&f->events, FWD_EV_GATEWAY, "lost",
			    gc->sel, "%s", "none left");
		}
		gc->has_sel = 0;
		return;
	}
	memcpy(gc->sel, c[i].addr, BS_ADDR_LEN);
	gc->has_sel = 1;
	gc->switches++;
	log_info("gateway %02x:%02x:%02x:%02x:%02x:%02x selected: tq %u, "
	    "class %u", gc->sel[0], gc->sel[1], gc->sel[2], gc->sel[3],
	    gc->sel[4], gc->sel[5], c[i].tq, f->cfg.gw_sel_class);
	fwd_events_note(&f->events, FWD_EV_GATEWAY, "select", gc->sel,
	    "tq %u class %u", c[i].tq, f->cfg.gw_sel_class);
}
