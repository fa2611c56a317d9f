#!/usr/bin/env python3
"""stretches.py <compare out dir>...: per category and side, the JVMs' QPS in % of that side's fastest
JVM and how many ran below 75 % of it (a slow stretch or a slow JIT mode); then per category the
candidate's median QPS over the baseline's (the table's 'Median x', for runs made before it existed) and its
fastest JVM's QPS over the baseline's fastest (a ratio that a side's slow JVMs do not move)."""
import csv, glob, os, statistics, sys

for out in sys.argv[1:]:
    qps = {}
    for f in sorted(glob.glob(os.path.join(out, 'jvms', '*', 'results.csv'))):
        side = os.path.basename(os.path.dirname(f)).split('-', 1)[1]
        for row in csv.DictReader(open(f)):
            qps.setdefault(row['category'], {}).setdefault(side, []).append(float(row['qps']))
    print(f'== {out}')
    slow_total = {}
    for category, sides in qps.items():
        for side, values in sides.items():
            best = max(values)
            slow = sum(v < 0.75 * best for v in values)
            if category != 'All':
                slow_total[side] = slow_total.get(side, 0) + slow
            print(f'{category:12s} {side:9s} slow {slow}/{len(values)}  ' + ' '.join(f'{100 * v / best:4.0f}' for v in values))
    print("JVM-categories below 75 % of the side's fastest:", slow_total)
    for category, sides in qps.items():
        print(f"median x {category:12s} {statistics.median(sides['candidate']) / statistics.median(sides['baseline']):.3f}")
    for category, sides in qps.items():
        print(f"fastest x {category:12s} {max(sides['candidate']) / max(sides['baseline']):.3f}")
