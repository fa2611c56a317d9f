# Issue 13, session 24: the paired rows' pairs split by the cached run's outcome (engine.csv paired_* columns):
# per JVM, the speed-up, what a miss costs against the same query uncached, what a hit costs, and how dear the
# queries the cache answered are against those it missed (mean uncached time of each).
# Usage: python3 split.py <runner out dir>
import csv, glob, sys

for run in sorted(glob.glob(sys.argv[1].rstrip('/') + '/run*/engine.csv')):
    for e in csv.DictReader(open(run)):
        n, c, u = int(e['paired_queries']), float(e['paired_cached_ms']), float(e['paired_uncached_ms'])
        h, hc, hu = int(e['paired_hits']), float(e['paired_hit_cached_ms']), float(e['paired_hit_uncached_ms'])
        m, mc, mu = int(e['paired_misses']), float(e['paired_miss_cached_ms']), float(e['paired_miss_uncached_ms'])
        free_hits = u / (mc + (c - hc - mc))  # the speed-up if hits cost nothing
        misses_at_cost = u / (hc + mu + (c - hc - mc))  # ... if misses cost what the same queries cost uncached
        at_half = (u / n) / (0.5 * hc / h + 0.5 * mc / m)  # a 50 % hit rate, same mean costs and uncached mean
        print('%s %s: pairs %d, hit rate %.3f, speed-up %.3f | hit: %.1f us cached, %.1f us uncached | '
              'miss: %.1f us cached, %.1f us uncached (miss / uncached %.3f) | speed-up with free hits %.2f, '
              'with misses at uncached cost %.2f, at a 50 %% hit rate (model) %.2f' % (
                  run.split('/')[-2], e['configuration'], n, h / n, u / c, 1000 * hc / h, 1000 * hu / h,
                  1000 * mc / m, 1000 * mu / m, mc / mu, free_hits, misses_at_cost, at_half))
