# Every measurement iteration of fork-stability.sh's plain JMH runs, one line per fork. Usage: python3 per-fork.py <log>...
import re, sys
for path in sys.argv[1:]:
    bench = fork = None; its = []
    for line in open(path):
        m = re.match(r'# Benchmark: \S+\.(\w+)$', line)
        if m: bench = m.group(1)
        m = re.match(r'# Fork: (\d+) of', line)
        if m: fork = m.group(1); its = []
        m = re.match(r'Iteration\s+\d+: ([\d.]+) us/op', line)
        if m:
            its.append(float(m.group(1)))
            if len(its) == 12:
                print(f"{path.split('/')[-1][:-4]:17s} {bench:20s} fork {fork}:", ' '.join(f"{x:5.0f}" for x in its))
