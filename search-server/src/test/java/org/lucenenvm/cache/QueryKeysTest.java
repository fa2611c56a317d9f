package org.lucenenvm.cache;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.queryparser.classic.MultiFieldQueryParser;
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
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.index.RandomIndexWriter;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.BytesRef;

public class QueryKeysTest extends LuceneTestCase {
  private static Query parse(String query) throws Exception {
    return new QueryParser("body", new StandardAnalyzer()).parse(query);
  }

  /** As the server parses for an index with one text field: a multi-field parser over it. */
  private static Query singleField(String query) throws Exception {
    return new MultiFieldQueryParser(new String[] {"body"}, new StandardAnalyzer()).parse(query);
  }

  /** As the server parses for an index with two text fields. */
  private static Query multiField(String query) throws Exception {
    return new MultiFieldQueryParser(new String[] {"title", "body"}, new StandardAnalyzer())
        .parse(query);
  }

  /** The key of {@code operator} over {@code fieldTerms}, each {@code field:term}. */
  private static QueryKey key(QueryKey.Operator operator, String... fieldTerms) {
    List<Term> terms = new ArrayList<>();
    for (String fieldTerm : fieldTerms) {
      int colon = fieldTerm.indexOf(':');
      terms.add(new Term(fieldTerm.substring(0, colon), fieldTerm.substring(colon + 1)));
    }
    return new QueryKey(operator, terms);
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
    assertNotEquals(keyOf("apple melon"), keyOf("title:apple title:melon"));
    assertEquals("body:apple|body:melon", keyOf("melon apple").toString());
  }

  public void testSingleTerm() throws Exception {
    QueryKey key = keyOf("Melon");
    assertEquals(QueryKey.Operator.SINGLE, key.operator());
    assertEquals(List.of(new Term("body", "melon")), key.terms());
  }

  /**
   * The shapes the server's parser gives what users type (each word a one-clause boolean per
   * default field, nested groups) key as the flat query Lucene rewrites them to.
   */
  public void testParserShapesKeyAsTheirFlatQuery() throws Exception {
    QueryKey or = key(QueryKey.Operator.OR, "body:apple", "body:melon");
    QueryKey and = key(QueryKey.Operator.AND, "body:apple", "body:melon");
    QueryKey or3 = key(QueryKey.Operator.OR, "body:apple", "body:kiwi", "body:melon");
    QueryKey and3 = key(QueryKey.Operator.AND, "body:apple", "body:kiwi", "body:melon");
    for (Query q : List.of(singleField("apple melon"), singleField("apple OR melon"), parse("melon apple"))) {
      assertEquals(q.toString(), or, QueryKeys.of(q).orElseThrow());
    }
    for (Query q :
        List.of(singleField("apple AND melon"), singleField("+apple +melon"), parse("+melon +apple"))) {
      assertEquals(q.toString(), and, QueryKeys.of(q).orElseThrow());
    }
    for (String text : List.of("(apple melon) kiwi", "apple (kiwi (melon))", "((apple)) kiwi melon")) {
      assertEquals(text, or3, QueryKeys.of(singleField(text)).orElseThrow());
      assertEquals(text, or3, QueryKeys.of(parse(text)).orElseThrow());
    }
    for (String text : List.of("+apple +(+kiwi +melon)", "apple AND (kiwi AND melon)", "+(+apple +kiwi) +melon")) {
      assertEquals(text, and3, QueryKeys.of(singleField(text)).orElseThrow());
      assertEquals(text, and3, QueryKeys.of(parse(text)).orElseThrow());
    }
    assertEquals(keyOf("apple"), QueryKeys.of(singleField("apple")).orElseThrow());
    assertEquals(keyOf("apple"), QueryKeys.of(singleField("(+apple)")).orElseThrow());
    assertEquals(keyOf("title:apple"), QueryKeys.of(multiField("title:apple")).orElseThrow());
    assertEquals(
        key(QueryKey.Operator.OR, "title:apple", "title:melon"),
        QueryKeys.of(multiField("title:apple title:melon")).orElseThrow());
    assertEquals(
        key(QueryKey.Operator.AND, "title:apple", "title:melon"),
        QueryKeys.of(multiField("+title:apple +title:melon")).orElseThrow());
  }

  /**
   * Over two default fields the parser spreads each word over both; a plain word, several words
   * and OR-ed groups key as one disjunction of (field, term) pairs, whatever the order of words and
   * fields, and fielded terms of several fields key as well, as a disjunction or a conjunction.
   */
  public void testTermsOfSeveralFieldsKeyTogether() throws Exception {
    QueryKey apple = key(QueryKey.Operator.OR, "title:apple", "body:apple");
    for (Query q :
        List.of(
            multiField("apple"),
            multiField("(apple)"),
            multiField("title:apple body:apple"),
            parse("body:apple title:apple"))) {
      assertEquals(q.toString(), apple, QueryKeys.of(q).orElseThrow());
    }
    QueryKey two = key(QueryKey.Operator.OR, "title:apple", "body:apple", "title:melon", "body:melon");
    for (String text : List.of("apple melon", "melon apple", "apple OR melon", "(melon) OR (apple)")) {
      assertEquals(text, two, QueryKeys.of(multiField(text)).orElseThrow());
    }
    assertEquals(
        two, QueryKeys.of(parse("body:melon title:apple body:apple title:melon")).orElseThrow());
    assertEquals(
        key(QueryKey.Operator.OR, "title:apple", "body:apple", "title:kiwi", "body:kiwi", "title:melon", "body:melon"),
        QueryKeys.of(multiField("(apple melon) kiwi")).orElseThrow());
    assertEquals(
        key(QueryKey.Operator.OR, "body:apple", "title:melon"),
        QueryKeys.of(multiField("title:melon body:apple")).orElseThrow());
    assertEquals(
        key(QueryKey.Operator.OR, "title:apple", "body:apple", "title:melon"),
        QueryKeys.of(multiField("apple title:melon")).orElseThrow());
    QueryKey mixedAnd = key(QueryKey.Operator.AND, "body:apple", "title:melon");
    for (String text : List.of("+body:apple +title:melon", "title:melon AND body:apple")) {
      assertEquals(text, mixedAnd, QueryKeys.of(multiField(text)).orElseThrow());
    }
    assertNotEquals(
        QueryKeys.of(multiField("title:apple")).orElseThrow(), keyOf("apple")); // body:apple
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
            parse("apple (melon AND kiwi)"), // a conjunction inside a disjunction
            parse("+apple +(melon kiwi)"), // a disjunction inside a conjunction
            parse("apple melon melon"), // a repeated term
            singleField("(+apple +melon) AND (+apple +melon)"),
            singleField("plum (kiwi melon) (melon kiwi)"),
            multiField("apple apple"), // a repeated (field, term) pair
            multiField("apple title:apple"),
            multiField("apple AND melon"), // a conjunction of per-word disjunctions
            multiField("+apple +melon"),
            multiField("+title:apple +(+body:melon +kiwi)"),
            multiField("apple -melon"),
            multiField("+apple melon"),
            multiField("\"apple melon\""),
            multiField("apple title:mel*"),
            new BooleanQuery.Builder()
                .add(term("body", "a"), Occur.FILTER)
                .add(term("body", "b"), Occur.FILTER)
                .build(),
            new BooleanQuery.Builder()
                .add(term("body", "a"), Occur.SHOULD)
                .add(term("body", "b"), Occur.SHOULD)
                .setMinimumNumberShouldMatch(1)
                .build(),
            new BooleanQuery.Builder() // a minimum-should-match is never inlined
                .add(term("body", "c"), Occur.SHOULD)
                .add(
                    new BooleanQuery.Builder()
                        .add(term("body", "a"), Occur.SHOULD)
                        .add(term("body", "b"), Occur.SHOULD)
                        .setMinimumNumberShouldMatch(1)
                        .build(),
                    Occur.SHOULD)
                .build(),
            new BooleanQuery.Builder().add(term("body", "a"), Occur.FILTER).build(),
            new BooleanQuery.Builder().add(term("body", "a"), Occur.MUST_NOT).build(),
            new BooleanQuery.Builder().build());
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
    QueryKey typed = QueryKeys.of(multiField("melon cheese")).orElseThrow();
    assertEquals(Optional.of(3), typed.termPartFor(keyOf("title:melon")));
    assertEquals(Optional.of(1), typed.termPartFor(keyOf("melon"))); // body:melon
    assertEquals(keyOf("title:cheese"), typed.termKey(2));
  }

  /** A key copies its terms: its caller may reuse the bytes, its hash and equality stay put. */
  public void testKeyIsUnaffectedByItsCallersBytes() throws Exception {
    BytesRef melon = new BytesRef("melon");
    QueryKey key = new QueryKey(QueryKey.Operator.SINGLE, List.of(new Term("body", melon)));
    int hash = key.hashCode();
    melon.bytes[melon.offset] = 'x';
    assertEquals(hash, key.hashCode());
    assertEquals(keyOf("melon"), key);
    assertEquals(keyOf("melon").hashCode(), hash);
  }

  public void testBinaryFormRoundTripsAndRefusesGarbage() throws Exception {
    for (String query : List.of("melon", "+a +b +c", "x y", "title:\"é\"", "title:a body:b", "+a +title:b")) {
      QueryKey key = keyOf(query);
      assertEquals(key, QueryKey.fromBytes(key.toBytes()));
      assertEquals(query, key.encodedLength(), key.toBytes().length);
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
            new QueryKey(QueryKey.Operator.AND, List.of(new Term("body", "a"))));
  }

  /**
   * The premise of keys: every keyed shape, as parsed (nested, clauses in any order, over one
   * default field or two, terms of several fields), scores exactly as its canonical query ({@link
   * QueryKeys#toQuery}): the same documents in the same order with bit-identical scores, over an
   * index of several segments where a quarter of the documents lack the second field.
   */
  public void testKeyedShapesScoreAsTheirCanonicalQuery() throws Exception {
    String[] words = {"apple", "melon", "kiwi", "cheese", "bread", "plum"};
    List<Query> shapes = new ArrayList<>();
    for (String text :
        List.of(
            "apple melon kiwi",
            "kiwi apple melon",
            "+apple +melon +cheese",
            "+cheese +melon +apple",
            "apple AND melon",
            "apple OR melon",
            "bread cheese apple melon kiwi",
            "(apple melon) kiwi",
            "apple (kiwi (melon bread))",
            "+apple +(+melon +kiwi)",
            "(+apple +melon) AND (+kiwi +cheese)",
            "plum")) {
      shapes.add(parse(text));
      shapes.add(singleField(text));
    }
    for (String text :
        List.of(
            "apple",
            "apple melon kiwi",
            "(apple melon) kiwi",
            "kiwi OR (plum bread)",
            "title:apple body:melon",
            "apple title:melon",
            "+title:apple +body:melon +body:kiwi",
            "title:kiwi AND (body:apple AND title:plum)")) {
      shapes.add(multiField(text));
    }
    for (int i = 0; i < 40; i++) {
      shapes.add(singleField(randomNesting(words, random().nextBoolean())));
      shapes.add(multiField(randomNesting(words, false)));
    }
    try (Directory directory = newDirectory();
        RandomIndexWriter writer = new RandomIndexWriter(random(), directory)) {
      for (int i = 0; i < 400; i++) {
        Document doc = new Document();
        doc.add(new TextField("body", randomText(words, 12), Field.Store.NO));
        if (random().nextInt(4) > 0) {
          doc.add(new TextField("title", randomText(words, 4), Field.Store.NO));
        }
        writer.addDocument(doc);
      }
      try (IndexReader reader = writer.getReader()) {
        IndexSearcher searcher = newSearcher(reader);
        for (Query shape : shapes) {
          QueryKey key = QueryKeys.of(shape).orElseThrow(() -> new AssertionError("not keyed: " + shape));
          TopDocs parsed = searcher.search(shape, 100);
          TopDocs canonical = searcher.search(QueryKeys.toQuery(key), 100);
          assertEquals(shape.toString(), parsed.totalHits, canonical.totalHits);
          assertEquals(shape.toString(), describe(parsed), describe(canonical));
        }
      }
    }
  }

  /** One to {@code maxWords} random words. */
  private static String randomText(String[] words, int maxWords) {
    StringBuilder text = new StringBuilder();
    for (int w = 1 + random().nextInt(maxWords); w > 0; w--) {
      text.append(words[random().nextInt(words.length)]).append(' ');
    }
    return text.toString();
  }

  /** A random group of distinct words, nested in random parentheses, all OR or all AND. */
  private static String randomNesting(String[] words, boolean and) {
    List<String> distinct = new ArrayList<>(List.of(words));
    Collections.shuffle(distinct, random());
    int count = 2 + random().nextInt(words.length - 1);
    StringBuilder text = new StringBuilder();
    int open = 0;
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        text.append(and ? " AND " : " ");
      }
      if (i < count - 1 && random().nextInt(3) == 0) {
        text.append('(');
        open++;
      }
      text.append(distinct.get(i));
      if (open > 0 && random().nextInt(3) == 0) {
        text.append(')');
        open--;
      }
    }
    text.append(")".repeat(open));
    return text.toString();
  }

  private static List<String> describe(TopDocs top) {
    List<String> out = new ArrayList<>();
    for (ScoreDoc sd : top.scoreDocs) {
      out.add(sd.doc + "=" + Float.floatToIntBits(sd.score));
    }
    return out;
  }
}
