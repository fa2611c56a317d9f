package org.lucenenvm.codec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.StringHelper;
import org.lucenenvm.codec.RunFiles.Data;

/**
 * The run table of a linked segment of {@link NvmPostingsFormat} (file {@code .nvrun}): per run,
 * the segment id and suffix in the headers of its cloned data files, its doc base in the linked
 * segment, its maxDoc and which data files it has. See the format's class javadoc for the layout.
 *
 * @param runs the runs in run-index order
 */
record RunTable(List<Run> runs) {

  /**
   * One run of a linked segment.
   *
   * @param segmentId id of the segment that wrote the run's data files (in their headers)
   * @param suffix segment suffix in the headers of the run's data files
   * @param docBase doc ID, in the linked segment, of the run's document 0
   * @param maxDoc number of doc IDs of the run: its documents are {@code [docBase, docBase +
   *     maxDoc)} in the linked segment
   * @param files the run's data files
   */
  record Run(byte[] segmentId, String suffix, int docBase, int maxDoc, Set<Data> files) {
    Run {
      segmentId = segmentId.clone();
      files = Collections.unmodifiableSet(EnumSet.copyOf(files));
    }
  }

  RunTable {
    runs = List.copyOf(runs);
  }

  /**
   * Name of the clone of data file {@code extension} of run {@code run} in segment {@code segment}
   * with suffix {@code suffix}: {@code <segment>_<suffix>.r<run>.<extension>}, which Lucene's file
   * name checks accept and which parses to the segment's name like its other files.
   */
  static String runFileName(String segment, String suffix, int run, String extension) {
    return IndexFileNames.segmentFileName(segment, suffix, "r" + run + "." + extension);
  }

  /** The names {@link #runFileName} gives: a segment file whose extension follows {@code r<run>.}. */
  private static final Pattern RUN_FILE_NAME = Pattern.compile(".+\\.r[0-9]+\\.[a-z]+");

  /** Whether {@code fileName} is a run file of a linked segment (a clone of a source's file). */
  static boolean isRunFileName(String fileName) {
    return RUN_FILE_NAME.matcher(fileName).matches();
  }

  /** Writes this table as the run table of the segment of {@code state}. */
  void write(SegmentWriteState state) throws IOException {
    String name =
        IndexFileNames.segmentFileName(
            state.segmentInfo.name, state.segmentSuffix, NvmPostingsFormat.RUNS_EXTENSION);
    try (IndexOutput out = state.directory.createOutput(name, state.context)) {
      CodecUtil.writeIndexHeader(
          out,
          NvmPostingsFormat.RUNS_CODEC,
          NvmPostingsFormat.VERSION_CURRENT,
          state.segmentInfo.getId(),
          state.segmentSuffix);
      out.writeVInt(runs.size());
      for (Run run : runs) {
        out.writeBytes(run.segmentId, StringHelper.ID_LENGTH);
        out.writeString(run.suffix);
        out.writeVInt(run.docBase);
        out.writeVInt(run.maxDoc);
        int files = 0;
        for (Data data : run.files) {
          files |= 1 << data.ordinal();
        }
        out.writeByte((byte) files);
      }
      CodecUtil.writeFooter(out);
    }
  }

  /**
   * Reads and verifies (checksum included: the file is small) the run table of the segment of
   * {@code state}; its runs must lie in the segment's doc IDs, in order, without overlapping (a
   * source segment without postings of the format has no run, so there may be gaps).
   */
  static RunTable read(SegmentReadState state) throws IOException {
    String name =
        IndexFileNames.segmentFileName(
            state.segmentInfo.name, state.segmentSuffix, NvmPostingsFormat.RUNS_EXTENSION);
    try (ChecksumIndexInput in = state.directory.openChecksumInput(name)) {
      Throwable priorE = null;
      RunTable table = null;
      try {
        CodecUtil.checkIndexHeader(
            in,
            NvmPostingsFormat.RUNS_CODEC,
            NvmPostingsFormat.VERSION_CURRENT,
            NvmPostingsFormat.VERSION_CURRENT,
            state.segmentInfo.getId(),
            state.segmentSuffix);
        int count = in.readVInt();
        List<Run> runs = new ArrayList<>(count);
        int nextBase = 0;
        for (int i = 0; i < count; i++) {
          byte[] id = new byte[StringHelper.ID_LENGTH];
          in.readBytes(id, 0, id.length);
          String suffix = in.readString();
          int docBase = in.readVInt();
          int maxDoc = in.readVInt();
          int bits = in.readByte() & 0xFF;
          Set<Data> files = EnumSet.noneOf(Data.class);
          for (Data data : Data.values()) {
            if ((bits & (1 << data.ordinal())) != 0) {
              files.add(data);
            }
          }
          if (docBase < nextBase
              || files.contains(Data.DOCS) == false
              || files.contains(Data.SKIP) == false
              || bits >>> Data.values().length != 0) {
            throw new CorruptIndexException(
                "run " + i + ": doc base " + docBase + " (previous run ends at " + nextBase
                    + "), files 0x" + Integer.toHexString(bits),
                in);
          }
          nextBase = docBase + maxDoc;
          runs.add(new Run(id, suffix, docBase, maxDoc, files));
        }
        if (nextBase > state.segmentInfo.maxDoc()) {
          throw new CorruptIndexException(
              "runs end at doc " + nextBase + ", segment has " + state.segmentInfo.maxDoc(), in);
        }
        table = new RunTable(runs);
      } catch (Throwable t) {
        priorE = t;
      } finally {
        CodecUtil.checkFooter(in, priorE);
      }
      return table;
    }
  }
}
