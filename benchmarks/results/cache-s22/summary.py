# Issue 13, session 22: one line per cache row and round of a runner output (--forks N: run1..runN), with its ratio to
# the same round's uncached row, then the medians and ranges over the rounds.
# Usage: python3 summary.py <runner out dir>
import csv, glob, statistics as st, sys

UNCACHED = 'RT-graceful-eager-lazy'
rows = {}
for run in sorted(r.rsplit('/', 1)[0] for r in glob.glob(sys.argv[1].rstrip('/') + '/run*/results.csv')):
    res = {x['configuration']: x for x in csv.DictReader(open(run + '/results.csv')) if x['category'] == 'All'}
    eng = {e['configuration']: e for e in csv.DictReader(open(run + '/engine.csv'))}
    off = float(res[UNCACHED]['qps'])
    for c, x in res.items():
        e = eng[c]
        rows.setdefault(c, []).append(dict(
            run=run.rsplit('/', 1)[1], qps=float(x['qps']), ratio=float(x['qps']) / off,
            ingest=float(x['ingest_docs_per_s']), p50=x['p50_us'], p99=x['p99_us'],
            hit=e['cache_hit_rate'], hit_p50=e['cache_hit_p50_us'], hit_p99=e['cache_hit_p99_us'],
            miss_p50=e['cache_miss_p50_us'], restart=e['restart_cache_hit_rate'], evictions=e['cache_evictions']))

def span(values, fmt):
    return (fmt + ' [' + fmt + '–' + fmt + ']') % (st.median(values), min(values), max(values))

for c, runs in rows.items():
    print(c)
    for t in runs:
        print('   %(run)s qps %(qps).0f ratio %(ratio).2f ingest %(ingest).0f P50/P99 all %(p50)s/%(p99)s hit rate %(hit)s '
              'hit P50/P99 %(hit_p50)s/%(hit_p99)s miss P50 %(miss_p50)s evictions %(evictions)s restart hit rate %(restart)s' % t)
    print('   median qps ' + span([t['qps'] for t in runs], '%.0f') + ' ratio ' + span([t['ratio'] for t in runs], '%.2f'))
