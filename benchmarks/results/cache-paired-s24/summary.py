# Issue 13, session 24: per round, each cache row's hit rate, its in-JVM paired speed-up (paired rows) and its QPS
# over the same round's uncached row (the across-JVM ratio of session 22; a paired row's QPS counts pairs, so
# that ratio is not given for it), then the medians and ranges over the rounds.
# Usage: python3 summary.py <runner out dir> (without an uncached row, e.g. split.sh's, the across-JVM ratio is left out)
import csv, glob, statistics as st, sys

UNCACHED = 'RT-graceful-eager-lazy'
rows = {}
for run in sorted(r.rsplit('/', 1)[0] for r in glob.glob(sys.argv[1].rstrip('/') + '/run*/results.csv')):
    res = {x['configuration']: x for x in csv.DictReader(open(run + '/results.csv')) if x['category'] == 'All'}
    eng = {e['configuration']: e for e in csv.DictReader(open(run + '/engine.csv'))}
    off = float(res[UNCACHED]['qps']) if UNCACHED in res else None
    for c, x in res.items():
        e = eng[c]
        paired = e.get('paired_speedup', '')
        rows.setdefault(c, []).append(dict(
            run=run.rsplit('/', 1)[1], qps=float(x['qps']), across=float(x['qps']) / off if off else None,
            paired=float(paired) if paired else None, pairs=e.get('paired_queries', ''),
            ingest=float(x['ingest_docs_per_s']), hit=e['cache_hit_rate'], hit_p50=e['cache_hit_p50_us'],
            miss_p50=e['cache_miss_p50_us'], evictions=e['cache_evictions']))

def span(values, fmt):
    return (fmt + ' [' + fmt + '–' + fmt + ']') % (st.median(values), min(values), max(values))

for c, runs in rows.items():
    print(c)
    for t in runs:
        line = '   %(run)s qps %(qps).0f ingest %(ingest).0f hit rate %(hit)s hit P50 %(hit_p50)s miss P50 %(miss_p50)s evictions %(evictions)s' % t
        if t['paired'] is not None:
            line += ' | pairs %s paired speed-up %.3f' % (t['pairs'], t['paired'])
        elif c != UNCACHED and t['across'] is not None:
            line += ' | QPS / uncached row %.2f' % t['across']
        print(line)
    if runs[0]['paired'] is not None:
        print('   median paired speed-up ' + span([t['paired'] for t in runs], '%.2f'))
    elif c != UNCACHED and runs[0]['across'] is not None:
        print('   median QPS / uncached row ' + span([t['across'] for t in runs], '%.2f'))
    print('   median qps ' + span([t['qps'] for t in runs], '%.0f') + ' ingest ' + span([t['ingest'] for t in runs], '%.0f'))
