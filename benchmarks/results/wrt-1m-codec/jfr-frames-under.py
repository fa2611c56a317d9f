import re,sys,collections
txt=open(sys.argv[1]).read(); span=float(sys.argv[2]); key=sys.argv[3]; depth=int(sys.argv[4]) if len(sys.argv)>4 else 1
evs=txt.split("jdk.ExecutionSample {")[1:]
def sec(t): h,m,s=t.split(":"); return int(h)*3600+int(m)*60+float(s)
T=lambda e: sec(re.search(r"startTime = (\S+)",e).group(1))
end=max(T(e) for e in evs if "wrt-query" in e); lo=end-span
c=collections.Counter(); n=0
for e in evs:
    if "wrt-query" not in e: continue
    t=T(e)
    if not (lo<=t<=end): continue
    fr=re.findall(r"^\s{4}(\S.*?) line:",e,re.M)
    if not any(key in f for f in fr): continue
    n+=1
    c[" < ".join(f.split("(")[0].replace("org.apache.lucene.","") for f in fr[:depth])]+=1
print(n,"samples with",key)
for k,v in c.most_common(int(sys.argv[5]) if len(sys.argv)>5 else 25): print(f"{v:5d} {k}")
