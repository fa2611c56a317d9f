# Callers of the frames whose name ends with a pattern, in async-profiler collapsed stacks: the share of all
# samples spent in such a frame (self time), by its four nearest callers.
# Usage: python3 callers.py <collapsed-cpu.csv> <frame-suffix>
import sys, collections
path, pattern = sys.argv[1], sys.argv[2]
callers = collections.Counter()
total = 0
for line in open(path):
    stack, _, n = line.rstrip().rpartition(' ')
    n = int(n)
    total += n
    frames = [f.split('(')[0] for f in stack.split(';')]
    if frames[-1].endswith(pattern):
        callers[' < '.join(f.split('/')[-1] for f in frames[-5:-1][::-1])] += n
for chain, n in callers.most_common(4):
    print(f"{100 * n / total:5.1f} {chain}")
