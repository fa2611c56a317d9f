# argv: collapsed stacks (async-profiler, threads) -> samples per thread group; for query threads a category split
import re,sys,collections
g=collections.Counter(); q=collections.Counter(); qtop=collections.Counter(); n=0
cats=[("live-leaf",lambda s:"realtime/Live" in s),
      ("MaxScoreBulkScorer.<init>",lambda s:"MaxScoreBulkScorer.<init>" in s),
      ("createWeight/TermStates",lambda s:"createWeight" in s or "TermStates" in s),
      ("rewrite",lambda s:"IndexSearcher.rewrite" in s),
      ("codec-postings",lambda s:"lucene104/Lucene104PostingsReader" in s or "lucene103" in s),
      ("norms",lambda s:"Norms" in s),
      ("collector",lambda s:"TopScoreDocCollector" in s or "TopDocs" in s),
      ("scoring-other",lambda s:"Scorer" in s),
      ("gc/alloc-other",lambda s:False)]
for line in open(sys.argv[1]):
    stack,_,cnt=line.rstrip().rpartition(" ")
    cnt=int(cnt); fr=stack.split(";")
    t=re.sub(r"[-#]?\d+\]?$","",fr[0]); t=re.sub(r"\d+","N",t)
    g[t]+=cnt; n+=cnt
    if "wrt-query" in fr[0]:
        for name,f in cats:
            if f(stack): q[name]+=cnt; break
        else:
            q["other"]+=cnt; qtop[";".join(x.split("/")[-1] for x in fr[-3:])]+=cnt
print(n,"samples")
for k,v in g.most_common(10): print(f"{v:7d} {100*v/n:5.1f}% {k}")
tq=sum(q.values()); print("query threads",tq)
for k,v in q.most_common(): print(f"{v:7d} {100*v/tq:5.1f}% {k}")
for k,v in qtop.most_common(12): print(f"    {v:7d} {100*v/tq:5.1f}% {k}")
