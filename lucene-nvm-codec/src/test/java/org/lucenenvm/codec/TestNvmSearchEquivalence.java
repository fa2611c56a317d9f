package org.lucenenvm.codec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.BytesRef;
import org.junit.AfterClass;
import org.junit.BeforeClass;

/**
 * The same random documents indexed with {@link Lucene104Codec} and with {@link NvmCodec} must
 * give the same BM25 top-10 documents and scores for term, conjunction, disjunction and phrase
 * queries, with top-k skipping (block-max WAND / MAXSCORE) active on both.
 */
public class TestNvmSearchEquivalence extends LuceneTestCase {

  private static final int TOP_K = 10;

  private static Directory luceneDir;
  private static Directory nvmDir;
  private static DirectoryReader luceneReader;
  private static DirectoryReader nvmReader;
  private static List<String> bodies;

  @BeforeClass
  public static void indexBothCodecs() throws IOException {
    RandomDocs generator = new RandomDocs(random(), 400);
    int numDocs = atLeast(6000);
    List<Document> docs = new ArrayList<>(numDocs);
    bodies = new ArrayList<>(numDocs);
    for (int id = 0; id < numDocs; id++) {
      Document doc = generator.next(id);
      docs.add(doc);
      bodies.add(doc.get(RandomDocs.BODY));
    }
    long analyzerSeed = random().nextLong();
    int maxBufferedDocs = atLeast(500);
    luceneDir = newDirectory();
    nvmDir = newDirectory();
    write(luceneDir, new Lucene104Codec(), docs, analyzerSeed, maxBufferedDocs);
    write(nvmDir, new NvmCodec(), docs, analyzerSeed, maxBufferedDocs);
    luceneReader = DirectoryReader.open(luceneDir);
    nvmReader = DirectoryReader.open(nvmDir);
  }

  /** Identical, deterministic segmentation for both codecs, so doc IDs match one to one. */
  private static void write(
      Directory dir, Codec codec, List<Document> docs, long analyzerSeed, int maxBufferedDocs)
      throws IOException {
    IndexWriterConfig config =
        new IndexWriterConfig(RandomDocs.analyzer(new Random(analyzerSeed)))
            .setCodec(codec)
            .setMaxBufferedDocs(maxBufferedDocs)
            .setRAMBufferSizeMB(IndexWriterConfig.DISABLE_AUTO_FLUSH)
            .setMergePolicy(new LogDocMergePolicy())
            .setMergeScheduler(new SerialMergeScheduler());
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      for (Document doc : docs) {
        writer.addDocument(doc);
      }
    }
  }

  @AfterClass
  public static void closeAll() throws IOException {
    luceneReader.close();
    nvmReader.close();
    luceneDir.close();
    nvmDir.close();
    luceneReader = nvmReader = null;
    luceneDir = nvmDir = null;
    bodies = null;
  }

  public void testSegmentsMatch() {
    assertEquals(luceneReader.maxDoc(), nvmReader.maxDoc());
    assertEquals(luceneReader.leaves().size(), nvmReader.leaves().size());
  }

  public void testTermQueries() throws IOException {
    RandomDocs terms = new RandomDocs(random(), 400);
    assertSameTopDocs(new TermQuery(new Term(RandomDocs.BODY, "t0")));
    assertSameTopDocs(new TermQuery(new Term(RandomDocs.FREQS, "t1")));
    for (int i = 0; i < 30; i++) {
      assertSameTopDocs(new TermQuery(new Term(RandomDocs.BODY, terms.term())));
      assertSameTopDocs(new TermQuery(new Term(RandomDocs.OFFSETS, terms.term())));
      assertSameTopDocs(new TermQuery(new Term(RandomDocs.KEYWORDS, terms.term())));
    }
  }

  public void testConjunctions() throws IOException {
    RandomDocs terms = new RandomDocs(random(), 400);
    assertSameTopDocs(booleanQuery(Occur.MUST, "t0", "t1"));
    for (int i = 0; i < 30; i++) {
      assertSameTopDocs(booleanQuery(Occur.MUST, terms.term(), terms.term()));
      assertSameTopDocs(booleanQuery(Occur.MUST, terms.term(), terms.term(), terms.term()));
    }
  }

  public void testDisjunctions() throws IOException {
    RandomDocs terms = new RandomDocs(random(), 400);
    assertSameTopDocs(booleanQuery(Occur.SHOULD, "t0", "t1"));
    for (int i = 0; i < 30; i++) {
      assertSameTopDocs(booleanQuery(Occur.SHOULD, terms.term(), terms.term()));
      assertSameTopDocs(
          booleanQuery(Occur.SHOULD, terms.term(), terms.term(), terms.term(), terms.term()));
    }
  }

  public void testPhrases() throws IOException {
    for (int i = 0; i < 40; i++) {
      String[] words = bodies.get(random().nextInt(bodies.size())).trim().split(" ");
      if (words.length < 2) {
        continue;
      }
      int start = random().nextInt(words.length - 1);
      int length = Math.min(words.length - start, 2 + random().nextInt(2));
      String[] phrase = new String[length];
      System.arraycopy(words, start, phrase, 0, length);
      assertSameTopDocs(new PhraseQuery(RandomDocs.BODY, phrase));
      assertSameTopDocs(new PhraseQuery(2, RandomDocs.BODY, phrase));
    }
  }

  /**
   * Level-0 impacts are per block of {@value NvmPostingsFormat#BLOCK_SIZE} docs and tight: their
   * highest freq is the highest freq actually found in the block, which is what lets block-max WAND
   * skip blocks.
   */
  public void testImpactsArePerBlockAndTight() throws IOException {
    int checkedLeaves = 0;
    for (var context : nvmReader.leaves()) {
      LeafReader leaf = context.reader();
      TermsEnum termsEnum = leaf.terms(RandomDocs.BODY).iterator();
      assertTrue(termsEnum.seekExact(new BytesRef("t0")));
      int docFreq = termsEnum.docFreq();
      if (docFreq <= 2 * NvmPostingsFormat.BLOCK_SIZE) {
        continue;
      }
      checkedLeaves++;
      ImpactsEnum impacts = termsEnum.impacts(PostingsEnum.FREQS);
      PostingsEnum postings = termsEnum.postings(null, PostingsEnum.FREQS);
      int blocks = 0;
      int blockUpTo = -1;
      int blockImpactMaxFreq = 0;
      int blockActualMaxFreq = 0;
      for (int doc = postings.nextDoc(); ; doc = postings.nextDoc()) {
        if (doc > blockUpTo) {
          assertEquals(blockImpactMaxFreq, blockActualMaxFreq);
          if (doc == DocIdSetIterator.NO_MORE_DOCS) {
            break;
          }
          impacts.advanceShallow(doc);
          var level0 = impacts.getImpacts();
          blockUpTo = level0.getDocIdUpTo(0);
          blockImpactMaxFreq = level0.getImpacts(0).freqs[level0.getImpacts(0).size - 1];
          blockActualMaxFreq = 0;
          blocks++;
        }
        blockActualMaxFreq = Math.max(blockActualMaxFreq, postings.freq());
      }
      assertEquals(TermSkipLayout.numBlocks(docFreq), blocks);
    }
    assertTrue("no segment has t0 in more than two blocks", checkedLeaves > 0);
  }

  private static Query booleanQuery(Occur occur, String... terms) {
    BooleanQuery.Builder builder = new BooleanQuery.Builder();
    for (String term : terms) {
      builder.add(new TermQuery(new Term(RandomDocs.BODY, term)), occur);
    }
    return builder.build();
  }

  private static void assertSameTopDocs(Query query) throws IOException {
    IndexSearcher luceneSearcher = new IndexSearcher(luceneReader);
    IndexSearcher nvmSearcher = new IndexSearcher(nvmReader);
    TopDocs expected = luceneSearcher.search(query, TOP_K);
    TopDocs actual = nvmSearcher.search(query, TOP_K);
    assertEquals(query.toString(), expected.scoreDocs.length, actual.scoreDocs.length);
    for (int i = 0; i < expected.scoreDocs.length; i++) {
      ScoreDoc e = expected.scoreDocs[i];
      ScoreDoc a = actual.scoreDocs[i];
      assertEquals(query + " rank " + i, e.doc, a.doc);
      assertEquals(query + " rank " + i, e.score, a.score, 0f);
    }
    assertEquals(query.toString(), luceneSearcher.count(query), nvmSearcher.count(query));
  }
}
