# Medians over the JVMs of each side of an A/B: P50/P95/P99 per class and QPS.
# usage: python3 ab-summary.py <dir with A-N/ and B-N/ subdirectories holding results.csv> [A B]
# (A and B default to old and new)
import csv, statistics as st, collections, glob, os, sys
base = sys.argv[1]
A, B = (sys.argv[2], sys.argv[3]) if len(sys.argv) > 3 else ("old", "new")
d = collections.defaultdict(lambda: collections.defaultdict(list))
cats = []
for path in sorted(glob.glob(os.path.join(base, "*-*", "results.csv"))):
    side = os.path.basename(os.path.dirname(path)).split("-")[0]
    for r in csv.DictReader(open(path)):
        if r["category"] not in cats:
            cats.append(r["category"])
        for k in ("p50_us", "p95_us", "p99_us", "qps", "ingest_docs_per_s"):
            d[(side, r["category"])][k].append(float(r[k]))
print(f"{'class':12s} {'P50 ' + A:>14s} {B:>10s} {'P95 ' + A:>14s} {B:>10s} {'P99 ' + A:>14s} {B:>10s} {'QPS ' + A:>14s} {B:>10s}")
for c in cats:
    o, n = d[(A, c)], d[(B, c)]
    print(f"{c:12s} {st.median(o['p50_us']):14.1f} {st.median(n['p50_us']):10.1f} {st.median(o['p95_us']):14.0f} "
          f"{st.median(n['p95_us']):10.0f} {st.median(o['p99_us']):14.0f} {st.median(n['p99_us']):10.0f} "
          f"{st.median(o['qps']):14.0f} {st.median(n['qps']):10.0f}")
for side in (A, B):
    a = d[(side, "All")]
    print(f"{side}: QPS per JVM {[round(x) for x in a['qps']]}, ingest docs/s {[round(x) for x in a['ingest_docs_per_s']]}")
