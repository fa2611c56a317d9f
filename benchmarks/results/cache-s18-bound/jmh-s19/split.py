# usage: split.py <collapsed> <us_per_op>: the benchmark thread's samples of one JMH benchmark (async-profiler,
# collapsed) by component, as a share and as microseconds of the measured time per operation.
import sys,collections
groups=[('evictCached (JMH miss only)',lambda s:'evictCached' in s),
        ('weight: term lookups (TermStates)',lambda s:'TermStates' in s or 'SnapshotSearcher.termStates' in s),
        ('weight: other',lambda s:'createWeight' in s or 'weightFor' in s),
        ('search: scoring and collection',lambda s:'searchPartitions' in s or 'RtSnapshot.search' in s or 'IndexSearcher.search' in s),
        ('cache: admit (entry, policy)',lambda s:'ResultCache.admit' in s),
        ('cache: toList (hits to segment-relative)',lambda s:'CachedSearch.toList' in s),
        ('cache: tail result bookkeeping',lambda s:'TailSearch' in s or 'keepTail' in s or 'ResultCache.tail' in s),
        ('cache: lookup, miss record, merge',lambda s:'ResultCache' in s or 'CachedSearch.merge' in s or 'cachedHead' in s),
        ('snapshot acquire/close',lambda s:'acquireSnapshot' in s or 'RtSnapshot.close' in s or 'decRef' in s),
        ('query key, result',lambda s:'QueryKeys' in s or 'RtSnapshot.result' in s)]
f=sys.argv[1]; us=float(sys.argv[2]); tot=0; c=collections.Counter()
for line in open(f):
    st,n=line.rstrip().rsplit(' ',1); n=int(n)
    if 'CacheHitBenchmark' not in st: continue
    tot+=n
    for name,p in groups:
        if p(st): c[name]+=n; break
    else: c['other']+=n
print(f'{tot} samples of the benchmark thread, {us} us/op')
for name,_ in groups+[('other',None)]:
    print(f'{name:42s} {100*c[name]/tot:5.1f} %  {us*c[name]/tot:6.2f} us')
