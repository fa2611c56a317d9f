# Inclusive share of this project's methods in the JFR execution samples of one JMH benchmark method.
# Usage: jfr print --stack-depth 64 --events jdk.ExecutionSample <rec>.jfr > <rec>.txt
#        python3 jfr-miss-split.py <rec>.txt <miss|uncached>
import re, sys, collections

path, method = sys.argv[1], sys.argv[2]
samples, frames = [], None
for line in open(path):
    s = line.strip()
    if s.startswith('jdk.ExecutionSample'):
        frames = []
    elif frames is not None:
        if re.match(r'[\w$.]+\(.*line:', s):
            frames.append(s.split('(')[0])
        if s == '}':
            if 'org.lucenenvm.bench.CacheHitBenchmark.' + method in frames:
                samples.append(frames)
            frames = None
inclusive = collections.Counter()
for frames in samples:
    for m in set(frames):
        if m.startswith('org.lucenenvm.'):
            inclusive[m] += 1
print(f"{len(samples)} samples under CacheHitBenchmark.{method}")
for m, n in inclusive.most_common(60):
    print(f"{100 * n / len(samples):5.1f}% {m}")
