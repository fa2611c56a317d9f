"""Issue 13: a cache miss against an uncached query that recurs as rarely (run.sh's rounds).

For each round r, zipf-r holds the uncached engine and the GDSF cache under Zipf 1.0 popularity, uniform-r the uncached
engine under uniform popularity. Prints per round the cache's measured QPS ratio, the model of model.py, the model with
each miss costing the uniform stream's uncached mean of its category, per category miss mean / that mean, and the
uniform stream's uncached mean per category / the Zipf stream's.
Usage: python3 bound.py <out> <rounds>
"""
import sys

from model import categories, uncached_means


def main():
    out, rounds = sys.argv[1], int(sys.argv[2])
    print('round  measured  model  misses-at-uniform-cost  miss / uniform uncached mean per category')
    for r in range(1, rounds + 1):
        zipf_rows, qps = uncached_means(f'{out}/zipf-{r}/run1/table.txt')
        uniform_rows, _ = uncached_means(f'{out}/uniform-{r}/run1/table.txt')
        u = next(v for n, v in zipf_rows.items() if 'cache' not in n)
        uniform = next(iter(uniform_rows.values()))
        total_u = cached = at_uniform = 0.0
        ratios = []
        for c, h, m, hm, mm in categories(f'{out}/zipf-{r}'):
            total_u += (h + m) * u[c]
            cached += m * mm + h * hm
            at_uniform += m * uniform[c] + h * hm
            ratios.append(f'{c} {mm / uniform[c]:.2f}')
        names = list(qps)
        measured = qps[next(n for n in names if 'cache' in n)] / qps[next(n for n in names if 'cache' not in n)]
        print(f'{r:5d}  {measured:8.2f}  {total_u / cached:5.2f}  {total_u / at_uniform:22.2f}  {", ".join(ratios)}')
        print('       uncached mean, uniform / Zipf: ' + ', '.join(f'{c} {uniform[c] / u[c]:.2f}' for c in u))


if __name__ == '__main__':
    main()
