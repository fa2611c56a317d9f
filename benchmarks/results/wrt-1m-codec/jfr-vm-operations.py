# argv: output of `jfr print --events jdk.ExecuteVMOperation <recording>.jfr` -> count, total, median and max per VM operation, and the callers of all-thread handshakes
import sys, re, collections
events = open(sys.argv[1]).read().split("jdk.ExecuteVMOperation {")[1:]
durations = collections.defaultdict(list)
callers = collections.Counter()
for e in events:
    op = re.search(r'operation = "(\w+)"', e).group(1)
    d = re.search(r"duration = ([\d.]+) (\w+)", e)
    durations[op].append(float(d.group(1)) * {"ns": 1e-3, "us": 1, "ms": 1e3, "s": 1e6}[d.group(2)])
    if op == "HandshakeAllThreads":
        callers[re.search(r'caller = "([^"]*)"', e).group(1)] += 1
for op, v in sorted(durations.items(), key=lambda kv: -sum(kv[1])):
    v.sort()
    print(f"{op:28s} {len(v):6d}  total {sum(v) / 1000:9.1f} ms  median {v[len(v) // 2]:8.1f} us  max {v[-1]:9.0f} us")
print("HandshakeAllThreads callers:", ", ".join(f"{c} {n}" for c, n in callers.most_common()))
