import re,sys,collections
txt=open(sys.argv[1]).read(); pat=sys.argv[2]
evs=txt.split("jdk.ExecutionSample {")[1:]
n=0; m=0; c=collections.Counter()
for e in evs:
    if "wrt-query" not in e: continue
    n+=1
    fr=re.findall(r"^\s{4}(\S.*?) line: (\d+)",e,re.M)
    if any(pat in f[0] for f in fr):
        m+=1; c[fr[0][0].split("(")[0]]+=1
print(sys.argv[1], pat, m, "of", n)
for k,v in c.most_common(8): print("  ",v,k)
