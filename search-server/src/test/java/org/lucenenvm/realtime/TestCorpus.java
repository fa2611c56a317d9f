package org.lucenenvm.realtime;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.BytesRef;

/** Random documents over a skewed vocabulary, their Lucene equivalent, and random queries. */
final class TestCorpus {
  private static final String[] WORDS = new String[200];

  static {
    for (int i = 0; i < WORDS.length; i++) {
      WORDS[i] = "w" + Integer.toString(i, 36) + (i % 7 == 0 ? "x" : "");
    }
  }

  private TestCorpus() {}

  /** A skewed pick: low indexes are far more frequent. */
  static String word(Random r) {
    double u = r.nextDouble();
    return WORDS[(int) (WORDS.length * u * u * u)];
  }

  static String text(Random r, int maxWords) {
    int n = r.nextInt(maxWords + 1);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(r.nextInt(10) == 0 ? ", the " : " ");
      }
      sb.append(word(r));
    }
    return sb.toString();
  }

  /** A document with a body, often a title, sometimes a tag and a url. */
  static RtDocument randomDocument(Random r, String id) {
    Map<String, String> fields = new LinkedHashMap<>();
    if (r.nextInt(4) != 0) {
      fields.put("title", text(r, 5));
    }
    fields.put("body", text(r, 40));
    if (r.nextBoolean()) {
      fields.put("tag", "t" + r.nextInt(10));
    }
    if (r.nextInt(3) == 0) {
      fields.put("url", "http://example.org/" + id);
    }
    return new RtDocument(id, fields);
  }

  /** The Lucene document IndexWriter should index for {@code doc}. */
  static Document toLucene(RtDocument doc, RtSchema schema) {
    Document d = new Document();
    d.add(new StringField(RtSchema.ID_FIELD, doc.id(), Field.Store.YES));
    d.add(new BinaryDocValuesField(RtSchema.ID_FIELD, new BytesRef(doc.id())));
    for (Map.Entry<String, String> e : doc.fields().entrySet()) {
      switch (schema.kindOf(e.getKey())) {
        case TEXT -> d.add(new TextField(e.getKey(), e.getValue(), Field.Store.YES));
        case KEYWORD -> d.add(new StringField(e.getKey(), e.getValue(), Field.Store.YES));
        case STORED -> d.add(new StoredField(e.getKey(), e.getValue()));
      }
    }
    return d;
  }

  /** Term, AND, OR, phrase, field and tag-filtered queries over the corpus vocabulary. */
  static Query randomQuery(Random r, QueryParser parser) {
    String q =
        switch (r.nextInt(7)) {
          case 0 -> word(r);
          case 1 -> "+" + word(r) + " +" + word(r);
          case 2 -> word(r) + " " + word(r) + " " + word(r);
          case 3 -> "\"" + word(r) + " " + word(r) + "\"";
          case 4 -> "title:" + word(r) + " " + word(r);
          case 5 -> "+tag:t" + r.nextInt(10) + " +" + word(r);
          default -> "+" + word(r) + " -" + word(r);
        };
    try {
      return parser.parse(q);
    } catch (ParseException e) {
      throw new AssertionError(q, e);
    }
  }
}
