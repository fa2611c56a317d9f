#!/usr/bin/env python3
"""medians.py <compare out dir>...: per category, the candidate's median QPS over its JVMs divided by
the baseline's (the table's 'Median x' column, for runs made before it existed)."""
import csv, glob, os, statistics, sys

for out in sys.argv[1:]:
    qps = {}
    for f in sorted(glob.glob(os.path.join(out, 'jvms', '*', 'results.csv'))):
        side = os.path.basename(os.path.dirname(f)).split('-', 1)[1]
        for row in csv.DictReader(open(f)):
            qps.setdefault(row['category'], {}).setdefault(side, []).append(float(row['qps']))
    print(f'== {out}')
    for category, sides in qps.items():
        print(f"{category:12s} {statistics.median(sides['candidate']) / statistics.median(sides['baseline']):.3f}")
