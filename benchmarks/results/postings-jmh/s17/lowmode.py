# Per (benchmark, config) of PostingsBenchmark logs: minimum, 10th percentile and median of all measurement iterations, and the
# ratios of lucene-dram's to each config's. Usage: python3 lowmode.py <log>...
import re, sys, collections, statistics
vals = collections.defaultdict(list); bench = config = None
for path in sys.argv[1:]:
    for line in open(path):
        m = re.match(r'# Benchmark: \S+\.(\w+)$', line)
        if m: bench = m.group(1)
        m = re.match(r'# Parameters: \(config = ([\w-]+)', line)
        if m: config = m.group(1)
        m = re.match(r'Iteration\s+\d+: ([\d.]+) us/op', line)
        if m: vals[(bench, config)].append(float(m.group(1)))
def stats(v):
    v = sorted(v); return v[0], v[max(0, int(len(v) * 0.1) - 1)] if len(v) >= 10 else v[0], statistics.median(v)
print(f"{'benchmark':20s} {'config':18s} {'n':>3s} {'min':>9s} {'p10':>9s} {'median':>9s}  ratio min/p10/median")
for (b, c), v in sorted(vals.items()):
    base = vals.get((b, 'lucene-dram'))
    s = stats(v); r = [bs / x for bs, x in zip(stats(base), s)] if base else [float('nan')] * 3
    print(f"{b:20s} {c:18s} {len(v):3d} {s[0]:9.1f} {s[1]:9.1f} {s[2]:9.1f}  {r[0]:.2f} / {r[1]:.2f} / {r[2]:.2f}")
