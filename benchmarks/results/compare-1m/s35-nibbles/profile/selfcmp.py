# selfcmp.py <collapsed,...> <collapsed,...> [frame]: self samples per leaf frame of two sets of async-profiler
# collapsed stacks side by side, counting only stacks through <frame> (default searchLeaf).
import sys, collections
FRAME=sys.argv[3] if len(sys.argv)>3 else 'searchLeaf'
def load(f):
    c=collections.Counter(); tot=0
    for line in open(f):
        st,n=line.rstrip().rsplit(' ',1); n=int(n)
        if FRAME not in st: continue
        tot+=n; c[st.split(';')[-1].split('/')[-1]]+=n
    return c,tot
A=[load(f) for f in sys.argv[1].split(',')]; B=[load(f) for f in sys.argv[2].split(',')]
ca=sum((a for a,_ in A),collections.Counter()); ta=sum(t for _,t in A)
cb=sum((b for b,_ in B),collections.Counter()); tb=sum(t for _,t in B)
print('totals', ta, tb)
keys=sorted(set(ca)|set(cb), key=lambda k:-(ca[k]+cb[k]))[:40]
for k in keys: print('%6d %5.1f%%   %6d %5.1f%%  %s'%(ca[k],100*ca[k]/ta,cb[k],100*cb[k]/tb,k))
