# Samples per thread in the part of a JFR text dump after a fraction (argv 2) of its time span.
import re,sys,collections
txt=open(sys.argv[1]).read()
evs=txt.split("jdk.ExecutionSample {")[1:]
ts=sorted(re.search(r"startTime = (\S+)",e).group(1) for e in evs)
t0,t1=ts[0],ts[-1]
# second half of the recording = the timed pass (the warm-up pass runs first)
def sec(t): h,m,s=t.split(":"); return int(h)*3600+int(m)*60+float(s)
mid=sec(t0)+(sec(t1)-sec(t0))*float(sys.argv[2]) if len(sys.argv)>2 else sec(t0)
c=collections.Counter(); n=0
for e in evs:
    t=sec(re.search(r"startTime = (\S+)",e).group(1))
    if t<mid: continue
    th=re.sub(r"\d+","N",re.search(r'sampledThread = "([^"]*)"',e).group(1))
    c[th]+=1; n+=1
print(n, t0, t1)
for k,v in c.most_common(12): print(f"{v:6d} {100*v/n:5.1f}% {k}")
