# Session 34: where the doc IDs of the AndHighHigh terms fall, estimated from the tasks file's freq= comments (not
# read from an index). A term of docFreq f in N documents has a mean doc ID gap of N / f; its full 256-doc blocks span
# about 256 * N / f doc IDs and are bit sets up to 2048 (NvmPostingsFormat.MAX_BIT_SET_SPAN), else deltas.
# Usage: python3 term-bytes.py <tasks file> [<number of documents, default 1000000>]
import re, sys

num_docs = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
freqs = {}
for line in open(sys.argv[1]):
    if line.startswith('AndHighHigh:'):
        query, comment = line.split('#', 1)
        for term, freq in zip(re.findall(r'\+(\w+)', query), re.findall(r'freq=(\d+)', comment)):
            freqs[term] = int(freq)
bit_set_postings = bit_set_bytes = delta_postings = 0
for freq in freqs.values():
    span = 256 * num_docs / freq
    if span <= 2048:
        bit_set_postings += freq
        bit_set_bytes += span / 8 * freq / 256
    else:
        delta_postings += freq
print('%d terms, %.1f M postings' % (len(freqs), (bit_set_postings + delta_postings) / 1e6))
print('bit-set blocks: %.1f M postings, %.1f MB' % (bit_set_postings / 1e6, bit_set_bytes / 1e6))
print('delta blocks:   %.1f M postings, %.1f MB as 16-bit deltas, %.1f MB as 8-bit' %
      (delta_postings / 1e6, 2 * delta_postings / 1e6, delta_postings / 1e6))
print('mean gap of the delta terms: %.0f to %.0f doc IDs' %
      (min(num_docs / f for f in freqs.values() if 256 * num_docs / f > 2048),
       max(num_docs / f for f in freqs.values())))
