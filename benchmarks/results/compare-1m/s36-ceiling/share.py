#!/usr/bin/env python3
"""share.py <collapsed[.gz]>...: per file, samples under IndexSearcher.search, and the share of those in
the postings reader's frames (any frame of the stack): org.lucenenvm.codec.* for the uncompressed
postings, Lucene104PostingsReader / ForUtil / PForUtil / ForDeltaUtil for Lucene104, Ceiling's
oracle enum and exact impacts; and the share
inside the terms dictionary (blocktree) and norms, for scale."""
import gzip, sys, re
groups = {
  'postings reader': re.compile(r'org[./]lucenenvm[./]codec[./]|Lucene104PostingsReader|ForDeltaUtil|PForUtil|[./]ForUtil|Ceiling\$(Oracle|Exact)'),
  'terms dictionary (block tree)': re.compile(r'blocktree'),
  'norms': re.compile(r'Lucene90NormsProducer'),
  'BM25 / collector': re.compile(r'BM25Similarity|TopScoreDocCollector|MaxScoreCache|TopDocs'),
}
for f in sys.argv[1:]:
    tot = 0; inc = dict.fromkeys(groups, 0)
    for line in (gzip.open(f, 'rt') if f.endswith('.gz') else open(f)):
        st, c = line.rstrip().rsplit(' ', 1); c = int(c)
        if 'IndexSearcher.search' not in st: continue
        tot += c
        for g, rx in groups.items():
            if rx.search(st): inc[g] += c
    print(f, 'samples under IndexSearcher.search:', tot)
    for g in groups: print('   %6d %5.1f%%  %s' % (inc[g], 100 * inc[g] / max(tot, 1), g))
