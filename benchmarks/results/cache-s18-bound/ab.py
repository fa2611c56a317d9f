"""Issue 13: ab.sh's rounds. Per round: the base jar's uncached QPS, each jar's GDSF QPS as a multiple of it, hit rate,
and each jar's miss mean per category as a multiple of the base jar's uncached mean of that category.
Usage: python3 ab.py <out> <rounds>
"""
import statistics
import sys

from model import categories, uncached_means


def cache_row(d):
    rows, qps = uncached_means(f'{d}/run1/table.txt')
    name = next(n for n in qps if 'cache' in n)
    cats = list(categories(d))
    hits = sum(h for _, h, _, _, _ in cats)
    total = hits + sum(m for _, _, m, _, _ in cats)
    return qps[name], hits / total, {c: mm for c, _, _, _, mm in cats}


def main():
    out, rounds = sys.argv[1], int(sys.argv[2])
    ratios = {'base': [], 'new': []}
    print('round  uncached QPS  base GDSF x  new GDSF x  hit rate base/new  miss / uncached mean per category (base | new)')
    for r in range(1, rounds + 1):
        rows, qps = uncached_means(f'{out}/base-{r}/run1/table.txt')
        uncached_name = next(n for n in qps if 'cache' not in n)
        u = next(v for n, v in rows.items() if 'cache' not in n)
        base_qps, base_hr, base_miss = cache_row(f'{out}/base-{r}')
        new_qps, new_hr, new_miss = cache_row(f'{out}/new-{r}')
        ratios['base'].append(base_qps / qps[uncached_name])
        ratios['new'].append(new_qps / qps[uncached_name])
        per = ', '.join(f'{c} {base_miss[c] / u[c]:.2f}|{new_miss[c] / u[c]:.2f}' for c in u)
        print(f'{r:5d}  {qps[uncached_name]:12,.0f}  {ratios["base"][-1]:11.2f}  {ratios["new"][-1]:10.2f}'
              f'  {base_hr:.3f}/{new_hr:.3f}  {per}')
    for jar, values in ratios.items():
        print(f'{jar}: median {statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]')


if __name__ == '__main__':
    main()
