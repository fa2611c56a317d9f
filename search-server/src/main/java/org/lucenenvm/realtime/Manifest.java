package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.FixedBitSet;

/**
 * The shutdown manifest of an engine in {@link DurabilityMode#GRACEFUL} mode: which NVM segments
 * make up the index, their deletions, and the next segment id. Written only by a graceful close,
 * crash-safely (temporary file, sync, atomic rename, directory sync); deleted when an engine opens
 * it, so it exists only while the index is shut down cleanly.
 *
 * <p>File {@value #FILE_NAME}:
 *
 * <ul>
 *   <li>Manifest --&gt; Header, NextSegmentId, SegmentCount, Segment<sup>SegmentCount</sup>, Footer
 *   <li>Header --&gt; {@link CodecUtil#writeHeader CodecHeader} (codec {@value #CODEC}, version
 *       {@value #VERSION})
 *   <li>NextSegmentId --&gt; {@link org.apache.lucene.store.DataOutput#writeVLong VLong}
 *   <li>SegmentCount, MaxDoc, DeleteCount, WordCount --&gt; {@link
 *       org.apache.lucene.store.DataOutput#writeVInt VInt}
 *   <li>Segment --&gt; SegmentId (VLong), Level (VInt), State (Byte: {@link SegmentState}
 *       ordinal), MaxDoc, DeleteCount, [WordCount, LiveWord<sup>WordCount</sup> (Long)] present
 *       when DeleteCount &gt; 0; LiveWords are the {@link FixedBitSet} words of the live docs
 *   <li>Footer --&gt; {@link CodecUtil#writeFooter CodecFooter}
 * </ul>
 *
 * Segment files live in the same directory under the prefix {@code seg<SegmentId>_}.
 */
record Manifest(long nextSegmentId, List<Manifest.Segment> segments) {
  static final String FILE_NAME = "rt.manifest";
  static final String CODEC = "LuceneNvmRtManifest";
  static final int VERSION = 0;
  private static final String TEMP_NAME = FILE_NAME + ".tmp";

  /**
   * One segment of the manifest.
   *
   * @param id segment id
   * @param level merge level
   * @param state COMMITTED or MERGED
   * @param maxDoc docs in the segment
   * @param deletions deletions, or null when none
   */
  record Segment(long id, int level, SegmentState state, int maxDoc, DeletedDocs deletions) {}

  static boolean exists(Directory dir) throws IOException {
    return Arrays.asList(dir.listAll()).contains(FILE_NAME);
  }

  /** Writes the manifest crash-safely; an existing manifest is replaced atomically. */
  void write(Directory dir) throws IOException {
    if (Arrays.asList(dir.listAll()).contains(TEMP_NAME)) {
      dir.deleteFile(TEMP_NAME);
    }
    try (IndexOutput out = dir.createOutput(TEMP_NAME, IOContext.DEFAULT)) {
      CodecUtil.writeHeader(out, CODEC, VERSION);
      out.writeVLong(nextSegmentId);
      out.writeVInt(segments.size());
      for (Segment s : segments) {
        out.writeVLong(s.id());
        out.writeVInt(s.level());
        out.writeByte((byte) s.state().ordinal());
        out.writeVInt(s.maxDoc());
        DeletedDocs d = s.deletions();
        out.writeVInt(d == null ? 0 : d.count());
        if (d != null && d.count() > 0) {
          long[] words = d.live().getBits();
          int wordCount = FixedBitSet.bits2words(s.maxDoc());
          out.writeVInt(wordCount);
          for (int i = 0; i < wordCount; i++) {
            long word = words[i];
            int bitsInLastWord = s.maxDoc() & 63;
            if (i == wordCount - 1 && bitsInLastWord != 0) {
              word &= -1L >>> (64 - bitsInLastWord);
            }
            out.writeLong(word);
          }
        }
      }
      CodecUtil.writeFooter(out);
    }
    dir.sync(List.of(TEMP_NAME));
    if (exists(dir)) {
      dir.deleteFile(FILE_NAME);
    }
    dir.rename(TEMP_NAME, FILE_NAME);
    dir.syncMetaData();
  }

  /** Reads and verifies (header, checksum) the manifest. */
  static Manifest read(Directory dir) throws IOException {
    try (ChecksumIndexInput in = dir.openChecksumInput(FILE_NAME)) {
      CodecUtil.checkHeader(in, CODEC, VERSION, VERSION);
      long nextId = in.readVLong();
      int count = in.readVInt();
      List<Segment> segments = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        long id = in.readVLong();
        int level = in.readVInt();
        SegmentState state = SegmentState.values()[in.readByte()];
        int maxDoc = in.readVInt();
        int deleteCount = in.readVInt();
        DeletedDocs deletions = null;
        if (deleteCount > 0) {
          long[] words = new long[in.readVInt()];
          for (int w = 0; w < words.length; w++) {
            words[w] = in.readLong();
          }
          deletions = new DeletedDocs(new FixedBitSet(words, maxDoc), deleteCount);
        }
        segments.add(new Segment(id, level, state, maxDoc, deletions));
      }
      CodecUtil.checkFooter(in);
      return new Manifest(nextId, segments);
    }
  }

  /** Deletes the manifest (an opened index is no longer cleanly shut down). */
  static void delete(Directory dir) throws IOException {
    dir.deleteFile(FILE_NAME);
    dir.syncMetaData();
  }
}
