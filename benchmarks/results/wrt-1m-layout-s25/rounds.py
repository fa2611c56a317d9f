"""Per round of run.sh's output: each row's QPS and ingest, and their ratios to the same round's NRT-inf (row nrt)
and to the old engine defaults (row s10). usage: rounds.py <run.sh output>"""
import glob, re, sys
runs = {}
for t in glob.glob(f"{sys.argv[1]}/*-r*/run1/table.txt"):
    name, rnd = t.split("/")[-3].rsplit("-r", 1)
    for line in open(t):
        m = re.match(r"WRT (\S+)\s+([\d.]+)\s+(\d+)\s+(\d+)", line)
        if m:
            runs.setdefault(int(rnd), {})[name] = (float(m.group(2)), int(m.group(4)))
print("| round | row | QPS | ingest docs/s | QPS vs NRT-∞ | ingest vs NRT-∞ | QPS vs s10 | ingest vs s10 |")
print("|---|---|---|---|---|---|---|---|")
for rnd in sorted(runs):
    r = runs[rnd]
    for name, (qps, ingest) in sorted(r.items()):
        ratio = lambda base, i, v: f"{v / r[base][i]:.2f}×" if base in r else ""
        print(f"| {rnd} | {name} | {qps:,.0f} | {ingest:,} | {ratio('nrt', 0, qps)} | {ratio('nrt', 1, ingest)} | "
              f"{ratio('s10', 0, qps)} | {ratio('s10', 1, ingest)} |")
