#!/usr/bin/env python3
"""hitscmp.py <out> <ref> <label>...: for every round, whether each label's top-10 (doc:score per rank) equals ref's on every
query of the same index; totals are compared only where both are exact (a total reported as a lower bound, 'N+', depends on
how much the scorer skipped)."""
import sys, glob, os
out, ref, labels = sys.argv[1], sys.argv[2], sys.argv[3:]
def rows(path):
    for line in open(path):
        f = line.rstrip('\n').split('\t')
        yield f[0], f[1], f[2], f[3:]
for l in labels:
    queries = differ = 0
    for d in sorted(glob.glob(f'{out}/{l}-*')):
        r = d.rsplit('-', 1)[1]
        for a, b in zip(rows(f'{out}/{ref}-{r}/hits.tsv'), rows(f'{d}/hits.tsv')):
            queries += 1
            exact = '+' not in a[2] and '+' not in b[2]
            if a[:2] != b[:2] or a[3] != b[3] or (exact and a[2] != b[2]):
                differ += 1
    print(f'{l} vs {ref}: {differ} of {queries} queries differ')
