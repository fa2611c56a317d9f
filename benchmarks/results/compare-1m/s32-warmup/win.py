import sys, statistics, collections
# win.py trace [cats]: per category, medians of 250-query windows (µs) and the time span
f=sys.argv[1]; want=sys.argv[2].split(',') if len(sys.argv)>2 else None
rows=collections.defaultdict(list)
for l in open(f):
    c,i,t,d=l.split("\t")[:4]; _=l.split('\t'); rows[c].append((int(i),int(t),int(d)))
for c,r in rows.items():
    if want and c.replace('-w','') not in want: continue
    w=[int(statistics.median(x[2] for x in r[k:k+250])) for k in range(0,len(r),250)]
    print(f"{c:14s} t={r[0][1]/1e6:6.2f}-{r[-1][1]/1e6:6.2f}s  {w}")
