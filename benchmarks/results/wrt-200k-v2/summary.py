import csv,statistics,sys,re
base=sys.argv[1]
import os
RUNS=tuple(i for i in range(1,10) if os.path.exists(f"{base}/run{i}/results.csv"))
runs=[list(csv.DictReader(open(f"{base}/run{i}/results.csv"))) for i in RUNS]
def summ(path):
    out={}
    for line in open(path):
        m=re.match(r"WRT (\S+)\s+([\d.]+)\s+(\d+)\s+(\d+)",line)
        if m: out[m.group(1)]=(float(m.group(2)),int(m.group(4)))
    return out
S=[summ(f"{base}/run{i}/table.txt") for i in RUNS]
confs=list(S[0].keys())
print("| configuration | QPS median [min–max] | ingest docs/s median [min–max] |")
print("|---|---|---|")
med={}
for c in confs:
    q=[s[c][0] for s in S]; g=[s[c][1] for s in S]
    med[c]=(statistics.median(q),statistics.median(g))
    print(f"| {c} | {statistics.median(q):,.0f} [{min(q):,.0f}–{max(q):,.0f}] | {statistics.median(g):,.0f} [{min(g):,.0f}–{max(g):,.0f}] |")
print()
NRT=[c for c in ("NRT-inf","NRT-1000","NRT-1") if c in confs]  # the baselines this run has
for rt in [c for c in confs if c.startswith("RT")]:
    parts=[f"vs {n} {med[rt][0]/med[n][0]:.2f}x" for n in NRT]
    ingest=f"; ingest vs NRT-inf {med[rt][1]/med['NRT-inf'][1]:.2f}x" if "NRT-inf" in confs else ""
    print(f"{rt}: QPS "+", ".join(parts)+ingest)
print()
cats=[]
for r in runs[0]:
    if r['category'] not in cats: cats.append(r['category'])
def p(conf,cat,key):
    return statistics.median(float(r[key]) for run in runs for r in run if r['configuration']==conf and r['category']==cat)
print(f"P99 (us), median of {len(RUNS)} runs")
print("| workload | "+" | ".join(confs)+" |")
print("|---|"+"---|"*len(confs))
for cat in cats:
    print(f"| {cat} | "+" | ".join(f"{p(c,cat,'p99_us'):,.0f}" for c in confs)+" |")
print()
for rt in [c for c in confs if c.startswith("RT")]:
    if "NRT-1000" in confs:
        worse=[cat for cat in cats if p(rt,cat,'p99_us')>p('NRT-1000',cat,'p99_us')]
        print(f"{rt}: P99 above NRT-1000 on {len(worse)} of {len(cats)}: {worse}")
    print("  P99 ratio NRT/RT median over workloads: "+" ; ".join(f"{n}/RT {statistics.median(p(n,c,'p99_us')/p(rt,c,'p99_us') for c in cats):.2f}x" for n in NRT if n!="NRT-inf"))
print()
print(f"Latency in us, median over the {len(RUNS)} JVMs: P50 / P95 / P99 / Avg")
order=[c for c in confs if c.startswith("RT")]+NRT
print("| workload | "+" | ".join(order)+" |")
print("|---|"+"---|"*len(order))
def f(x): return f"{x:,.0f}" if x>=100 else f"{x:.1f}"
for cat in cats:
    print(f"| {cat} | "+" | ".join(" / ".join(f(p(c,cat,k)) for k in ("p50_us","p95_us","p99_us","mean_us")) for c in order)+" |")
