# Issue 13, session 28: every JVM of the committed code (5fe2798) at 208 KB GDSF, paired, pooled per tier:
# heap-ab/heap-r*, parts-ab/heap-r*, at50/run*, at50b/run*. Same formulas as ../cache-paired-s24/split.py.
# Usage (in this folder): python3 pooled.py
# Other JVMs (session 29): python3 ../cache-s28/pooled.py '<glob of engine.csv files>'...
import csv, glob, re, statistics, sys

patterns = sys.argv[1:] or ['heap-ab/heap-r*/engine.csv', 'parts-ab/heap-r*/engine.csv',
                            'at50/run*/engine.csv', 'at50b/run*/engine.csv']
rows = []
for path in sorted(p for pattern in patterns for p in glob.glob(pattern)):
    for e in csv.DictReader(open(path)):
        tier = re.search(r'-(dram|nvm)-gdsf-208k-paired', e['configuration']).group(1)
        n, c, u = int(e['paired_queries']), float(e['paired_cached_ms']), float(e['paired_uncached_ms'])
        h, hc = int(e['paired_hits']), float(e['paired_hit_cached_ms'])
        m, mc, mu = int(e['paired_misses']), float(e['paired_miss_cached_ms']), float(e['paired_miss_uncached_ms'])
        model = (u / n) / (0.5 * hc / h + 0.5 * mc / m)  # a 50 % hit rate, same mean costs
        rows.append((path, tier, h / n, u / c, mc / mu, model, float(e['cache_hit_p50_us'])))
for tier in ('dram', 'nvm'):
    r = [x for x in rows if x[1] == tier]
    for x in r:
        print('%-28s %s: timed hit rate %.3f, speed-up %.3f, miss / uncached %.3f, at 50 %% (model) %.2f, hit P50 %.1f us' % x)
    sp = sorted(x[3] for x in r)
    print('%s: %d JVMs, speed-up median %.3f (%.3f-%.3f, >= 2 in %d), at 50 %% (model) median %.3f, '
          'miss / uncached median %.3f, timed hit rates %.3f-%.3f, hit P50 %.1f-%.1f us\n' % (
              tier, len(r), statistics.median(sp), sp[0], sp[-1], sum(v >= 2 for v in sp),
              statistics.median(x[5] for x in r), statistics.median(x[4] for x in r),
              min(x[2] for x in r), max(x[2] for x in r), min(x[6] for x in r), max(x[6] for x in r)))
