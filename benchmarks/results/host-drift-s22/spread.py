# The spread of §1 and §2: min, p10, median, p90 and max of every measurement iteration of a JMH log (read with
# ../postings-jmh/s17/iterations.py) or of every batch of a probe.py output.
# Usage: python3 spread.py <JMH log or probe output>...
import os, statistics as st, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'postings-jmh', 's17'))
from iterations import forks

for path in sys.argv[1:]:
    values = [v for _, _, iterations in forks([path]) for v in iterations]
    if not values:  # no JMH fork in it: a probe output, "<epoch seconds> <batch ms>" per line
        values = [float(line.split()[1]) for line in open(path)]
    v = sorted(values)
    print('%-22s n %3d  min %.1f  p10 %.1f  median %.1f  p90 %.1f  max %.1f'
          % (os.path.basename(path), len(v), v[0], v[len(v) // 10], st.median(v), v[len(v) * 9 // 10], v[-1]))
