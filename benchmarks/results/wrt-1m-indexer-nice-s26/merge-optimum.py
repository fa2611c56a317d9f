# Session 26: the fewest merge writes (offline optimum, a dynamic programme over every choice of merges) that keep at most
# k Lucene segments while N equal flushes arrive, in writes per document after the flush. Compare with
# ../wrt-1m-nice-s24/merge-replay.py (the engine's policy). A model only. Usage: python3 merge-optimum.py [N flushes, default 50]
import itertools, sys
from functools import lru_cache
N=int(sys.argv[1]) if len(sys.argv)>1 else 50
def opt(k):
    # dp: state (sorted tuple) -> min cost so far
    dp={():0}
    for t in range(N):
        nd={}
        for st,c in dp.items():
            s=tuple(sorted(st+(1,)))
            # options: no merge (if len<=k) or merge any subset of size>=2
            cands=[]
            if len(s)<=k: cands.append((s,0))
            idx=range(len(s))
            for r in range(2,len(s)+1):
                for comb in itertools.combinations(idx,r):
                    m=sum(s[i] for i in comb)
                    rest=[s[i] for i in idx if i not in comb]
                    ns=tuple(sorted(rest+[m]))
                    if len(ns)<=k: cands.append((ns,m))
            for ns,m in cands:
                v=c+m
                if nd.get(ns,1e18)>v: nd[ns]=v
        dp=nd
    return min(dp.values())
for k in [4,5,6,7,8]:
    print(k, 'slots: optimal merge writes per doc %.2f (+1 flush)'%(opt(k)/N))
