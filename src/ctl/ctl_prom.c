/*
 * ctl_prom.c — the Prometheus text exposition format 0.0.4, written
 * (https://prometheus.io/docs/instrumenting/exposition_formats/):
 *
 *	# HELP name text            text: '\' and newline escaped
 *	# TYPE name counter|gauge   once, before the family's samples
 *	name{label="value",...} v   value: '\', '"' and newline escaped
 *
 * The samples of a family follow its TYPE line without anything between.
 * Names are checked here, not trusted from the caller: a name from the
 * daemon that breaks the grammar makes the whole exposition fail rather
 * than hand the scraper a file it rejects entirely.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ctl_prom.h"

static int
prom_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
prom_name_ok(const char *s, int colon)
{
	size_t i, len = strlen(s);

	if (len == 0 || len > PROM_NAME_MAX)
		return 0;
	for (i = 0; i < len; i++) {
		if (prom_alpha(s[i]) || (colon && s[i] == ':'))
			continue;
		if (i == 0 || s[i] < '0' || s[i] > '9')
			return 0;
	}
	return 1;
}

int
prom_metric_name_ok(const char *s)
{
	return prom_name_ok(s, 1);
}

/* Names starting "__" are reserved for Prometheus itself. */
int
prom_label_name_ok(const char *s)
{
	return prom_name_ok(s, 0) && strncmp(s, "__", 2) != 0;
}

void
prom_init(struct prom *p, FILE *out)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
}

/* s with '\' and newline escaped, and '"' too when quote is set. */
static void
prom_escaped(FILE *out, const char *s, int quote)
{
	for (; *s != '\0'; s++) {
		if (*s == '\\')
			(void)fputs("\\\\", out);
		else if (*s == '\n')
			(void)fputs("\\n", out);
		else if (quote && *s == '"')
			(void)fputs("\\\"", out);
		else
			(void)fputc(*s, out);
	}
}

static int
prom_seen(const struct prom *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->families; i++)
		if (strcmp(p->seen[i], name) == 0)
			return 1;
	return 0;
}

static int
prom_counter_name_ok(const char *name)
{
	size_t len = strlen(name);

	return len > 6 && strcmp(name + len - 6, "_total") == 0;
}

void
prom_family(struct prom *p, const char *name, enum prom_type type,
    const char *help)
{
	if (!prom_metric_name_ok(name) || prom_seen(p, name) ||
	    p->families >= PROM_FAMILIES_MAX ||
	    (type == PROM_COUNTER && !prom_counter_name_ok(name))) {
		p->bad = 1;
		return;
	}
	(void)strcpy(p->seen[p->families++], name);
	(void)fprintf(p->out, "# HELP %s ", name);
	prom_escaped(p->out, help, 0);
	(void)fprintf(p->out, "\n# TYPE %s %s\n", name,
	    type == PROM_COUNTER ? "counter" : "gauge");
}

/* The labels, checked: 0, or -1 before anything is written. */
static int
prom_labels_ok(const struct prom_label *l, size_t n)
{
	size_t i, j;

	if (n > PROM_LABELS_MAX)
		return -1;
	for (i = 0; i < n; i++) {
		if (l[i].value == NULL || !prom_label_name_ok(l[i].name))
			return -1;
		for (j = 0; j < i; j++)
			if (strcmp(l[i].name, l[j].name) == 0)
				return -1;
	}
	return 0;
}

/* "name{labels} " of a sample; -1 (and p->bad) when refused. */
static int
prom_series(struct prom *p, const struct prom_label *l, size_t n)
{
	size_t i;

	if (p->families == 0 || prom_labels_ok(l, n) != 0) {
		p->bad = 1;
		return -1;
	}
	(void)fputs(p->seen[p->families - 1], p->out);
	for (i = 0; i < n; i++) {
		(void)fprintf(p->out, "%s%s=\"", i == 0 ? "{" : ",", l[i].name);
		prom_escaped(p->out, l[i].value, 1);
		(void)fputc('"', p->out);
	}
	(void)fputs(n > 0 ? "} " : " ", p->out);
	return 0;
}

void
prom_sample(struct prom *p, const struct prom_label *l, size_t n, uint64_t v)
{
	if (prom_series(p, l, n) == 0)
		(void)fprintf(p->out, "%" PRIu64 "\n", v);
}

void
prom_sample_ms(struct prom *p, const struct prom_label *l, size_t n,
    uint64_t v_ms)
{
	if (prom_series(p, l, n) == 0)
		(void)fprintf(p->out, "%" PRIu64 ".%03u\n", v_ms / 1000,
		    (unsigned)(v_ms % 1000));
}

int
prom_finish(struct prom *p)
{
	if (fflush(p->out) != 0 || ferror(p->out))
		return -1;
	return p->bad ? -1 : 0;
}
