import sys, glob, csv, statistics as st, collections, os
out=sys.argv[1]; ref=sys.argv[2] if len(sys.argv)>2 else 'lucene'
rows=collections.defaultdict(list)
for f in sorted(glob.glob(out+'/*/results.csv')):
    label=os.path.basename(os.path.dirname(f)).rsplit('-',1)[0]
    for r in csv.DictReader(open(f)):
        rows[(r['category'],label)].append(float(r['qps']))
cats=sorted({c for c,_ in rows}); labels=sorted({l for _,l in rows})
print('%-12s'%'category'+''.join('%10s'%l for l in labels)+'   ratios to '+ref+' (median QPS)')
for c in cats:
    med={l:st.median(rows[(c,l)]) for l in labels if (c,l) in rows}
    print('%-12s'%c+''.join('%10.0f'%med[l] for l in labels)+'   '+'  '.join('%s %.2f'%(l,med[l]/med[ref]) for l in labels if l!=ref))
