# Issue 13 cache runs: per-round QPS, ratio to the same round's uncached row, hit rate and hit/miss latency. Usage: python3 summary.py <run dir>...
import csv,sys,statistics as st
rows={}
for d in sys.argv[1:]:
  for r in (1,2,3):
    res={x['configuration']:x for x in csv.DictReader(open(f"{d}/run{r}/results.csv")) if x['category']=='All'}
    eng={e['configuration']:e for e in csv.DictReader(open(f"{d}/run{r}/engine.csv"))}
    off=float(res['RT-graceful-eager-lazy']['qps'])
    for c,x in res.items():
      q=float(x['qps']); e=eng[c]
      rows.setdefault(c,[]).append((d.rstrip("/")[-1:]+str(r),q,q/off,e['cache_hit_rate'],e['cache_hit_p50_us'],e['cache_hit_p99_us'],e['cache_miss_p50_us'],x['ingest_docs_per_s']))
for c,l in rows.items():
  print(c)
  for t in l: print("  ",t[0],"qps %.0f ratio %.2f hit %s hitP50 %s hitP99 %s missP50 %s ingest %.0f"%(t[1],t[2],t[3],t[4],t[5],t[6],float(t[7])))
  print("   median qps %.0f [%.0f-%.0f] ratio %.2f [%.2f-%.2f]"%(st.median([t[1] for t in l]),min(t[1] for t in l),max(t[1] for t in l),st.median([t[2] for t in l]),min(t[2] for t in l),max(t[2] for t in l)))
