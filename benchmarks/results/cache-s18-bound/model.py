"""Issue 13: what bounds the cache's QPS gain, from a runner row's own per-category figures.

For each run directory (a runner invocation with the uncached engine and one cache row), reads the uncached row's mean
latency per category (table.txt) and the cache row's timed hits, misses and their mean latencies (cache-categories.csv),
and prints, as ratios of the uncached engine's time for the cache row's query mix to the cache row's time:
  measured   the runner's QPS ratio (cache row QPS / uncached QPS)
  model      sum over categories of (hits + misses) x uncached mean / (misses x miss mean + hits x hit mean)
  free-hits  the same with hits costing nothing
  ideal      hits free and misses costing the uncached mean of their category (the cache's limit at these hit rates)
  no-miss-overhead  hits as measured, misses at the uncached mean
  miss-time  the misses' share of the cache row's query time
Usage: python3 model.py [--row <cache row>] <run dir>...   (each <run dir>/run1/{table.txt,cache-categories.csv}); with
several cache rows in one run, --row names the one to model (default: the run's only one)
"""
import csv
import sys


def uncached_means(table):
    lines = open(table).read().splitlines()
    header = next(l for l in lines if l.strip().startswith('|') and 'TermLow' in l)
    cats = [c.strip() for c in header.split('|')[1:] if c.strip()]
    rows = {}
    for l in lines:
        if l.startswith('WRT ') and '|' in l:
            name = l.split('|')[0].strip()
            cells = [c.split() for c in l.split('|')[1:]]
            rows[name] = {cat: float(cell[3]) for cat, cell in zip(cats, cells)}
    qps = {}
    it = iter(lines)
    for l in it:
        if l.startswith('configuration') and 'QPS' in l:
            for row in it:
                if not row.startswith('WRT '):
                    break
                parts = row.split()
                name = ' '.join(parts[:2])
                qps[name] = float(parts[2])
    return rows, qps


def categories(run_dir, row):
    """The cache row's (category, timed hits, timed misses, hit mean us, miss mean us) of one run."""
    for r in csv.DictReader(open(f'{run_dir}/run1/cache-categories.csv')):
        if row is not None and r['configuration'] != row:
            continue
        yield (r['category'], int(r['timed_hits']), int(r['timed_misses']),
               float(r['hit_mean_us']), float(r['miss_mean_us']))


def main():
    print('run                       measured  model  free-hits  ideal  no-miss-overhead  hit-rate  miss-time  miss/uncached per category')
    args = sys.argv[1:]
    row = None
    if args[:1] == ['--row']:
        row, args = args[1], args[2:]
    for d in args:
        rows, qps = uncached_means(f'{d}/run1/table.txt')
        uncached_name = next(n for n in rows if 'cache' not in n)
        cached_name = next(n for n in rows if 'cache' in n and (row is None or n.endswith(row)))
        u = rows[uncached_name]
        total_u = cached = free_hits = ideal = no_overhead = 0.0
        hits_all = queries = 0
        ratios = []
        for c, h, m, hm, mm in categories(d, row):
            total_u += (h + m) * u[c]
            cached += m * mm + h * hm
            free_hits += m * mm
            ideal += m * u[c]
            no_overhead += m * u[c] + h * hm
            hits_all += h
            queries += h + m
            ratios.append(f'{c} {mm / u[c]:.2f}')
        measured = qps[' '.join(cached_name.split()[:2])] / qps[' '.join(uncached_name.split()[:2])]
        print(f'{d[-24:]:24s}  {measured:8.2f}  {total_u / cached:5.2f}  {total_u / free_hits:9.2f}  {total_u / ideal:5.2f}'
              f'  {total_u / no_overhead:16.2f}  {hits_all / queries:8.3f}  {free_hits / cached:9.3f}  {", ".join(ratios)}')


if __name__ == '__main__':
    main()
