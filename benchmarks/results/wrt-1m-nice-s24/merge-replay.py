# Session 24: a replay of SizeTieredMergePolicy.select (the engine's merge policy, same rules) on 100 flushes of
# 10,000 documents (1 M at the default segment size), for a given number of slots left to Lucene segments (the
# limit of 10 minus the live segments waiting for their flush). Prints the segment writes per document
# (the flush included) and the segments left. A model of the policy only: no timing, no real merge.
# Usage: python3 merge-replay.py [documents per flushed segment, default 10000 (session 25: 20000, 40000)]
import sys
SEGMENT = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
def select(segs, max_segments, width):
    if len(segs) <= max_segments:
        return []
    by_size = sorted(segs)
    needed = min(width, max(2, len(segs) - max_segments + 1))
    chosen = count = 0
    while count < len(by_size) and count < width:
        nxt = by_size[count]
        if count >= needed and nxt > chosen:
            break
        chosen += nxt
        count += 1
    return by_size[:count]

for slots in range(3, 11):
    segs, written = [], 0
    for _ in range(1_000_000 // SEGMENT):
        segs.append(SEGMENT)
        written += SEGMENT
        while True:
            merge = select(segs, slots, 10)
            if not merge:
                break
            for s in merge:
                segs.remove(s)
            segs.append(sum(merge))
            written += sum(merge)
    print('%2d Lucene-segment slots: %.2f writes per document, %d segments at the end' % (slots, written / 1e6, len(segs)))
