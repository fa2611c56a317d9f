#!/usr/bin/env python3
"""ratios.py [--skip R,...] <out> <ref> <label>...: per round QPS ratio label/ref per category; median [min-max] and
rounds above 1; --skip leaves those rounds out."""
import csv, sys, os, statistics as st, glob
args = sys.argv[1:]
skip = set()
if args[0] == '--skip':
    skip = {int(x) for x in args[1].split(',')}; args = args[2:]
out, ref, labels = args[0], args[1], args[2:]
def load(label):
    res = {}
    for d in sorted(glob.glob(f'{out}/{label}-*')):
        r = int(d.rsplit('-', 1)[1])
        if r in skip: continue
        f = f'{d}/results.csv'
        if not os.path.exists(f): continue
        res[r] = {row['category']: float(row['qps']) for row in csv.DictReader(open(f))}
    return res
R = load(ref)
cats = list(next(iter(R.values())).keys())
print('category'.ljust(12) + ''.join(f'{l}/{ref}'.rjust(30) for l in labels) + '   median QPS ' + ' '.join([ref] + labels))
for c in cats:
    line = c.ljust(12)
    meds = [st.median(R[r][c] for r in R)]
    for l in labels:
        L = load(l)
        rs = [L[r][c] / R[r][c] for r in L if r in R]
        line += f'{st.median(rs):.3f} [{min(rs):.2f}-{max(rs):.2f}] {sum(x > 1 for x in rs)}/{len(rs)}>1'.rjust(30)
        meds.append(st.median(L[r][c] for r in L))
    print(line + '   ' + ' '.join(f'{m:.0f}' for m in meds))
