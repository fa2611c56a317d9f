#!/usr/bin/env python3
"""incl.py <collapsed> <frame regex>...: share of a query JVM's search samples whose stack holds each frame."""
import re, sys
pats = [(p, re.compile(p)) for p in sys.argv[2:]]
total = 0
hits = {p: 0 for p, _ in pats}
for line in open(sys.argv[1]):
    stack, _, n = line.rstrip().rpartition(' ')
    if 'IndexSearcher.search' not in stack:
        continue
    n = int(n)
    total += n
    for p, rx in pats:
        if rx.search(stack):
            hits[p] += n
for p, _ in pats:
    print(f'{100 * hits[p] / total:5.1f} {p}')
