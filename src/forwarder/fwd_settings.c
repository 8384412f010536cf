/*
 * fwd_settings.c — runtime settings (set / get) and the event ring
 * (events) on the control socket (fwd_settings.h).
 */
#include <stdio.h>
#include <string.h>

#include "common/config.h"
#include "common/log.h"
#include "control.h"
#include "fwd_data.h"
#include "fwd_gateway.h"
#include "fwd_iface.h"
#include "fwd_links.h"
#include "fwd_parser.h"
#include "fwd_settings.h"
#include "fwd_types.h"
#include "proto/ipc.h"

void
fwd_send_config(struct fwd *f)
{
	struct ipc_config c;

	memset(&c, 0, sizeof(c));
	memcpy(c.own_pk, f->id.pk, BS_PK_LEN);
	memcpy(c.own_addr, f->own_addr, BS_ADDR_LEN);
	c.ethertype = f->cfg.ethertype;
	c.epoch = f->epoch;
	c.hello_ms = (uint16_t)f->cfg.hello_interval_ms;
	c.ogm_ms = (uint16_t)f->cfg.orig_interval_ms;
	c.hop_penalty = f->cfg.hop_penalty;
	c.log_level = (uint8_t)log_get_level();
	if (fwd_parser_send(&f->parser, IPC_CONFIG, &c, sizeof(c)) != 0)
		log_warn("sending CONFIG to the parser");
}


/* The intervals: the next HELLO goes at once, so that neighbours learn
 * the new one before they would miss it; the next OGM within the new
 * interval. */
static void
fwd_settings_timers(struct fwd *f, int hello, int ogm)
{
	uint64_t now = log_now_ms(), at;
	size_t i;

	f->orig.ogm_ms = (uint16_t)f->cfg.orig_interval_ms;
	f->orig.hello_ms = (uint16_t)f->cfg.hello_interval_ms;
	if (hello) {
		if (f->data != NULL)
			fwd_links_config(&f->data->links,
			    (uint64_t)f->cfg.link_rekey_s * 1000,
			    f->cfg.hello_interval_ms);
		for (i = 0; i < f->ifs.n; i++)
			if (f->ifs.v[i].next_hello_ms > now)
				f->ifs.v[i].next_hello_ms = now;
	}
	at = now + fwd_jitter(f->orig.ogm_ms);
	if (ogm && f->orig.next_ogm_ms > at)
		f->orig.next_ogm_ms = at;
}

int
fwd_settings_apply(struct fwd *f, const struct bs_config *n, const char *why)
{
	struct bs_config o = f->cfg;
	char val[64];
	const char *name;
	int changed = 0, parser = 0, hello, ogm, level;
	size_t i;

	f->cfg.hop_penalty = n->hop_penalty;
	f->cfg.orig_interval_ms = n->orig_interval_ms;
	f->cfg.hello_interval_ms = n->hello_interval_ms;
	f->cfg.gw_mode = n->gw_mode;
	f->cfg.gw_down = n->gw_down;
	f->cfg.gw_up = n->gw_up;
	f->cfg.gw_sel_class = n->gw_sel_class;
	if (o.gw_mode != f->cfg.gw_mode || o.gw_sel_class != f->cfg.gw_sel_class)
		fwd_gw_reset(f);
	f->cfg.log_level = n->log_level;
	f->cfg.ap_isolation = n->ap_isolation;
	fwd_data_isolation(f);
	f->cfg.dat = n->dat;
	if (f->data != NULL && f->data->dat.enabled != (int)f->cfg.dat) {
		f->data->dat.enabled = f->cfg.dat;
		fwd_dat_clear(&f->data->dat);
	}
	f->cfg.bla = n->bla;
	if (f->data != NULL && f->data->bla.enabled != (int)f->cfg.bla)
		fwd_bla_enable(&f->data->bla, f->cfg.bla, log_now_ms());
	hello = o.hello_interval_ms != f->cfg.hello_interval_ms;
	ogm = o.orig_interval_ms != f->cfg.orig_interval_ms;
	if (hello || ogm)
		fwd_settings_timers(f, hello, ogm);
	/* -d is in n already (config_apply_args), as at the start. */
	level = (int)f->cfg.log_level;
	if (level != log_get_level()) {
		log_set_level(level);
		parser = 1;
	}
	if (hello || ogm || o.hop_penalty != f->cfg.hop_penalty)
		parser = 1;
	for (i = 0; (name = config_runtime_name(i)) != NULL; i++) {
		char old[64];

		if (config_get_runtime(&o, name, old, sizeof(old)) < 0 ||
		    config_get_runtime(&f->cfg, name, val, sizeof(val)) < 0 ||
		    strcmp(old, val) == 0)
			continue;
		changed++;
		log_info("%s: %s %s (was %s)", why, name, val, old);
		fwd_events_note(&f->events, FWD_EV_SETTING, why, NULL, "%s %s (was %s)",
		    name, val, old);
	}
	if (parser && fwd_parser_up(&f->parser))
		fwd_send_config(f);
	return changed;
}

/* ---- set / get ------------------------------------------------------------------ */

/* A setting as a field: its name with '_' for '-' ("hop_penalty"). */
static void
fwd_settings_field(struct ctl_reply *r, const struct bs_config *cfg,
    const char *name)
{
	char field[CTLP_NAME_MAX + 1], val[64];
	size_t i;

	if (config_get_runtime(cfg, name, val, sizeof(val)) < 0)
		return;
	for (i = 0; name[i] != '\0' && i < CTLP_NAME_MAX; i++)
		field[i] = name[i] == '-' ? '_' : name[i];
	field[i] = '\0';
	ctl_reply_field_str(r, field, val);
}

void
fwd_settings_ctl_set(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	struct fwd *f = ctx;
	struct bs_config n = f->cfg;
	char err[512];

	if (config_set_runtime(&n, argc, argv, err, sizeof(err)) != 0) {
		ctl_reply_error(r, CTLP_E_USAGE, "%s", err);
		return;
	}
	(void)fwd_settings_apply(f, &n, "set");
	ctl_reply_record_begin(r);
	fwd_settings_field(r, &f->cfg, argv[0]);
	ctl_reply_ok(r);
}

void
fwd_settings_ctl_get(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	struct fwd *f = ctx;
	const char *name;
	char val[64];
	size_t i;

	if (argc == 1 && config_get_runtime(&f->cfg, argv[0], val,
	    sizeof(val)) < 0) {
		ctl_reply_error(r, CTLP_E_USAGE, "'%s' is not a runtime "
		    "setting (one of hop-penalty, orig-interval, "
		    "hello-interval, gateway, gw-sel-class, log-level, "
		    "ap-isolation, dat)", argv[0]);
		return;
	}
	ctl_reply_record_begin(r);
	for (i = 0; (name = config_runtime_name(i)) != NULL; i++)
		if (argc == 0 || strcmp(argv[0], name) == 0)
			fwd_settings_field(r, &f->cfg, name);
	ctl_reply_ok(r);
}

/* ---- events ---------------------------------------------------------------------- */

/* A cursor: decimal digits, at most 19 of them. */
static int
fwd_cursor(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] < '0' || s[i] > '9' || i >= 19)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (i == 0)
		return -1;
	*out = v;
	return 0;
}

/*
 * events [CURSOR]: without a cursor one record {last} (where to start);
 * with one, a record {lost} when events were overwritten, then up to
 * FWD_EVENTS_BATCH events after it.
 */
void
fwd_settings_ctl_events(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	const struct fwd_event *ev[FWD_EVENTS_BATCH];
	struct fwd *f = ctx;
	uint64_t cursor, lost;
	size_t i, n;

	if (argc == 0) {
		ctl_reply_record_begin(r);
		ctl_reply_field_u64(r, "last", f->events.last);
		ctl_reply_ok(r);
		return;
	}
	if (fwd_cursor(argv[0], &cursor) != 0) {
		ctl_reply_error(r, CTLP_E_USAGE, "the cursor is a decimal "
		    "event number");
		return;
	}
	n = fwd_events_since(&f->events, cursor, ev, FWD_EVENTS_BATCH, &lost);
	if (lost > 0) {
		ctl_reply_record_begin(r);
		ctl_reply_field_u64(r, "lost", lost);
	}
	for (i = 0; i < n; i++) {
		ctl_reply_record_begin(r);
		ctl_reply_field_u64(r, "seq", ev[i]->seq);
		ctl_reply_field_u64(r, "time_ms", ev[i]->time_ms);
		ctl_reply_field_str(r, "type",
		    fwd_event_kind_name(ev[i]->kind));
		ctl_reply_field_str(r, "event", ev[i]->action);
		if (ev[i]->has_addr)
			ctl_reply_field_addr(r, "address", ev[i]->addr);
		if (ev[i]->detail[0] != '\0')
			ctl_reply_field_str(r, "detail", ev[i]->detail);
	}
	ctl_reply_ok(r);
}
