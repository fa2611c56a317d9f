# Session 30: per JVM, timed hit rate, paired speed-up, miss / uncached, and the whole run's hit rate,
# evictions and partial hits, for every engine.csv under the given folders.
# Usage: python3 summary.py <runner out dir>...
import csv, glob, sys
for d in sys.argv[1:]:
    for f in sorted(glob.glob(d.rstrip('/') + '/run*/engine.csv')):
        for e in csv.DictReader(open(f)):
            n, c, u = int(e['paired_queries']), float(e['paired_cached_ms']), float(e['paired_uncached_ms'])
            h = int(e['paired_hits'])
            mc, mu = float(e['paired_miss_cached_ms']), float(e['paired_miss_uncached_ms'])
            print('%-16s %-26s timed hits %.3f  speed-up %.3f  miss/uncached %.3f | run: hit rate %s, evictions %6s, partial hits %s, hit P50 %s us'
                  % ('/'.join(f.split('/')[-3:-1]), e['configuration'].replace('RT-graceful-eager-lazy-cache-', ''), h / n, u / c,
                     mc / mu, e['cache_hit_rate'], e['cache_evictions'], e['cache_partial_hits'], e['cache_hit_p50_us']))
