package org.lucenenvm.codec;

import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.PostingsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104PostingsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FreqAndNormBuffer;
import org.apache.lucene.index.Impacts;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;
import org.lucenenvm.codec.NvmPostingsFormat.MergeMode;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.PoolPaths;

/**
 * Linked merges of {@link NvmPostingsFormat} against copying merges of the same source segments:
 * the same terms, statistics, postings, positions, offsets, payloads, advance results and search
 * scores; impacts that bound every document; CheckIndex; chains of linked merges, the bound on
 * runs per term, and deletions, which make the merge copy.
 */
public class TestNvmLinkedMerge extends LuceneTestCase {

  /** A field whose terms are each in one source segment only, plus one term in every document. */
  private static final String SEGMENT = "segment";

  public void testLinkedMergeEqualsCopyingMerge() throws IOException {
    try (Directory sources = newDirectory()) {
      int segments = TestUtil.nextInt(random(), 2, 5);
      addSegments(sources, 0, segments);
      mergeBothWays(sources, segments);
    }
  }

  public void testRunFilesAreRecognizedByName() {
    assertTrue(NvmPostingsFormat.isRunFile(RunTable.runFileName("_4", "NvmUncompressed_0", 1, "nvskp")));
    assertTrue(NvmPostingsFormat.isRunFile(RunTable.runFileName("_a", "NvmUncompressed_0", 12, "nvdoc")));
    assertFalse(NvmPostingsFormat.isRunFile("_4_NvmUncompressed_0.nvskp"));
    assertFalse(NvmPostingsFormat.isRunFile("_4_NvmUncompressed_0.nvrun"));
  }

  public void testNoArgumentFormatCopiesAndBoundIsChecked() throws IOException {
    try (Directory dir = newDirectory()) {
      addSegments(dir, 0, 2);
      LogDocMergePolicy policy = new LogDocMergePolicy();
      policy.setNoCFSRatio(0);
      IndexWriterConfig config =
          new IndexWriterConfig(RandomDocs.analyzer(random()))
              .setCodec(new NvmCodec())
              .setMergePolicy(policy);
      try (IndexWriter writer = new IndexWriter(dir, config)) {
        writer.forceMerge(1);
      }
      assertEquals(0, runCount(dir));
    }
    IllegalArgumentException e =
        expectThrows(
            IllegalArgumentException.class, () -> new NvmPostingsFormat(MergeMode.LINK, 0));
    assertTrue(e.getMessage(), e.getMessage().contains("maxRunsPerTerm"));
  }

  /**
   * A linked merge inside an {@link NvmDirectory}, whose sources and merged segment share the
   * directory (where {@code copyFrom} may clone without copying), reopened from the pool.
   */
  public void testLinkedMergeOnNvmDirectory() throws IOException {
    Path pool = PoolPaths.poolIn(createTempDir("linked-on-nvm"));
    int segments = TestUtil.nextInt(random(), 2, 4);
    try (Directory copied = newDirectory()) {
      try (NvmDirectory nvm = NvmDirectory.open(pool, 256L << 20)) {
        addSegments(nvm, 0, segments);
        copyAll(nvm, copied);
        forceMerge(nvm, MergeMode.LINK, NvmPostingsFormat.DEFAULT_MAX_RUNS_PER_TERM);
      }
      forceMerge(copied, MergeMode.COPY, NvmPostingsFormat.DEFAULT_MAX_RUNS_PER_TERM);
      try (NvmDirectory nvm = NvmDirectory.open(pool, 0)) {
        assertEquals(segments, runCount(nvm));
        TestUtil.checkIndex(nvm);
        assertSameIndex(nvm, copied);
      }
    }
  }

  /**
   * A damaged run table fails on open (it is checksummed then), a damaged byte of a run's data
   * fails checkIntegrity, a run file whose header names another segment fails on open.
   */
  public void testDamagedLinkedSegmentIsReported() throws IOException {
    try (Directory dir = new ByteBuffersDirectory()) {
      addSegments(dir, 0, TestUtil.nextInt(random(), 2, 3));
      forceMerge(dir, MergeMode.LINK, NvmPostingsFormat.DEFAULT_MAX_RUNS_PER_TERM);
      assertTrue(runCount(dir) > 1);
      String runTable = filesEndingWith(dir, "." + NvmPostingsFormat.RUNS_EXTENSION).get(0);
      long runTableData = CodecUtil.headerLength(NvmPostingsFormat.RUNS_CODEC) + 1;
      TestNvmPostingsCorruption.flipByte(dir, runTable, runTableData);
      expectThrows(CorruptIndexException.class, () -> DirectoryReader.open(dir).close());
      TestNvmPostingsCorruption.flipByte(dir, runTable, runTableData);

      String runDocs = filesEndingWith(dir, ".r1." + NvmPostingsFormat.DOC_EXTENSION).get(0);
      String segment = IndexFileNames.parseSegmentName(runDocs);
      String suffix = IndexFileNames.stripExtension(runDocs).substring(segment.length() + 1);
      long dataStart = CodecUtil.indexHeaderLength(NvmPostingsFormat.DOC_CODEC, suffix);
      long dataEnd = dir.fileLength(runDocs) - CodecUtil.footerLength();
      long position = dataStart + random().nextLong(dataEnd - dataStart);
      TestNvmPostingsCorruption.flipByte(dir, runDocs, position);
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        expectThrows(
            CorruptIndexException.class, () -> getOnlyLeafReader(reader).checkIntegrity());
      }
      TestNvmPostingsCorruption.flipByte(dir, runDocs, position);

      long segmentIdByte = CodecUtil.headerLength(NvmPostingsFormat.DOC_CODEC) + 3;
      TestNvmPostingsCorruption.flipByte(dir, runDocs, segmentIdByte);
      CorruptIndexException e =
          expectThrows(CorruptIndexException.class, () -> DirectoryReader.open(dir).close());
      assertTrue(e.getMessage(), e.getMessage().contains("file mismatch"));
      TestNvmPostingsCorruption.flipByte(dir, runDocs, segmentIdByte);
      TestUtil.checkIndex(dir);
    }
  }

  private static List<String> filesEndingWith(Directory dir, String end) throws IOException {
    List<String> files = new ArrayList<>();
    for (String file : dir.listAll()) {
      if (file.endsWith(end)) {
        files.add(file);
      }
    }
    assertFalse(end, files.isEmpty());
    return files;
  }

  /**
   * Force-merges copies of {@code sources} with a linked and with a copying merge, checks that the
   * linked merge has {@code expectedRuns} runs (0: it copied) and that both indexes are the same.
   */
  private static void mergeBothWays(Directory sources, int expectedRuns) throws IOException {
    try (Directory linked = copyOf(sources);
        Directory copied = copyOf(sources)) {
      forceMerge(linked, MergeMode.LINK, NvmPostingsFormat.DEFAULT_MAX_RUNS_PER_TERM);
      forceMerge(copied, MergeMode.COPY, NvmPostingsFormat.DEFAULT_MAX_RUNS_PER_TERM);
      assertEquals(expectedRuns, runCount(linked));
      assertEquals(0, runCount(copied));
      assertSameIndex(linked, copied);
    }
  }

  public void testLinkedMergeOfLinkedSegmentFlattensItsRuns() throws IOException {
    mergeTwice(0);
  }

  public void testMergeBeyondMaxRunsPerTermCopies() throws IOException {
    // The term "all" of SEGMENT is in every run: the second merge would give it one too many.
    mergeTwice(1);
  }

  /**
   * Merges some segments, then the result with more segments, both linked with a bound of {@code
   * excess} runs per term fewer than the second merge needs, and both copied: the first merge
   * links; the second links, flattening the first's runs, if {@code excess} is 0, else copies.
   */
  private void mergeTwice(int excess) throws IOException {
    try (Directory first = newDirectory();
        Directory second = newDirectory()) {
      int firstSegments = TestUtil.nextInt(random(), 2, 4);
      int secondSegments = TestUtil.nextInt(random(), 1, 3);
      addSegments(first, 0, firstSegments);
      addSegments(second, firstSegments, secondSegments);
      int bound = firstSegments + secondSegments - excess;
      try (Directory linked = copyOf(first);
          Directory copied = copyOf(first)) {
        forceMerge(linked, MergeMode.LINK, bound);
        forceMerge(copied, MergeMode.COPY, bound);
        assertEquals(firstSegments, runCount(linked));
        addIndexes(linked, second);
        addIndexes(copied, second);
        forceMerge(linked, MergeMode.LINK, bound);
        forceMerge(copied, MergeMode.COPY, bound);
        assertEquals(excess == 0 ? firstSegments + secondSegments : 0, runCount(linked));
        assertSameIndex(linked, copied);
      }
    }
  }

  public void testSourceWithDeletionsCopies() throws IOException {
    try (Directory sources = newDirectory()) {
      int segments = TestUtil.nextInt(random(), 2, 4);
      int docs = addSegments(sources, 0, segments);
      try (IndexWriter writer =
          new IndexWriter(sources, config(MergeMode.COPY, 8, NoMergePolicy.INSTANCE))) {
        writer.deleteDocuments(new Term(RandomDocs.ID, Integer.toString(random().nextInt(docs))));
      }
      mergeBothWays(sources, 0);
    }
  }

  public void testSourceInAnotherFormatCopies() throws IOException {
    try (Directory sources = newDirectory()) {
      PostingsFormat nvm = new NvmPostingsFormat();
      PostingsFormat lucene = new Lucene104PostingsFormat();
      int segments = TestUtil.nextInt(random(), 2, 4);
      addSegments(sources, 0, segments, new NvmCodec(field -> nvm));
      addSegments(
          sources,
          segments,
          1,
          new NvmCodec(field -> field.equals(RandomDocs.BODY) ? lucene : nvm));
      mergeBothWays(sources, 0);
    }
  }

  private static int addSegments(Directory dir, int first, int count) throws IOException {
    return addSegments(dir, first, count, new NvmCodec());
  }

  /**
   * Adds {@code count} segments of random sizes to {@code dir}, numbered from {@code first}, and
   * returns the number of documents added.
   */
  private static int addSegments(Directory dir, int first, int count, Codec codec)
      throws IOException {
    RandomDocs docs = new RandomDocs(random(), TestUtil.nextInt(random(), 20, 300));
    int added = 0;
    IndexWriterConfig config = config(MergeMode.COPY, 8, NoMergePolicy.INSTANCE).setCodec(codec);
    config.setMaxBufferedDocs(IndexWriterConfig.DISABLE_AUTO_FLUSH);
    config.setUseCompoundFile(random().nextBoolean());
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      int id = writer.getDocStats().maxDoc;
      for (int segment = first; segment < first + count; segment++) {
        int size =
            random().nextInt(4) == 0
                ? TestUtil.nextInt(random(), 20, 60)
                : TestUtil.nextInt(random(), 200, 1500);
        for (int i = 0; i < size; i++) {
          Document doc = docs.next(id++);
          doc.add(new TextField(SEGMENT, "s" + segment + " all", Field.Store.NO));
          writer.addDocument(doc);
          added++;
        }
        writer.flush();
      }
    }
    return added;
  }

  private static IndexWriterConfig config(MergeMode mode, int maxRunsPerTerm, MergePolicy policy) {
    NvmPostingsFormat format = new NvmPostingsFormat(mode, maxRunsPerTerm);
    return new IndexWriterConfig(RandomDocs.analyzer(random()))
        .setCodec(new NvmCodec(field -> format))
        .setMergePolicy(policy);
  }

  /**
   * Merges the index into one segment, keeping the segments' order (as LogMergePolicy does). A
   * linked merge needs a merged segment that is not a compound file; a copying merge may write one.
   */
  private static void forceMerge(Directory dir, MergeMode mode, int maxRunsPerTerm)
      throws IOException {
    LogDocMergePolicy policy = new LogDocMergePolicy();
    policy.setNoCFSRatio(mode == MergeMode.LINK || random().nextBoolean() ? 0 : 1);
    IndexWriterConfig config = config(mode, maxRunsPerTerm, policy);
    if (random().nextBoolean()) {
      // ConcurrentMergeScheduler (the default) wraps the merge's directory in a FilterDirectory
      // whose copyFrom copies bytes; without it, copyFrom reaches the directory itself.
      config.setMergeScheduler(new SerialMergeScheduler());
    }
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      writer.forceMerge(1);
    }
    assertEquals(1, SegmentInfos.readLatestCommit(dir).size());
    TestUtil.checkIndex(dir);
  }

  private static void addIndexes(Directory dir, Directory other) throws IOException {
    try (IndexWriter writer =
        new IndexWriter(dir, config(MergeMode.COPY, 8, NoMergePolicy.INSTANCE))) {
      writer.addIndexes(other);
    }
  }

  private static Directory copyOf(Directory source) throws IOException {
    Directory copy = newDirectory();
    copyAll(source, copy);
    return copy;
  }

  private static void copyAll(Directory source, Directory copy) throws IOException {
    for (String file : source.listAll()) {
      copy.copyFrom(source, file, file, IOContext.DEFAULT);
    }
  }

  /**
   * The number of runs of the index's only segment by its linked-segment attribute, 0 if it is not
   * linked; also checks that a linked segment has a run table.
   */
  static int runCount(Directory dir) throws IOException {
    SegmentInfos infos = SegmentInfos.readLatestCommit(dir);
    assertEquals(1, infos.size());
    int runs = 0;
    for (Map.Entry<String, String> attribute : infos.info(0).info.getAttributes().entrySet()) {
      if (attribute.getKey().startsWith(NvmPostingsFormat.LINKED_ATTRIBUTE_PREFIX)) {
        assertEquals("one linked suffix", 0, runs);
        runs = Integer.parseInt(attribute.getValue());
        String suffix =
            attribute.getKey().substring(NvmPostingsFormat.LINKED_ATTRIBUTE_PREFIX.length());
        String runTable =
            IndexFileNames.segmentFileName(
                infos.info(0).info.name, suffix, NvmPostingsFormat.RUNS_EXTENSION);
        assertFalse(infos.info(0).info.getUseCompoundFile());
        assertTrue(runTable, List.of(dir.listAll()).contains(runTable));
      }
    }
    return runs;
  }

  private static void assertSameIndex(Directory linkedDir, Directory copiedDir)
      throws IOException {
    try (DirectoryReader linkedReader = DirectoryReader.open(linkedDir);
        DirectoryReader copiedReader = DirectoryReader.open(copiedDir)) {
      LeafReader linked = getOnlyLeafReader(linkedReader);
      LeafReader copied = getOnlyLeafReader(copiedReader);
      assertEquals(copied.maxDoc(), linked.maxDoc());
      assertEquals(copied.numDocs(), linked.numDocs());
      linked.checkIntegrity();
      for (FieldInfo field : copied.getFieldInfos()) {
        if (field.getIndexOptions() != IndexOptions.NONE) {
          assertSameField(field, linked, copied);
        }
      }
      assertSameScores(new IndexSearcher(linkedReader), new IndexSearcher(copiedReader));
    }
  }

  private static void assertSameField(
      FieldInfo field, LeafReader linked, LeafReader copied)
      throws IOException {
    Terms expected = copied.terms(field.name);
    Terms actual = linked.terms(field.name);
    assertEquals(field.name, expected.size(), actual.size());
    assertEquals(field.name, expected.getDocCount(), actual.getDocCount());
    assertEquals(field.name, expected.getSumDocFreq(), actual.getSumDocFreq());
    assertEquals(field.name, expected.getSumTotalTermFreq(), actual.getSumTotalTermFreq());
    assertEquals(field.name, expected.getMin(), actual.getMin());
    assertEquals(field.name, expected.getMax(), actual.getMax());
    TermsEnum expectedTerms = expected.iterator();
    TermsEnum actualTerms = actual.iterator();
    // The previous term's enums, read after the terms enums have moved on (as a multi-term query
    // may), so that an enum holding on to the terms enum's state would be caught.
    String heldWhere = null;
    PostingsEnum heldExpected = null;
    PostingsEnum heldActual = null;
    for (BytesRef term = expectedTerms.next(); term != null; term = expectedTerms.next()) {
      assertEquals(term, actualTerms.next());
      String where = field.name + ":" + term.utf8ToString();
      assertEquals(where, expectedTerms.docFreq(), actualTerms.docFreq());
      assertEquals(where, expectedTerms.totalTermFreq(), actualTerms.totalTermFreq());
      if (heldWhere != null) { // after docFreq, which decodes the new term's metadata
        assertSameAdvance(heldWhere, heldExpected, heldActual);
      }
      assertSamePostings(
          where,
          field,
          expectedTerms.postings(null, PostingsEnum.ALL),
          actualTerms.postings(null, PostingsEnum.ALL));
      assertSameBatches(
          where,
          expectedTerms.postings(null, PostingsEnum.FREQS),
          actualTerms.postings(null, PostingsEnum.FREQS),
          linked.maxDoc());
      heldWhere = where;
      heldExpected = expectedTerms.postings(null, PostingsEnum.FREQS);
      heldActual = actualTerms.postings(null, PostingsEnum.FREQS);
      if (field.getIndexOptions().compareTo(IndexOptions.DOCS_AND_FREQS) >= 0) {
        assertImpactsBound(
            where,
            expectedTerms.postings(null, PostingsEnum.FREQS),
            actualTerms.impacts(PostingsEnum.FREQS),
            linked.getNormValues(field.name));
      }
    }
    assertNull(actualTerms.next());
    if (heldWhere != null) {
      assertSameAdvance(heldWhere, heldExpected, heldActual);
    }
    assertTrue(actualTerms.seekExact(expected.getMax()));
    assertEquals(expected.getMax(), actualTerms.term());
  }

  private static void assertSamePostings(
      String where, FieldInfo field, PostingsEnum expected, PostingsEnum actual)
      throws IOException {
    IndexOptions options = field.getIndexOptions();
    boolean freqs = options.compareTo(IndexOptions.DOCS_AND_FREQS) >= 0;
    boolean positions = options.compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS) >= 0;
    boolean offsets = options.compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS) >= 0;
    assertEquals(where, expected.cost(), actual.cost());
    for (int doc = expected.nextDoc();
        doc != DocIdSetIterator.NO_MORE_DOCS;
        doc = expected.nextDoc()) {
      assertEquals(where, doc, actual.nextDoc());
      if (freqs == false) {
        continue;
      }
      int freq = expected.freq();
      assertEquals(where + " doc " + doc, freq, actual.freq());
      if (positions == false) {
        continue;
      }
      for (int i = 0; i < freq; i++) {
        assertEquals(where + " doc " + doc, expected.nextPosition(), actual.nextPosition());
        if (offsets) {
          assertEquals(where + " doc " + doc, expected.startOffset(), actual.startOffset());
          assertEquals(where + " doc " + doc, expected.endOffset(), actual.endOffset());
        }
        if (field.hasPayloads()) {
          assertEquals(where + " doc " + doc, expected.getPayload(), actual.getPayload());
        }
      }
    }
    assertEquals(where, DocIdSetIterator.NO_MORE_DOCS, actual.nextDoc());
  }

  /**
   * The batch methods agree: {@code nextPostings} (docs and freqs, batches up to random bounds)
   * and {@code intoBitSet} (random windows and offsets), interleaved with {@code advance}.
   */
  private static void assertSameBatches(
      String where, PostingsEnum expected, PostingsEnum actual, int maxDoc) throws IOException {
    DocAndFloatFeatureBuffer expectedBuffer = new DocAndFloatFeatureBuffer();
    DocAndFloatFeatureBuffer actualBuffer = new DocAndFloatFeatureBuffer();
    int doc = expected.nextDoc();
    assertEquals(where, doc, actual.nextDoc());
    while (doc != DocIdSetIterator.NO_MORE_DOCS) {
      int upTo =
          random().nextInt(4) == 0
              ? DocIdSetIterator.NO_MORE_DOCS
              : doc + 1 + random().nextInt(random().nextBoolean() ? 300 : 5000);
      switch (random().nextInt(3)) {
        case 0 -> {
          List<Integer> expectedDocs = new ArrayList<>();
          List<Float> expectedFreqs = new ArrayList<>();
          List<Integer> actualDocs = new ArrayList<>();
          List<Float> actualFreqs = new ArrayList<>();
          for (expected.nextPostings(upTo, expectedBuffer);
              expectedBuffer.size > 0;
              expected.nextPostings(upTo, expectedBuffer)) {
            for (int i = 0; i < expectedBuffer.size; i++) {
              expectedDocs.add(expectedBuffer.docs[i]);
              expectedFreqs.add(expectedBuffer.features[i]);
            }
          }
          for (actual.nextPostings(upTo, actualBuffer);
              actualBuffer.size > 0;
              actual.nextPostings(upTo, actualBuffer)) {
            for (int i = 0; i < actualBuffer.size; i++) {
              actualDocs.add(actualBuffer.docs[i]);
              actualFreqs.add(actualBuffer.features[i]);
            }
          }
          assertEquals(where + " nextPostings(" + upTo + ")", expectedDocs, actualDocs);
          assertEquals(where + " nextPostings(" + upTo + ") freqs", expectedFreqs, actualFreqs);
        }
        case 1 -> {
          int offset = Math.max(0, doc - random().nextInt(100));
          int bits = Math.min(maxDoc, upTo) - offset;
          FixedBitSet expectedBits = new FixedBitSet(Math.max(1, bits));
          FixedBitSet actualBits = new FixedBitSet(Math.max(1, bits));
          int to = Math.min(upTo, offset + bits);
          expected.intoBitSet(to, expectedBits, offset);
          actual.intoBitSet(to, actualBits, offset);
          assertEquals(where + " intoBitSet(" + to + ", " + offset + ")", expectedBits, actualBits);
        }
        default -> {
          int target = doc + 1 + random().nextInt(2000);
          expected.advance(target);
          actual.advance(target);
        }
      }
      doc = expected.docID();
      assertEquals(where + " after a batch", doc, actual.docID());
    }
  }

  /** Random advance and nextDoc steps, with freqs, agree. */
  private static void assertSameAdvance(String where, PostingsEnum expected, PostingsEnum actual)
      throws IOException {
    int doc = -1;
    while (doc != DocIdSetIterator.NO_MORE_DOCS) {
      if (random().nextBoolean()) {
        doc = expected.nextDoc();
        assertEquals(where, doc, actual.nextDoc());
      } else {
        int target = doc + 1 + random().nextInt(random().nextBoolean() ? 10 : 2000);
        doc = expected.advance(target);
        assertEquals(where + " advance(" + target + ")", doc, actual.advance(target));
      }
      if (doc != DocIdSetIterator.NO_MORE_DOCS) {
        assertEquals(where + " doc " + doc, expected.freq(), actual.freq());
      }
    }
  }

  /**
   * Walks {@code impacts} with random advanceShallow, advance and nextDoc steps and checks, at each
   * step, that every level's impacts dominate the (freq, norm) of every document from the current
   * target up to the level's docIdUpTo, as listed by {@code postings} (of the copied segment, with
   * the same doc IDs and norms).
   */
  private static void assertImpactsBound(
      String where, PostingsEnum postings, ImpactsEnum impacts, NumericDocValues norms)
      throws IOException {
    List<int[]> docFreqs = new ArrayList<>();
    for (int doc = postings.nextDoc();
        doc != DocIdSetIterator.NO_MORE_DOCS;
        doc = postings.nextDoc()) {
      docFreqs.add(new int[] {doc, postings.freq()});
    }
    long[] docNorms = new long[docFreqs.size()];
    for (int i = 0; i < docNorms.length; i++) {
      int doc = docFreqs.get(i)[0];
      docNorms[i] = norms != null && norms.advanceExact(doc) ? norms.longValue() : 1L;
    }
    int target = 0;
    int doc = -1;
    while (doc != DocIdSetIterator.NO_MORE_DOCS) {
      int step = random().nextInt(3);
      if (step == 0) {
        target = Math.max(target, doc) + random().nextInt(3000);
        impacts.advanceShallow(target);
      } else if (step == 1) {
        doc = impacts.nextDoc();
      } else {
        doc = impacts.advance(Math.max(doc + 1, target));
      }
      if (doc == DocIdSetIterator.NO_MORE_DOCS) {
        break;
      }
      int from = Math.max(doc, target);
      Impacts levels = impacts.getImpacts();
      for (int level = 0; level < levels.numLevels(); level++) {
        int upTo = levels.getDocIdUpTo(level);
        assertTrue(where + " level " + level + " ends at " + upTo + " < " + from, upTo >= from);
        FreqAndNormBuffer buffer = levels.getImpacts(level);
        for (int i = firstAtOrAfter(docFreqs, from);
            i < docFreqs.size() && docFreqs.get(i)[0] <= upTo;
            i++) {
          assertTrue(
              where + " doc " + docFreqs.get(i)[0] + " level " + level,
              dominated(buffer, docFreqs.get(i)[1], docNorms[i]));
        }
      }
    }
  }

  /** Index of the first (doc, freq) pair whose doc is at least {@code doc}. */
  private static int firstAtOrAfter(List<int[]> docFreqs, int doc) {
    int low = 0;
    int high = docFreqs.size();
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (docFreqs.get(mid)[0] < doc) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  private static boolean dominated(FreqAndNormBuffer buffer, int freq, long norm) {
    for (int i = 0; i < buffer.size; i++) {
      if (buffer.freqs[i] >= freq && Long.compareUnsigned(buffer.norms[i], norm) <= 0) {
        return true;
      }
    }
    return false;
  }

  /** BM25 top-10 of random term, AND and OR queries: same docs, same scores. */
  private static void assertSameScores(IndexSearcher linked, IndexSearcher copied)
      throws IOException {
    for (int i = 0; i < 40; i++) {
      Query query = randomQuery();
      TopDocs expected = copied.search(query, 10);
      TopDocs actual = linked.search(query, 10);
      assertEquals(query.toString(), expected.scoreDocs.length, actual.scoreDocs.length);
      for (int hit = 0; hit < expected.scoreDocs.length; hit++) {
        assertEquals(query.toString(), expected.scoreDocs[hit].doc, actual.scoreDocs[hit].doc);
        assertEquals(
            query.toString(), expected.scoreDocs[hit].score, actual.scoreDocs[hit].score, 0f);
      }
    }
  }

  private static Query randomQuery() {
    String[] fields = {RandomDocs.FREQS, RandomDocs.BODY, RandomDocs.OFFSETS, RandomDocs.PAYLOADS};
    String field = fields[random().nextInt(fields.length)];
    int clauses = TestUtil.nextInt(random(), 1, 3);
    if (clauses == 1) {
      return new TermQuery(new Term(field, "t" + random().nextInt(40)));
    }
    BooleanClause.Occur occur =
        random().nextBoolean() ? BooleanClause.Occur.MUST : BooleanClause.Occur.SHOULD;
    BooleanQuery.Builder query = new BooleanQuery.Builder();
    for (int i = 0; i < clauses; i++) {
      query.add(new TermQuery(new Term(field, "t" + random().nextInt(i == 0 ? 5 : 60))), occur);
    }
    return query.build();
  }
}
