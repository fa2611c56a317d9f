package org.lucenenvm.codec;

import java.io.Closeable;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FileDataHint;
import org.apache.lucene.store.FileTypeHint;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.IOUtils;
import org.apache.lucene.util.StringHelper;

/**
 * The open data files of one run of {@link NvmPostingsFormat}: the whole postings of a segment
 * that was written by {@link NvmPostingsWriter}, read either under that segment's own file names
 * or, in a linked segment, as clones under the linked segment's names. Each file's header must
 * name the segment id and suffix the run was written with (the source segment's, for a clone); on
 * open only headers and footers are checked, {@link #checkIntegrity()} verifies every checksum.
 */
final class RunFiles implements Closeable {

  /** The data files of the format, each present when some field of the run needs it. */
  enum Data {
    DOCS(NvmPostingsFormat.DOC_EXTENSION, NvmPostingsFormat.DOC_CODEC),
    SKIP(NvmPostingsFormat.SKIP_EXTENSION, NvmPostingsFormat.SKIP_CODEC),
    POSITIONS(NvmPostingsFormat.POS_EXTENSION, NvmPostingsFormat.POS_CODEC),
    PAYLOADS(NvmPostingsFormat.PAY_EXTENSION, NvmPostingsFormat.PAY_CODEC);

    final String extension;
    final String codec;

    Data(String extension, String codec) {
      this.extension = extension;
      this.codec = codec;
    }

    boolean presentIn(FieldInfos fieldInfos) {
      return switch (this) {
        case DOCS, SKIP -> true;
        case POSITIONS -> fieldInfos.hasProx();
        case PAYLOADS -> fieldInfos.hasPayloads();
      };
    }
  }

  private final Directory directory;
  private final Map<Data, String> fileNames = new EnumMap<>(Data.class);
  private final byte[] segmentId;
  private final String headerSuffix;
  private final Map<Data, IndexInput> inputs = new EnumMap<>(Data.class);

  /** The memory segments of each memory-segment-backed file, shared by all enums. */
  private final Map<Data, FileSegments> segments = new EnumMap<>(Data.class);

  /**
   * Opens the files {@code present} of a run.
   *
   * @param fileName the name of each data file in {@code directory}, given its extension
   * @param segmentId the segment id every file's header must hold
   * @param headerSuffix the segment suffix every file's header must hold
   */
  RunFiles(
      Directory directory,
      Function<String, String> fileName,
      Set<Data> present,
      byte[] segmentId,
      String headerSuffix,
      IOContext context)
      throws IOException {
    this.directory = directory;
    this.segmentId = segmentId.clone();
    this.headerSuffix = headerSuffix;
    boolean success = false;
    try {
      for (Data data : present) {
        String name = fileName.apply(data.extension);
        fileNames.put(data, name);
        IndexInput in = open(directory, name, data, context);
        inputs.put(data, in);
        FileSegments fileSegments = FileSegments.of(in);
        if (fileSegments != null) {
          segments.put(data, fileSegments);
        }
      }
      success = true;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(inputs.values());
      }
    }
  }

  private IndexInput open(Directory directory, String name, Data data, IOContext context)
      throws IOException {
    IndexInput in =
        directory.openInput(name, context.withHints(FileTypeHint.DATA, FileDataHint.POSTINGS));
    boolean success = false;
    try {
      CodecUtil.checkIndexHeader(
          in,
          data.codec,
          NvmPostingsFormat.VERSION_CURRENT,
          NvmPostingsFormat.VERSION_CURRENT,
          segmentId,
          headerSuffix);
      // Full checksums are too costly on open; this verifies the footer's structure, which catches
      // truncation.
      CodecUtil.retrieveChecksum(in);
      success = true;
      return in;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(in);
      }
    }
  }

  /**
   * Read access to a whole data file, addressed by absolute file pointer, for one enum: bulk copies
   * from the file's memory segments if it is memory-segment backed (found once, on open), with
   * positional reads through a random-access slice of its own where a range crosses segments or
   * the file has none.
   */
  PostingsData data(Data data) throws IOException {
    IndexInput in = inputs.get(data);
    if (in == null) {
      throw new CorruptIndexException(
          "a field needs the " + data.extension + " file but the run has none",
          inputs.get(Data.DOCS));
    }
    return PostingsData.of(in, segments.get(data));
  }

  /** The data files of the run. */
  Set<Data> present() {
    return inputs.keySet();
  }

  /** The directory the files are read from. */
  Directory directory() {
    return directory;
  }

  /** The name of a present data file in {@link #directory()}. */
  String fileName(Data data) {
    return fileNames.get(data);
  }

  /** The segment id in the files' headers: the id of the segment that wrote the run. */
  byte[] segmentId() {
    return segmentId.clone();
  }

  /** The segment suffix in the files' headers. */
  String headerSuffix() {
    return headerSuffix;
  }

  void checkIntegrity() throws IOException {
    for (IndexInput in : inputs.values()) {
      CodecUtil.checksumEntireFile(in);
    }
  }

  @Override
  public void close() throws IOException {
    IOUtils.close(inputs.values());
  }

  @Override
  public String toString() {
    return "run(segment="
        + StringHelper.idToString(segmentId)
        + " suffix="
        + headerSuffix
        + " files="
        + fileNames.values()
        + ")";
  }
}
