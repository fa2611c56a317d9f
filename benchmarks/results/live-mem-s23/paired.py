#!/usr/bin/env python3
"""Per-round paired ratios (new / base) of LiveTailBenchmark A/B rounds: paired.py <dir> <rounds>;
per category the median [range] of the ratios, the rounds new was faster and a two-sided sign test."""
import csv, statistics, sys
from math import comb
d, rounds = sys.argv[1], int(sys.argv[2])
s = {}
for side in ('base', 'new'):
    for r in range(1, rounds + 1):
        for row in csv.DictReader(open(f'{d}/{side}-{r}.csv')):
            s.setdefault(row['Param: category'], {}).setdefault(side, []).append(float(row['Score']))
print('| category | new / base per round, median [range] | rounds new faster | sign test p (two-sided) |')
print('|---|---|---|---|')
for c, v in sorted(s.items()):
    ratios = [n / b for b, n in zip(v['base'], v['new'])]
    k = sum(1 for x in ratios if x < 1)
    m = min(k, len(ratios) - k)
    p = min(1.0, 2 * sum(comb(len(ratios), i) for i in range(m + 1)) / 2 ** len(ratios))
    print(f'| {c} | {statistics.median(ratios):.2f} [{min(ratios):.2f}–{max(ratios):.2f}] | {k} of {len(ratios)} | {p:.3f} |')
