package org.lucenenvm.cache;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes a {@link CacheEntry} as the bytes {@link EntryStore} keeps in a block (little endian):
 *
 * <pre>
 * Entry      --&gt; Version, KeyLength, Key, K, ComputeNanos, TagCount, Tag&lt;sup&gt;TagCount&lt;/sup&gt;, ListCount, List&lt;sup&gt;ListCount&lt;/sup&gt;
 * Version    --&gt; byte, 4
 * Key        --&gt; {@link QueryKey#toBytes()}
 * K          --&gt; int32
 * ComputeNanos --&gt; int64, what computing the results took
 * Tag        --&gt; Partition int32, SegmentId int64, DeletionGeneration int64
 * List       --&gt; TotalHits int64, TotalExact byte (0|1), HitCount int32, Hit&lt;sup&gt;HitCount&lt;/sup&gt;
 * Hit        --&gt; Segment int32 (index of a Tag), Doc int32, Score float32
 * </pre>
 *
 * The first list is the query's results, the others its term parts. Lengths and counts are
 * int32. Earlier versions (2: before ComputeNanos; 3: one field per key) are not read: such
 * entries are dropped on open like invalid ones.
 */
final class EntryCodec {
  private static final byte VERSION = 4;
  private static final int TAG_BYTES = 4 + 8 + 8;
  private static final int HIT_BYTES = 4 + 4 + 4;

  private EntryCodec() {}

  /**
   * How many bytes {@link #encode} writes for {@code entry}, worked out without encoding it: what
   * the entry takes in the NVM tier, and what the DRAM tier and the cache's policies count it as.
   */
  static int encodedSize(CacheEntry entry) {
    int size =
        1 + 4 + entry.key().encodedLength() + 4 + 8 + 4 + entry.segments().size() * TAG_BYTES + 4;
    size += listSize(entry.results());
    for (ResultList part : entry.termParts()) {
      size += listSize(part);
    }
    return size;
  }

  private static int listSize(ResultList list) {
    return 8 + 1 + 4 + list.hits().size() * HIT_BYTES;
  }

  /**
   * Writes {@code entry}'s {@link #encodedSize} bytes at {@code out}'s position (in the NVM tier,
   * straight into the entry's block), whose byte order it sets to little endian.
   */
  static void encode(CacheEntry entry, ByteBuffer out) {
    byte[] key = entry.key().toBytes();
    List<ResultList> lists = new ArrayList<>();
    lists.add(entry.results());
    lists.addAll(entry.termParts());
    out.order(ByteOrder.LITTLE_ENDIAN);
    out.put(VERSION).putInt(key.length).put(key).putInt(entry.k()).putLong(entry.computeNanos());
    out.putInt(entry.segments().size());
    for (SegmentTag tag : entry.segments()) {
      out.putInt(tag.partition()).putLong(tag.segmentId()).putLong(tag.deletionGeneration());
    }
    out.putInt(lists.size());
    for (ResultList list : lists) {
      out.putLong(list.totalHits()).put((byte) (list.totalExact() ? 1 : 0));
      out.putInt(list.hits().size());
      for (ScoredDoc hit : list.hits()) {
        out.putInt(hit.segment()).putInt(hit.doc()).putFloat(hit.score());
      }
    }
  }

  /** Decodes an entry; throws {@link IllegalArgumentException} if the bytes are not one. */
  static CacheEntry decode(ByteBuffer in) {
    in.order(ByteOrder.LITTLE_ENDIAN);
    try {
      byte version = in.get();
      if (version != VERSION) {
        throw new IllegalArgumentException("unknown cache entry version " + version);
      }
      QueryKey key = QueryKey.fromBytes(bytes(in));
      int k = in.getInt();
      long computeNanos = in.getLong();
      int tagCount = count(in, TAG_BYTES);
      List<SegmentTag> tags = new ArrayList<>(tagCount);
      for (int i = 0; i < tagCount; i++) {
        tags.add(new SegmentTag(in.getInt(), in.getLong(), in.getLong()));
      }
      int listCount = count(in, 13);
      if (listCount < 1) {
        throw new IllegalArgumentException("cache entry has no result list");
      }
      List<ResultList> lists = new ArrayList<>(listCount);
      for (int i = 0; i < listCount; i++) {
        long totalHits = in.getLong();
        byte exact = in.get();
        if (exact != 0 && exact != 1) {
          throw new IllegalArgumentException("cache entry has invalid exactness flag " + exact);
        }
        int hitCount = count(in, HIT_BYTES);
        List<ScoredDoc> hits = new ArrayList<>(hitCount);
        for (int h = 0; h < hitCount; h++) {
          hits.add(new ScoredDoc(in.getInt(), in.getInt(), in.getFloat()));
        }
        lists.add(new ResultList(totalHits, exact == 1, hits));
      }
      if (in.hasRemaining()) {
        throw new IllegalArgumentException("cache entry has " + in.remaining() + " trailing bytes");
      }
      return new CacheEntry(key, k, computeNanos, tags, lists.getFirst(), lists.subList(1, lists.size()));
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("truncated cache entry", e);
    }
  }

  private static int count(ByteBuffer in, int minBytesEach) {
    int count = in.getInt();
    if (count < 0 || (long) count * minBytesEach > in.remaining()) {
      throw new IllegalArgumentException("cache entry has invalid count " + count);
    }
    return count;
  }

  private static byte[] bytes(ByteBuffer in) {
    byte[] bytes = new byte[count(in, 1)];
    in.get(bytes);
    return bytes;
  }
}
