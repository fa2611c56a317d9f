# Session 26: SizeTieredMergePolicy replayed (as ../wrt-1m-nice-s24/merge-replay.py) with the cascade rule "take the next-larger
# segment while it is <= ratio x what is chosen" for ratio 1 (the engine's), 0.75, 0.5, 0.25, at 5, 6, 7 and a random 5-7 slots per
# flush (20 seeds); 50 flushes. Prints writes per document (flush included) and the largest merges. A model only.
import random, sys
N=50
def sel(segs, limit, width, ratio):
    if len(segs) <= limit: return []
    b=sorted(segs); needed=min(width,max(2,len(segs)-limit+1))
    chosen=count=0
    while count<len(b) and count<width:
        nxt=b[count]
        if count>=needed and nxt>chosen*ratio: break
        chosen+=nxt; count+=1
    return b[:count]
def run(slots_fn, ratio, seed=1):
    rnd=random.Random(seed); segs=[]; written=0; late=0; merges=[]
    for t in range(N):
        segs.append(1); written+=1
        lim=slots_fn(rnd)
        while True:
            m=sel(segs,lim,10,ratio)
            if not m: break
            for s in m: segs.remove(s)
            segs.append(sum(m)); written+=sum(m); merges.append((t,sum(m)))
    big=max(m for _,m in merges); lastbig=max((m for t,m in merges if t>=0.7*N),default=0)
    return written/N, big, lastbig, len(segs)
for name,fn in [('5',lambda r:5),('6',lambda r:6),('7',lambda r:7),('5-7',lambda r:r.choice([5,6,7]))]:
    for ratio in [1.0,0.75,0.5,0.25]:
        res=[run(fn,ratio,s) for s in range(20)]
        w=sum(x[0] for x in res)/len(res); big=max(x[1] for x in res); lb=sum(x[2] for x in res)/len(res)
        print('slots %-4s ratio %.2f: writes/doc %.2f, largest merge %d x20K, mean largest merge in last 30%% %.1f' % (name,ratio,w,big,lb))
