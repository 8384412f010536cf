/*
 * ctl_render.h — a reply's records as a table, "name: value" lines, text
 * lines or JSON.
 */
#ifndef BATSEC_CTL_RENDER_H
#define BATSEC_CTL_RENDER_H

#include "ctl.h"
#include "ctl_client.h"

/* How a table column shows its field. */
enum ctl_fmt {
	CTL_FMT_TEXT = 0,	/* as sent, left-aligned */
	CTL_FMT_NUM,		/* right-aligned */
	CTL_FMT_SECS,		/* milliseconds as seconds "1.234s", right */
};

struct ctl_col {
	const char *field;	/* field name in the records */
	const char *header;
	enum ctl_fmt fmt;
	const char *yes, *no;	/* booleans (no: also a missing field) */
};

#define CTL_COL(f, h, fmt)	{ f, h, fmt, NULL, NULL }
#define CTL_COL_END		{ NULL, NULL, CTL_FMT_TEXT, NULL, NULL }
#define CTL_COLS_MAX		8

/* How a reply is shown. */
enum ctl_shape {
	CTL_SHAPE_NONE = 0,	/* success prints nothing */
	CTL_SHAPE_TABLE,	/* a table; JSON: an array of objects */
	CTL_SHAPE_OBJECT,	/* "name: value" lines; JSON: one object */
	CTL_SHAPE_LINES,	/* the "line" field of each record; JSON:
				   an array of objects */
};

/*
 * Show the records of in on stdout as shape (JSON with ctl->json); cols,
 * NULL-terminated, are the columns of a table.  An exit status.
 */
/* The fields of rec as JSON members ("name":value), after a comma unless
 * *first (then cleared). */
void	ctl_json_fields(const struct ctlp_record *rec, int *first);

int	ctl_render(const struct ctl *ctl, enum ctl_shape shape,
	    const struct ctl_col *cols, const struct ctl_in *in);

#endif /* BATSEC_CTL_RENDER_H */
