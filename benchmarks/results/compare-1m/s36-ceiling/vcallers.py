#!/usr/bin/env python3
"""vcallers.py <collapsed[.gz]>...: who calls the Vector API mask trueCount (Lucene's findNextGEQ) under IndexSearcher.search:
the first frame outside the vector code, and its caller."""
import gzip, sys, collections
skip = ('jdk/incubator', 'VectorUtil', 'jdk/internal/vm')
for f in sys.argv[1:]:
    callers = collections.Counter(); tot = 0
    for line in (gzip.open(f, 'rt') if f.endswith('.gz') else open(f)):
        st, c = line.rstrip().rsplit(' ', 1); c = int(c)
        if 'IndexSearcher.search' not in st or not st.endswith('trueCount'): continue
        fr = st.split(';'); i = len(fr) - 1
        while i > 0 and any(s in fr[i] for s in skip): i -= 1
        callers[fr[i] + ' <- ' + fr[i - 1].split('/')[-1]] += c; tot += c
    print(f, 'trueCount samples:', tot)
    for k, v in callers.most_common(4): print('  %6d  %s' % (v, k))
