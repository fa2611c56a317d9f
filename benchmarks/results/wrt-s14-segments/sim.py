# write amplification of SizeTieredMergePolicy as the Merger applies it (merges instant, `live` live segments)
import sys
def select(segs, limit, width=10):
    if len(segs) <= limit: return []
    s = sorted(segs); needed = min(width, max(2, len(segs)-limit+1)); chosen=0; c=0
    while c < len(s) and c < width:
        nx = s[c]
        if c >= needed and nx > chosen: break
        chosen += nx; c += 1
    return s[:c]
def run(N, size, maxseg, live):
    segs=[]; written=0
    for f in range(N//size):
        segs.append(size); written += size
        limit = max(1, maxseg - live - 2)
        while True:
            m = select(segs, limit)
            if not m: break
            for x in m: segs.remove(x)
            segs.append(sum(m)); written += sum(m)
    return written/N, len(segs)
for N in (200_000, 1_000_000):
  for size,maxseg in ((10000,10),(20000,5),(40000,4),(40000,6),(20000,10),(40000,10),(20000,6)):
    for live in (1,2):
      a,n=run(N,size,maxseg,live); print(N,size,maxseg,'live',live,'amp %.1f'%a,'segs',n)
