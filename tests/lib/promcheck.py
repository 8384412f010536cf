#!/usr/bin/env python3
"""promcheck.py - a strict checker of the Prometheus text exposition
format 0.0.4, for batsec-ctl metrics (tests/t_mesh_metrics.sh).

    promcheck.py [--prefix PREFIX] [FILE... | -]  exit 0: all valid
    promcheck.py --self-test                    the checker's own cases

Stricter than Prometheus where batsec's output promises more:
  * every family has exactly one HELP and one TYPE line, both before its
    first sample, and its samples are contiguous (no family twice);
  * metric names [a-zA-Z_:][a-zA-Z0-9_:]*, label names
    [a-zA-Z_][a-zA-Z0-9_]* not starting "__", no label twice in a sample;
  * label values in double quotes with only \\\\, \\" and \\n escapes,
    HELP text with only \\\\ and \\n;
  * values are floats as Go's ParseFloat reads them (or +Inf, -Inf,
    NaN), an optional integer timestamp;
  * no series (name and label set) twice;
  * counters are named *_total, never negative or NaN;
  * no blank lines, no other comments, the last line ends in a newline;
  * with --prefix every family name starts with PREFIX.
With --stats the numbers of families and samples go to stdout, and with
--dump NAME each sample of family NAME as "labels<TAB>value" lines, the
labels as k=v joined by ",", sorted.
"""
import math
import re
import sys

NAME_RE = re.compile(r'[a-zA-Z_:][a-zA-Z0-9_:]*')
LABEL_RE = re.compile(r'[a-zA-Z_][a-zA-Z0-9_]*')
FLOAT_RE = re.compile(r'[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)'
                      r'(?:[eE][+-]?[0-9]+)?')
INT_RE = re.compile(r'-?[0-9]+')
TYPES = ('counter', 'gauge', 'histogram', 'summary', 'untyped')


class Bad(Exception):
    pass


def parse_value(s):
    if s in ('+Inf', 'Inf'):
        return math.inf
    if s == '-Inf':
        return -math.inf
    if s == 'NaN':
        return math.nan
    if not FLOAT_RE.fullmatch(s):
        raise Bad('value %r is not a float' % s)
    return float(s)


def unescape(s, pos, quote):
    """Read an escaped string from s[pos:] up to '"' (quote) or the end.
    Returns (text, position after the closing quote)."""
    out = []
    while pos < len(s):
        c = s[pos]
        if c == '\\':
            if pos + 1 >= len(s):
                raise Bad('backslash at the end')
            e = s[pos + 1]
            if e == '\\':
                out.append('\\')
            elif e == 'n':
                out.append('\n')
            elif e == '"' and quote:
                out.append('"')
            else:
                raise Bad('bad escape \\%s' % e)
            pos += 2
            continue
        if quote and c == '"':
            return ''.join(out), pos + 1
        if c == '\n':
            raise Bad('raw newline')
        out.append(c)
        pos += 1
    if quote:
        raise Bad('unterminated label value')
    return ''.join(out), pos


def parse_labels(s, pos):
    """s[pos] is '{': ({name: value}, position after '}')."""
    labels = {}
    pos += 1
    while True:
        if pos < len(s) and s[pos] == '}':
            return labels, pos + 1
        m = LABEL_RE.match(s, pos)
        if not m:
            raise Bad('bad label name at column %d' % (pos + 1))
        name = m.group(0)
        if name.startswith('__'):
            raise Bad('reserved label name %s' % name)
        if name in labels:
            raise Bad('label %s twice' % name)
        pos = m.end()
        if s[pos:pos + 2] != '="':
            raise Bad('label %s: expected ="' % name)
        labels[name], pos = unescape(s, pos + 2, True)
        if pos < len(s) and s[pos] == ',':
            pos += 1
        elif pos < len(s) and s[pos] == '}':
            continue
        else:
            raise Bad('expected , or } after label %s' % name)


def parse_sample(line):
    m = NAME_RE.match(line)
    if not m:
        raise Bad('bad metric name')
    name, pos = m.group(0), m.end()
    labels = {}
    if pos < len(line) and line[pos] == '{':
        labels, pos = parse_labels(line, pos)
    rest = line[pos:]
    if not rest.startswith(' '):
        raise Bad('expected a space before the value')
    parts = rest[1:].split(' ')
    if len(parts) not in (1, 2) or '' in parts:
        raise Bad('expected "value [timestamp]"')
    value = parse_value(parts[0])
    if len(parts) == 2 and not INT_RE.fullmatch(parts[1]):
        raise Bad('bad timestamp %r' % parts[1])
    return name, labels, value


def family_of(name, families):
    if name in families:
        return name
    for suffix in ('_bucket', '_sum', '_count'):
        base = name[:-len(suffix)]
        if name.endswith(suffix) and families.get(base, {}).get(
                'type') in ('histogram', 'summary'):
            return base
    return None


def check(text, prefix=''):
    """The families {name: {type, help, samples: [(labels, value)]}};
    raises Bad with the line number."""
    families = {}
    order = []
    series = set()
    current = None
    if text and not text.endswith('\n'):
        raise Bad('the last line does not end in a newline')
    for no, line in enumerate(text.split('\n')[:-1] if text else [], 1):
        try:
            current = check_line(line, families, order, series, current,
                                 prefix)
        except Bad as e:
            raise Bad('line %d: %s: %r' % (no, e, line))
    for name in order:
        f = families[name]
        if 'type' not in f or 'help' not in f:
            raise Bad('family %s lacks its %s line' %
                      (name, 'TYPE' if 'type' not in f else 'HELP'))
    return families


def check_comment(line, families, order, current, prefix):
    parts = line.split(' ', 3)
    if len(parts) < 3 or parts[1] not in ('HELP', 'TYPE'):
        raise Bad('a comment that is not HELP or TYPE')
    kind, name = parts[1], parts[2]
    if not NAME_RE.fullmatch(name):
        raise Bad('bad metric name %r' % name)
    if not name.startswith(prefix):
        raise Bad('%s does not start with %s' % (name, prefix))
    f = families.get(name)
    if f is None:
        f = families[name] = {'samples': []}
        order.append(name)
    elif name != current:
        raise Bad('family %s again after other lines' % name)
    if f['samples']:
        raise Bad('%s after the samples of %s' % (kind, name))
    key = kind.lower()
    if key in f:
        raise Bad('second %s line of %s' % (kind, name))
    if kind == 'HELP':
        f['help'], _ = unescape(parts[3] if len(parts) > 3 else '', 0,
                                False)
    else:
        if len(parts) != 4 or parts[3] not in TYPES:
            raise Bad('bad TYPE line')
        if parts[3] == 'counter' and not name.endswith('_total'):
            raise Bad('counter %s does not end in _total' % name)
        f['type'] = parts[3]
    return name


def check_line(line, families, order, series, current, prefix):
    if line == '':
        raise Bad('blank line')
    if line.startswith('#'):
        return check_comment(line, families, order, current, prefix)
    name, labels, value = parse_sample(line)
    fam = family_of(name, families)
    if fam is None or 'type' not in families[fam]:
        raise Bad('sample of %s before its TYPE line' % name)
    if fam != current:
        raise Bad('sample of %s outside its family\'s lines' % name)
    key = (name, tuple(sorted(labels.items())))
    if key in series:
        raise Bad('series %s%s twice' % (name, labels))
    series.add(key)
    if families[fam]['type'] == 'counter' and (math.isnan(value) or
                                               value < 0):
        raise Bad('counter %s is %s' % (name, value))
    families[fam]['samples'].append((labels, value))
    return fam


GOOD = [
    '',
    '# HELP a_total x\n# TYPE a_total counter\na_total 1\n',
    '# HELP g y \\\\ \\n z\n# TYPE g gauge\ng{a="1",b="x\\"y\\\\z\\n"} '
    '-1.5e3\ng{a="2"} NaN\ng +Inf 1700000000000\n',
    '# TYPE g gauge\n# HELP g h\ng{a="1",} 0\n',
]
BAD = [
    ('no newline', '# HELP g h\n# TYPE g gauge\ng 1'),
    ('blank', '# HELP g h\n# TYPE g gauge\n\ng 1\n'),
    ('no TYPE', '# HELP g h\ng 1\n'),
    ('no HELP', '# TYPE g gauge\ng 1\n'),
    ('TYPE twice', '# HELP g h\n# TYPE g gauge\n# TYPE g gauge\ng 1\n'),
    ('bad type', '# HELP g h\n# TYPE g gouge\ng 1\n'),
    ('family twice', '# HELP g h\n# TYPE g gauge\ng 1\n# HELP f h\n'
     '# TYPE f gauge\nf 1\ng{a="b"} 1\n'),
    ('TYPE after sample', '# HELP g h\ng 1\n# TYPE g gauge\n'),
    ('bad name', '# HELP 1g h\n# TYPE 1g gauge\n1g 1\n'),
    ('bad label', '# HELP g h\n# TYPE g gauge\ng{1a="x"} 1\n'),
    ('reserved label', '# HELP g h\n# TYPE g gauge\ng{__a="x"} 1\n'),
    ('label twice', '# HELP g h\n# TYPE g gauge\ng{a="x",a="y"} 1\n'),
    ('bad escape', '# HELP g h\n# TYPE g gauge\ng{a="\\t"} 1\n'),
    ('unquoted', '# HELP g h\n# TYPE g gauge\ng{a=x} 1\n'),
    ('unterminated', '# HELP g h\n# TYPE g gauge\ng{a="x} 1\n'),
    ('bad value', '# HELP g h\n# TYPE g gauge\ng 0x10\n'),
    ('no value', '# HELP g h\n# TYPE g gauge\ng\n'),
    ('two spaces', '# HELP g h\n# TYPE g gauge\ng  1\n'),
    ('bad timestamp', '# HELP g h\n# TYPE g gauge\ng 1 1.5\n'),
    ('duplicate series', '# HELP g h\n# TYPE g gauge\ng{a="1",b="2"} 1\n'
     'g{b="2",a="1"} 2\n'),
    ('negative counter', '# HELP a_total h\n# TYPE a_total counter\n'
     'a_total -1\n'),
    ('counter name', '# HELP a h\n# TYPE a counter\na 1\n'),
    ('undeclared', '# HELP g h\n# TYPE g gauge\ng 1\nf 1\n'),
    ('comment', '# HELP g h\n# TYPE g gauge\n# hello\ng 1\n'),
    ('bad help escape', '# HELP g a\\"b\n# TYPE g gauge\ng 1\n'),
]


def self_test():
    bad = 0
    for text in GOOD:
        try:
            check(text)
        except Bad as e:
            print('FAIL: refused a valid exposition: %s' % e)
            bad += 1
    for why, text in BAD:
        try:
            check(text)
            print('FAIL: accepted (%s): %r' % (why, text))
            bad += 1
        except Bad:
            pass
    try:
        check('# HELP x_g h\n# TYPE x_g gauge\nx_g 1\n', 'batsec_')
        print('FAIL: accepted a name without the prefix')
        bad += 1
    except Bad:
        pass
    print('self-test: %d valid, %d invalid cases, %d wrong' %
          (len(GOOD), len(BAD) + 1, bad))
    return 1 if bad else 0


def main(argv):
    prefix, paths, stats, dump = '', [], False, None
    args = list(argv[1:])
    while args:
        a = args.pop(0)
        if a == '--self-test':
            return self_test()
        if a == '--prefix' and args:
            prefix = args.pop(0)
        elif a == '--stats':
            stats = True
        elif a == '--dump' and args:
            dump = args.pop(0)
        elif a.startswith('-') and a != '-':
            print('usage: promcheck.py [--prefix P] [--stats] '
                  '[--dump NAME] [FILE...|-] | --self-test', file=sys.stderr)
            return 2
        else:
            paths.append(a)
    for path in paths or ['-']:
        with (sys.stdin if path == '-' else open(path)) as f:
            text = f.read()
        try:
            fams = check(text, prefix)
        except Bad as e:
            print('promcheck: %s: %s' % (path, e), file=sys.stderr)
            return 1
    if stats:
        print('families %d samples %d' % (
            len(fams), sum(len(f['samples']) for f in fams.values())))
    if dump is not None:
        for labels, value in fams.get(dump, {'samples': []})['samples']:
            print('%s\t%s' % (','.join('%s=%s' % kv for kv in
                                        sorted(labels.items())),
                              int(value) if math.isfinite(value) and
                              value == int(value) else repr(value)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
