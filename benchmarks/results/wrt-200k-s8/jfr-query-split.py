# argv: dump, seconds before the query thread's last sample -> thread split and query-thread split
import re,sys,collections
txt=open(sys.argv[1]).read(); span=float(sys.argv[2])
evs=txt.split("jdk.ExecutionSample {")[1:]
def sec(t): h,m,s=t.split(":"); return int(h)*3600+int(m)*60+float(s)
T=lambda e: sec(re.search(r"startTime = (\S+)",e).group(1))
end=max(T(e) for e in evs if "wrt-query" in e); lo=end-span
sel=[e for e in evs if lo<=T(e)<=end]
c=collections.Counter()
for e in sel: c[re.sub(r"\d+","N",re.search(r'sampledThread = "([^"]*)"',e).group(1))]+=1
print(len(sel),"samples in",span,"s")
for k,v in c.most_common(8): print(f"{v:6d} {100*v/len(sel):5.1f}% {k}")
rules=[("live tail",lambda fr: any(".Live" in f for f in fr)),
("rewrite",lambda fr: any("IndexSearcher.rewrite" in f for f in fr)),
("TermStates.build",lambda fr: any("TermStates.build" in f for f in fr)),
("MaxScoreBulkScorer",lambda fr: any("MaxScoreBulkScorer" in f for f in fr)),
("BlockMaxConjunction",lambda fr: any("BlockMaxConjunction" in f for f in fr)),
("ConjunctionBulk/other conj",lambda fr: any("Conjunction" in f for f in fr)),
("TermScorer/BatchScore",lambda fr: any("BatchScoreBulkScorer" in f or "TermScorer" in f for f in fr)),
("snapshot/reader",lambda fr: any("RtSnapshot.of" in f or "TableView" in f or "MultiReader" in f for f in fr)),
("createWeight other",lambda fr: any("createWeight" in f for f in fr)),
("bulkScorer setup",lambda fr: any("bulkScorer" in f or "scorerSupplier" in f for f in fr)),
]
q=collections.Counter(); n=0
for e in sel:
    if "wrt-query" not in e: continue
    fr=re.findall(r"^\s{4}(\S.*?) line:",e,re.M); n+=1
    for name,f in rules:
        if f(fr): q[name]+=1; break
    else: q["other: "+(fr[0].split("(")[0] if fr else "?")]+=1
print("query thread",n)
for k,v in q.most_common(14): print(f"{v:6d} {100*v/n:5.1f}% {k}")
