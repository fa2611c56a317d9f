# Share of the benchmark samples under the live segment classes (org.lucenenvm.realtime.Live*), by the first such frame
# and its caller. Usage: python3 live-share.py <collapsed-cpu.csv>
import sys,collections
tot=0; live=0; first=collections.Counter()
for line in open(sys.argv[1]):
    stack,_,n=line.rstrip().rpartition(' ')
    n=int(n)
    if 'LiveTailBenchmark.search' not in stack: continue
    tot+=n
    fr=[x.split('(')[0] for x in stack.split(';')]
    idx=[i for i,x in enumerate(fr) if 'realtime/Live' in x]
    if idx:
        live+=n
        first[fr[idx[0]].split('/')[-1]+' < '+fr[idx[0]-1].split('/')[-1]]+=n
print(f"live {100*live/tot:.1f}% of {tot}")
for k,v in first.most_common(15): print(f"{100*v/tot:5.1f} {k}")
