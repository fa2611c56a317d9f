import sys, glob, csv, statistics, collections, os
out=sys.argv[1]; rows=collections.defaultdict(list)
for f in sorted(glob.glob(out+'/*/results.csv')):
    label=os.path.basename(os.path.dirname(f)).rsplit('-',1)[0]
    for r in csv.DictReader(open(f)):
        if r['category']!='All': rows[(label,r['category'])].append((float(r['qps']),float(r['p50_us']),float(r['p95_us'])))
for k,v in sorted(rows.items()):
    q=[x[0] for x in v]; p=[x[1] for x in v]; p95=[x[2] for x in v]
    print(f"{k[1]:12s} {k[0]:10s} n={len(v)} QPS med {statistics.median(q):8.0f} [{min(q):.0f}-{max(q):.0f}]  P50 med {statistics.median(p):7.1f} [{min(p):.1f}-{max(p):.1f}]  P95 med {statistics.median(p95):.0f}")
