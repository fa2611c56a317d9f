# Session 24: per round of a runner output (--forks N: run1..runN), each engine row against NRT-inf: QPS and
# ingest ratios, mean latency ratio per workload, and the workloads whose P99 is above NRT-1000's (if it ran).
# Usage: python3 per-round.py <runner out dir>
import csv, glob, sys

for run in sorted(glob.glob(sys.argv[1].rstrip('/') + '/run*/results.csv')):
    rows = list(csv.DictReader(open(run)))
    at = {(x['configuration'], x['category']): x for x in rows}
    configs = list(dict.fromkeys(x['configuration'] for x in rows))
    cats = [x['category'] for x in rows if x['configuration'] == 'NRT-inf' and x['category'] != 'All']
    for c in (c for c in configs if c.startswith('RT-')):
        q = float(at[(c, 'All')]['qps']) / float(at[('NRT-inf', 'All')]['qps'])
        i = float(at[(c, 'All')]['ingest_docs_per_s']) / float(at[('NRT-inf', 'All')]['ingest_docs_per_s'])
        line = '%s %s: QPS / NRT-inf %.2f, ingest / NRT-inf %.2f' % (run.split('/')[-2], c, q, i)
        if 'NRT-1000' in configs:
            above = [k for k in cats + ['All'] if float(at[(c, k)]['p99_us']) > float(at[('NRT-1000', k)]['p99_us'])]
            line += ', P99 above NRT-1000 on %d of %d %s' % (len(above), len(cats) + 1, above)
        print(line)
        print('   mean latency / NRT-inf: ' + ' '.join(
            '%s %.2f' % (k, float(at[(c, k)]['mean_us']) / float(at[('NRT-inf', k)]['mean_us'])) for k in cats))
