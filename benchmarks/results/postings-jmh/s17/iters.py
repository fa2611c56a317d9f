# Median and range of JMH measurement iterations per (benchmark, config) over the given run logs.
# Usage: python3 iters.py <name>=<log>... ; prints median [min, max] µs/op and, per benchmark, each config's median ratio to lucene-dram
import sys, re, statistics, collections
vals = collections.defaultdict(list)
for arg in sys.argv[1:]:
    name, path = arg.split('=', 1)
    bench = config = None
    for line in open(path):
        m = re.match(r'# Benchmark: \S+\.(\w+)$', line)
        if m: bench = m.group(1)
        m = re.match(r'# Parameters: \(config = ([\w-]+)', line)
        if m: config = m.group(1)
        m = re.match(r'Iteration\s+\d+: ([\d.]+) us/op', line)
        if m: vals[(bench, name + ':' + config)].append(float(m.group(1)))
benches = sorted({b for b, _ in vals})
for b in benches:
    base = [v for (bb, c), v in vals.items() if bb == b and c.endswith(':lucene-dram')]
    bmed = statistics.median(base[0]) if base else None
    for (bb, c), v in sorted(vals.items()):
        if bb != b: continue
        med = statistics.median(v)
        ratio = f"{bmed / med:5.2f}" if bmed else ''
        print(f"{b:22s} {c:32s} n={len(v):2d} median {med:9.2f} [{min(v):9.2f}, {max(v):9.2f}] ratio {ratio}")
