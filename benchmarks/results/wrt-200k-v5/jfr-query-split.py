# The query thread's samples after a fraction (argv 2) of a JFR text dump's time span, by the first rule that matches a frame of the stack.
import re,sys,collections
txt=open(sys.argv[1]).read()
evs=txt.split("jdk.ExecutionSample {")[1:]
def sec(t): h,m,s=t.split(":"); return int(h)*3600+int(m)*60+float(s)
ts=sorted(sec(re.search(r"startTime = (\S+)",e).group(1)) for e in evs)
mid=ts[0]+(ts[-1]-ts[0])*float(sys.argv[2])
rules=[("live tail (Live* frames)",lambda fr: any(".Live" in f or "realtime.Live" in f for f in fr)),
("TermStates.build",lambda fr: any("TermStates.build" in f for f in fr)),
("MaxScoreBulkScorer",lambda fr: any("MaxScoreBulkScorer" in f for f in fr)),
("BlockMaxConjunction",lambda fr: any("BlockMaxConjunction" in f for f in fr)),
("TermScorer/BatchScore (term queries)",lambda fr: any("BatchScoreBulkScorer" in f or "TermScorer" in f for f in fr)),
("norms",lambda fr: any("Norms" in f for f in fr)),
("snapshot bind / reader",lambda fr: any("RtSnapshot.of" in f or "TableView" in f or "MultiReader" in f for f in fr)),
("createWeight other",lambda fr: any("createWeight" in f for f in fr)),
("bulkScorer setup",lambda fr: any("bulkScorer" in f or "scorerSupplier" in f for f in fr)),
]
c=collections.Counter(); n=0
for e in evs:
    if sec(re.search(r"startTime = (\S+)",e).group(1))<mid: continue
    if "wrt-query" not in e: continue
    fr=re.findall(r"^\s{4}(\S.*?) line:",e,re.M)
    n+=1
    for name,f in rules:
        if f(fr): c[name]+=1; break
    else: c["other"]+=1
print(n)
for k,v in c.most_common(): print(f"{v:5d} {100*v/n:5.1f}% {k}")
# optional argv 3: also count the query thread's samples whose stack holds that frame text
if len(sys.argv)>3:
    k=sum(1 for e in evs if sec(re.search(r"startTime = (\S+)",e).group(1))>=mid and "wrt-query" in e and sys.argv[3] in e)
    print(f"{k} of {n} samples hold {sys.argv[3]}")
