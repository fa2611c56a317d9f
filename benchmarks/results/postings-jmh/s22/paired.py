# Issue 11, session 22: the paired A/B of paired.sh. Per round and class, the ratio lucene-dram / nvm-uncompressed of
# the two adjacent forks' mean µs/op (> 1: the uncompressed postings are faster), then per class the median ratio,
# its range and in how many rounds the uncompressed side was faster. Forks are read with ../s17/iterations.py.
# Usage: python3 paired.py <paired.sh out>
import glob, os, re, statistics as st, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 's17'))
from iterations import forks


def fork_mean(path):
    """The mean of the one fork's measurement iterations in a paired.sh output."""
    [(_, _, iterations)] = forks([path])
    return st.mean(iterations)


ratios = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], 'r*-*-lucene-dram.txt'))):
    m = re.match(r'r(\d+)-(\w+)-lucene-dram\.txt', os.path.basename(path))
    round_, cls = int(m.group(1)), m.group(2)
    base = fork_mean(path)
    cand = fork_mean(path.replace('-lucene-dram.txt', '-nvm-uncompressed.txt'))
    ratios.setdefault(cls, []).append((round_, base, cand, base / cand))

for cls, rows in ratios.items():
    rows.sort()
    print(cls)
    for round_, base, cand, ratio in rows:
        print('   round %2d  lucene-dram %9.1f  nvm-uncompressed %9.1f  ratio %.2f' % (round_, base, cand, ratio))
    values = [r[3] for r in rows]
    print('   median ratio %.2f [%.2f–%.2f], uncompressed faster in %d of %d rounds'
          % (st.median(values), min(values), max(values), sum(v > 1 for v in values), len(values)))
