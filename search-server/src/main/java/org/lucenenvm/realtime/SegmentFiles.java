package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.lucenenvm.codec.NvmCodec;
import org.lucenenvm.codec.NvmPostingsFormat;

/**
 * Writes, copies and measures the Lucene segments of the DRAM and NVM tiers. Each segment is a
 * one-segment Lucene index in its own directory (a {@link org.lucenenvm.store.DramDirectory} in
 * DRAM, a {@link NamespacedDirectory} in NVM),
 * so it opens with {@link org.apache.lucene.index.DirectoryReader#open}.
 */
final class SegmentFiles {
  private final Codec mergeCodec;
  private final boolean mergesLink;
  private final Similarity similarity;
  private final SegmentFlushWriter flushWriter;

  /**
   * Segments written with {@code codec}; with {@code linkedMerges} and an {@link NvmCodec}, merges
   * link postings ({@link NvmPostingsFormat.MergeMode#LINK}, at most {@code max(mergeFactor, 8)}
   * runs per term, so that merges of flushed segments link and merges of merged ones compact).
   */
  SegmentFiles(Codec codec, Similarity similarity, boolean linkedMerges, int mergeFactor) {
    this.mergesLink = linkedMerges && codec instanceof NvmCodec;
    this.mergeCodec =
        mergesLink
            ? ((NvmCodec) codec)
                .withMergeMode(
                    NvmPostingsFormat.MergeMode.LINK,
                    Math.max(mergeFactor, NvmPostingsFormat.DEFAULT_MAX_RUNS_PER_TERM))
            : codec;
    this.similarity = similarity;
    this.flushWriter = new SegmentFlushWriter(codec);
  }

  /** Whether merges may link postings instead of copying them. */
  boolean mergesLink() {
    return mergesLink;
  }

  /**
   * Writes the documents of {@code live} (a frozen live segment's reader) as one new segment into
   * the empty directory {@code target} and commits it, straight to the codec (see {@link
   * SegmentFlushWriter}): nothing is re-analyzed and no merge runs.
   */
  void flush(Directory target, LeafReader live) throws IOException {
    flushWriter.write(target, live);
  }

  /**
   * Writes {@code sources} (their live docs only, in order) as one new segment into the empty
   * directory {@code target} and commits it. Nothing is re-analyzed: postings, norms, stored fields
   * and doc values are merged by the codec's merge code (copied, or linked where the codec and the
   * directory can). A source without live docs keeps every document and its doc ids: its doc d is
   * the new segment's doc d plus the sum of the earlier sources' maxDoc.
   */
  void write(Directory target, CodecReader... sources) throws IOException {
    TieredMergePolicy mergePolicy = new TieredMergePolicy();
    mergePolicy.setNoCFSRatio(0.0);
    IndexWriterConfig config =
        new IndexWriterConfig()
            .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
            .setCodec(mergeCodec)
            .setSimilarity(similarity)
            .setMergeScheduler(new SerialMergeScheduler())
            .setMergePolicy(mergePolicy)
            .setUseCompoundFile(false)
            .setCommitOnClose(false);
    try (IndexWriter writer = new IndexWriter(target, config)) {
      writer.addIndexes(sources);
      writer.commit();
    }
  }

  /**
   * Copies the files of {@code source}'s latest commit into {@code target} (commit point last),
   * then syncs the files and the directory: the copy is durable when this returns. Anything else in
   * {@code source} (stray files, sub-directories) is not copied.
   */
  static void copyDurably(Directory source, Directory target) throws IOException {
    SegmentInfos commit = SegmentInfos.readLatestCommit(source);
    List<String> names = new ArrayList<>(commit.files(false));
    names.add(commit.getSegmentsFileName());
    for (String name : names) {
      target.copyFrom(source, name, name, IOContext.DEFAULT);
    }
    target.sync(names);
    target.syncMetaData();
  }

  /** Total length of the files of {@code dir}'s latest commit, commit point included. */
  static long bytes(Directory dir) throws IOException {
    long total = 0;
    for (String name : SegmentInfos.readLatestCommit(dir).files(true)) {
      total += dir.fileLength(name);
    }
    return total;
  }

  /** Deletes every file of {@code dir}. */
  static void deleteAll(Directory dir) throws IOException {
    for (String name : dir.listAll()) {
      dir.deleteFile(name);
    }
  }
}
