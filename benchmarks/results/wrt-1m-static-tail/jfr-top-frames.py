import re,sys,collections
txt=open(sys.argv[1]).read(); pat=sys.argv[2] if len(sys.argv)>2 else None
evs=txt.split("jdk.ExecutionSample {")[1:]
c=collections.Counter(); c2=collections.Counter(); n=0
for e in evs:
    if "wrt-query" not in e: continue
    fr=re.findall(r"^\s{4}(\S.*?) line:",e,re.M)
    if pat and not any(pat in f for f in fr): continue
    n+=1
    c[fr[0].split("(")[0]]+=1
    # first frame matching pat
    if pat:
        idx=[i for i,f in enumerate(fr) if pat in f][-1]
        c2[" <- ".join(x.split("(")[0].split(".")[-1] for x in fr[idx:idx+3])]+=1
print(n)
for k,v in c.most_common(25): print(v,k)
print("--")
for k,v in c2.most_common(15): print(v,k)
