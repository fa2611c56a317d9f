# Top frames of the query thread over a whole JFR text dump, and the callers of a few frames.
# usage: python3 jfr-top-frames.py wrt-<pid>.txt   (from: jfr print --stack-depth 64 --events jdk.ExecutionSample wrt-<pid>.jfr)
import re, sys, collections
evs = [e for e in open(sys.argv[1]).read().split("jdk.ExecutionSample {")[1:] if "wrt-query" in e]
top = collections.Counter()
for e in evs:
    fr = re.findall(r"^\s{4}(\S.*?)\(", e, re.M)
    if fr:
        top[fr[0]] += 1
print(len(evs), "query-thread samples")
for k, v in top.most_common(25):
    print(f"  {v:5d} {k}")
for target in ["MaxScoreBulkScorer.<init>", "TrieReader.load", "BlockPostingsEnum.<init>"]:
    c = collections.Counter()
    for e in evs:
        fr = re.findall(r"^\s{4}(\S.*?)\(", e, re.M)
        for i, f in enumerate(fr):
            if target in f:
                c[" <- ".join(".".join(x.split(".")[-2:]) for x in fr[i:i + 3])] += 1
                break
    print("==", target, sum(c.values()))
    for k, v in c.most_common(3):
        print(f"  {v:4d} {k}")
