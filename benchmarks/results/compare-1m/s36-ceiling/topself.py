#!/usr/bin/env python3
"""topself.py <collapsed[.gz]> [n]: the n (default 15) frames with the most self samples among the stacks under IndexSearcher.search."""
import gzip, sys, collections
f = sys.argv[1]; n = int(sys.argv[2]) if len(sys.argv) > 2 else 15
tot = 0; top = collections.Counter()
for line in (gzip.open(f, 'rt') if f.endswith('.gz') else open(f)):
    st, c = line.rstrip().rsplit(' ', 1); c = int(c)
    if 'IndexSearcher.search' not in st: continue
    tot += c; top[st.split(';')[-1]] += c
print(f, 'samples under IndexSearcher.search:', tot)
for k, v in top.most_common(n): print('  %6d %5.1f%%  %s' % (v, 100 * v / tot, k))
