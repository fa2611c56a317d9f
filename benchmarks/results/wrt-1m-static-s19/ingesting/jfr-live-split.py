# usage: jfr-live-split.py <recording.jfr>: the query thread's jdk.ExecutionSample stacks that pass through the live
# segments' classes (realtime.Live*), by the outermost such frame and its caller, and by top frame.
import collections, json, subprocess, sys
out = subprocess.run(['jfr', 'print', '--json', '--stack-depth', '96', '--events', 'jdk.ExecutionSample', sys.argv[1]],
                     capture_output=True, text=True, check=True).stdout
entry = collections.Counter(); top = collections.Counter(); n = 0
for e in json.loads(out)['recording']['events']:
    v = e['values']
    if 'wrt-query' not in (v['sampledThread'].get('javaName') or ''): continue
    fr = [f['method']['type']['name'].split('/')[-1] + '.' + f['method']['name'] for f in v['stackTrace']['frames']]
    live = [i for i, x in enumerate(fr) if x.startswith('Live')]
    if not live: continue
    n += 1; i = max(live)
    entry[(fr[i + 1] + ' > ' if i + 1 < len(fr) else '') + fr[i]] += 1
    top[fr[0]] += 1
print(f'{n} query-thread samples in the live segments; by entry (caller > outermost live frame)')
for k, x in entry.most_common(12): print(f'  {x:5d} {100*x/n:5.1f} %  {k}')
print('by top frame')
for k, x in top.most_common(12): print(f'  {x:5d} {100*x/n:5.1f} %  {k}')
