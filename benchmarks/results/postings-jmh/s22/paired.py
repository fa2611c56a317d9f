# Issue 11, session 22: the paired A/B of paired.sh. Per round and class, the ratio lucene-dram / nvm-uncompressed of
# the two adjacent forks' mean µs/op (> 1: the uncompressed postings are faster), then per class the median ratio,
# its range and in how many rounds the uncompressed side was faster. Forks are read with ../s17/iterations.py.
# Usage: python3 paired.py <paired.sh out> [<baseline suffix> <candidate suffix>]
# The suffixes name each fork's file after r<round>-<class>- (default lucene-dram and nvm-uncompressed; for
# ../s31/pbn.sh output, e.g. lucene-dram-final and lucene-nvm-final).
import glob, os, re, statistics as st, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 's17'))
from iterations import forks


def fork_mean(path):
    """The mean of the one fork's measurement iterations in a paired.sh output."""
    [(_, _, iterations)] = forks([path])
    return st.mean(iterations)


baseline, candidate = sys.argv[2:4] if len(sys.argv) > 3 else ('lucene-dram', 'nvm-uncompressed')
ratios = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], 'r*-*-%s.txt' % baseline))):
    m = re.match(r'r(\d+)-(\w+?)-%s\.txt' % re.escape(baseline), os.path.basename(path))
    round_, cls = int(m.group(1)), m.group(2)
    base = fork_mean(path)
    cand = fork_mean(path.replace('-%s.txt' % baseline, '-%s.txt' % candidate))
    ratios.setdefault(cls, []).append((round_, base, cand, base / cand))

for cls, rows in ratios.items():
    rows.sort()
    print(cls)
    for round_, base, cand, ratio in rows:
        print('   round %2d  %s %9.1f  %s %9.1f  ratio %.2f' % (round_, baseline, base, candidate, cand, ratio))
    values = [r[3] for r in rows]
    print('   median ratio %.2f [%.2f–%.2f], %s faster in %d of %d rounds'
          % (st.median(values), min(values), max(values), candidate, sum(v > 1 for v in values), len(values)))
