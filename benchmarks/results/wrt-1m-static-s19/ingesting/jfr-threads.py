# usage: jfr-threads.py <recording.jfr>: CPU by thread group during the recording, from jdk.ThreadCPULoad
# (mean load of each thread over its samples, as a share of the machine's cores) and from jdk.ExecutionSample
# (Java samples per thread group).
import collections, json, re, subprocess, sys
jfr = sys.argv[1]
def events(name):
    out = subprocess.run(['jfr', 'print', '--json', '--events', name, jfr], capture_output=True, text=True, check=True).stdout
    return json.loads(out)['recording']['events']
def group(t):
    t = re.sub(r'\d+', 'N', t or '?')
    for key, g in [('wrt-query', 'query thread'), ('wrt-ingest', 'ingest thread (analysis, live segment add)'),
                   ('Lucene Merge', 'Lucene merge threads (NRT)'), ('ompiler', 'JIT compilers'),
                   ('GC', 'GC'), ('G1', 'GC')]:
        if key in t: return g
    return t
load = collections.defaultdict(list)
for e in events('jdk.ThreadCPULoad'):
    v = e['values']; name = (v.get('eventThread') or {}).get('javaName') or (v.get('eventThread') or {}).get('osName')
    load[name].append(v['user'] + v['system'])
bygroup = collections.Counter()
for name, xs in load.items():
    bygroup[group(name)] += sum(xs) / len(xs)
total = sum(bygroup.values())
print('jdk.ThreadCPULoad: mean load by thread group (fraction of all cores; sum %.2f)' % total)
for g, x in bygroup.most_common(12): print(f'  {x:6.3f}  {100*x/total:5.1f} %  {g}')
samples = collections.Counter(); n = 0
for e in events('jdk.ExecutionSample'):
    t = e['values']['sampledThread']; samples[group(t.get('javaName') or t.get('osName'))] += 1; n += 1
print('jdk.ExecutionSample: %d samples by thread group' % n)
for g, x in samples.most_common(12): print(f'  {x:7d}  {100*x/n:5.1f} %  {g}')
