#!/usr/bin/env python3
"""Medians of LiveTailBenchmark A/B rounds: lt-ab.py <dir> <rounds>; mean us/op per (docs, category), per round and side."""
import csv, statistics, sys
from ab_rounds import round_files
d, rounds = sys.argv[1], int(sys.argv[2])
scores = {}
for side, path in round_files(d, rounds, '.csv'):
    for row in csv.DictReader(open(path)):
        key = (int(row['Param: docs']), row['Param: category'])
        scores.setdefault(key, {}).setdefault(side, []).append(float(row['Score']))
print('| docs flushed | category | base µs per round (median) | new µs per round (median) | new / base | rounds new faster |')
print('|---|---|---|---|---|---|')
for key in sorted(scores):
    b, n = scores[key].get('base', []), scores[key].get('new', [])
    if not b or not n:
        continue
    mb, mn = statistics.median(b), statistics.median(n)
    faster = sum(1 for x, y in zip(b, n) if y < x)
    print(f"| {key[0]:,} | {key[1]} | {', '.join(f'{x:.1f}' for x in b)} ({mb:.1f}) | {', '.join(f'{x:.1f}' for x in n)} ({mn:.1f}) | {mn / mb:.2f} | {faster} of {min(len(b), len(n))} |")
