# argv: async-profiler collapsed stacks (threads) -> the query threads' samples under the live segments' classes, by what they do
import collections, sys
rules = [("tail statistics decoded (LivePostingList.tail)", "LivePostingList.tail"),
         ("vInt decode of a partial block (refill)", "LivePostingCursor.decode"),
         ("cursor reset", "LivePostingCursor.resetToBlock"),
         ("sealed block docs", "LiveSealedBlock.readDocs"), ("sealed block freqs", "LiveSealedBlock.readFreqs"),
         ("norms", "LiveLeafReader$Norms"), ("seekExact / probe", "LiveTerms$Enum.seekExact"),
         ("LivePostingList.of", "LivePostingList.of"), ("field statistics", "LiveFieldStats"),
         ("getNormValues / terms / reader", "LiveLeafReader.")]
c = collections.Counter(); live = 0; total = 0
for line in open(sys.argv[1]):
    stack, _, cnt = line.rstrip().rpartition(" "); cnt = int(cnt)
    if "wrt-query" not in stack: continue
    total += cnt
    if "realtime/Live" not in stack: continue
    live += cnt
    for name, pattern in rules:
        if pattern in stack: c[name] += cnt; break
    else:
        frames = [x.split("/")[-1] for x in stack.split(";")]
        c["enum, other: " + [x for x in frames if x.startswith("Live")][-1]] += cnt
print(f"query-thread samples {total}, under live classes {live} ({100 * live / total:.1f} %)")
for k, v in c.most_common(16): print(f"  {v:6d} {100 * v / live:5.1f} % of live {100 * v / total:5.1f} % of query  {k}")
