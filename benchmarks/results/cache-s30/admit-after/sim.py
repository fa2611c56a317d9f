# Session 30: share of admitted entries evicted before their first hit, a stand-in for the cache's stream: 10
# categories of 420 distinct queries each, Zipf 1.0 within a category, 200,000 draws, LRU over 416 entries (208 KB /
# 512 B), with and without a doorkeeper (a key admitted only on its second miss within the last <doorcap> first misses).
# Usage: python3 sim.py   (seeded; prints one line per configuration)
import random, collections
random.seed(1)
cats=10; n=420; cap=416; N=200000
w=[1/(r+1) for r in range(n)]
import itertools
cum=list(itertools.accumulate(w))
def draw():
    c=random.randrange(cats); x=random.random()*cum[-1]
    import bisect
    return (c,bisect.bisect_left(cum,x))
stream=[draw() for _ in range(N)]
def run(door, doorcap):
    lru=collections.OrderedDict(); seen=collections.OrderedDict()
    hits=adm=0; never=0; hitcount={}
    for q in stream:
        if q in lru:
            lru.move_to_end(q); hits+=1; hitcount[q]+=1; continue
        if door:
            if q not in seen:
                seen[q]=1
                if len(seen)>doorcap: seen.popitem(last=False)
                continue
            del seen[q]
        adm+=1; lru[q]=1; hitcount[q]=0
        if len(lru)>cap:
            k,_=lru.popitem(last=False)
            if hitcount[k]==0: never+=1
    print(f"door={door} doorcap={doorcap} hit={hits/N:.3f} admissions/miss={adm/(N-hits):.3f} evicted-never-hit/adm={never/max(adm,1):.3f}")
run(False,0)
for dc in (416,832,2000,4000): run(True,dc)
