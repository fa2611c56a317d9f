"""Per round of run.sh's output: each row's QPS and ingest, and their ratios to the same round's NRT-inf (row nrt)
and to a reference engine row (default s10, the old engine defaults). usage: rounds.py <run.sh output> [reference row]"""
import glob, re, sys
REF = sys.argv[2] if len(sys.argv) > 2 else "s10"
runs = {}
for t in glob.glob(f"{sys.argv[1]}/*-r*/run1/table.txt"):
    name, rnd = t.split("/")[-3].rsplit("-r", 1)
    for line in open(t):
        m = re.match(r"WRT (\S+)\s+([\d.]+)\s+(\d+)\s+(\d+)", line)
        if m:
            runs.setdefault(int(rnd), {})[name] = (float(m.group(2)), int(m.group(4)))
print(f"| round | row | QPS | ingest docs/s | QPS vs NRT-∞ | ingest vs NRT-∞ | QPS vs {REF} | ingest vs {REF} |")
print("|---|---|---|---|---|---|---|---|")
for rnd in sorted(runs):
    r = runs[rnd]
    for name, (qps, ingest) in sorted(r.items()):
        ratio = lambda base, i, v: f"{v / r[base][i]:.2f}×" if base in r else ""
        print(f"| {rnd} | {name} | {qps:,.0f} | {ingest:,} | {ratio('nrt', 0, qps)} | {ratio('nrt', 1, ingest)} | "
              f"{ratio(REF, 0, qps)} | {ratio(REF, 1, ingest)} |")
