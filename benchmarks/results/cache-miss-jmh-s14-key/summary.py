"""A/B of CacheHitBenchmark.miss: mean µs per query and miss / uncached in the same JVM, per side and round.
usage: key-summary.py <dir> (holding <old|new>-r<round>.csv)"""
import csv, glob, os, statistics, sys
rows = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*-r*.csv"))):
    side_round = os.path.basename(f)[:-4]
    for r in csv.DictReader(open(f)):
        if ":" in r["Benchmark"]: continue
        rows[(side_round, r["Param: category"], r["Benchmark"].rsplit(".", 1)[1])] = (float(r["Score"]), float(r["Score Error (99.9%)"]))
print("| run | category | miss µs (mean ± 99.9 %) | uncached µs | miss / uncached |")
print("|---|---|---|---|---|")
ratios = {}
for (run, cat, bench), (score, err) in sorted(rows.items()):
    if bench != "miss": continue
    unc = rows[(run, cat, "uncached")]
    ratio = score / unc[0]
    ratios.setdefault((run.split("-")[0], cat), []).append(ratio)
    print(f"| {run} | {cat} | {score:.1f} ± {err:.1f} | {unc[0]:.1f} ± {unc[1]:.1f} | {ratio:.3f} |")
print()
for (side, cat), rs in sorted(ratios.items()):
    print(f"{side} {cat}: miss/uncached per round {' / '.join(f'{r:.3f}' for r in rs)}")
