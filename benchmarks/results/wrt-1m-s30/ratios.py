# Session 30: the engine's P50 and mean latency over NRT-inf's, per workload, from the last table of a summary.txt
# (../wrt-200k-v2/summary.py: median over the JVMs, P50 / P95 / P99 / Avg; RT in the first column, NRT-inf in the second).
# Usage: python3 ratios.py summary.txt confirm/summary.txt > ratios.txt
import sys

for path in sys.argv[1:]:
    print(path)
    lines = open(path).read().split('Latency in us', 1)[1].splitlines()
    for line in lines:
        if not line.startswith('| ') or 'workload' in line:
            continue
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        rt, nrt = ([float(v.replace(',', '')) for v in c.split(' / ')] for c in cells[1:3])
        print('  %-12s P50 %.3f  avg %.3f' % (cells[0], rt[0] / nrt[0], rt[3] / nrt[3]))
