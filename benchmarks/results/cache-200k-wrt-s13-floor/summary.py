# A/B of two jars on the cache workload. Usage: python3 ab-summary.py <dir> <rounds>
# <dir>/old-<r> holds the uncached row (RT-graceful-eager-lazy) and the old jar's cached row,
# <dir>/new-<r> the new jar's cached row; ratios are to the same round's uncached row.
import csv,sys,statistics as st
d,rounds=sys.argv[1],int(sys.argv[2])
OFF='RT-graceful-eager-lazy'
def rows(p):
  return {x['configuration']:x for x in csv.DictReader(open(f"{p}/run1/results.csv")) if x['category']=='All'}
def eng(p):
  return {e['configuration']:e for e in csv.DictReader(open(f"{p}/run1/engine.csv"))}
def cats(p):
  return {(c['configuration'],c['category']):c for c in csv.DictReader(open(f"{p}/run1/cache-categories.csv"))}
def catrows(p):
  return {(x['configuration'],x['category']):x for x in csv.DictReader(open(f"{p}/run1/results.csv"))}
out={'old':[], 'new':[]}; miss={}
for r in range(1,rounds+1):
  o,n=rows(f"{d}/old-{r}"),rows(f"{d}/new-{r}")
  off=float(o[OFF]['qps'])
  for side,res,p in (('old',o,f"{d}/old-{r}"),('new',n,f"{d}/new-{r}")):
    for c,x in res.items():
      if c==OFF: continue
      e=eng(p)[c]
      out[side].append((r,float(x['qps']),float(x['qps'])/off,e['cache_hit_rate'],e['cache_hit_p50_us'],e['cache_miss_p50_us'],float(x['p99_us'])))
      unc=catrows(f"{d}/old-{r}")
      for (cc,cat),v in cats(p).items():
        if cc!=c: continue
        miss.setdefault((side,cat),[]).append(float(v['miss_mean_us'])/float(unc[(OFF,cat)]['mean_us']))
  print(f"round {r}: uncached {off:.0f} QPS")
for side,l in out.items():
  for t in l: print(f"  {side} r{t[0]} qps {t[1]:.0f} x off {t[2]:.2f} hit {t[3]} hitP50 {t[4]} missP50 {t[5]} P99 {t[6]:.0f}")
  print(f"  {side} median x off {st.median(t[2] for t in l):.2f} [{min(t[2] for t in l):.2f}-{max(t[2] for t in l):.2f}] qps {st.median(t[1] for t in l):.0f}")
print("miss mean / uncached mean per category (median of rounds): old new")
for cat in sorted({k[1] for k in miss}):
  print(f"  {cat:12s} {st.median(miss[('old',cat)]):.2f} {st.median(miss[('new',cat)]):.2f}")
