package org.lucenenvm.codec;

import java.io.IOException;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.CompetitiveImpactAccumulator;
import org.apache.lucene.codecs.FieldsConsumer;
import org.apache.lucene.codecs.FieldsProducer;
import org.apache.lucene.codecs.PostingsFormat;
import org.apache.lucene.codecs.PostingsReaderBase;
import org.apache.lucene.codecs.PostingsWriterBase;
import org.apache.lucene.codecs.lucene103.blocktree.Lucene103BlockTreeTermsReader;
import org.apache.lucene.codecs.lucene103.blocktree.Lucene103BlockTreeTermsWriter;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.store.DataOutput;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.util.IOUtils;

/**
 * Uncompressed postings that are read in place: every doc ID, frequency, position and offset is
 * stored as a fixed-width little-endian integer, so a reader on a memory-mapped (or NVM-resident)
 * file accesses the {@code i}-th posting with one load through {@link RandomAccessInput}. Nothing
 * is decoded and nothing is copied to the Java heap. Terms are kept in Lucene's block-tree terms
 * dictionary ({@link Lucene103BlockTreeTermsWriter}).
 *
 * <p>Iteration: {@code nextDoc()} increments an index; {@code advance(target)} gallops (exponential
 * search) from the current index and then binary-searches, which works because doc IDs are stored
 * as absolute values, not deltas. Per block of {@value #BLOCK_SIZE} documents, and per group of
 * {@value #BLOCKS_PER_GROUP} blocks, the competitive (freq, norm) pairs are stored, so block-max
 * WAND and MAXSCORE skip non-competitive blocks exactly as with Lucene's compressed postings.
 *
 * <p>Files and detailed format (all integers are little-endian; {@code Int32}/{@code Int64} are
 * {@link DataOutput#writeInt} / {@link DataOutput#writeLong}):
 *
 * <ul>
 *   <li><code>.tim</code>, <code>.tip</code>, <code>.tmd</code>: the terms dictionary and its
 *       index, see {@link Lucene103BlockTreeTermsWriter}.
 *   <li><code>.nvdoc</code>: <a href="#Docs">Doc IDs</a>
 *   <li><code>.nvfrq</code>: <a href="#Freqs">Term frequencies</a>
 *   <li><code>.nvimp</code>: <a href="#Impacts">Impacts and block index</a>
 *   <li><code>.nvpos</code>: <a href="#Positions">Positions, offsets and payload boundaries</a>
 *   <li><code>.nvpay</code>: <a href="#Payloads">Payload bytes</a>
 * </ul>
 *
 * <p>The files <code>.nvfrq</code> and <code>.nvimp</code> exist when a field of the segment
 * indexes frequencies, <code>.nvpos</code> when one indexes positions, <code>.nvpay</code> when
 * one has payloads. Every file starts with a {@link CodecUtil#writeIndexHeader IndexHeader}
 * (segment id and suffix), is zero-padded to a multiple of 8 bytes after it, and ends with a
 * {@link CodecUtil#writeFooter CodecFooter} (CRC32 checksum).
 *
 * <dl>
 *   <dd><b>Term metadata</b> (in the terms dictionary)
 *       <ul>
 *         <li>PostingsHeader --&gt; IndexHeader, BlockSize
 *         <li>TermMetadata --&gt; DocFPDelta, FreqFPDelta?, ImpactIndexFPDelta?, PosFPDelta?,
 *             PayFPDelta?
 *         <li>BlockSize --&gt; {@link DataOutput#writeVInt VInt}, currently {@value #BLOCK_SIZE}
 *         <li>*FPDelta --&gt; {@link DataOutput#writeVLong VLong}: the difference between the
 *             term's start pointer into the file and the previous term's (absolute for the first
 *             term of a block). FreqFPDelta and ImpactIndexFPDelta are written when the field
 *             indexes frequencies, PosFPDelta when it indexes positions, PayFPDelta when it has
 *             payloads.
 *       </ul>
 * </dl>
 *
 * <a id="Docs"></a>
 *
 * <dl>
 *   <dd><b>Doc IDs</b>
 *       <ul>
 *         <li>DocFile(.nvdoc) --&gt; Header, Padding, &lt;DocIDs&gt;<sup>TermCount</sup>, Footer
 *         <li>DocIDs --&gt; Int32<sup>DocFreq</sup>, strictly increasing absolute doc IDs
 *       </ul>
 * </dl>
 *
 * <a id="Freqs"></a>
 *
 * <dl>
 *   <dd><b>Term frequencies</b>
 *       <ul>
 *         <li>FreqFile(.nvfrq) --&gt; Header, Padding, &lt;Freqs&gt;<sup>TermCount</sup>, Footer
 *         <li>Freqs --&gt; Int32<sup>DocFreq</sup>, the frequency of the term in the document at
 *             the same index of DocIDs (only for fields that index frequencies)
 *       </ul>
 * </dl>
 *
 * <a id="Impacts"></a>
 *
 * <dl>
 *   <dd><b>Impacts and block index</b>
 *       <ul>
 *         <li>ImpactFile(.nvimp) --&gt; Header, Padding, &lt;TermImpacts&gt;<sup>TermCount</sup>,
 *             Footer
 *         <li>TermImpacts --&gt; &lt;ImpactList&gt;<sup>NumBlocks + NumGroups</sup>, Padding,
 *             BlockImpactFP<sup>NumBlocks</sup>, GroupImpactFP<sup>NumGroups</sup>,
 *             BlockPosStart<sup>NumBlocks</sup>?
 *         <li>ImpactList --&gt; Count, &lt;Freq, Norm&gt;<sup>Count</sup>
 *         <li>Count, Freq --&gt; Int32; Norm, BlockImpactFP, GroupImpactFP, BlockPosStart --&gt;
 *             Int64
 *       </ul>
 *       <p>Notes:
 *       <ul>
 *         <li>Block {@code b} holds the documents at indexes {@code [b*BlockSize, (b+1)*BlockSize)}
 *             of DocIDs (the last block may be partial), so NumBlocks = ceil(DocFreq / BlockSize);
 *             group {@code g} holds blocks {@code [g*32, (g+1)*32)}, NumGroups = ceil(NumBlocks /
 *             32). The last doc ID of a block or group is read from DocIDs, it is not repeated.
 *         <li>An ImpactList holds the competitive (freq, norm) pairs of a block or group, computed
 *             with {@link CompetitiveImpactAccumulator}, in increasing order of freq and unsigned
 *             norm. Lists are written in the order blocks and groups complete.
 *         <li>ImpactIndexFP (term metadata) points to the first BlockImpactFP, which is 8-byte
 *             aligned. BlockImpactFP and GroupImpactFP are absolute file pointers to ImpactLists.
 *         <li>BlockPosStart, only for fields that index positions, is the index (within the term)
 *             of the first position of the block's first document.
 *       </ul>
 * </dl>
 *
 * <a id="Positions"></a>
 *
 * <dl>
 *   <dd><b>Positions, offsets and payload boundaries</b>
 *       <ul>
 *         <li>PosFile(.nvpos) --&gt; Header, Padding, &lt;TermPositions&gt;<sup>TermCount</sup>,
 *             Footer
 *         <li>TermPositions --&gt; &lt;Position, StartOffset?, EndOffset?,
 *             PayloadEnd?&gt;<sup>TotalTermFreq</sup>
 *         <li>Position, StartOffset, EndOffset --&gt; Int32; PayloadEnd --&gt; Int64
 *       </ul>
 *       <p>Notes:
 *       <ul>
 *         <li>Records are ordered by document, then by position; every record of a field has the
 *             same width, so position {@code p} of the term is at {@code PosFP + p * width}.
 *         <li>StartOffset and EndOffset are absolute character offsets, written when the field
 *             indexes offsets.
 *         <li>PayloadEnd, written when the field has payloads, is the end of the position's
 *             payload in the term's PayloadBytes; its start is the previous record's PayloadEnd
 *             (0 for the term's first position). An empty payload has start == end.
 *       </ul>
 * </dl>
 *
 * <a id="Payloads"></a>
 *
 * <dl>
 *   <dd><b>Payload bytes</b>
 *       <ul>
 *         <li>PayFile(.nvpay) --&gt; Header, Padding, &lt;PayloadBytes&gt;<sup>TermCount</sup>,
 *             Footer
 *         <li>PayloadBytes --&gt; byte<sup>sum of the term's payload lengths</sup>
 *       </ul>
 * </dl>
 *
 * <p>Versions: {@value #VERSION_START} (initial format).
 *
 * @lucene.experimental
 */
public final class NvmPostingsFormat extends PostingsFormat {

  /** Name under which this format is registered through SPI. */
  public static final String NAME = "NvmUncompressed";

  /** Number of documents per block (the unit of copying, skipping and level-0 impacts). */
  public static final int BLOCK_SIZE = 256;

  /** Number of blocks per group (the second impact level): 8192 documents, as in Lucene104. */
  public static final int BLOCKS_PER_GROUP = 32;

  /**
   * Largest span of doc IDs (in bits) of a full block that is stored as a bit set: 2048 bits are
   * 256 bytes, a quarter of the block's 1024 bytes of Int32 doc IDs.
   */
  public static final int MAX_BIT_SET_SPAN = 2048;

  /** Extension of the doc ID file. */
  public static final String DOC_EXTENSION = "nvdoc";

  /** Extension of the term frequency file. */
  public static final String FREQ_EXTENSION = "nvfrq";

  /** Extension of the skip and impacts file. */
  public static final String SKIP_EXTENSION = "nvskp";

  /** Extension of the position file. */
  public static final String POS_EXTENSION = "nvpos";

  /** Extension of the payload file. */
  public static final String PAY_EXTENSION = "nvpay";

  static final String TERMS_CODEC = "NvmPostingsTerms";
  static final String DOC_CODEC = "NvmPostingsDoc";
  static final String FREQ_CODEC = "NvmPostingsFreq";
  static final String SKIP_CODEC = "NvmPostingsSkip";
  static final String POS_CODEC = "NvmPostingsPos";
  static final String PAY_CODEC = "NvmPostingsPay";

  /** Version 1 of the format: flat doc and freq arrays, 128-doc impact blocks. Not readable. */
  static final int VERSION_START = 0;

  /** Version 2 of the format: 256-doc blocks, skip table, impact lines, bit-set blocks. */
  static final int VERSION_BLOCKS = 1;

  static final int VERSION_CURRENT = VERSION_BLOCKS;

  /** Alignment of the data that follows each file header and of bit-set blocks. */
  static final int ALIGNMENT = Long.BYTES;

  /** Alignment of each term's SkipData, so that every impact line is one cache line. */
  static final int SKIP_ALIGNMENT = ImpactLine.BYTES;

  private final int minTermBlockSize;
  private final int maxTermBlockSize;

  /** Creates the format with the block-tree terms dictionary's default block sizes. */
  public NvmPostingsFormat() {
    this(
        Lucene103BlockTreeTermsWriter.DEFAULT_MIN_BLOCK_SIZE,
        Lucene103BlockTreeTermsWriter.DEFAULT_MAX_BLOCK_SIZE);
  }

  /**
   * Creates the format with custom block sizes for the terms dictionary.
   *
   * @see Lucene103BlockTreeTermsWriter#validateSettings(int, int)
   */
  public NvmPostingsFormat(int minTermBlockSize, int maxTermBlockSize) {
    super(NAME);
    Lucene103BlockTreeTermsWriter.validateSettings(minTermBlockSize, maxTermBlockSize);
    this.minTermBlockSize = minTermBlockSize;
    this.maxTermBlockSize = maxTermBlockSize;
  }

  @Override
  public FieldsConsumer fieldsConsumer(SegmentWriteState state) throws IOException {
    PostingsWriterBase postingsWriter = new NvmPostingsWriter(state);
    boolean success = false;
    try {
      FieldsConsumer consumer =
          new Lucene103BlockTreeTermsWriter(
              state, postingsWriter, minTermBlockSize, maxTermBlockSize);
      success = true;
      return consumer;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(postingsWriter);
      }
    }
  }

  @Override
  public FieldsProducer fieldsProducer(SegmentReadState state) throws IOException {
    PostingsReaderBase postingsReader = new NvmPostingsReader(state);
    boolean success = false;
    try {
      FieldsProducer producer = new Lucene103BlockTreeTermsReader(postingsReader, state);
      success = true;
      return producer;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(postingsReader);
      }
    }
  }

  /**
   * Whether a block is stored as a bit set: only full blocks of terms with SkipData (more than one
   * block), whose doc IDs span at most {@link #MAX_BIT_SET_SPAN} bits. The span is {@code lastDoc -
   * previousLastDoc} (previousLastDoc is -1 for the first block), so readers decide from the skip
   * table alone.
   */
  static boolean isBitSetBlock(int count, boolean termHasSkipData, int span) {
    return termHasSkipData && count == BLOCK_SIZE && span <= MAX_BIT_SET_SPAN;
  }

  /** Width in bytes of one position record of a field with the given options. */
  static int positionRecordBytes(IndexOptions options, boolean hasPayloads) {
    int width = Integer.BYTES;
    if (options.compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS) >= 0) {
      width += 2 * Integer.BYTES;
    }
    if (hasPayloads) {
      width += Long.BYTES;
    }
    return width;
  }
}
