package org.lucenenvm.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.lucenenvm.realtime.RtDocument;

/**
 * A deterministic synthetic corpus for the demo and the load test: documents with a title, a body
 * of words drawn from a Zipf-like distribution over a generated vocabulary, a keyword tag and a
 * stored URL, as NDJSON lines for the schema of {@link #indexSpec}.
 */
public final class SyntheticCorpus {
  /** The create-index body for these documents with {@code partitions} executors. */
  public static String indexSpec(int partitions) {
    return "{\"fields\": {\"title\": \"text\", \"body\": \"text\", \"tag\": \"keyword\","
        + " \"url\": \"stored\"}, \"partitions\": " + partitions + "}";
  }

  private static final String[] SYLLABLES = {
    "ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po", "da", "fi", "gu", "he", "jo", "ma"
  };
  private static final String[] TAGS = {"news", "sports", "science", "arts", "travel", "food"};

  private final String[] vocabulary;
  private final ZipfRanks ranks;
  private final ObjectMapper json = new ObjectMapper();

  /** A corpus over {@code vocabularySize} words. */
  public SyntheticCorpus(int vocabularySize) {
    vocabulary = new String[vocabularySize];
    for (int i = 0; i < vocabularySize; i++) {
      vocabulary[i] = word(i);
    }
    ranks = new ZipfRanks(vocabularySize);
  }

  private static String word(int rank) {
    StringBuilder b = new StringBuilder();
    int n = rank;
    do {
      b.append(SYLLABLES[n % SYLLABLES.length]);
      n /= SYLLABLES.length;
    } while (n > 0);
    return b.toString();
  }

  /** The word of popularity rank {@code rank} (0 = most frequent). */
  public String word(long rank) {
    return vocabulary[(int) rank];
  }

  /** The {@code n}-th document (same {@code n}, same document). */
  public RtDocument document(long n) {
    SplittableRandom random = new SplittableRandom(n * 0x9E3779B97F4A7C15L + 17);
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("title", words(random, 3 + random.nextInt(6)));
    fields.put("body", words(random, 30 + random.nextInt(50)));
    fields.put("tag", TAGS[random.nextInt(TAGS.length)]);
    fields.put("url", "https://example.org/doc/" + n);
    return new RtDocument("doc-" + n, fields);
  }

  /** The {@code n}-th document as one NDJSON line. */
  public String documentLine(long n) {
    RtDocument doc = document(n);
    ObjectNode node = json.createObjectNode();
    node.put("id", doc.id());
    doc.fields().forEach(node::put);
    return node.toString();
  }

  private String words(SplittableRandom random, int count) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        b.append(' ');
      }
      b.append(vocabulary[ranks.rank(random.nextDouble())]);
    }
    return b.toString();
  }

  /** Documents {@code [from, to)} as an NDJSON body. */
  public String batch(long from, long to) {
    StringBuilder b = new StringBuilder();
    for (long n = from; n < to; n++) {
      b.append(documentLine(n)).append('\n');
    }
    return b.toString();
  }
}
