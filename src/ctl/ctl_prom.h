/*
 * ctl_prom.h — a writer of the Prometheus text exposition format 0.0.4:
 * families with their HELP and TYPE lines, samples with escaped label
 * values.  Pure stdio over a caller's FILE; it refuses (and remembers)
 * what would make the output unparsable instead of writing it.
 */
#ifndef BATSEC_CTL_PROM_H
#define BATSEC_CTL_PROM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PROM_NAME_MAX		96	/* bytes of a metric or label name */
#define PROM_LABELS_MAX		8	/* labels of one sample */
#define PROM_FAMILIES_MAX	256	/* families of one exposition */

enum prom_type {
	PROM_COUNTER = 0,	/* the name must end in _total */
	PROM_GAUGE,
};

struct prom {
	FILE *out;
	char seen[PROM_FAMILIES_MAX][PROM_NAME_MAX + 1];	/* opened */
	size_t families;	/* seen[families - 1] is the open one */
	int bad;		/* something was refused: output incomplete */
};

/* A label of a sample: name [a-zA-Z_][a-zA-Z0-9_]*, any value. */
struct prom_label {
	const char *name;
	const char *value;
};

/* Metric names [a-zA-Z_:][a-zA-Z0-9_:]*, label names without ':'. 1: ok. */
int	prom_metric_name_ok(const char *s);
int	prom_label_name_ok(const char *s);

void	prom_init(struct prom *p, FILE *out);
/*
 * Open family name (HELP text help, any bytes; newlines and backslashes
 * are escaped): its HELP and TYPE lines.  Samples follow until the next
 * family.  A bad name, a counter without _total, or a name that was
 * already opened (families must not repeat), or more than
 * PROM_FAMILIES_MAX families, is refused: p->bad.
 */
void	prom_family(struct prom *p, const char *name, enum prom_type type,
	    const char *help);
/*
 * A sample of the open family with n labels: v, or v_ms / 1000 exactly
 * (three decimals) for prom_sample_ms.  A bad or repeated label name,
 * more than PROM_LABELS_MAX labels, or no open family: p->bad.
 */
void	prom_sample(struct prom *p, const struct prom_label *l, size_t n,
	    uint64_t v);
void	prom_sample_ms(struct prom *p, const struct prom_label *l, size_t n,
	    uint64_t v_ms);
/* 0 when everything was written, -1 when p->bad or the stream failed. */
int	prom_finish(struct prom *p);

#endif /* BATSEC_CTL_PROM_H */
