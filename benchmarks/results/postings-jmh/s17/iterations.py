# Measurement iterations of PostingsBenchmark logs, per (benchmark, [label:]config).
# Usage: python3 iterations.py summary [label=]<log>...  n, min, 10th percentile and median, and lucene-dram's / the config's for each
#        python3 iterations.py forks <log>...             per fork: mean of the middle half of its iterations, then every iteration
import re, sys, collections, statistics

def forks(paths):
    """Yields (benchmark, config, [iterations]) per fork, in log order."""
    for arg in paths:
        label, _, path = arg.rpartition('=')
        bench = config = None; its = None; key = None
        for line in open(path):
            m = re.match(r'# Benchmark: \S+\.(\w+)$', line)
            if m: bench = m.group(1)
            m = re.match(r'# Parameters: \(config = ([\w-]+)', line)
            if m: config = (label + ':' if label else '') + m.group(1)
            if line.startswith('# Fork:'):
                if its: yield key + (its,)
                its = []; key = (bench, config)
            m = re.match(r'Iteration\s+\d+: ([\d.]+) us/op', line)
            if m and its is not None: its.append(float(m.group(1)))
        if its: yield key + (its,)

def stats(values):
    v = sorted(values)
    return v[0], v[max(0, len(v) // 10 - 1)], statistics.median(v)

if __name__ == '__main__':
    mode, paths = sys.argv[1], sys.argv[2:]
    if mode == 'forks':
        for bench, config, its in forks(paths):
            q = len(its) // 4; middle = sorted(its)[q:len(its) - q]
            print(f"{bench:20s} {config:24s} {sum(middle) / len(middle):8.1f} |", ' '.join(f"{x:.0f}" for x in its))
    else:
        values = collections.defaultdict(list)
        for bench, config, its in forks(paths):
            values[(bench, config)] += its
        print(f"{'benchmark':20s} {'config':32s} {'n':>3s} {'min':>9s} {'p10':>9s} {'median':>9s}  lucene-dram's / config's min, p10, median")
        for (bench, config), v in sorted(values.items()):
            base = next((b for (bb, c), b in values.items() if bb == bench and c.endswith('lucene-dram')), None)
            s = stats(v); r = [x / y for x, y in zip(stats(base), s)] if base else [float('nan')] * 3
            print(f"{bench:20s} {config:32s} {len(v):3d} {s[0]:9.1f} {s[1]:9.1f} {s[2]:9.1f}  {r[0]:.2f} / {r[1]:.2f} / {r[2]:.2f}")
