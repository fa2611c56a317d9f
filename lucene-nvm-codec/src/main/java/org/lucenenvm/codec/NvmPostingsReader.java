package org.lucenenvm.codec;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.codecs.BlockTermState;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.PostingsReaderBase;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.store.DataInput;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.IOUtils;
import org.lucenenvm.codec.RunFiles.Data;

/**
 * Opens the files of {@link NvmPostingsFormat} and hands out enums that read them in place. A
 * segment written by {@link NvmPostingsWriter} is one run (its own data files, doc base 0), whose
 * terms are {@link NvmTermState}s and whose enums are {@link NvmPostingsEnum}s. A linked segment
 * (see {@link NvmPostingsFormat#isLinked}) has the runs of its {@link RunTable}, cloned data files
 * of its sources, and terms that are {@link LinkedTermState}s: a term in one run at doc base 0 is
 * read by an {@link NvmPostingsEnum} as in an unlinked segment, any other by a {@link
 * LinkedPostingsEnum} over its runs. Only headers and footers of data files are checked on open
 * (the small run table is checksummed); {@link #checkIntegrity()} verifies every file's checksum.
 */
final class NvmPostingsReader extends PostingsReaderBase {

  private final boolean linked;
  private final RunFiles[] runs;
  private final int[] docBases;
  private final int[] maxDocs;

  /** maxDoc of the segment. */
  private final int maxDoc;

  NvmPostingsReader(SegmentReadState state) throws IOException {
    linked = NvmPostingsFormat.isLinked(state.segmentInfo, state.segmentSuffix);
    maxDoc = state.segmentInfo.maxDoc();
    List<RunTable.Run> table =
        linked
            ? RunTable.read(state).runs()
            : List.of(
                new RunTable.Run(
                    state.segmentInfo.getId(),
                    state.segmentSuffix,
                    0,
                    maxDoc,
                    presentData(state)));
    runs = new RunFiles[table.size()];
    docBases = new int[runs.length];
    maxDocs = new int[runs.length];
    boolean success = false;
    try {
      for (int k = 0; k < runs.length; k++) {
        RunTable.Run run = table.get(k);
        int index = k;
        runs[k] =
            new RunFiles(
                state.directory,
                extension ->
                    linked
                        ? RunTable.runFileName(
                            state.segmentInfo.name, state.segmentSuffix, index, extension)
                        : IndexFileNames.segmentFileName(
                            state.segmentInfo.name, state.segmentSuffix, extension),
                run.files(),
                run.segmentId(),
                run.suffix(),
                state.context);
        docBases[k] = run.docBase();
        maxDocs[k] = run.maxDoc();
      }
      success = true;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(runs);
      }
    }
  }

  private static Set<Data> presentData(SegmentReadState state) {
    Set<Data> present = EnumSet.noneOf(Data.class);
    for (Data data : Data.values()) {
      if (data.presentIn(state.fieldInfos)) {
        present.add(data);
      }
    }
    return present;
  }

  /** Whether the segment is linked (terms are {@link LinkedTermState}s). */
  boolean isLinked() {
    return linked;
  }

  /** maxDoc of the segment this reader reads. */
  int maxDoc() {
    return maxDoc;
  }

  /** Number of runs: 1 for an unlinked segment. */
  int runCount() {
    return runs.length;
  }

  RunFiles run(int run) {
    return runs[run];
  }

  /** Doc ID in this segment of document 0 of {@code run}. */
  int docBase(int run) {
    return docBases[run];
  }

  /** Number of doc IDs of {@code run}. */
  int maxDoc(int run) {
    return maxDocs[run];
  }

  @Override
  public void init(IndexInput termsIn, SegmentReadState state) throws IOException {
    CodecUtil.checkIndexHeader(
        termsIn,
        linked ? NvmPostingsFormat.LINKED_TERMS_CODEC : NvmPostingsFormat.TERMS_CODEC,
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
  public BlockTermState newTermState() {
    if (linked) {
      LinkedTermState state = new LinkedTermState();
      state.reader = this;
      return state;
    }
    NvmTermState state = new NvmTermState();
    state.reader = this;
    return state;
  }

  @Override
  public void decodeTerm(
      DataInput in, FieldInfo fieldInfo, BlockTermState termState, boolean absolute)
      throws IOException {
    if (linked) {
      ((LinkedTermState) termState).read(in, fieldInfo, absolute, runs.length);
      return;
    }
    NvmTermState state = (NvmTermState) termState;
    boolean hasPositions =
        fieldInfo.getIndexOptions().compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS) >= 0;
    NvmTermState previous = absolute ? NvmTermState.ZEROS : state;
    state.readPointers(in, previous, hasPositions, fieldInfo.hasPayloads());
  }

  @Override
  public PostingsEnum postings(
      FieldInfo fieldInfo, BlockTermState state, PostingsEnum reuse, int flags) throws IOException {
    if (state instanceof LinkedTermState linkedState && isSingleRunAtZero(linkedState) == false) {
      LinkedPostingsEnum postings =
          reuse instanceof LinkedPostingsEnum candidate && candidate.canReuse(this, flags)
              ? candidate
              : new LinkedPostingsEnum(this, flags);
      return postings.reset(fieldInfo, linkedState, flags);
    }
    int run = runOf(state);
    NvmPostingsEnum postings =
        reuse instanceof NvmPostingsEnum candidate && candidate.canReuse(runs[run], flags)
            ? candidate
            : new NvmPostingsEnum(runs[run], flags);
    return postings.reset(fieldInfo, termOf(state), flags);
  }

  @Override
  public ImpactsEnum impacts(FieldInfo fieldInfo, BlockTermState state, int flags)
      throws IOException {
    if (state instanceof LinkedTermState linkedState && isSingleRunAtZero(linkedState) == false) {
      return new LinkedPostingsEnum(this, flags).reset(fieldInfo, linkedState, flags);
    }
    return new NvmPostingsEnum(runs[runOf(state)], flags).reset(fieldInfo, termOf(state), flags);
  }

  /** Whether a linked term is in one run whose doc IDs need no shift: read as unlinked. */
  private boolean isSingleRunAtZero(LinkedTermState state) {
    return state.count == 1 && docBases[state.runs[0]] == 0;
  }

  private static int runOf(BlockTermState state) {
    return state instanceof LinkedTermState linkedState ? linkedState.runs[0] : 0;
  }

  private static NvmTermState termOf(BlockTermState state) {
    return state instanceof LinkedTermState linkedState
        ? linkedState.states[0]
        : (NvmTermState) state;
  }

  @Override
  public void checkIntegrity() throws IOException {
    for (RunFiles run : runs) {
      run.checkIntegrity();
    }
  }

  @Override
  public void close() throws IOException {
    IOUtils.close(runs);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "(runs=" + List.of(runs) + ")";
  }
}
