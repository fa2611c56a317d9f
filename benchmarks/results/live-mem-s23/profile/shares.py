#!/usr/bin/env python3
"""Inclusive CPU shares of a few frames in an async-profiler collapsed file: shares.py <collapsed-cpu.csv[.gz]>."""
import gzip, sys
KEYS = ['LivePostingList.of', 'LivePostingList.tail', 'LivePostingsEnum.refill', 'LivePostingsEnum.advance',
        'LiveTerms$Enum.seekExact', 'LiveSlices$Reader', 'LivePostingCursor.next', 'LiveSealedBlock',
        'LiveBlockSummaries.get', 'TermStates.build', 'BulkScorer']
total, counts = 0, dict.fromkeys(KEYS, 0)
for line in gzip.open(sys.argv[1], "rt") if sys.argv[1].endswith(".gz") else open(sys.argv[1]):
    stack, n = line.rsplit(' ', 1)
    total += int(n)
    for k in KEYS:
        if k in stack:
            counts[k] += int(n)
print('samples', total)
for k in KEYS:
    print(f'{100 * counts[k] / total:5.1f} % {k}')
