import sys, collections
f=sys.argv[1]; frames=sys.argv[2:]
tot=0; inc=collections.Counter()
for line in open(f):
    st,c=line.rstrip().rsplit(' ',1); c=int(c)
    if 'searchLeaf' not in st: continue
    tot+=c
    for fr in frames:
        if fr in st: inc[fr]+=c
print(f.split('/')[-2], 'total', tot)
for fr in frames: print('  %6d %5.1f%% %s'%(inc[fr],100*inc[fr]/tot,fr))
