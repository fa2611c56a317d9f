package org.lucenenvm.codec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.BitUtil;

/**
 * Damages the files of {@link NvmPostingsFormat} byte by byte and checks that the damage is
 * reported as {@link CorruptIndexException}: on open for headers, footers and truncation, by
 * checksum verification ({@code checkIntegrity}, CheckIndex) for the data in between.
 */
public class TestNvmPostingsCorruption extends LuceneTestCase {

  private static final Map<String, String> CODEC_BY_EXTENSION =
      Map.of(
          NvmPostingsFormat.DOC_EXTENSION, NvmPostingsFormat.DOC_CODEC,
          NvmPostingsFormat.SKIP_EXTENSION, NvmPostingsFormat.SKIP_CODEC,
          NvmPostingsFormat.POS_EXTENSION, NvmPostingsFormat.POS_CODEC,
          NvmPostingsFormat.PAY_EXTENSION, NvmPostingsFormat.PAY_CODEC);

  /** An index of one non-compound segment that holds every file of the format. */
  private Directory writeIndex() throws IOException {
    Directory dir = new ByteBuffersDirectory();
    IndexWriterConfig config =
        new IndexWriterConfig(RandomDocs.analyzer(random()))
            .setCodec(new NvmCodec())
            .setUseCompoundFile(false)
            .setMergePolicy(NoMergePolicy.INSTANCE);
    RandomDocs docs = new RandomDocs(random(), 100);
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      for (int id = 0; id < 500; id++) {
        writer.addDocument(docs.next(id));
      }
      writer.forceMerge(1);
    }
    return dir;
  }

  private static List<String> formatFiles(Directory dir) throws IOException {
    List<String> files = new ArrayList<>();
    for (String file : dir.listAll()) {
      String extension = IndexFileNames.getExtension(file);
      if (extension != null && CODEC_BY_EXTENSION.containsKey(extension)) {
        files.add(file);
      }
    }
    return files;
  }

  public void testIndexHasEveryFileAndIsCleanBeforeDamage() throws IOException {
    try (Directory dir = writeIndex()) {
      List<String> files = formatFiles(dir);
      assertEquals(files.toString(), CODEC_BY_EXTENSION.size(), files.size());
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        getOnlyLeafReader(reader).checkIntegrity();
      }
      try (CheckIndex checker = new CheckIndex(dir)) {
        assertTrue(checker.checkIndex().clean);
      }
    }
  }

  public void testFlippedDataByteFailsChecksum() throws IOException {
    try (Directory dir = writeIndex()) {
      for (String file : formatFiles(dir)) {
        long dataStart = headerLength(file);
        long dataEnd = dir.fileLength(file) - CodecUtil.footerLength();
        if (dataEnd <= dataStart) {
          continue;
        }
        long position = dataStart + random().nextLong(dataEnd - dataStart);
        flipByte(dir, file, position);
        try (DirectoryReader reader = DirectoryReader.open(dir)) {
          expectThrows(CorruptIndexException.class, file + "@" + position,
              () -> getOnlyLeafReader(reader).checkIntegrity());
        }
        try (CheckIndex checker = new CheckIndex(dir)) {
          assertFalse(file + "@" + position, checker.checkIndex().clean);
        }
        flipByte(dir, file, position);
      }
    }
  }

  public void testFlippedHeaderMagicFailsOnOpen() throws IOException {
    try (Directory dir = writeIndex()) {
      for (String file : formatFiles(dir)) {
        int position = random().nextInt(Integer.BYTES);
        flipByte(dir, file, position);
        expectThrows(CorruptIndexException.class, file, () -> DirectoryReader.open(dir).close());
        flipByte(dir, file, position);
      }
    }
  }

  public void testFlippedSegmentIdFailsOnOpen() throws IOException {
    try (Directory dir = writeIndex()) {
      for (String file : formatFiles(dir)) {
        String codec = CODEC_BY_EXTENSION.get(IndexFileNames.getExtension(file));
        long idStart = CodecUtil.headerLength(codec);
        long position = idStart + random().nextInt(16);
        flipByte(dir, file, position);
        expectThrows(CorruptIndexException.class, file, () -> DirectoryReader.open(dir).close());
        flipByte(dir, file, position);
      }
    }
  }

  public void testFlippedFooterFailsOnOpenOrChecksum() throws IOException {
    try (Directory dir = writeIndex()) {
      for (String file : formatFiles(dir)) {
        long position = dir.fileLength(file) - 1 - random().nextInt(CodecUtil.footerLength());
        flipByte(dir, file, position);
        expectThrows(CorruptIndexException.class, file + "@" + position,
            () -> {
              try (DirectoryReader reader = DirectoryReader.open(dir)) {
                getOnlyLeafReader(reader).checkIntegrity();
              }
            });
        flipByte(dir, file, position);
      }
    }
  }

  /**
   * Formats v1 (version 0), v2 (version 1, Int32 doc IDs in every packed block, a separate freq
   * file), v3 (version 2, Int32 positions in every field), v4 (version 3, each FreqBlock right
   * after its DocBlock), v5 (version 4, freqs of at least a byte) and v6 (version 5, no 8-bit doc
   * deltas) were never released; they are refused as too old.
   */
  public void testOlderVersionsAreRefusedAsTooOld() throws IOException {
    for (int version :
        new int[] {
          NvmPostingsFormat.VERSION_START,
          NvmPostingsFormat.VERSION_BLOCKS,
          NvmPostingsFormat.VERSION_NARROW_BLOCKS,
          NvmPostingsFormat.VERSION_POSITION_BLOCKS,
          NvmPostingsFormat.VERSION_SEPARATE_FREQS,
          NvmPostingsFormat.VERSION_NIBBLE_FREQS
        }) {
      try (Directory dir = writeIndex()) {
        String file = formatFiles(dir).getFirst();
        String codec = CODEC_BY_EXTENSION.get(IndexFileNames.getExtension(file));
        byte[] bytes = readAll(dir, file);
        int versionAt = CodecUtil.headerLength(codec) - Integer.BYTES;
        BitUtil.VH_BE_INT.set(bytes, versionAt, version);
        rewrite(dir, file, bytes, bytes.length);
        IndexFormatTooOldException e =
            expectThrows(
                IndexFormatTooOldException.class, () -> DirectoryReader.open(dir).close());
        assertTrue(e.getMessage(), e.getMessage().contains(file));
      }
    }
  }

  /**
   * A FreqWidth byte that is not 0, 1, 2 or 4 (damage that only a checksum verification would find
   * before) is refused with {@link CorruptIndexException} on every path that reads freqs: a single
   * {@code freq()}, a scorer's batch ({@code nextPostings}) and positions (which sum freqs).
   */
  public void testBadFreqWidthIsRefused() throws IOException {
    try (Directory dir = new ByteBuffersDirectory()) {
      writeBodies(dir, List.of("a", "a a", "a a a"));
      // The only term's only block: three Int32 doc IDs after the aligned header, then FreqWidth.
      String docFile =
          formatFiles(dir).stream()
              .filter(file -> file.endsWith("." + NvmPostingsFormat.DOC_EXTENSION))
              .findFirst()
              .orElseThrow();
      long dataStart = (headerLength(docFile) + Long.BYTES - 1) & -Long.BYTES;
      long widthAt = dataStart + 3 * Integer.BYTES;
      byte[] bytes = readAll(dir, docFile);
      assertEquals(
          "FreqWidth of freqs 1, 2, 3",
          NvmPostingsFormat.FREQ_NIBBLES,
          bytes[Math.toIntExact(widthAt)]);
      bytes[Math.toIntExact(widthAt)] = 3;
      rewrite(dir, docFile, bytes, bytes.length);

      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        LeafReader leaf = getOnlyLeafReader(reader);
        Term term = new Term("body", "a");
        PostingsEnum freqs = leaf.postings(term, PostingsEnum.FREQS);
        assertEquals(0, freqs.nextDoc());
        assertBadWidth(expectThrows(CorruptIndexException.class, freqs::freq), widthAt);

        PostingsEnum batch = leaf.postings(term, PostingsEnum.FREQS);
        batch.nextDoc();
        DocAndFloatFeatureBuffer buffer = new DocAndFloatFeatureBuffer();
        assertBadWidth(
            expectThrows(
                CorruptIndexException.class,
                () -> batch.nextPostings(DocIdSetIterator.NO_MORE_DOCS, buffer)),
            widthAt);

        PostingsEnum positions = leaf.postings(term, PostingsEnum.POSITIONS);
        positions.nextDoc();
        assertBadWidth(
            expectThrows(CorruptIndexException.class, positions::nextPosition), widthAt);

        expectThrows(CorruptIndexException.class, leaf::checkIntegrity);
      }
    }
  }

  /**
   * A BlockDocPointer flagged as 8-bit deltas on a block that the skip table says is a bit set
   * (damage that only a checksum verification would find before) is refused with {@link
   * CorruptIndexException} when the block is loaded, by {@code nextDoc} and by {@code advance}.
   */
  public void testByteDeltaFlagOnBitSetBlockIsRefused() throws IOException {
    try (Directory dir = new ByteBuffersDirectory()) {
      writeBodies(dir, Collections.nCopies(3 * NvmPostingsFormat.BLOCK_SIZE, "a"));
      Term term = new Term("body", "a");
      String skipFile =
          formatFiles(dir).stream()
              .filter(file -> file.endsWith("." + NvmPostingsFormat.SKIP_EXTENSION))
              .findFirst()
              .orElseThrow();
      long pointerAt;
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        LeafReader leaf = getOnlyLeafReader(reader);
        assertEquals(
            "three bit-set blocks",
            "[false, false, false]",
            Arrays.toString(
                BlockDocPointers.byteDeltaFlags(dir, skipFile, leaf, term)));
        pointerAt = BlockDocPointers.address(leaf, term, 1);
      }
      byte[] bytes = readAll(dir, skipFile);
      bytes[Math.toIntExact(pointerAt)] |= 1;
      rewrite(dir, skipFile, bytes, bytes.length);

      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        LeafReader leaf = getOnlyLeafReader(reader);
        PostingsEnum iteration = leaf.postings(term, PostingsEnum.NONE);
        for (int doc = 0; doc < NvmPostingsFormat.BLOCK_SIZE; doc++) {
          assertEquals(doc, iteration.nextDoc());
        }
        assertBadFlag(expectThrows(CorruptIndexException.class, iteration::nextDoc));

        PostingsEnum advance = leaf.postings(term, PostingsEnum.FREQS);
        assertBadFlag(
            expectThrows(
                CorruptIndexException.class,
                () -> advance.advance(NvmPostingsFormat.BLOCK_SIZE + 7)));
        assertEquals(
            "block 2 is intact",
            2 * NvmPostingsFormat.BLOCK_SIZE,
            leaf.postings(term, PostingsEnum.NONE).advance(2 * NvmPostingsFormat.BLOCK_SIZE));

        expectThrows(CorruptIndexException.class, leaf::checkIntegrity);
      }
    }
  }

  /** One segment of {@link NvmCodec}, not compound: one document per text, in field "body". */
  private static void writeBodies(Directory dir, List<String> texts) throws IOException {
    IndexWriterConfig config =
        new IndexWriterConfig(new MockAnalyzer(random()))
            .setCodec(new NvmCodec())
            .setUseCompoundFile(false);
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      for (String text : texts) {
        Document doc = new Document();
        doc.add(new TextField("body", text, Field.Store.NO));
        writer.addDocument(doc);
      }
    }
  }

  private static void assertBadFlag(CorruptIndexException e) {
    assertTrue(
        e.getMessage(),
        e.getMessage().contains("block 1 at ")
            && e.getMessage().contains("is flagged as 8-bit deltas but is a BIT_SET block"));
  }

  private static void assertBadWidth(CorruptIndexException e, long widthAt) {
    assertTrue(e.getMessage(), e.getMessage().contains("freq width 3 at " + widthAt));
  }

  public void testTruncatedFileFailsOnOpen() throws IOException {
    try (Directory dir = writeIndex()) {
      for (String file : formatFiles(dir)) {
        byte[] bytes = readAll(dir, file);
        int truncatedLength = bytes.length - 1 - random().nextInt(CodecUtil.footerLength());
        rewrite(dir, file, bytes, truncatedLength);
        expectThrows(CorruptIndexException.class, file, () -> DirectoryReader.open(dir).close());
        rewrite(dir, file, bytes, bytes.length);
      }
    }
  }

  /** Length of the index header of one of the format's files, from its name. */
  private static long headerLength(String file) {
    String codec = CODEC_BY_EXTENSION.get(IndexFileNames.getExtension(file));
    String segment = IndexFileNames.parseSegmentName(file);
    String suffix = IndexFileNames.stripExtension(file).substring(segment.length() + 1);
    return CodecUtil.indexHeaderLength(codec, suffix);
  }

  static void flipByte(Directory dir, String file, long position) throws IOException {
    byte[] bytes = readAll(dir, file);
    bytes[Math.toIntExact(position)] ^= (byte) 0x5A;
    rewrite(dir, file, bytes, bytes.length);
  }

  private static byte[] readAll(Directory dir, String file) throws IOException {
    try (IndexInput in = dir.openInput(file, IOContext.READONCE)) {
      byte[] bytes = new byte[Math.toIntExact(in.length())];
      in.readBytes(bytes, 0, bytes.length);
      return bytes;
    }
  }

  private static void rewrite(Directory dir, String file, byte[] bytes, int length)
      throws IOException {
    dir.deleteFile(file);
    try (IndexOutput out = dir.createOutput(file, IOContext.DEFAULT)) {
      out.writeBytes(bytes, 0, length);
    }
  }
}
