# Sets each JMH iteration (timestamped at its end, 2 s long) beside the probe's batches in the same 2 s, and prints
# the iteration time, the probe's median batch time then, and their Spearman rank correlation.
# Usage: python3 corr.py corr-jmh.txt corr-probe.txt
import re, statistics as st, sys

iters = []
for line in open(sys.argv[1]):
    m = re.match(r'(\S+) Iteration\s+\d+: ([\d.]+) us/op', line)
    if m:
        iters.append((float(m.group(1)), float(m.group(2))))
probe = [tuple(map(float, l.split())) for l in open(sys.argv[2])]
pairs = []
for end, us in iters[4:]:  # after the warm-up iterations
    batches = [ms for t, ms in probe if end - 2.0 <= t <= end]
    if batches:
        pairs.append((us, st.median(batches)))
for us, ms in pairs:
    print('%8.1f us/op   probe %6.1f ms' % (us, ms))

def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0] * len(v)
    for k, i in enumerate(order):
        r[i] = k
    return r

a, b = ranks([p[0] for p in pairs]), ranks([p[1] for p in pairs])
n = len(pairs)
rho = 1 - 6 * sum((x - y) ** 2 for x, y in zip(a, b)) / (n * (n * n - 1))
print('iterations %d, Spearman rho %.2f' % (n, rho))
