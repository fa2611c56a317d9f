# Issue 10, session 24: CPU samples of one profiled JVM (async-profiler collapsed stacks with thread names) by
# thread group, and inside each group the inclusive share of a few frames (a sample counts for every listed
# frame on its stack, so the shares of a group may overlap); with <docs>, also the CPU per ingested document
# (samples x 10 ms / docs).
# Usage: python3 split.py <file.collapsed> [docs]
import collections, re, sys

GROUPS = [('ingest thread (wrt-ingest)', r'^\[wrt-ingest'), ('query thread (wrt-query)', r'^\[wrt-query'),
          ('engine indexer (flush, engrave, commit)', r'^\[rt-p\d+-indexer'), ('engine merger', r'^\[rt-p\d+-merger'),
          ('Lucene merge threads (NRT)', r'^\[Lucene Merge Thread'), ('JIT compilers', r'^\[C[12] '),
          ('GC', r'^\[(GC|G1|VM Thread)'), ('other', r'')]
FRAMES = [('ingest log (crash mode)', r'IngestLog\.'), ('engine: document inversion', r'DocumentInverter\.'),
          ('engine: live segment add', r'LiveSegment\.add'), ('engine: flush (SegmentFlushWriter)', r'SegmentFlushWriter\.'),
          ('engine: engrave', r'Engraver\.'), ('engine: merge (Merger)', r'realtime/Merger\.'),
          ('IndexWriter: addDocument', r'IndexWriter\.(addDocument|updateDocument)'),
          ('IndexWriter: flush', r'DocumentsWriterPerThread\.flush'), ('Lucene: SegmentMerger.merge', r'SegmentMerger\.merge'),
          ('analysis (tokenizer, filters)', r'StandardTokenizer|LowerCaseFilter|TokenStream\.|Analyzer\.'),
          ('search (IndexSearcher.search)', r'IndexSearcher\.search'), ('snapshot / reader open', r'acquireSnapshot|openIfChanged|DirectoryReader\.open')]
groups, frames = collections.Counter(), collections.defaultdict(collections.Counter)
for line in open(sys.argv[1]):
    stack, _, n = line.rstrip().rpartition(' ')
    n = int(n)
    g = next(name for name, rx in GROUPS if re.search(rx, stack))
    groups[g] += n
    for name, rx in FRAMES:
        if re.search(rx, stack):
            frames[g][name] += n
total = sum(groups.values())
docs = int(sys.argv[2]) if len(sys.argv) > 2 else 0
per_doc = lambda samples: ', %.1f us/doc' % (samples * 1e4 / docs) if docs else ''
print('%d samples of 10 ms' % total)
for g, n in groups.most_common():
    print('%-42s %6.1f %%  (%d samples%s)' % (g, 100.0 * n / total, n, per_doc(n)))
    for f, m in frames[g].most_common():
        if m >= 0.02 * n:
            print('      %-38s %5.1f %% of the group%s' % (f, 100.0 * m / n, per_doc(m)))
