"""Issue 10: per round of a WRT run with NRT-1000, NRT-inf and the engine (crash mode), the rows of README's table.
Usage: python3 rounds.py <run dir> > rounds.txt   (reads <run dir>/run<r>/results.csv)
"""
import csv
import os
import sys

RT = 'RT-crash-eager-lazy'


def main():
    base = sys.argv[1]
    print("| round | NRT-inf QPS | RT QPS | RT / NRT-inf | RT ingest / NRT-inf | RT P99 above NRT-1000 on | RT P99 All / NRT-inf |")
    print("|---|---|---|---|---|---|---|")
    r = 1
    while os.path.exists(f"{base}/run{r}/results.csv"):
        rows = list(csv.DictReader(open(f"{base}/run{r}/results.csv")))

        def value(config, category, key):
            return float(next(x[key] for x in rows if x['configuration'] == config and x['category'] == category))

        worse = [c for c in sorted({x['category'] for x in rows})
                 if value(RT, c, 'p99_us') > value('NRT-1000', c, 'p99_us')]
        print(f"| {r} | {value('NRT-inf', 'All', 'qps'):,.0f} | {value(RT, 'All', 'qps'):,.0f}"
              f" | {value(RT, 'All', 'qps') / value('NRT-inf', 'All', 'qps'):.2f}"
              f" | {value(RT, 'All', 'ingest_docs_per_s') / value('NRT-inf', 'All', 'ingest_docs_per_s'):.2f}"
              f" | {len(worse)} of 10 {worse} | {value(RT, 'All', 'p99_us') / value('NRT-inf', 'All', 'p99_us'):.2f} |")
        r += 1


if __name__ == '__main__':
    main()
