# Per jar and round: uncached QPS, GDSF QPS, their ratio, hit rate, hit/miss P50. Usage: cache-summary.py <dir> <rounds> <jar name>...
import csv,sys,statistics as st
d,rounds,names=sys.argv[1],int(sys.argv[2]),sys.argv[3:]
OFF='RT-graceful-eager-lazy'
for n in names:
  ratios=[]; offs=[]; ons=[]
  for r in range(1,rounds+1):
    p=f"{d}/{n}-{r}/run1"
    res={x['configuration']:x for x in csv.DictReader(open(f"{p}/results.csv")) if x['category']=='All'}
    eng={e['configuration']:e for e in csv.DictReader(open(f"{p}/engine.csv"))}
    off=float(res[OFF]['qps']); on_c=[c for c in res if c!=OFF][0]; on=float(res[on_c]['qps'])
    e=eng[on_c]; ratios.append(on/off); offs.append(off); ons.append(on)
    print(f"{n} r{r}: uncached {off:.0f} gdsf {on:.0f} x{on/off:.2f} hit {e['cache_hit_rate']} hitP50 {e['cache_hit_p50_us']} missP50 {e['cache_miss_p50_us']} ingest {res[OFF]['ingest_docs_per_s']}/{res[on_c]['ingest_docs_per_s']} P99 {res[OFF]['p99_us']}/{res[on_c]['p99_us']}")
  print(f"{n}: median x{st.median(ratios):.2f} [{min(ratios):.2f}-{max(ratios):.2f}] uncached {st.median(offs):.0f} gdsf {st.median(ons):.0f}")
