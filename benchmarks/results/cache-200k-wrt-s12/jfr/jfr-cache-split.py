# argv: jfr print output -> query-thread samples under CachedSearch.search, split by the cache's own frame (method:line) that was deepest on the stack
import re,sys,collections
txt=open(sys.argv[1]).read()
evs=txt.split("jdk.ExecutionSample {")[1:]
c=collections.Counter(); n=0; under=0
for e in evs:
    if "wrt-query" not in e: continue
    n+=1
    fr=re.findall(r"^\s{4}(\S.*?) line: (\d+)",e,re.M)  # top of stack first
    own=[i for i,(f,l) in enumerate(fr) if "realtime.CachedSearch" in f or "realtime.TailSearch" in f or "lucenenvm.cache." in f]
    if not own: continue
    under+=1
    i=own[0]; f,l=fr[i]
    callee=fr[i-1][0].split("(")[0].split(".")[-2:] if i>0 else ["(self)"]
    c[f.split("(")[0].replace("org.lucenenvm.","")+":"+l+" -> "+".".join(callee)]+=1
print(n,"query-thread samples,",under,"under the cache's frames")
for k,v in c.most_common(int(sys.argv[2]) if len(sys.argv)>2 else 30): print(f"{v:6d} {100*v/n:5.1f}% {k}")
