package org.lucenenvm.cache;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes a {@link CacheEntry} as the bytes {@link EntryStore} keeps in a block (little endian):
 *
 * <pre>
 * Entry      --&gt; Version, KeyLength, Key, TagCount, Tag&lt;sup&gt;TagCount&lt;/sup&gt;, ListCount, List&lt;sup&gt;ListCount&lt;/sup&gt;
 * Version    --&gt; byte, 1
 * Key        --&gt; {@link QueryKey#toBytes()}
 * Tag        --&gt; SegmentId int64, DeletionGeneration int64
 * List       --&gt; TotalHits int64, HitCount int32, (IdLength int32, Id UTF-8, Score float32)&lt;sup&gt;HitCount&lt;/sup&gt;
 * </pre>
 *
 * The first list is the query's results, the others its term parts. Lengths are int32.
 */
final class EntryCodec {
  private static final byte VERSION = 1;

  private EntryCodec() {}

  static byte[] encode(CacheEntry entry) {
    byte[] key = entry.key().toBytes();
    List<ResultList> lists = new ArrayList<>();
    lists.add(entry.results());
    lists.addAll(entry.termParts());
    List<byte[]> ids = new ArrayList<>();
    int size = 1 + 4 + key.length + 4 + entry.segments().size() * 16 + 4;
    for (ResultList list : lists) {
      size += 8 + 4;
      for (ScoredDoc hit : list.hits()) {
        byte[] id = hit.id().getBytes(StandardCharsets.UTF_8);
        ids.add(id);
        size += 4 + id.length + 4;
      }
    }
    ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    out.put(VERSION).putInt(key.length).put(key).putInt(entry.segments().size());
    for (SegmentTag tag : entry.segments()) {
      out.putLong(tag.segmentId()).putLong(tag.deletionGeneration());
    }
    out.putInt(lists.size());
    int next = 0;
    for (ResultList list : lists) {
      out.putLong(list.totalHits()).putInt(list.hits().size());
      for (ScoredDoc hit : list.hits()) {
        byte[] id = ids.get(next++);
        out.putInt(id.length).put(id).putFloat(hit.score());
      }
    }
    return out.array();
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
      int tagCount = count(in, 16);
      List<SegmentTag> tags = new ArrayList<>(tagCount);
      for (int i = 0; i < tagCount; i++) {
        tags.add(new SegmentTag(in.getLong(), in.getLong()));
      }
      int listCount = count(in, 12);
      if (listCount < 1) {
        throw new IllegalArgumentException("cache entry has no result list");
      }
      List<ResultList> lists = new ArrayList<>(listCount);
      for (int i = 0; i < listCount; i++) {
        long totalHits = in.getLong();
        int hitCount = count(in, 8);
        List<ScoredDoc> hits = new ArrayList<>(hitCount);
        for (int h = 0; h < hitCount; h++) {
          hits.add(new ScoredDoc(new String(bytes(in), StandardCharsets.UTF_8), in.getFloat()));
        }
        lists.add(new ResultList(totalHits, hits));
      }
      if (in.hasRemaining()) {
        throw new IllegalArgumentException("cache entry has " + in.remaining() + " trailing bytes");
      }
      return new CacheEntry(key, tags, lists.getFirst(), lists.subList(1, lists.size()));
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
