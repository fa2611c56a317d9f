# Share of the benchmark's samples under each frame (counted once per stack), then the top self frames.
# Usage: python3 frames.py <collapsed-cpu.csv> [top]
import sys, collections
top = int(sys.argv[2]) if len(sys.argv) > 2 else 70
total = 0
under = collections.Counter()
self_ = collections.Counter()
for line in open(sys.argv[1]):
    stack, _, n = line.rstrip().rpartition(' ')
    n = int(n)
    if 'LiveTailBenchmark.search' not in stack:
        continue
    total += n
    frames = [f.split('(')[0] for f in stack.split(';')]
    for f in set(frames):
        under[f] += n
    self_[frames[-1]] += n
print('samples', total)
for f, n in under.most_common(top):
    print(f"{100 * n / total:5.1f} {f}")
print('--- self')
for f, n in self_.most_common(30):
    print(f"{100 * n / total:5.1f} {f}")
