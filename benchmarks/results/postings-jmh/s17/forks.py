# Per fork of a PostingsBenchmark main run: the mean of its middle two of four measurement iterations, per (benchmark, config).
# Usage: python3 forks.py <run.txt>
import re, sys, collections
forks = collections.defaultdict(list); bench = config = None; its = []
for line in open(sys.argv[1]):
    m = re.match(r'# Benchmark: \S+\.(\w+)$', line)
    if m: bench = m.group(1)
    m = re.match(r'# Parameters: \(config = ([\w-]+)', line)
    if m: config = m.group(1); its = []
    m = re.match(r'Iteration\s+\d+: ([\d.]+) us/op', line)
    if m:
        its.append(float(m.group(1)))
        if len(its) == 4: forks[(bench, config)].append(sum(sorted(its)[1:3]) / 2)
for (bench, config), values in sorted(forks.items()):
    print(f"{bench:20s} {config:18s}", ' '.join(f"{v:7.1f}" for v in values))
