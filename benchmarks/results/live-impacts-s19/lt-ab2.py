# usage: lt-ab2.py <dir> <rounds> [<dir of lt-ab.sh> <rounds>]: LiveTailBenchmark's mean us/query with a 9,999-document
# live tail per round, category and jar (both runs pooled), the medians and pairs/base ratio of the medians.
import csv, statistics, sys
runs = [(sys.argv[i], int(sys.argv[i + 1])) for i in range(1, len(sys.argv), 2)]
cats = ['TermHigh', 'AndHighHigh', 'OrHighHigh']
v = {(s, c): [] for s in ('base', 'pairs') for c in cats}
for d, rounds in runs:
    for r in range(1, rounds + 1):
        for s in ('base', 'pairs'):
            for row in csv.DictReader(open(f'{d}/{s}-{r}.csv')):
                if int(row['Param: tailDocs']) == 9999:
                    v[(s, row['Param: category'])].append(float(row['Score']))
for c in cats:
    b, p = v[('base', c)], v[('pairs', c)]
    print(f'{c:12s} base {" ".join(f"{x:6.1f}" for x in b)} | median {statistics.median(b):6.1f}   '
          f'pairs {" ".join(f"{x:6.1f}" for x in p)} | median {statistics.median(p):6.1f}   pairs/base {statistics.median(p)/statistics.median(b):.2f}')
