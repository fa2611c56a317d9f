# The query thread's samples in the last <seconds> before its last sample (argv 2) of a JFR text dump (argv 1), and how many of them hold each frame text (argv 3...).
import re,sys
txt=open(sys.argv[1]).read(); span=float(sys.argv[2])
evs=txt.split("jdk.ExecutionSample {")[1:]
def sec(t): h,m,s=t.split(":"); return int(h)*3600+int(m)*60+float(s)
T=lambda e: sec(re.search(r"startTime = (\S+)",e).group(1))
end=max(T(e) for e in evs if "wrt-query" in e); lo=end-span
q=[e for e in evs if "wrt-query" in e and lo<=T(e)<=end]
print(len(q))
for k in sys.argv[3:]: print(f"{sum(1 for e in q if k in e):6d} {k}")
