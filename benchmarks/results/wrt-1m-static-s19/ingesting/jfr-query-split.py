# usage: jfr-query-split.py <recording.jfr>: the query thread's jdk.ExecutionSample stacks by component (first match
# in this order), the same categories as wrt-s15-profile/profile/thread-split.py.
import collections, json, subprocess, sys
out = subprocess.run(['jfr', 'print', '--json', '--stack-depth', '96', '--events', 'jdk.ExecutionSample', sys.argv[1]],
                     capture_output=True, text=True, check=True).stdout
cats = [("live segments (realtime.Live*)", lambda s: "realtime.Live" in s),
        ("MaxScoreBulkScorer.<init>", lambda s: "MaxScoreBulkScorer.<init>" in s),
        ("createWeight / TermStates", lambda s: "createWeight" in s or "TermStates" in s),
        ("snapshot acquire / reader build", lambda s: "acquireSnapshot" in s or "RtSnapshot.<init>" in s or "LeafListReader.<init>" in s),
        ("codec postings (Lucene104, blocktree)", lambda s: "lucene104.Lucene104PostingsReader" in s or "lucene103" in s),
        ("norms", lambda s: "Norms" in s),
        ("collector", lambda s: "TopScoreDocCollector" in s or "TopDocs" in s),
        ("scoring, other", lambda s: "Scorer" in s)]
c = collections.Counter(); n = 0
for e in json.loads(out)['recording']['events']:
    v = e['values']
    if 'wrt-query' not in (v['sampledThread'].get('javaName') or ''): continue
    frames = v['stackTrace']['frames'] if v.get('stackTrace') else []
    s = ';'.join(f['method']['type']['name'].replace('/', '.') + '.' + f['method']['name'] for f in frames)
    n += 1
    for name, p in cats:
        if p(s): c[name] += 1; break
    else: c['other'] += 1
print(f'{n} query-thread samples')
for name, x in c.most_common(): print(f'  {x:6d}  {100*x/n:5.1f} %  {name}')
