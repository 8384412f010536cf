#!/usr/bin/env python3
"""
tests/layout.py — checks the shape of the tree that ARCHITECTURE.md draws.

  1. every quoted #include in src/, crypto/, keys/ and policy/ resolves to
     a file of the tree, the way the compiler finds it (the including
     file's folder first, then -Isrc, -Icrypto, -Ikeys, -Ipolicy);
  2. a file includes only from the wings its own wing may use (WINGS
     below, the table of ARCHITECTURE.md);
  3. no circle: the rooms (a .c file and its .h together) form no cycle
     of includes;
  4. in the daemon's wings (src/), a header declares only its own .c
     file's functions (a header without a .c declares none), so that the
     includes show who calls whom and rule 3 sees every circle.

Usage: tests/layout.py [TOP]     Prints one line per finding, "ok: ..." lines
for each rule that holds, and exits 1 when any rule is broken.
"""
import os
import re
import sys

# Each wing and the wings it may include from (itself always).  Bottom up.
LIBS = {"crypto", "keys", "policy"}
WINGS = {
    "crypto": set(),
    "keys": {"crypto"},
    "policy": {"crypto", "keys"},
    "src/common": LIBS,
    "src/proto": LIBS | {"src/common"},
    "src/netio": LIBS | {"src/common"},
    "src/routing": LIBS | {"src/common"},
    "src/parser": LIBS | {"src/common", "src/proto", "src/routing"},
    "src/forwarder": LIBS | {"src/common", "src/proto", "src/netio"},
    "src/ctl": LIBS | {"src/common", "src/proto"},
    # batsecd.c: the daemon's main picks the process's entry point.
    "src": {"src/common", "src/forwarder", "src/parser"},
}
# Where a wing may only take certain headers of another.
ONLY = {
    ("src", "src/forwarder"): {"src/forwarder/forwarder.h"},
    ("src", "src/parser"): {"src/parser/parser.h"},
}
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
PREPROC = re.compile(r"^\s*#.*?(?<!\\)$", re.M | re.S)
PROTO = re.compile(r"\b([A-Za-z_]\w*)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)"
                   r"\s*(?:__attribute__\s*\(\(.*?\)\)\s*)*$", re.S)
DEFN = re.compile(r"^(?:[A-Za-z_][\w \t\*]*?[\s\*])?([A-Za-z_]\w*)\s*\("
                  r"[^;{}()]*(?:\([^()]*\)[^;{}()]*)*\)\s*\{", re.M)
# Functions a macro defines: NAME_OF_MACRO(function, ...) on its own line
# names them among its arguments.
MACRO_CALL = re.compile(r"^[A-Z][A-Z0-9_]*\(([^()]*)\)\s*$", re.M)


def strip_blocks(text):
    """Top-level text only: brace blocks (bodies, struct members) removed."""
    out, depth = [], 0
    for ch in text:
        if ch == "{":
            depth += 1
            if depth == 1:
                out.append(";")
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def declared(path):
    text = PREPROC.sub("", COMMENT.sub("", open(path, encoding="utf-8").read()))
    names = set()
    for stmt in strip_blocks(text).split(";"):
        stmt = stmt.strip()
        if not stmt or stmt.startswith(("typedef", "static", "extern")):
            continue
        if re.match(r"[A-Z][A-Z0-9_]*\s*\(", stmt):
            continue		# a macro that makes a type
        m = PROTO.search(stmt)
        if m and "=" not in stmt:
            names.add(m.group(1))
    return names


def defined(path):
    text = COMMENT.sub("", open(path, encoding="utf-8").read())
    names = set(DEFN.findall(text))
    for args in MACRO_CALL.findall(text):
        names |= {a.strip() for a in args.split(",")
                  if re.fullmatch(r"[a-z_]\w*", a.strip())}
    return names - {"if", "for", "while", "switch"}


def own_decls(top, files):
    """Rule 4: every function a src/ header declares is its .c's."""
    bad = 0
    for h in files:
        if not h.startswith("src/") or not h.endswith(".h"):
            continue
        c = h[:-2] + ".c"
        mine = defined(os.path.join(top, c)) if os.path.isfile(
            os.path.join(top, c)) else set()
        for name in sorted(declared(os.path.join(top, h)) - mine):
            print(f"{h}: declares {name}(), which is not {c}'s")
            bad += 1
    return bad

INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def wing_of(path):
    d = os.path.dirname(path)
    return d if d in WINGS else None


def resolve(top, src, name):
    here = os.path.dirname(src)
    cands = [os.path.join(here, name), os.path.join("src", name)]
    cands += [os.path.join(lib, name) for lib in ("crypto", "keys", "policy")]
    for c in cands:
        c = os.path.normpath(c)
        if os.path.isfile(os.path.join(top, c)):
            return c
    return None


def room(path):
    return os.path.splitext(path)[0]


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "."
    files = []
    for w in WINGS:
        d = os.path.join(top, w)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith((".c", ".h")):
                files.append(os.path.join(w, f))
    bad = {"resolve": 0, "boundary": 0, "circle": 0, "own declarations": 0}
    edges = {}
    for f in files:
        wing = wing_of(f)
        if wing is None:
            print(f"{f}: not in a wing of ARCHITECTURE.md")
            bad["boundary"] += 1
            continue
        text = open(os.path.join(top, f), encoding="utf-8").read()
        for m in INC.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            tgt = resolve(top, f, m.group(1))
            if tgt is None:
                print(f"{f}:{line}: #include \"{m.group(1)}\" is no file "
                      "of the tree")
                bad["resolve"] += 1
                continue
            tw = wing_of(tgt)
            only = ONLY.get((wing, tw))
            if only is not None and tgt not in only:
                print(f"{f}:{line}: {wing}/ may take only "
                      f"{', '.join(sorted(only))} of {tw}/")
                bad["boundary"] += 1
            elif tw != wing and tw not in WINGS[wing]:
                print(f"{f}:{line}: {wing}/ may not include {tgt} "
                      f"({tw}/ is not below it)")
                bad["boundary"] += 1
            if room(tgt) != room(f):
                edges.setdefault(room(f), set()).add(room(tgt))
    # Circles: Tarjan's strongly connected components over the rooms.
    index, low, stack, on, comps = {}, {}, [], set(), []

    def strong(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(set(edges) | {w for s in edges.values() for w in s}):
        if v not in index:
            strong(v)
    for c in comps:
        print("circle: " + " <-> ".join(c))
        bad["circle"] += 1
    bad["own declarations"] = own_decls(top, files)
    for rule, n in bad.items():
        if n == 0:
            print(f"ok: {rule} ({len(files)} files)")
    return 1 if any(bad.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
