# Issue 13, session 27: one query thread of an async-profiler collapsed file (row.sh with AP=...), its samples
# under CachedSearch.search split into the uncached side of the pairs (CachedSearch.search -> RtSnapshot.search) and
# the cached side, the cached side by the frames it calls, and the top leaf frames of each side.
# Usage: python3 cachesplit.py <file.collapsed> <thread, e.g. tid=15086>
import collections, re, sys
f, thr = sys.argv[1], sys.argv[2]
side = collections.Counter(); child = collections.Counter(); sub = collections.Counter(); leafc=collections.Counter(); leafu=collections.Counter()
def short(x): return x.split('_[')[0].split('/')[-1]
for line in open(f):
    stack, _, n = line.rstrip().rpartition(' ')
    fr = stack.split(';')
    if thr not in fr[0]: continue
    n = int(n)
    idx = [i for i, x in enumerate(fr) if 'CachedSearch.search' in x and 'TailSearch' not in x]
    if not idx: side['other'] += n; continue
    i = idx[0]
    nxt = short(fr[i+1]) if i+1 < len(fr) else '(self)'
    if nxt == 'RtSnapshot.search':
        side['uncached'] += n; leafu[short(fr[-1])] += n; continue
    side['cached'] += n; child[nxt] += n; leafc[short(fr[-1])] += n
    for j in range(i+1, len(fr)):
        s = short(fr[j])
        if s in ('CachedSearch.computeAndOffer', 'TailSearch.search', 'CachedSearch.cachedHead'):
            sub[s + ' > ' + (short(fr[j+1]) if j+1 < len(fr) else '(self)')] += n
print(side)
for k, v in child.most_common(20): print('%7d %5.1f%% cached>%s' % (v, 100*v/side['cached'], k))
for k, v in sub.most_common(25): print('%7d %5.1f%% %s' % (v, 100*v/side['cached'], k))
print('--- leaves cached'); 
for k, v in leafc.most_common(25): print('%7d %5.1f%% %s   (uncached %d)' % (v, 100*v/side['cached'], k, leafu[k]))
# The timed pairs' uncached side (EngineTarget.uncachedSearchNanos) against the cached side's epoch search
# (computeAndOffer), tail search (TailSearch) and searches that bypass the cache (no epoch segment yet), each with
# the share of its samples inside the live segments' code (realtime/Live*).
parts = collections.Counter(); live = collections.Counter()
for line in open(f):
    stack, _, n = line.rstrip().rpartition(' ')
    if thr not in stack.split(';')[0] or 'CachedSearch.search' not in stack:
        continue
    n = int(n)
    part = ('uncached (timed pairs)' if 'uncachedSearchNanos' in stack else 'cached: tail search' if 'TailSearch.search' in stack
            else 'cached: epoch search' if 'computeAndOffer' in stack else 'cached: bypassed' if 'RtSnapshot.search' in stack
            else 'cached: other')
    parts[part] += n
    if 'realtime/Live' in stack:
        live[part] += n
print('--- by part')
for k, v in parts.most_common():
    print('%7d %s (live segments %.1f %%)' % (v, k, 100 * live[k] / v))
