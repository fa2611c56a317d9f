package org.lucenenvm.codec;

import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;
import org.apache.lucene.codecs.BlockTermState;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.PostingsReaderBase;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.store.DataInput;
import org.apache.lucene.store.FileDataHint;
import org.apache.lucene.store.FileTypeHint;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.IOUtils;

/**
 * Opens the files of {@link NvmPostingsFormat} and hands out {@link NvmPostingsEnum}s that read
 * them in place. Only headers and footers are checked on open; {@link #checkIntegrity()} verifies
 * every file's checksum.
 */
final class NvmPostingsReader extends PostingsReaderBase {

  /** The data files of the format, each opened when some field of the segment needs it. */
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

  private final Map<Data, IndexInput> inputs = new EnumMap<>(Data.class);

  /** The memory segments of each memory-segment-backed file, shared by all enums. */
  private final Map<Data, FileSegments> segments = new EnumMap<>(Data.class);

  NvmPostingsReader(SegmentReadState state) throws IOException {
    boolean success = false;
    try {
      for (Data data : Data.values()) {
        if (data.presentIn(state.fieldInfos)) {
          IndexInput in = open(state, data);
          inputs.put(data, in);
          FileSegments fileSegments = FileSegments.of(in);
          if (fileSegments != null) {
            segments.put(data, fileSegments);
          }
        }
      }
      success = true;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(inputs.values());
      }
    }
  }

  private static IndexInput open(SegmentReadState state, Data data) throws IOException {
    String name =
        IndexFileNames.segmentFileName(state.segmentInfo.name, state.segmentSuffix, data.extension);
    IndexInput in =
        state.directory.openInput(
            name, state.context.withHints(FileTypeHint.DATA, FileDataHint.POSTINGS));
    boolean success = false;
    try {
      CodecUtil.checkIndexHeader(
          in,
          data.codec,
          NvmPostingsFormat.VERSION_CURRENT,
          NvmPostingsFormat.VERSION_CURRENT,
          state.segmentInfo.getId(),
          state.segmentSuffix);
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
          "a field needs the " + data.extension + " file but the segment has none",
          inputs.get(Data.DOCS));
    }
    return PostingsData.of(in, segments.get(data));
  }

  @Override
  public void init(IndexInput termsIn, SegmentReadState state) throws IOException {
    CodecUtil.checkIndexHeader(
        termsIn,
        NvmPostingsFormat.TERMS_CODEC,
        NvmPostingsFormat.VERSION_CURRENT,
        NvmPostingsFormat.VERSION_CURRENT,
        state.segmentInfo.getId(),
        state.segmentSuffix);
    int blockSize = termsIn.readVInt();
    if (blockSize != NvmPostingsFormat.BLOCK_SIZE) {
      throw new CorruptIndexException(
          "impact block size is " + blockSize + ", expected " + NvmPostingsFormat.BLOCK_SIZE,
          termsIn);
    }
  }

  @Override
  public NvmTermState newTermState() {
    return new NvmTermState();
  }

  @Override
  public void decodeTerm(
      DataInput in, FieldInfo fieldInfo, BlockTermState termState, boolean absolute)
      throws IOException {
    NvmTermState state = (NvmTermState) termState;
    if (absolute) {
      state.docFP = 0;
      state.skipFP = 0;
      state.posFP = 0;
      state.payFP = 0;
    }
    IndexOptions options = fieldInfo.getIndexOptions();
    state.docFP += in.readVLong();
    if (state.docFreq > NvmPostingsFormat.BLOCK_SIZE) {
      state.skipFP += in.readVLong();
    }
    if (options.compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS) >= 0) {
      state.posFP += in.readVLong();
      if (fieldInfo.hasPayloads()) {
        state.payFP += in.readVLong();
      }
    }
  }

  @Override
  public PostingsEnum postings(
      FieldInfo fieldInfo, BlockTermState state, PostingsEnum reuse, int flags) throws IOException {
    NvmPostingsEnum postings =
        reuse instanceof NvmPostingsEnum candidate && candidate.canReuse(this, flags)
            ? candidate
            : new NvmPostingsEnum(this, flags);
    return postings.reset(fieldInfo, (NvmTermState) state, flags);
  }

  @Override
  public ImpactsEnum impacts(FieldInfo fieldInfo, BlockTermState state, int flags)
      throws IOException {
    return new NvmPostingsEnum(this, flags).reset(fieldInfo, (NvmTermState) state, flags);
  }

  @Override
  public void checkIntegrity() throws IOException {
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
    return getClass().getSimpleName() + "(files=" + inputs.keySet() + ")";
  }
}
