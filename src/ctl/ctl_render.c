/*
 * ctl_render.c — a reply's records as people read them: a table with
 * aligned columns, "name: value" lines, or the "line" field of each
 * record; or, with -j, JSON.  The daemon never formats text for people.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctl_client.h"
#include "ctl_render.h"
#include "ctl_util.h"
#include "proto/ctlproto.h"

/* Field f as text; col (may be NULL) chooses the format. */
static void
ctl_value(char *out, size_t outlen, const struct ctlp_field *f,
    const struct ctl_col *col)
{
	const char *yes = col != NULL && col->yes != NULL ? col->yes : "yes";
	const char *no = col != NULL && col->no != NULL ? col->no : "no";

	if (f == NULL)
		(void)snprintf(out, outlen, "%s", col != NULL &&
		    col->no != NULL ? col->no : "-");
	else if (f->type == CTLP_F_STR)
		(void)snprintf(out, outlen, "%.*s", (int)f->str_len, f->str);
	else if (f->type == CTLP_F_BOOL)
		(void)snprintf(out, outlen, "%s", f->u64 ? yes : no);
	else if (col != NULL && col->fmt == CTL_FMT_SECS)
		(void)snprintf(out, outlen, "%" PRIu64 ".%03us",
		    f->u64 / 1000, (unsigned)(f->u64 % 1000));
	else
		(void)snprintf(out, outlen, "%" PRIu64, f->u64);
}

/*
 * One table line: the headers (rec NULL) or a record's cells, padded to
 * the widths w; numbers right-aligned, no trailing blanks.
 */
static void
ctl_table_line(const struct ctl_col *cols, size_t ncols, const size_t *w,
    const struct ctlp_record *rec)
{
	char cell[CTLP_STR_MAX + 32];
	size_t i, len, pad = 0;

	for (i = 0; i < ncols; i++) {
		if (rec == NULL)
			(void)snprintf(cell, sizeof(cell), "%s",
			    cols[i].header);
		else
			ctl_value(cell, sizeof(cell),
			    ctl_field(rec, cols[i].field), &cols[i]);
		len = strlen(cell);
		pad += i > 0 ? 2 : 0;
		if (cols[i].fmt != CTL_FMT_TEXT)
			pad += w[i] - len;
		if (len > 0) {
			(void)printf("%*s%s", (int)pad, "", cell);
			pad = 0;
		}
		if (cols[i].fmt == CTL_FMT_TEXT)
			pad += w[i] - len;
	}
	(void)putchar('\n');
}

static void
ctl_render_table(const struct ctl_col *cols, const struct ctl_in *in)
{
	char cell[CTLP_STR_MAX + 32];
	struct ctlp_record rec;
	size_t w[CTL_COLS_MAX], ncols, i, pos = 0;

	for (ncols = 0; ncols < CTL_COLS_MAX && cols[ncols].field; ncols++)
		w[ncols] = strlen(cols[ncols].header);
	while (ctl_in_next(in, &pos, &rec) == 0) {
		for (i = 0; i < ncols; i++) {
			ctl_value(cell, sizeof(cell),
			    ctl_field(&rec, cols[i].field), &cols[i]);
			if (strlen(cell) > w[i])
				w[i] = strlen(cell);
		}
	}
	ctl_table_line(cols, ncols, w, NULL);
	pos = 0;
	while (ctl_in_next(in, &pos, &rec) == 0)
		ctl_table_line(cols, ncols, w, &rec);
}

/* Every field of every record as "name: value" lines. */
static void
ctl_render_object(const struct ctl_in *in)
{
	char val[CTLP_STR_MAX + 32];
	struct ctlp_record rec;
	size_t i, pos = 0;

	while (ctl_in_next(in, &pos, &rec) == 0) {
		for (i = 0; i < rec.n; i++) {
			ctl_value(val, sizeof(val), &rec.f[i], NULL);
			(void)printf("%s: %s\n", rec.f[i].name, val);
		}
	}
}

/* The "line" field of every record, one per line. */
static void
ctl_render_lines(const struct ctl_in *in)
{
	const struct ctlp_field *f;
	struct ctlp_record rec;
	size_t pos = 0;

	while (ctl_in_next(in, &pos, &rec) == 0)
		if ((f = ctl_field(&rec, "line")) != NULL &&
		    f->type == CTLP_F_STR)
			(void)printf("%.*s\n", (int)f->str_len, f->str);
}

/* The fields of rec as JSON members, after a comma unless *first. */
void
ctl_json_fields(const struct ctlp_record *rec, int *first)
{
	const struct ctlp_field *f;
	size_t i;

	for (i = 0; i < rec->n; i++) {
		f = &rec->f[i];
		(void)printf("%s\"%s\":", *first ? "" : ",", f->name);
		*first = 0;
		if (f->type == CTLP_F_STR)
			ctl_json_strn(f->str, f->str_len);
		else if (f->type == CTLP_F_BOOL)
			(void)fputs(f->u64 ? "true" : "false", stdout);
		else
			(void)printf("%" PRIu64, f->u64);
	}
}

/* A table as an array of objects, an object command as one object. */
static void
ctl_render_json(enum ctl_shape shape, const struct ctl_in *in)
{
	struct ctlp_record rec;
	size_t pos = 0;
	int first = 1, first_rec = 1;

	(void)fputs(shape == CTL_SHAPE_TABLE ? "[" : "{", stdout);
	while (ctl_in_next(in, &pos, &rec) == 0) {
		if (shape == CTL_SHAPE_TABLE) {
			(void)fputs(first_rec ? "{" : ",{", stdout);
			first = 1;
		}
		ctl_json_fields(&rec, &first);
		if (shape == CTL_SHAPE_TABLE)
			(void)putchar('}');
		first_rec = 0;
	}
	(void)puts(shape == CTL_SHAPE_TABLE ? "]" : "}");
}

int
ctl_render(const struct ctl *ctl, enum ctl_shape shape,
    const struct ctl_col *cols, const struct ctl_in *in)
{
	if (shape == CTL_SHAPE_NONE)
		return CTL_EXIT_OK;
	if (ctl->json)
		ctl_render_json(shape == CTL_SHAPE_LINES ? CTL_SHAPE_TABLE :
		    shape, in);
	else if (shape == CTL_SHAPE_LINES)
		ctl_render_lines(in);
	else if (shape == CTL_SHAPE_TABLE)
		ctl_render_table(cols, in);
	else
		ctl_render_object(in);
	return ctl_flush_stdout();
}
