package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.FixedBitSet;

/**
 * The manifest of an engine in {@link DurabilityMode#GRACEFUL} or {@link
 * DurabilityMode#CRASH_CONSISTENT} mode: whether the index is in use, shut down cleanly or shut
 * down incompletely, which NVM segments hold its persisted documents, their deletions and the next
 * segment id. It exists from the first open of such an engine on, so a directory that has one
 * belongs to one. Always written crash-safely (temporary file, sync, atomic rename, directory
 * sync; on an {@link org.lucenenvm.store.NvmDirectory} the delete and the rename each publish the
 * file table atomically, and {@link #find} completes a replacement a crash interrupted).
 *
 * <ul>
 *   <li>{@link Status#IN_USE}: written when an engine opens; lists nothing. Found by an open, it
 *       means the engine crashed (or its close could not even record what it persisted).
 *   <li>{@link Status#CLEAN}: written by a successful graceful close; every acknowledged document
 *       is in the listed segments.
 *   <li>{@link Status#INCOMPLETE}: written by a failed graceful close; the listed segments are
 *       durable, but the documents counted in Missing were acknowledged and are not in them.
 *   <li>{@link Status#LOGGED}: written by a crash-consistent engine at open, after every engrave
 *       and merge, and at close; the listed segments hold every operation up to DurableSequence
 *       (their deletions may also hold later deletes), and the ingest log holds the operations
 *       after it.
 * </ul>
 *
 * <p>File {@value #FILE_NAME}:
 *
 * <ul>
 *   <li>Manifest --&gt; Header, Status, NextSegmentId, [DurableSequence], SegmentCount,
 *       Segment<sup>SegmentCount</sup>, [Missing], Footer
 *   <li>Header --&gt; {@link CodecUtil#writeHeader CodecHeader} (codec {@value #CODEC}, version
 *       {@value #VERSION}; version 0 files have no Status and no Missing, and read as CLEAN;
 *       version 1 files have no status LOGGED)
 *   <li>DurableSequence (only when Status is LOGGED) --&gt; {@link
 *       org.apache.lucene.store.DataOutput#writeVLong VLong}: the last ingest log sequence number
 *       the listed segments hold (0: none)
 *   <li>Status --&gt; Byte: {@link Status} ordinal
 *   <li>NextSegmentId --&gt; {@link org.apache.lucene.store.DataOutput#writeVLong VLong}
 *   <li>SegmentCount, MaxDoc, DeleteCount, WordCount, MissingSegmentCount --&gt; {@link
 *       org.apache.lucene.store.DataOutput#writeVInt VInt}
 *   <li>Segment --&gt; SegmentId (VLong), Level (VInt), State (Byte: {@link SegmentState}
 *       ordinal), MaxDoc, DeleteCount, [WordCount, LiveWord<sup>WordCount</sup> (Long)] present
 *       when DeleteCount &gt; 0; LiveWords are the {@link FixedBitSet} words of the live docs
 *   <li>Missing (only when Status is INCOMPLETE) --&gt; MissingDocs (VLong: acknowledged live
 *       documents not persisted), MissingSegmentCount, MissingSegmentId<sup>MissingSegmentCount
 *       </sup> (VLong), Reason ({@link org.apache.lucene.store.DataOutput#writeString String})
 *   <li>Footer --&gt; {@link CodecUtil#writeFooter CodecFooter}, verified over the whole file
 *       before anything else is read (a damaged count is never believed)
 * </ul>
 *
 * Segment files live in the same directory under the prefix {@code seg<SegmentId>_}. File
 * {@value #RESERVE_NAME} holds {@value #RESERVE_BYTES} zero bytes while an engine has the index
 * open: close deletes it just before writing the manifest, so that a full NVM directory (the
 * usual reason a close fails) still has room for it. Should the manifest need more, the write
 * fails and the {@code IN_USE} manifest stays: the index is still refused, never served short.
 */
record Manifest(
    Status status,
    long nextSegmentId,
    List<Manifest.Segment> segments,
    Manifest.Missing missing,
    long durableSequence) {
  static final String FILE_NAME = "rt.manifest";
  static final String CODEC = "LuceneNvmRtManifest";
  static final int VERSION = 2;
  private static final String TEMP_NAME = FILE_NAME + ".tmp";
  static final String RESERVE_NAME = "rt.reserve";
  static final int RESERVE_BYTES = 64 * 1024;

  /** What the manifest says about the index. */
  enum Status {
    /** Shut down gracefully: every acknowledged document is persisted. */
    CLEAN,
    /** A graceful close failed: some acknowledged documents are not persisted. */
    INCOMPLETE,
    /** A graceful engine has the index open (or crashed with it open). */
    IN_USE,
    /**
     * A crash-consistent engine has (or had) the index open: the segments hold the operations up
     * to DurableSequence, the ingest log the later ones.
     */
    LOGGED
  }

  /**
   * One segment of the manifest.
   *
   * @param id segment id
   * @param level merge level
   * @param state COMMITTED or MERGED
   * @param maxDoc docs in the segment
   * @param deletions deletions, or null when none
   */
  record Segment(long id, int level, SegmentState state, int maxDoc, DeletedDocs deletions) {
    /** The entry of {@code d}, whose NVM copy is {@code nvm}, with its deletions now. */
    static Segment of(SegmentDescriptor d, SegmentVersion nvm) {
      SegmentState state =
          d.state() == SegmentState.MERGED ? SegmentState.MERGED : SegmentState.COMMITTED;
      return new Segment(d.id(), d.level(), state, nvm.maxDoc(), d.deletions());
    }
  }

  /**
   * What an incomplete shutdown could not persist.
   *
   * @param docs acknowledged live documents not in any listed segment
   * @param segmentIds ids of the segments that could not be persisted
   * @param reason why
   */
  record Missing(long docs, List<Long> segmentIds, String reason) {}

  Manifest {
    if ((status == Status.INCOMPLETE) != (missing != null)) {
      throw new IllegalArgumentException("missing documents go with status INCOMPLETE only");
    }
    if (durableSequence != 0 && status != Status.LOGGED) {
      throw new IllegalArgumentException("a durable sequence number goes with status LOGGED only");
    }
    segments = List.copyOf(segments);
  }

  /** A manifest of a mode without ingest log. */
  Manifest(Status status, long nextSegmentId, List<Segment> segments, Missing missing) {
    this(status, nextSegmentId, segments, missing, 0);
  }

  /** The manifest of a crash-consistent engine. */
  static Manifest logged(long nextSegmentId, List<Segment> segments, long durableSequence) {
    return new Manifest(Status.LOGGED, nextSegmentId, segments, null, durableSequence);
  }

  /** The marker of an engine that has the index open. */
  static Manifest inUse(long nextSegmentId) {
    return new Manifest(Status.IN_USE, nextSegmentId, List.of(), null);
  }

  /**
   * The manifest in {@code dir}, or null when there is none. Completes a replacement that a crash
   * interrupted after the old manifest was deleted (the new one was already synced under the
   * temporary name), and removes a temporary file left by an interrupted write otherwise.
   */
  static Manifest find(Directory dir) throws IOException {
    List<String> names = Arrays.asList(dir.listAll());
    if (names.contains(TEMP_NAME)) {
      if (names.contains(FILE_NAME)) {
        dir.deleteFile(TEMP_NAME);
      } else {
        try {
          read(dir, TEMP_NAME);
        } catch (IOException unverifiable) {
          dir.deleteFile(TEMP_NAME);
          dir.syncMetaData();
          return null;
        }
        dir.rename(TEMP_NAME, FILE_NAME);
      }
      dir.syncMetaData();
    } else if (!names.contains(FILE_NAME)) {
      return null;
    }
    return read(dir, FILE_NAME);
  }

  /**
   * Sets {@value #RESERVE_BYTES} bytes aside for the manifest a close will write. Best effort: a
   * directory without that much room gets no reserve.
   */
  static void reserveRoom(Directory dir) throws IOException {
    releaseRoom(dir);
    byte[] zeros = new byte[4096];
    try (IndexOutput out = dir.createOutput(RESERVE_NAME, IOContext.DEFAULT)) {
      for (int written = 0; written < RESERVE_BYTES; written += zeros.length) {
        out.writeBytes(zeros, zeros.length);
      }
    } catch (IOException full) {
      releaseRoom(dir);
      return;
    }
    dir.sync(List.of(RESERVE_NAME));
    dir.syncMetaData();
  }

  /** Frees the room set aside by {@link #reserveRoom} (if any). */
  static void releaseRoom(Directory dir) throws IOException {
    if (Arrays.asList(dir.listAll()).contains(RESERVE_NAME)) {
      dir.deleteFile(RESERVE_NAME);
    }
  }

  /** Live documents in the listed segments. */
  long persistedDocs() {
    long docs = 0;
    for (Segment s : segments) {
      docs += s.maxDoc() - (s.deletions() == null ? 0 : s.deletions().count());
    }
    return docs;
  }

  /**
   * Writes the manifest crash-safely: to a temporary file, synced, then renamed over the existing
   * manifest ({@link #find} completes a replacement interrupted between the two steps).
   */
  void write(Directory dir) throws IOException {
    if (Arrays.asList(dir.listAll()).contains(TEMP_NAME)) {
      dir.deleteFile(TEMP_NAME);
    }
    try (IndexOutput out = dir.createOutput(TEMP_NAME, IOContext.DEFAULT)) {
      CodecUtil.writeHeader(out, CODEC, VERSION);
      out.writeByte((byte) status.ordinal());
      out.writeVLong(nextSegmentId);
      if (status == Status.LOGGED) {
        out.writeVLong(durableSequence);
      }
      out.writeVInt(segments.size());
      for (Segment s : segments) {
        writeSegment(out, s);
      }
      if (missing != null) {
        out.writeVLong(missing.docs());
        out.writeVInt(missing.segmentIds().size());
        for (long id : missing.segmentIds()) {
          out.writeVLong(id);
        }
        out.writeString(missing.reason());
      }
      CodecUtil.writeFooter(out);
    }
    dir.sync(List.of(TEMP_NAME));
    if (Arrays.asList(dir.listAll()).contains(FILE_NAME)) {
      dir.deleteFile(FILE_NAME);
    }
    dir.rename(TEMP_NAME, FILE_NAME);
    dir.syncMetaData();
  }

  private static void writeSegment(IndexOutput out, Segment s) throws IOException {
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

  /** Verifies (checksum first, then header) and reads a manifest file. */
  private static Manifest read(Directory dir, String fileName) throws IOException {
    try (ChecksumIndexInput in = VerifiedFiles.open(dir, fileName)) {
      int version = CodecUtil.checkHeader(in, CODEC, 0, VERSION);
      Status status = version == 0 ? Status.CLEAN : ordinal(Status.values(), in.readByte(), in);
      if (version < 2 && status == Status.LOGGED) {
        throw new CorruptIndexException("status LOGGED in a version " + version + " manifest", in);
      }
      long nextId = in.readVLong();
      long durableSequence = status == Status.LOGGED ? in.readVLong() : 0;
      int count = in.readVInt();
      List<Segment> segments = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        segments.add(readSegment(in));
      }
      Missing missing = null;
      if (status == Status.INCOMPLETE) {
        long docs = in.readVLong();
        int missingCount = in.readVInt();
        List<Long> ids = new ArrayList<>(missingCount);
        for (int i = 0; i < missingCount; i++) {
          ids.add(in.readVLong());
        }
        missing = new Missing(docs, ids, in.readString());
      }
      CodecUtil.checkFooter(in);
      return new Manifest(status, nextId, segments, missing, durableSequence);
    }
  }

  private static Segment readSegment(ChecksumIndexInput in) throws IOException {
    long id = in.readVLong();
    int level = in.readVInt();
    SegmentState state = ordinal(SegmentState.values(), in.readByte(), in);
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
    return new Segment(id, level, state, maxDoc, deletions);
  }

  private static <E> E ordinal(E[] values, byte ordinal, ChecksumIndexInput in)
      throws CorruptIndexException {
    if (ordinal < 0 || ordinal >= values.length) {
      throw new CorruptIndexException("invalid enum ordinal " + ordinal, in);
    }
    return values[ordinal];
  }
}
