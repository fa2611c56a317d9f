#!/usr/bin/env python3
"""The ten hottest frames (self time) of async-profiler collapsed files: top.py <collapsed-cpu.csv[.gz]>..."""
import collections, gzip, sys
for path in sys.argv[1:]:
    total, frames = 0, collections.Counter()
    for line in gzip.open(path, 'rt') if path.endswith('.gz') else open(path):
        stack, n = line.rsplit(' ', 1)
        total += int(n)
        frames[stack.split(';')[-1].split('/')[-1]] += int(n)
    print(path, 'samples', total)
    for frame, n in frames.most_common(10):
        print(f'  {100 * n / total:5.1f} % {frame}')
