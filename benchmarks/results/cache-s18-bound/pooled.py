"""Issue 13: every round of one jar's uncached engine and GDSF cache (Zipf 1.0) pooled: per-round ratios, their median,
and the ratio of the median QPS. Usage: python3 pooled.py <run dir>...   (e.g. bound/zipf-{1,2,3} ab/base-{1,2,3})
"""
import statistics
import sys

from model import uncached_means


def main():
    uncached, cached, ratios = [], [], []
    for d in sys.argv[1:]:
        _, qps = uncached_means(f'{d}/run1/table.txt')
        u = qps[next(n for n in qps if 'cache' not in n)]
        c = qps[next(n for n in qps if 'cache' in n)]
        uncached.append(u)
        cached.append(c)
        ratios.append(c / u)
        print(f'{d:16s} uncached {u:8,.1f}  GDSF {c:8,.1f}  x {c / u:.3f}')
    print(f'median of the ratios {statistics.median(ratios):.3f}; >= 2 in {sum(r >= 2 for r in ratios)} of {len(ratios)};'
          f' ratio of the median QPS {statistics.median(cached):,.1f} / {statistics.median(uncached):,.1f}'
          f' = {statistics.median(cached) / statistics.median(uncached):.3f}')


if __name__ == '__main__':
    main()
