# Session 34: mean µs/op of every fork of an s31/pbn.sh run, per class and configuration, in round order.
# Usage: python3 jmhtab.py <pbn.sh out>. Forks are read with ../s17/iterations.py.
import glob, os, re, statistics as st, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 's17'))
from iterations import forks

res = {}
for path in glob.glob(os.path.join(sys.argv[1], 'r*-*.txt')):
    m = re.match(r'r(\d+)-(\w+?)-(lucene-dram|nvm-uncompressed)-(\w+)\.txt', os.path.basename(path))
    round_, cls, config, jar = m.groups()
    [(_, _, iterations)] = forks([path])
    res.setdefault((cls, config + '-' + jar), []).append((int(round_), st.mean(iterations)))
for cls in sorted({k[0] for k in res}):
    cells = ['%s %s' % (label, [round(us, 1) for _, us in sorted(values)])
             for (c, label), values in sorted(res.items()) if c == cls]
    print('%-19s' % cls, '  '.join(cells))
