# Per-query OrHighLow latencies of PerQuery.java (two JVMs per configuration, means of 40 timed passes over the
# 500 queries): ratios between configurations, and the candidate's ratio by the high term's document frequency.
# Usage: python3 perquery.py <dir with lucene-[12].tsv base-[12].tsv lucene5-[12].tsv v5-[12].tsv> <orAll.tasks>
import collections, re, statistics as st, sys

d, tasks_file = sys.argv[1], sys.argv[2]


def load(name):
    runs = [[int(l.split()[1]) for l in open('%s/%s-%d.tsv' % (d, name, r))] for r in (1, 2)]
    return [(a + b) / 2 for a, b in zip(*runs)]


S = {n: load(n) for n in ['lucene', 'base', 'lucene5', 'v5']}
for a, b in [('base', 'lucene'), ('lucene5', 'lucene'), ('v5', 'lucene5'), ('v5', 'base')]:
    r = sorted(x / y for x, y in zip(S[a], S[b]))
    print('%-8s / %-8s  sum %.3f  per query: median %.3f, p10 %.3f, p90 %.3f'
          % (a, b, sum(S[a]) / sum(S[b]), st.median(r), r[len(r) // 10], r[len(r) * 9 // 10]))
tasks = [l.strip() for l in open(tasks_file)]
high = [int(re.findall(r'freq=(\d+)', t)[0]) for t in tasks]
ratio = [(b / l + v / l5) / 2 for b, l, v, l5 in zip(S['base'], S['lucene'], S['v5'], S['lucene5'])]
groups = collections.defaultdict(list)
edges = [75_000, 100_000, 150_000, 200_000, 300_000, 400_000, 1 << 30]
for h, r in zip(high, ratio):
    groups[next(e for e in edges if h < e)].append(r)
print('candidate / Lucene104 per query (both builds), by the high term\'s doc freq:')
low = 0
for e in edges:
    print('  [%7d, %7s): %3d queries, median %.2f' % (low, e if e < 1 << 30 else 'max', len(groups[e]), st.median(groups[e])))
    low = e
