# Session 34: the per-round ratios of an ../s31-orhighlow/ab.sh run. For each category and label, the label's QPS in
# round r divided by the reference's QPS in round r (the mean of several references' if given as a+b, e.g. two
# Lucene104 indexes), then the median ratio, its range and in how many rounds it was above 1.
# Usage: python3 paired_ab.py <ab.sh out> <ref>[+<ref>...] <label>...
import sys, glob, csv, statistics as st, collections, os
out=sys.argv[1]; refs=sys.argv[2].split('+'); labels=sys.argv[3:]
q=collections.defaultdict(dict)
for f in glob.glob(out+'/*/results.csv'):
    label,r=os.path.basename(os.path.dirname(f)).rsplit('-',1)
    for row in csv.DictReader(open(f)):
        q[(row['category'],label)][int(r)]=float(row['qps'])
cats=sorted({c for c,_ in q})
print('%-12s'%'category'+''.join('%28s'%(l+' / '+'+'.join(refs)) for l in labels))
for c in cats:
    line='%-12s'%c
    for l in labels:
        rs=[]
        for r in sorted(q[(c,l)]):
            ref=st.mean(q[(c,x)][r] for x in refs)
            rs.append(q[(c,l)][r]/ref)
        line+='   %.3f [%.2f-%.2f] %d/%d>1'%(st.median(rs),min(rs),max(rs),sum(x>1 for x in rs),len(rs))
    print(line)
