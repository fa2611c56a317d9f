package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;

/**
 * The statistics epoch of every partition at a graceful close, so that the NVM result cache's
 * entries, computed over that epoch, still answer after the restart (the close flushes the live
 * tail into a new segment, which alone would end the epoch). Written by {@link RtEngine#close}
 * when the cache lives in NVM, read and deleted by the next {@link RtEngine#open}.
 *
 * <p>File {@value #NAME}: Header ({@link CodecUtil#writeHeader CodecHeader}, codec {@value
 * #CODEC}, version 0), PartitionCount (VInt), (IdCount VInt, SegmentId VLong<sup>IdCount</sup>)
 * <sup>PartitionCount</sup>, Footer ({@link CodecUtil#writeFooter CodecFooter}, verified over the
 * whole file before anything else is read).
 */
final class EpochFile {
  static final String NAME = "rt.epoch";
  private static final String CODEC = "LuceneNvmRtEpoch";

  private EpochFile() {}

  static void write(Directory dir, long[][] epochs) throws IOException {
    delete(dir);
    try (IndexOutput out = dir.createOutput(NAME, IOContext.DEFAULT)) {
      CodecUtil.writeHeader(out, CODEC, 0);
      out.writeVInt(epochs.length);
      for (long[] ids : epochs) {
        out.writeVInt(ids.length);
        for (long id : ids) {
          out.writeVLong(id);
        }
      }
      CodecUtil.writeFooter(out);
    }
    dir.sync(List.of(NAME));
    dir.syncMetaData();
  }

  /** The epochs recorded in {@code dir} for {@code partitions} partitions, or null if none are. */
  static long[][] read(Directory dir, int partitions) throws IOException {
    if (!Arrays.asList(dir.listAll()).contains(NAME)) {
      return null;
    }
    try (ChecksumIndexInput in = VerifiedFiles.open(dir, NAME)) {
      CodecUtil.checkHeader(in, CODEC, 0, 0);
      int count = in.readVInt();
      if (count != partitions) {
        throw new IOException(NAME + " records " + count + " partitions, index has " + partitions);
      }
      long[][] epochs = new long[count][];
      for (int p = 0; p < count; p++) {
        epochs[p] = new long[in.readVInt()];
        for (int i = 0; i < epochs[p].length; i++) {
          epochs[p][i] = in.readVLong();
        }
      }
      CodecUtil.checkFooter(in);
      return epochs;
    }
  }

  static void delete(Directory dir) throws IOException {
    if (Arrays.asList(dir.listAll()).contains(NAME)) {
      dir.deleteFile(NAME);
    }
  }
}
