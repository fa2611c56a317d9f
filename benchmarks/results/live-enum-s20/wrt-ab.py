#!/usr/bin/env python3
"""WRT A/B summary: wrt-ab.py <dir> <rounds>: per round, QPS (the All row) and ingest docs/s of each side; medians;
per-category mean latency medians."""
import csv, statistics, sys
d, rounds = sys.argv[1], int(sys.argv[2])
def load(side, r):
    rows = list(csv.DictReader(open(f'{d}/{side}-{r}/run1/results.csv')))
    qps = float(next(x['qps'] for x in rows if x['category'] == 'All'))
    return qps, float(rows[0]['ingest_docs_per_s']), {x['category']: float(x['mean_us']) for x in rows}
res = {(s, r): load(s, r) for s in ('base', 'new') for r in range(1, rounds + 1)}
print('| round | base QPS / ingest docs/s | new QPS / ingest docs/s | new / base QPS | new / base ingest |')
print('|---|---|---|---|---|')
for r in range(1, rounds + 1):
    b, n = res[('base', r)], res[('new', r)]
    print(f'| {r} | {b[0]:,.0f} / {b[1]:,.0f} | {n[0]:,.0f} / {n[1]:,.0f} | {n[0]/b[0]:.2f} | {n[1]/b[1]:.2f} |')
mq = [statistics.median(res[(s, r)][0] for r in range(1, rounds + 1)) for s in ('base', 'new')]
mi = [statistics.median(res[(s, r)][1] for r in range(1, rounds + 1)) for s in ('base', 'new')]
print(f'\nMedians: QPS {mq[0]:,.0f} against {mq[1]:,.0f} ({mq[1]/mq[0]:.2f}x), ingest {mi[0]:,.0f} against {mi[1]:,.0f} docs/s ({mi[1]/mi[0]:.2f}x)\n')
print('| category | base mean µs per round (median) | new (median) | new / base |')
print('|---|---|---|---|')
for c in res[('base', 1)][2]:
    b = [res[('base', r)][2][c] for r in range(1, rounds + 1)]; n = [res[('new', r)][2][c] for r in range(1, rounds + 1)]
    print(f"| {c} | {', '.join(f'{x:.0f}' for x in b)} ({statistics.median(b):.0f}) | {', '.join(f'{x:.0f}' for x in n)} ({statistics.median(n):.0f}) | {statistics.median(n)/statistics.median(b):.2f} |")
