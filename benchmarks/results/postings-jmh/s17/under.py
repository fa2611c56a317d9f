# Samples of a PostingsBenchmark query under frames matching a pattern: inclusive share per frame below the first match.
# Usage: python3 under.py <collapsed-cpu.csv> <regex> [top]
import sys, re, collections
rx = re.compile(sys.argv[2]); top = int(sys.argv[3]) if len(sys.argv) > 3 else 30
total = 0; inc = collections.Counter(); selfc = collections.Counter()
for line in open(sys.argv[1]):
    stack, _, n = line.rstrip().rpartition(' '); n = int(n)
    if 'PostingsBenchmark.top10' not in stack: continue
    total += n
    frames = [f.split('(')[0] for f in stack.split(';')]
    idx = next((i for i, f in enumerate(frames) if rx.search(f)), None)
    if idx is None: continue
    for f in set(frames[idx:]): inc[f] += n
    selfc[frames[-1]] += n
print('samples', total)
for f, n in inc.most_common(top): print(f"{100*n/total:5.1f} {f}")
print('--- self')
for f, n in selfc.most_common(15): print(f"{100*n/total:5.1f} {f}")
