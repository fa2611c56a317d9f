"""Summary of the segment-size / segment-limit experiment: one row per configuration, medians over rounds.
usage: seg-summary.py <dir> [<dir> ...]  (each holding <row>-r<round>/{table.txt,engine.csv,results.csv}, or the runner's
<row>-r<round>/run1/ holding them)"""
import csv, glob, os, re, statistics, sys
rows = {}
for base in sys.argv[1:]:
    for t in sorted(glob.glob(f"{base}/*-r*/run1/table.txt") + glob.glob(f"{base}/*-r*/table.txt")):
        run = t.split("/")[-3] if t.endswith("/run1/table.txt") else t.split("/")[-2]
        name, rnd = run.rsplit("-r", 1)
        m = None
        for line in open(t):
            m2 = re.match(r"WRT (\S+)\s+([\d.]+)\s+(\d+)\s+(\d+)", line)
            if m2: m = m2
        if not m: continue
        r = rows.setdefault(name, {"qps": [], "ingest": [], "segs": [], "max": [], "wait": [], "p50": {}})
        r["qps"].append(float(m.group(2))); r["ingest"].append(int(m.group(4)))
        e = os.path.join(os.path.dirname(t), "engine.csv")
        if os.path.exists(e):
            er = list(csv.DictReader(open(e)))[0]
            r["segs"].append(er["end_segments"].strip("{}").replace("  ", " "))
            r["max"].append(int(er["max_segments_per_partition"])); r["wait"].append(float(er["segment_wait_ms"]) / 1000)
        for c in csv.DictReader(open(os.path.join(os.path.dirname(t), "results.csv"))):
            r["p50"].setdefault(c["category"], []).append(float(c["p50_us"]))
            r.setdefault("p99", {}).setdefault(c["category"], []).append(float(c["p99_us"]))
def med(x): return statistics.median(x)
def rng(x): return f"{med(x):,.0f} [{min(x):,.0f}–{max(x):,.0f}]"
nrt = rows.get("nrt")
print("| row | rounds | QPS median [min–max] | vs NRT-∞ | ingest docs/s | vs NRT-∞ | segments at the end (per round) | max segments | writers' slot wait s |")
print("|---|---|---|---|---|---|---|---|---|")
for name, r in rows.items():
    vq = f"{med(r['qps'])/med(nrt['qps']):.2f}×" if nrt else ""
    vi = f"{med(r['ingest'])/med(nrt['ingest']):.2f}×" if nrt else ""
    print(f"| {name} | {len(r['qps'])} | {rng(r['qps'])} | {vq} | {rng(r['ingest'])} | {vi} | {'; '.join(r['segs'])} | {max(r['max']) if r['max'] else ''} | {'/'.join(f'{w:.0f}' for w in r['wait'])} |")
cats = list(next(iter(rows.values()))["p50"].keys())
print()
print("P50 µs, median over rounds")
print("| row | " + " | ".join(cats) + " |")
print("|---|" + "---|" * len(cats))
for name, r in rows.items():
    print(f"| {name} | " + " | ".join(f"{med(r['p50'][c]):,.1f}" for c in cats) + " |")
print()
print("P99 µs per round")
print("| row | " + " | ".join(cats) + " |")
print("|---|" + "---|" * len(cats))
for name, r in rows.items():
    print(f"| {name} | " + " | ".join(" / ".join(f"{x:,.0f}" for x in r["p99"][c]) for c in cats) + " |")
