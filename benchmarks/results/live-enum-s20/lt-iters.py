#!/usr/bin/env python3
"""Per-iteration view of LiveTailBenchmark A/B rounds: lt-iters.py <dir> <rounds>. For each (docs, category) and side: the
median of all measurement iterations pooled over the rounds, and the fastest iteration of each round (their median)."""
import re, statistics, sys
from ab_rounds import round_files
d, rounds = sys.argv[1], int(sys.argv[2])
its = {}
for side, path in round_files(d, rounds, '.txt'):
    for block in open(path).read().split('# Parameters: ')[1:]:
        cat = re.search(r'category = (\w+)', block).group(1)
        docs = int(re.search(r'docs = (\d+)', block).group(1))
        vals = [float(v) for v in re.findall(r'^Iteration\s+\d+: ([\d.]+) us/op', block, re.M)]
        its.setdefault((docs, cat), {}).setdefault(side, []).append(vals)
print('| docs flushed | category | base: pooled median µs | new: pooled median | new / base | base: fastest per round (median) | new: fastest per round (median) | new / base, fastest |')
print('|---|---|---|---|---|---|---|---|')
for key in sorted(its):
    b, n = its[key].get('base', []), its[key].get('new', [])
    if not b or not n:
        continue
    pb = statistics.median([x for v in b for x in v]); pn = statistics.median([x for v in n for x in v])
    fb = [min(v) for v in b]; fn = [min(v) for v in n]
    mb, mn = statistics.median(fb), statistics.median(fn)
    print(f"| {key[0]:,} | {key[1]} | {pb:.1f} | {pn:.1f} | {pn / pb:.2f} | {', '.join(f'{x:.1f}' for x in fb)} ({mb:.1f}) | {', '.join(f'{x:.1f}' for x in fn)} ({mn:.1f}) | {mn / mb:.2f} |")
