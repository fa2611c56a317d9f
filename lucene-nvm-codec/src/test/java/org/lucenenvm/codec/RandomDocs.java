package org.lucenenvm.codec;

import java.util.Random;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.tests.analysis.MockTokenizer;
import org.apache.lucene.tests.analysis.MockVariableLengthPayloadFilter;

/**
 * Random documents over a small Zipf-like vocabulary with one field per {@link IndexOptions}
 * level, plus payloads, so that every layout of {@link NvmPostingsFormat} is written.
 */
final class RandomDocs {
  static final String ID = "id";
  static final String KEYWORDS = "keywords";
  static final String FREQS = "freqs";
  static final String BODY = "body";
  static final String OFFSETS = "offsets";
  static final String PAYLOADS = "payloads";

  private static final FieldType DOCS_AND_FREQS = textType(IndexOptions.DOCS_AND_FREQS);
  private static final FieldType WITH_OFFSETS =
      textType(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS);

  private final Random random;
  private final int vocabulary;

  RandomDocs(Random random, int vocabulary) {
    this.random = random;
    this.vocabulary = vocabulary;
  }

  private static FieldType textType(IndexOptions options) {
    FieldType type = new FieldType(TextField.TYPE_NOT_STORED);
    type.setIndexOptions(options);
    type.freeze();
    return type;
  }

  /** A term of the vocabulary, low ranks far more often than high ones. */
  String term() {
    double u = random.nextDouble();
    return "t" + (int) Math.floor(Math.pow(vocabulary, u) - 1);
  }

  String text(int maxWords) {
    int words = 1 + random.nextInt(maxWords);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < words; i++) {
      text.append(term()).append(' ');
    }
    return text.toString();
  }

  Document next(int id) {
    Document doc = new Document();
    doc.add(new StringField(ID, Integer.toString(id), Field.Store.YES));
    doc.add(new StringField(KEYWORDS, term(), Field.Store.NO));
    doc.add(new Field(FREQS, text(20), DOCS_AND_FREQS));
    doc.add(new TextField(BODY, text(60), Field.Store.NO));
    doc.add(new Field(OFFSETS, text(20), WITH_OFFSETS));
    doc.add(new TextField(PAYLOADS, text(20), Field.Store.NO));
    return doc;
  }

  /** Whitespace tokens; the {@value #PAYLOADS} field also gets random-length payloads. */
  static Analyzer analyzer(Random random) {
    return new Analyzer(Analyzer.PER_FIELD_REUSE_STRATEGY) {
      @Override
      protected TokenStreamComponents createComponents(String fieldName) {
        Tokenizer tokenizer = new MockTokenizer(MockTokenizer.WHITESPACE, false);
        TokenStream stream =
            PAYLOADS.equals(fieldName)
                ? new MockVariableLengthPayloadFilter(random, tokenizer)
                : tokenizer;
        return new TokenStreamComponents(tokenizer, stream);
      }
    };
  }
}
