#!/usr/bin/env python3
"""win.py <trace> [categories]: per category of a traced query JVM (trace-*.patch), the median latency
(µs) of each 250-query window and the time span of the category (s since JVM start)."""
import collections, statistics, sys

want = sys.argv[2].split(',') if len(sys.argv) > 2 else None
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    category, _, start_us, latency_us = line.rstrip('\n').split('\t')[:4]
    rows[category].append((int(start_us), int(latency_us)))
for category, queries in rows.items():
    if want and category.replace('-w', '') not in want:
        continue
    windows = [int(statistics.median(q[1] for q in queries[k:k + 250])) for k in range(0, len(queries), 250)]
    print(f'{category:14s} t={queries[0][0] / 1e6:6.2f}-{queries[-1][0] / 1e6:6.2f}s  {windows}')
