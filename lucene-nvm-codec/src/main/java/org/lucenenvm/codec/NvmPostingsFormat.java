package org.lucenenvm.codec;

import java.io.IOException;
import java.util.Objects;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.CompetitiveImpactAccumulator;
import org.apache.lucene.codecs.FieldsConsumer;
import org.apache.lucene.codecs.FieldsProducer;
import org.apache.lucene.codecs.NormsProducer;
import org.apache.lucene.codecs.PostingsFormat;
import org.apache.lucene.codecs.PostingsReaderBase;
import org.apache.lucene.codecs.PostingsWriterBase;
import org.apache.lucene.codecs.lucene103.blocktree.Lucene103BlockTreeTermsReader;
import org.apache.lucene.codecs.lucene103.blocktree.Lucene103BlockTreeTermsWriter;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.Fields;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.MergeState;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.store.DataOutput;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.util.IOUtils;

/**
 * Uncompressed postings that are read in place: doc IDs and frequencies are fixed-width
 * little-endian values in blocks of {@value #BLOCK_SIZE} documents (doc IDs as a bit set, 8- or
 * 16-bit deltas or Int32 values, freqs 4 bits or 1, 2 or 4 bytes wide, chosen per block; no other
 * bit packing), positions 1, 2 or 4 bytes wide per block of documents, or, with offsets or
 * payloads, in fixed-width records at computed addresses. Positions are read in place, one per
 * {@code nextPosition()}. A reader copies one block of doc IDs into an int array with a single bulk
 * copy ({@code MemorySegment.copy} when the file is memory-segment backed, e.g. on {@code
 * MMapDirectory}), followed by a prefix sum for deltas; freqs are widened straight into a scorer's
 * batch, read in place for a reader that takes a few per block, or copied into an int array for one
 * that takes most; no postings live on the Java heap beyond the current block. Terms are kept in
 * Lucene's block-tree terms dictionary ({@link Lucene103BlockTreeTermsWriter}).
 *
 * <p>Iteration: {@code nextDoc()} increments an index into the current block; {@code
 * advance(target)} finds the target's block in the term's skip table (the last doc ID of every
 * block) and the doc inside the block, both with {@code VectorUtil.findNextGEQ}. {@code
 * nextPostings} returns the rest of the current block per call, {@code intoBitSet} ORs bit-set
 * blocks word by word, {@code docIDRunEnd} finds runs of consecutive doc IDs in the block and the
 * skip table. Per block, and per group of {@value #BLOCKS_PER_GROUP} blocks (8192 documents), one
 * cache line holds the competitive (freq, norm) pairs, so block-max WAND and MAXSCORE skip
 * non-competitive blocks with one cache-line read, as with Lucene104's two impact levels.
 *
 * <p>Files and detailed format (all integers are little-endian; {@code Int32}/{@code Int64} are
 * {@link DataOutput#writeInt} / {@link DataOutput#writeLong}):
 *
 * <ul>
 *   <li><code>.tim</code>, <code>.tip</code>, <code>.tmd</code>: the terms dictionary and its
 *       index, see {@link Lucene103BlockTreeTermsWriter}.
 *   <li><code>.nvdoc</code>: <a href="#Docs">Doc ID and frequency blocks</a>
 *   <li><code>.nvskp</code>: <a href="#Skip">Skip tables and impacts</a>
 *   <li><code>.nvpos</code>: <a href="#Positions">Positions, or position records with offsets
 *       and payload boundaries</a>
 *   <li><code>.nvpay</code>: <a href="#Payloads">Payload bytes</a>
 *   <li><code>.nvrun</code> and <code>.r&lt;k&gt;.nvdoc</code>, <code>.r&lt;k&gt;.nvskp</code>,
 *       <code>.r&lt;k&gt;.nvpos</code>, <code>.r&lt;k&gt;.nvpay</code>: the run table and the runs of
 *       a <a href="#Linked">linked segment</a>, in place of the four files above
 * </ul>
 *
 * <p>The files <code>.nvdoc</code> and <code>.nvskp</code> always exist, <code>.nvpos</code> when one
 * indexes positions,
 * <code>.nvpay</code> when one has payloads. Every file starts with a {@link
 * CodecUtil#writeIndexHeader IndexHeader} (segment id and suffix), is zero-padded to a multiple of
 * 8 bytes after it, and ends with a {@link CodecUtil#writeFooter CodecFooter} (CRC32 checksum).
 *
 * <dl>
 *   <dd><b>Term metadata</b> (in the terms dictionary)
 *       <ul>
 *         <li>PostingsHeader --&gt; IndexHeader, BlockSize
 *         <li>TermMetadata --&gt; DocFPDelta, SkipFPDelta?, PosFPDelta?, PayFPDelta?
 *         <li>BlockSize --&gt; {@link DataOutput#writeVInt VInt}, currently {@value #BLOCK_SIZE}
 *         <li>*FPDelta --&gt; {@link DataOutput#writeVLong VLong}: the difference between the
 *             term's start pointer into the file and the previous term's (absolute for the first
 *             term of a block). DocFP is the start of the term's first block. SkipFPDelta is
 *             written when the term has more than
 *             BlockSize documents (otherwise SkipFP is the previous term's, and unused),
 *             PosFPDelta when the field indexes positions, PayFPDelta when it has payloads.
 *       </ul>
 * </dl>
 *
 * <a id="Docs"></a>
 *
 * <dl>
 *   <dd><b>Doc ID and frequency blocks</b>
 *       <ul>
 *         <li>DocFile(.nvdoc) --&gt; Header, Padding, &lt;TermDocs&gt;<sup>TermCount</sup>, Footer
 *         <li>TermDocs --&gt; DocBlock<sup>NumBlocks</sup>, FreqBlock<sup>NumBlocks</sup>? if
 *             the term has SkipData, else DocBlock, FreqBlock?
 *         <li>DocBlock --&gt; Int32Block | Delta16Block | Delta8Block | BitSetBlock
 *         <li>Int32Block --&gt; Int32<sup>BlockDocCount</sup>: strictly increasing absolute doc
 *             IDs
 *         <li>Delta16Block --&gt; Int16<sup>BlockDocCount</sup>: unsigned differences between
 *             each doc ID and the one before it (PreviousLastDoc for the block's first doc)
 *         <li>Delta8Block --&gt; byte<sup>BlockDocCount</sup>: the same differences, unsigned, one
 *             byte each
 *         <li>BitSetBlock --&gt; Padding, Int64<sup>ceil(Span / 64)</sup>: bit {@code i} (bit
 *             {@code i % 64} of word {@code i / 64}) set if doc {@code PreviousLastDoc + 1 + i} is
 *             in the block
 *         <li>FreqBlock --&gt; FreqWidth (byte: 0, 1, 2 or 4), FreqNibbles |
 *             Freq<sup>BlockDocCount</sup>: the frequency of each doc of the block (only for fields
 *             that index frequencies)
 *         <li>FreqNibbles --&gt; byte<sup>ceil(BlockDocCount / 2)</sup>, if FreqWidth is 0: byte
 *             {@code j} holds the freq of doc {@code j} of the block in its low 4 bits and, in its
 *             high 4 bits, the freq of doc {@code j + ceil(BlockDocCount / 2)} (0 if the block has
 *             no such doc)
 *         <li>Freq --&gt; unsigned, FreqWidth bytes, if FreqWidth is 1, 2 or 4
 *       </ul>
 *       <p>Notes:
 *       <ul>
 *         <li>Block {@code b} holds the documents at indexes {@code [b*BlockSize, (b+1)*BlockSize)}
 *             of the term, so NumBlocks = ceil(DocFreq / BlockSize) and BlockDocCount is BlockSize
 *             except for the last block.
 *         <li>Span = LastDoc[b] - PreviousLastDoc, where PreviousLastDoc is LastDoc[b-1] (-1 for
 *             the first block). If the term has SkipData, a block is a BitSetBlock if it is full
 *             and Span &lt;= {@value #MAX_BIT_SET_SPAN}, else a Delta16Block if Span &lt;=
 *             {@value #MAX_DELTA16_SPAN}, else an Int32Block: a reader decides from the skip table
 *             alone. A block that would be a Delta16Block is a Delta8Block if each of its
 *             differences is at most {@value #MAX_DELTA8} (a term in more than about one document
 *             in 256 that is too sparse for bit sets); its BlockDocPointer says so. Bit sets are
 *             8-byte aligned (zero padding).
 *         <li>Terms of at most BlockSize documents are one Int32Block (and its FreqBlock) at
 *             DocFP.
 *         <li>A term with SkipData stores all its DocBlocks first, back to back, then the
 *             FreqBlocks of its blocks in the same order; BlockFreqFP in the SkipData points to
 *             each. So an advance over a frequent term's blocks reads one dense stream of doc IDs
 *             (a block's freqs no longer lie between two blocks' doc IDs), and
 *             freqs are fetched only for the blocks that need them. A single-block term's
 *             FreqBlock follows its Int32Block. FreqWidth is 0 if the block's largest freq is at
 *             most {@value #MAX_NIBBLE_FREQ} (4 bits per freq, as short text mostly has), else the
 *             fewest bytes that hold it. Nibbles pair doc {@code j} with the doc half a block
 *             later, so that both halves unpack in plain loops over consecutive bytes and one freq
 *             read in place is one byte.
 *       </ul>
 * </dl>
 *
 * <a id="Skip"></a>
 *
 * <dl>
 *   <dd><b>Skip tables and impacts</b>
 *       <ul>
 *         <li>SkipFile(.nvskp) --&gt; Header, Padding, &lt;SkipData&gt;<sup>TermCount'</sup>,
 *             Footer
 *         <li>SkipData --&gt; Padding, BlockImpacts?, GroupImpacts?, LastDoc<sup>NumBlocks</sup>,
 *             Padding, BlockDocPointer<sup>NumBlocks</sup>, BlockPosPointer<sup>NumBlocks</sup>?,
 *             BlockFreqFP<sup>NumBlocks</sup>?
 *         <li>BlockImpacts --&gt; ImpactLine<sup>NumBlocks</sup>
 *         <li>GroupImpacts --&gt; ImpactLine<sup>NumGroups</sup>
 *         <li>ImpactLine --&gt; 64 bytes: Count (byte), NormWidth (byte), 0 (byte), 0 (byte),
 *             Freq (Int32)<sup>Count</sup>, Norm<sup>Count</sup>, zero padding
 *         <li>LastDoc --&gt; Int32; BlockDocPointer, BlockPosPointer, BlockFreqFP --&gt; Int64
 *       </ul>
 *       <p>Notes:
 *       <ul>
 *         <li>Only terms of more than BlockSize documents (TermCount' of them) have SkipData; it
 *             starts 64-byte aligned, so every ImpactLine is one cache line.
 *         <li>Group {@code g} holds blocks {@code [g*32, (g+1)*32)}: NumGroups = ceil(NumBlocks /
 *             32). BlockImpacts and GroupImpacts exist when the field indexes frequencies.
 *         <li>An ImpactLine holds the competitive (freq, norm) pairs of its block or group,
 *             computed with {@link CompetitiveImpactAccumulator}, in increasing order of freq and
 *             unsigned norm. Norm is a signed byte if NormWidth is 1 (up to 12 pairs), else an
 *             Int32 (up to 7 pairs). Longer lists are merged pairwise into (higher freq, lower
 *             norm), and a list with a norm outside Int32 becomes the single pair (highest freq,
 *             0): the line always bounds the scores of its range from above.
 *         <li>LastDoc is the last doc ID of each block, searched with {@code
 *             VectorUtil.findNextGEQ}; BlockDocPointer is BlockDocFP &lt;&lt; 1, plus 1 if the
 *             block is a Delta8Block, where BlockDocFP is the absolute start of the DocBlock in the
 *             doc file; BlockPosPointer, for fields that index positions, is BlockPosFP if the
 *             field has PositionBlocks (the absolute start of the block's PositionBlock in the
 *             position file), else BlockPosStart (the index, within the term, of the first
 *             position of the block's first document); BlockFreqFP, for fields that index
 *             frequencies, the absolute start of each FreqBlock in the doc file.
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
 *         <li>TermPositions --&gt; PositionBlock<sup>NumBlocks</sup> |
 *             PositionRecord<sup>TotalTermFreq</sup>
 *         <li>PositionBlock --&gt; PosWidth (byte: 1, 2 or 4), Position<sup>BlockPositionCount</sup>:
 *             the positions of the block's documents, unsigned, PosWidth bytes each
 *         <li>PositionRecord --&gt; Position, StartOffset?, EndOffset?, PayloadEnd?
 *         <li>Position (in a record), StartOffset, EndOffset --&gt; Int32; PayloadEnd --&gt; Int64
 *       </ul>
 *       <p>Notes:
 *       <ul>
 *         <li>A field that indexes positions but neither offsets nor payloads has PositionBlocks:
 *             one per doc block, written after the block's documents are known; PosWidth is the
 *             fewest bytes that hold the block's largest position, BlockPositionCount the sum of
 *             the block's freqs. The first PositionBlock of a term is at PosFP, block {@code b}'s at
 *             BlockPosFP[b], and position {@code i} of the block (counting from the block's first
 *             document) at {@code BlockPosFP[b] + 1 + i * PosWidth}.
 *         <li>Other fields that index positions have PositionRecords, ordered by document, then by
 *             position; every record of a field has the same width, so position {@code p} of the
 *             term is at {@code PosFP + p * width}.
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
 * <a id="Linked"></a>
 *
 * <dl>
 *   <dd><b>Linked segments</b>
 *       <p>A merge with {@link MergeMode#LINK} writes no postings when it can: the merged
 *       segment's postings are its sources' data files, each source's four (or fewer) files one
 *       <i>run</i>, cloned into the merged segment with {@link
 *       org.apache.lucene.store.Directory#copyFrom Directory.copyFrom} (which a directory may
 *       implement by sharing storage: the clone is byte for byte its source, header included). A
 *       source that is itself linked contributes its runs, with its doc base added to theirs, so
 *       runs never nest. Only the run table and the terms dictionary are written: the union of the
 *       sources' terms, each mapped to the runs that hold it, with the term's metadata in each. A
 *       term's postings in the merged segment are its postings in each of its runs, in run order,
 *       each run's doc IDs plus the run's DocBase.
 *       <p>The merge links when no source has deletions, the index is not sorted, every source
 *       wrote its postings of the merged fields with this format under one segment suffix, with
 *       the same index options and payloads as the merged segment, and no term would be in more
 *       than {@code maxRunsPerTerm} runs ({@link #NvmPostingsFormat(MergeMode, int)}); otherwise
 *       it copies (Lucene's merge, which also compacts chains of runs). The merged segment must
 *       not become a compound file (see {@link MergeMode#LINK}). A linked segment is marked by the
 *       {@link SegmentInfo} attribute {@value #LINKED_ATTRIBUTE_PREFIX}&lt;segment suffix&gt;,
 *       whose value is the number of runs; reading depends only on that mark.
 *       <ul>
 *         <li>RunFile(.nvrun) --&gt; Header, RunCount, &lt;Run&gt;<sup>RunCount</sup>, Footer
 *         <li>Run --&gt; SegmentId, Suffix, DocBase, MaxDoc, Files
 *         <li>RunCount, DocBase, MaxDoc --&gt; {@link DataOutput#writeVInt VInt}
 *         <li>SegmentId --&gt; byte<sup>16</sup>; Suffix --&gt; {@link DataOutput#writeString
 *             String}: the segment id and suffix in the headers of the run's files (those of the
 *             segment that wrote them)
 *         <li>Files --&gt; byte: bit 0 .nvdoc, bit 1 .nvskp, bit 2 .nvpos, bit 3 .nvpay (the first
 *             two always set)
 *         <li>Run {@code k}'s files are named
 *             <code>&lt;segment&gt;_&lt;suffix&gt;.r&lt;k&gt;.&lt;extension&gt;</code>, each with
 *             the layout above; its documents are the merged segment's doc IDs {@code [DocBase,
 *             DocBase + MaxDoc)}; runs are in increasing, non-overlapping doc ranges (a source
 *             without postings of the format has no run).
 *         <li>LinkedPostingsHeader --&gt; IndexHeader, BlockSize
 *         <li>LinkedTermMetadata --&gt; &lt;RunCode, RunStats?, SkipFPDelta?, PosFPDelta?,
 *             PayFPDelta?&gt;<sup>TermRunCount</sup>
 *         <li>RunCode --&gt; {@link DataOutput#writeVLong VLong}: (DocFPDelta &lt;&lt; 1 | More)
 *             &lt;&lt; RunBits | RunIndex
 *         <li>RunStats --&gt; RunDocFreq | StatsCode, RunTotalTermFreqDelta?
 *         <li>RunDocFreq, StatsCode --&gt; {@link DataOutput#writeVInt VInt};
 *             RunTotalTermFreqDelta, *FPDelta --&gt; {@link DataOutput#writeVLong VLong}
 *       </ul>
 *       <p>Notes:
 *       <ul>
 *         <li>A term has one entry per run holding it (TermRunCount of them), in strictly
 *             increasing RunIndex order. More is 1 on every entry but the term's last. RunBits is
 *             the bit length of RunCount - 1 (0 for one run). A term in one run (most terms of most
 *             text) thus costs its TermMetadata in that run plus RunBits + 1 bits in DocFPDelta.
 *         <li>RunStats, the run's docFreq and totalTermFreq, follow the entries whose More is 1
 *             (the last run has the term's docFreq and totalTermFreq less the other runs'):
 *             RunDocFreq for a field without freqs, else StatsCode = RunDocFreq &lt;&lt; 1 | 1
 *             when the run's totalTermFreq equals its docFreq, or RunDocFreq &lt;&lt; 1 followed
 *             by RunTotalTermFreqDelta (totalTermFreq minus docFreq).
 *         <li>The *FPDeltas are the term's TermMetadata in the run, as deltas from the pointers of
 *             the previous term of the terms block that is in the same run (from zeros for the
 *             first of the block in that run): SkipFPDelta when the run's docFreq exceeds
 *             BlockSize (otherwise the run's SkipFP stays the previous term's, and is unused),
 *             PosFPDelta when the field indexes positions, PayFPDelta when it has payloads.
 *         <li>The field's docCount in the terms dictionary is the sum of the sources' docCounts
 *             (exact: their doc ranges are disjoint and nothing is deleted).
 *         <li>A term in one run at DocBase 0 is read exactly as in an unlinked segment; other
 *             terms walk their runs, skipping a run whole when an advance target is past its doc
 *             range. Impacts are the current run's, and no level reaches past the run's last doc.
 *       </ul>
 * </dl>
 *
 * <p>Versions: {@value #VERSION_START} (format v1: flat doc and freq arrays, 128-doc impact lists,
 * <code>.nvimp</code>), {@value #VERSION_BLOCKS} (format v2: Int32 doc IDs in every block that is
 * not a bit set, Int32 freqs in a <code>.nvfrq</code> file), {@value #VERSION_NARROW_BLOCKS}
 * (format v3: PositionRecords of Int32 positions for every field), {@value
 * #VERSION_POSITION_BLOCKS} (format v4: each block's FreqBlock right after its DocBlock), {@value
 * #VERSION_SEPARATE_FREQS} (format v5: FreqBlocks after all the term's DocBlocks, 1, 2 or 4 bytes
 * per freq), {@value #VERSION_NIBBLE_FREQS} (format v6: 4-bit freqs, BlockDocFP in place of
 * BlockDocPointer, no Delta8Blocks), {@value #VERSION_DELTA8} (format v7: the layout above).
 * Versions 1 to 6 were never released and are not readable: opening them throws {@link
 * org.apache.lucene.index.IndexFormatTooOldException}; reindex.
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

  /** Extension of the skip and impacts file. */
  public static final String SKIP_EXTENSION = "nvskp";

  /** Extension of the position file. */
  public static final String POS_EXTENSION = "nvpos";

  /** Extension of the payload file. */
  public static final String PAY_EXTENSION = "nvpay";

  /** Extension of the run table of a linked segment. */
  public static final String RUNS_EXTENSION = "nvrun";

  /**
   * Prefix of the {@link SegmentInfo} attribute that marks a linked segment: the attribute's name
   * is this prefix followed by the segment suffix of the format's files (e.g. {@code
   * NvmUncompressed_0} under {@code PerFieldPostingsFormat}), its value the number of runs.
   */
  public static final String LINKED_ATTRIBUTE_PREFIX = "NvmPostingsFormat.runs.";

  /** Default of the largest number of runs of a term in a linked segment. */
  public static final int DEFAULT_MAX_RUNS_PER_TERM = 8;

  /** How a merge writes the postings of this format. Reading never depends on it. */
  public enum MergeMode {
    /**
     * Link the sources' postings when the merge allows it (see the class javadoc), else copy. The
     * merged segment must not become a compound file: configure the merge policy with {@code
     * setNoCFSRatio(0)}. (A compound file's writer checks that every file's header holds the
     * segment's id; a linked segment's run files are clones of its sources' files and hold theirs,
     * so building the compound file fails and the merge with it.)
     */
    LINK,
    /** Always copy: Lucene's merge, which re-writes every posting (and compacts chains of runs). */
    COPY
  }

  static final String TERMS_CODEC = "NvmPostingsTerms";
  static final String LINKED_TERMS_CODEC = "NvmPostingsLinkedTerms";
  static final String RUNS_CODEC = "NvmPostingsRuns";
  static final String DOC_CODEC = "NvmPostingsDoc";
  static final String SKIP_CODEC = "NvmPostingsSkip";
  static final String POS_CODEC = "NvmPostingsPos";
  static final String PAY_CODEC = "NvmPostingsPay";

  /** Version 1 of the format: flat doc and freq arrays, 128-doc impact blocks. Not readable. */
  static final int VERSION_START = 0;

  /** Version 2 of the format: 256-doc blocks, skip table, impact lines, bit-set blocks. */
  static final int VERSION_BLOCKS = 1;

  /**
   * Version 3 of the format: 16-bit doc ID deltas where a block's span allows, freqs of 1, 2 or 4
   * bytes after each doc block (no <code>.nvfrq</code> file).
   */
  static final int VERSION_NARROW_BLOCKS = 2;

  /**
   * Version 4 of the format: positions of fields without offsets and payloads in PositionBlocks of
   * 1, 2 or 4 bytes per position, one per doc block, located by BlockPosFP.
   */
  static final int VERSION_POSITION_BLOCKS = 3;

  /**
   * Version 5 of the format: a multi-block term's FreqBlocks after all its DocBlocks, located by
   * BlockFreqFP in the SkipData.
   */
  static final int VERSION_SEPARATE_FREQS = 4;

  /** Version 6 of the format: 4-bit freqs (FreqWidth 0) in blocks whose freqs are all small. */
  static final int VERSION_NIBBLE_FREQS = 5;

  /**
   * Version 7 of the format: Delta8Blocks, flagged in the BlockDocPointer that replaces BlockDocFP.
   */
  static final int VERSION_DELTA8 = 6;

  static final int VERSION_CURRENT = VERSION_DELTA8;

  /** FreqWidth of a FreqBlock of 4-bit freqs, two per byte (FreqNibbles). */
  static final int FREQ_NIBBLES = 0;

  /** Largest freq of a block whose freqs are 4-bit nibbles. */
  static final int MAX_NIBBLE_FREQ = 0xF;

  /** Alignment of the data that follows each file header and of bit-set blocks. */
  static final int ALIGNMENT = Long.BYTES;

  /** Alignment of each term's SkipData, so that every impact line is one cache line. */
  static final int SKIP_ALIGNMENT = ImpactLine.BYTES;

  private final int minTermBlockSize;
  private final int maxTermBlockSize;
  private final MergeMode mergeMode;
  private final int maxRunsPerTerm;

  /**
   * Creates the format with the block-tree terms dictionary's default block sizes and copying
   * merges ({@link MergeMode#COPY}): linking needs a merge policy without compound files, which
   * only the writer's configuration can promise, so it is chosen with {@link
   * #NvmPostingsFormat(MergeMode, int)}.
   */
  public NvmPostingsFormat() {
    this(MergeMode.COPY, DEFAULT_MAX_RUNS_PER_TERM);
  }

  /**
   * Creates the format with the terms dictionary's default block sizes and the given merge mode.
   *
   * @param maxRunsPerTerm with {@link MergeMode#LINK}, a merge in which some term would be in more
   *     runs copies instead (a long chain of runs reads slowly); at least 1
   */
  public NvmPostingsFormat(MergeMode mergeMode, int maxRunsPerTerm) {
    this(
        Lucene103BlockTreeTermsWriter.DEFAULT_MIN_BLOCK_SIZE,
        Lucene103BlockTreeTermsWriter.DEFAULT_MAX_BLOCK_SIZE,
        mergeMode,
        maxRunsPerTerm);
  }

  /**
   * Creates the format with custom block sizes for the terms dictionary and copying merges.
   *
   * @see Lucene103BlockTreeTermsWriter#validateSettings(int, int)
   */
  public NvmPostingsFormat(int minTermBlockSize, int maxTermBlockSize) {
    this(minTermBlockSize, maxTermBlockSize, MergeMode.COPY, DEFAULT_MAX_RUNS_PER_TERM);
  }

  private NvmPostingsFormat(
      int minTermBlockSize, int maxTermBlockSize, MergeMode mergeMode, int maxRunsPerTerm) {
    super(NAME);
    Lucene103BlockTreeTermsWriter.validateSettings(minTermBlockSize, maxTermBlockSize);
    if (maxRunsPerTerm < 1) {
      throw new IllegalArgumentException("maxRunsPerTerm must be >= 1; got " + maxRunsPerTerm);
    }
    this.minTermBlockSize = minTermBlockSize;
    this.maxTermBlockSize = maxTermBlockSize;
    this.mergeMode = Objects.requireNonNull(mergeMode, "mergeMode");
    this.maxRunsPerTerm = maxRunsPerTerm;
  }

  /**
   * This format with another merge mode and bound, and the same terms-dictionary block sizes (the
   * files it writes and reads are the same).
   */
  public NvmPostingsFormat withMergeMode(MergeMode mode, int maxRunsPerTerm) {
    return new NvmPostingsFormat(minTermBlockSize, maxTermBlockSize, mode, maxRunsPerTerm);
  }

  /**
   * Whether {@code fileName} names a run file of a linked segment: a clone of a source segment's
   * data file, sharing its bytes, which the linked merge did not write.
   */
  public static boolean isRunFile(String fileName) {
    return RunTable.isRunFileName(fileName);
  }

  /** Whether some postings of the segment {@code segmentInfo} describes are linked (not copied). */
  public static boolean isLinked(SegmentInfo segmentInfo) {
    return segmentInfo.getAttributes().keySet().stream()
        .anyMatch(name -> name.startsWith(LINKED_ATTRIBUTE_PREFIX));
  }

  /** Whether the segment with suffix {@code segmentSuffix} is linked: see {@link #markLinked}. */
  static boolean isLinked(SegmentInfo segmentInfo, String segmentSuffix) {
    return segmentInfo.getAttribute(LINKED_ATTRIBUTE_PREFIX + segmentSuffix) != null;
  }

  /** Marks the segment linked, with {@code runCount} runs, in an attribute of its SegmentInfo. */
  static void markLinked(SegmentInfo segmentInfo, String segmentSuffix, int runCount) {
    segmentInfo.putAttribute(LINKED_ATTRIBUTE_PREFIX + segmentSuffix, Integer.toString(runCount));
  }

  @Override
  public FieldsConsumer fieldsConsumer(SegmentWriteState state) {
    return new FieldsConsumer() {
      /** The copying writer, created when postings are written (flush, or a copying merge). */
      private FieldsConsumer copying;

      @Override
      public void write(Fields fields, NormsProducer norms) throws IOException {
        if (copying == null) {
          copying = copyingConsumer(state);
        }
        copying.write(fields, norms);
      }

      @Override
      public void merge(MergeState mergeState, NormsProducer norms) throws IOException {
        LinkedMerge linked =
            mergeMode == MergeMode.LINK ? LinkedMerge.plan(mergeState, maxRunsPerTerm) : null;
        if (linked != null) {
          linked.write(state, norms, minTermBlockSize, maxTermBlockSize);
        } else {
          super.merge(mergeState, norms);
        }
      }

      @Override
      public void close() throws IOException {
        IOUtils.close(copying);
      }
    };
  }

  private FieldsConsumer copyingConsumer(SegmentWriteState state) throws IOException {
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
   * Largest span of doc IDs of a block of a term with SkipData that is stored as 16-bit deltas
   * (every delta is at most the span).
   */
  static final int MAX_DELTA16_SPAN = 0xFFFF;

  /** Largest difference between consecutive doc IDs of a Delta8Block. */
  static final int MAX_DELTA8 = 0xFF;

  /** How the doc IDs of a block are stored. */
  enum DocEncoding {
    /** Bit set over the block's span: full blocks spanning at most 2048 doc IDs. */
    BIT_SET,
    /** 8-bit deltas: other blocks whose doc IDs are each at most 255 after the one before. */
    DELTA8,
    /** 16-bit deltas: other blocks spanning at most 65535 doc IDs. */
    DELTA16,
    /** Absolute Int32 doc IDs: all other blocks, and the single block of a term without SkipData. */
    INT32
  }

  /**
   * How a block is stored: only blocks of terms with SkipData (more than one block) are bit sets
   * (if full, spanning at most {@link #MAX_BIT_SET_SPAN} doc IDs), 8-bit deltas (if {@code
   * byteDeltas}, where 16-bit deltas would be used) or 16-bit deltas (spanning at most {@link
   * #MAX_DELTA16_SPAN}). The span is {@code lastDoc - previousLastDoc} (previousLastDoc is -1 for
   * the first block). The writer passes whether every delta of the block is at most {@value
   * #MAX_DELTA8}, a reader the flag of the block's BlockDocPointer, and checks that the flag is set
   * only where this method returns {@link DocEncoding#DELTA8}.
   */
  static DocEncoding docEncoding(
      int count, boolean termHasSkipData, int span, boolean byteDeltas) {
    if (termHasSkipData == false) {
      return DocEncoding.INT32;
    }
    if (count == BLOCK_SIZE && span <= MAX_BIT_SET_SPAN) {
      return DocEncoding.BIT_SET;
    }
    if (span > MAX_DELTA16_SPAN) {
      return DocEncoding.INT32;
    }
    return byteDeltas ? DocEncoding.DELTA8 : DocEncoding.DELTA16;
  }

  /** BlockDocPointer of a DocBlock that starts at {@code blockDocFP}: see the class javadoc. */
  static long blockDocPointer(long blockDocFP, DocEncoding encoding) {
    return blockDocFP << 1 | (encoding == DocEncoding.DELTA8 ? 1 : 0);
  }

  /** BlockDocFP of a {@link #blockDocPointer}: where its DocBlock starts in the doc file. */
  static long blockDocFP(long blockDocPointer) {
    return blockDocPointer >>> 1;
  }

  /** Whether a {@link #blockDocPointer} flags its DocBlock as a Delta8Block. */
  static boolean hasByteDeltas(long blockDocPointer) {
    return (blockDocPointer & 1) != 0;
  }

  /**
   * FreqWidth of a block whose largest freq is {@code maxFreq}: {@link #FREQ_NIBBLES} up to {@value
   * #MAX_NIBBLE_FREQ}, else its {@link #valueWidth}.
   */
  static int freqWidth(int maxFreq) {
    return maxFreq <= MAX_NIBBLE_FREQ ? FREQ_NIBBLES : valueWidth(maxFreq);
  }

  /**
   * Bytes of the FreqNibbles of a block of {@code count} docs, ceil(count / 2): also the index of
   * the first doc whose freq is a high nibble.
   */
  static int nibbleBytes(int count) {
    return (count + 1) >>> 1;
  }

  /**
   * Width in bytes (1, 2 or 4) of the freqs or positions of a block whose largest is {@code max}
   * (a non-negative int).
   */
  static int valueWidth(int max) {
    if (max <= 0xFF) {
      return Byte.BYTES;
    }
    return max <= 0xFFFF ? Short.BYTES : Integer.BYTES;
  }

  /**
   * Whether a field's positions are stored as PositionBlocks (it indexes positions but neither
   * offsets nor payloads), else as fixed-width PositionRecords.
   */
  static boolean hasPositionBlocks(FieldInfo field) {
    return field.getIndexOptions() == IndexOptions.DOCS_AND_FREQS_AND_POSITIONS
        && field.hasPayloads() == false;
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
