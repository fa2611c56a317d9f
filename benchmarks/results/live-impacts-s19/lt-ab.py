# usage: lt-ab.py <dir> <rounds>: per round and category, LiveTailBenchmark's mean us/query without a live tail and with
# a 9,999-document one, and the tail's increment, for both jars; medians over the rounds.
import csv, statistics, sys
d, rounds = sys.argv[1], int(sys.argv[2])
def load(side, r):
    out = {}
    for row in csv.DictReader(open(f'{d}/{side}-{r}.csv')):
        out[(row['Param: category'], int(row['Param: tailDocs']))] = float(row['Score'])
    return out
cats = ['TermHigh', 'AndHighHigh', 'OrHighHigh']
inc = {(s, c): [] for s in ('base', 'pairs') for c in cats}
print('round category     base: no tail / tail / +tail    pairs: no tail / tail / +tail    +tail pairs/base')
for r in range(1, rounds + 1):
    b, p = load('base', r), load('pairs', r)
    for c in cats:
        ib, ip = b[(c, 9999)] - b[(c, 0)], p[(c, 9999)] - p[(c, 0)]
        inc[('base', c)].append(ib); inc[('pairs', c)].append(ip)
        print(f'{r:5d} {c:12s} {b[(c,0)]:7.1f} {b[(c,9999)]:7.1f} {ib:7.1f}    {p[(c,0)]:7.1f} {p[(c,9999)]:7.1f} {ip:7.1f}    {ip/ib:5.2f}')
print('median of the rounds: the tail\'s increment, us per query')
for c in cats:
    mb, mp = statistics.median(inc[('base', c)]), statistics.median(inc[('pairs', c)])
    print(f'  {c:12s} base {mb:7.1f} [{min(inc[("base",c)]):.1f}-{max(inc[("base",c)]):.1f}]  pairs {mp:7.1f} [{min(inc[("pairs",c)]):.1f}-{max(inc[("pairs",c)]):.1f}]  ratio {mp/mb:.2f}')
