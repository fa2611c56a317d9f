# Share of a PostingsBenchmark query's samples by component (first matching rule per stack, from the leaf up).
# Usage: python3 split.py <collapsed-cpu.csv> [frame that marks a query's stack, default PostingsBenchmark.top10;
#        IndexSearcher.search for a query JVM]
import sys, collections, re
RULES = [
    ('postings (codec)', re.compile(r'lucene104[./]Lucene104PostingsReader|lucene104[./]\w*ForUtil|PostingDecodingUtil|lucene104[./]PForUtil|org.lucenenvm.codec|lucene104[./]Lucene104ScoreSkip|lucene104[./]Impact')),
    ('terms dictionary', re.compile(r'blocktree|TermStates|lucene103[./]')),
    ('norms', re.compile(r'Norms|lucene90[./]')),
]
query_frame = sys.argv[2] if len(sys.argv) > 2 else 'PostingsBenchmark.top10'
total = 0
parts = collections.Counter()
selfc = collections.Counter()
for line in open(sys.argv[1]):
    stack, _, n = line.rstrip().rpartition(' ')
    n = int(n)
    if query_frame not in stack:
        continue
    total += n
    frames = [f.split('(')[0] for f in stack.split(';')]
    cat = 'scoring, collection, other'
    for f in reversed(frames):
        hit = next((name for name, rx in RULES if rx.search(f)), None)
        if hit:
            cat = hit
            break
    parts[cat] += n
    selfc[frames[-1]] += n
print('samples', total)
for c, n in parts.most_common():
    print(f"{100*n/total:5.1f} {c}")
print('--- top self')
for f, n in selfc.most_common(25):
    print(f"{100*n/total:5.1f} {f}")
