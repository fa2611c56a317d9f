package org.lucenenvm.cache;

import java.util.List;
import java.util.Optional;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.RegexpQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.WildcardQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.BytesRef;

public class QueryKeysTest extends LuceneTestCase {
  private static Query parse(String query) throws Exception {
    return new QueryParser("body", new StandardAnalyzer()).parse(query);
  }

  private static QueryKey keyOf(String query) throws Exception {
    return QueryKeys.of(parse(query)).orElseThrow(() -> new AssertionError("not keyed: " + query));
  }

  private static TermQuery term(String field, String text) {
    return new TermQuery(new Term(field, text));
  }

  public void testIsomorphicQueriesShareAKey() throws Exception {
    assertEquals(keyOf("+apple +melon"), keyOf("+melon +apple"));
    assertEquals(keyOf("+apple +melon").hashCode(), keyOf("+melon +apple").hashCode());
    assertEquals(keyOf("apple OR melon OR kiwi"), keyOf("kiwi melon apple"));
    assertEquals(QueryKey.Operator.AND, keyOf("apple AND melon").operator());
    assertEquals(QueryKey.Operator.OR, keyOf("apple melon").operator());
    assertNotEquals(keyOf("apple AND melon"), keyOf("apple OR melon"));
    assertNotEquals(
        keyOf("apple melon"), keyOf("apple melon melon")); // a repeated term scores twice
    assertNotEquals(keyOf("apple melon"), keyOf("title:apple title:melon"));
    assertEquals("body:apple|melon", keyOf("melon apple").toString());
  }

  public void testSingleTerm() throws Exception {
    QueryKey key = keyOf("Melon");
    assertEquals(QueryKey.Operator.SINGLE, key.operator());
    assertEquals("body", key.field());
    assertEquals("melon", key.terms().getFirst().utf8ToString());
  }

  public void testQueriesTheCacheCannotKeyBypassIt() throws Exception {
    List<Query> unkeyable =
        List.of(
            new WildcardQuery(new Term("body", "mel*n")),
            new PrefixQuery(new Term("body", "mel")),
            new RegexpQuery(new Term("body", "mel.n")),
            new FuzzyQuery(new Term("body", "melon")),
            TermRangeQuery.newStringRange("body", "a", "m", true, true),
            new PhraseQuery("body", "green", "melon"),
            new BoostQuery(term("body", "melon"), 2f),
            parse("+apple melon"), // mixed operators
            parse("apple -melon"),
            parse("apple (melon AND kiwi)"), // nested boolean
            parse("body:apple title:melon"), // two fields
            new BooleanQuery.Builder()
                .add(term("body", "a"), Occur.FILTER)
                .add(term("body", "b"), Occur.FILTER)
                .build(),
            new BooleanQuery.Builder()
                .add(term("body", "a"), Occur.SHOULD)
                .add(term("body", "b"), Occur.SHOULD)
                .setMinimumNumberShouldMatch(1)
                .build(),
            new BooleanQuery.Builder().add(term("body", "a"), Occur.SHOULD).build());
    for (Query query : unkeyable) {
      assertEquals(query.toString(), Optional.empty(), QueryKeys.of(query));
    }
  }

  public void testPartialTypeOneOnlyFromADisjunctionHoldingTheTerm() throws Exception {
    QueryKey disjunction = keyOf("melon cheese");
    assertEquals(Optional.of(1), disjunction.termPartFor(keyOf("melon")));
    assertEquals(Optional.of(0), disjunction.termPartFor(keyOf("cheese")));
    assertEquals(keyOf("melon"), disjunction.termKey(1));
    assertEquals(Optional.empty(), disjunction.termPartFor(keyOf("kiwi")));
    assertEquals(Optional.empty(), disjunction.termPartFor(keyOf("title:melon")));
    assertEquals(Optional.empty(), disjunction.termPartFor(keyOf("melon kiwi")));
    assertEquals(
        Optional.empty(), keyOf("+melon +cheese").termPartFor(keyOf("melon"))); // a subset only
    assertEquals(Optional.empty(), keyOf("melon").termPartFor(keyOf("melon")));
  }

  /** A key copies its terms: its caller may reuse the bytes, its hash and equality stay put. */
  public void testKeyIsUnaffectedByItsCallersBytes() throws Exception {
    BytesRef melon = new BytesRef("melon");
    QueryKey key = new QueryKey(QueryKey.Operator.SINGLE, "body", List.of(melon));
    int hash = key.hashCode();
    melon.bytes[melon.offset] = 'x';
    assertEquals(hash, key.hashCode());
    assertEquals(keyOf("melon"), key);
    assertEquals(keyOf("melon").hashCode(), hash);
  }

  public void testBinaryFormRoundTripsAndRefusesGarbage() throws Exception {
    for (String query : List.of("melon", "+a +b +c", "x y", "title:\"é\"")) {
      QueryKey key = keyOf(query);
      assertEquals(key, QueryKey.fromBytes(key.toBytes()));
    }
    byte[] bytes = keyOf("melon cheese").toBytes();
    expectThrows(
        IllegalArgumentException.class,
        () -> QueryKey.fromBytes(java.util.Arrays.copyOf(bytes, bytes.length - 1)));
    byte[] badOperator = bytes.clone();
    badOperator[0] = 'x';
    expectThrows(IllegalArgumentException.class, () -> QueryKey.fromBytes(badOperator));
    expectThrows(
        IllegalArgumentException.class,
        () ->
            new QueryKey(
                QueryKey.Operator.AND, "body", List.of(new BytesRef("a"))));
  }

  /** The premise of isomorphic keys: Lucene scores clause orders identically. */
  public void testIsomorphicQueriesScoreIdentically() throws Exception {
    try (Directory directory = new ByteBuffersDirectory()) {
      String[] words = {"apple", "melon", "kiwi", "cheese", "bread"};
      try (IndexWriter writer =
          new IndexWriter(directory, new IndexWriterConfig(new StandardAnalyzer()))) {
        for (int i = 0; i < 300; i++) {
          StringBuilder text = new StringBuilder();
          for (int w = 1 + random().nextInt(12); w > 0; w--) {
            text.append(words[random().nextInt(words.length)]).append(' ');
          }
          Document doc = new Document();
          doc.add(new TextField("body", text.toString(), Field.Store.NO));
          writer.addDocument(doc);
        }
      }
      try (DirectoryReader reader = DirectoryReader.open(directory)) {
        IndexSearcher searcher = newSearcher(reader);
        for (String[] pair :
            new String[][] {
              {"apple melon kiwi", "kiwi apple melon"},
              {"+apple +melon +cheese", "+cheese +melon +apple"},
              {"bread cheese apple melon kiwi", "kiwi melon apple cheese bread"}
            }) {
          assertEquals(keyOf(pair[0]), keyOf(pair[1]));
          TopDocs first = searcher.search(parse(pair[0]), 50);
          TopDocs second = searcher.search(parse(pair[1]), 50);
          assertEquals(first.totalHits, second.totalHits);
          assertEquals(first.scoreDocs.length, second.scoreDocs.length);
          for (int i = 0; i < first.scoreDocs.length; i++) {
            ScoreDoc a = first.scoreDocs[i];
            ScoreDoc b = second.scoreDocs[i];
            assertEquals(a.doc, b.doc);
            assertEquals(Float.floatToIntBits(a.score), Float.floatToIntBits(b.score));
          }
        }
      }
    }
  }
}
