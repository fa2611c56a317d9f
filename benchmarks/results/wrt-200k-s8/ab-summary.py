# Medians over the JVMs of each side of an A/B: P50/P95/P99 per class and QPS.
# usage: python3 ab-summary.py <dir with old-N/ and new-N/ subdirectories holding results.csv>
import csv, statistics as st, collections, glob, os, sys
base = sys.argv[1]
d = collections.defaultdict(lambda: collections.defaultdict(list))
cats = []
for path in sorted(glob.glob(os.path.join(base, "*-*", "results.csv"))):
    side = os.path.basename(os.path.dirname(path)).split("-")[0]
    for r in csv.DictReader(open(path)):
        if r["category"] not in cats:
            cats.append(r["category"])
        for k in ("p50_us", "p95_us", "p99_us", "qps", "ingest_docs_per_s"):
            d[(side, r["category"])][k].append(float(r[k]))
print(f"{'class':12s} {'P50 old':>8s} {'new':>8s} {'P95 old':>8s} {'new':>8s} {'P99 old':>8s} {'new':>8s} {'QPS old':>8s} {'new':>8s}")
for c in cats:
    o, n = d[("old", c)], d[("new", c)]
    print(f"{c:12s} {st.median(o['p50_us']):8.1f} {st.median(n['p50_us']):8.1f} {st.median(o['p95_us']):8.0f} "
          f"{st.median(n['p95_us']):8.0f} {st.median(o['p99_us']):8.0f} {st.median(n['p99_us']):8.0f} "
          f"{st.median(o['qps']):8.0f} {st.median(n['qps']):8.0f}")
for side in ("old", "new"):
    a = d[(side, "All")]
    print(f"{side}: QPS per JVM {[round(x) for x in a['qps']]}, ingest docs/s {[round(x) for x in a['ingest_docs_per_s']]}")
