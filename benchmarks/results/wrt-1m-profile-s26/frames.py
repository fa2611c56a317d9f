# Session 26: inclusive share of a few frames inside one thread group of an async-profiler collapsed file (a sample
# counts for every listed frame on its stack, so shares overlap), and the thread group's top leaf frames.
# Usage: python3 frames.py <file.collapsed> <thread-name regex> [number of leaves]
import collections, re, sys
KEYS = ['SegmentFlushWriter', 'LiveTerms', 'sort', 'LivePostings', 'LiveTermPostings', 'BlockTreeTermsWriter', 'PostingsWriter',
        'StoredFields', 'Norms', 'Engraver', 'Checkpoint', 'Committer', 'ByteBuffers', 'Nvm', 'MappingMultiPostingsEnum',
        'MultiTermsEnum', 'LZ4', 'ForUtil', 'awaitDramRoom']
tot = 0; inc = collections.Counter(); leaf = collections.Counter()
for line in open(sys.argv[1]):
    stack, _, n = line.rstrip().rpartition(' ')
    if not re.search(sys.argv[2], stack.split(';')[0]):
        continue
    n = int(n); tot += n; fr = stack.split(';')
    for k in KEYS:
        if any(k in f for f in fr):
            inc[k] += n
    leaf[fr[-1]] += n
print('%d samples' % tot)
for k, v in inc.most_common():
    print('%6.1f %% %s' % (100 * v / tot, k))
for k, v in leaf.most_common(int(sys.argv[3]) if len(sys.argv) > 3 else 15):
    print('  leaf %5.1f %% %s' % (100 * v / tot, k))
