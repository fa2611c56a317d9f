package org.lucenenvm.realtime;

import java.lang.reflect.Field;
import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.RamUsageTester;
import org.lucenenvm.demo.ZipfRanks;

/**
 * Memory of the live segment on documents shaped like the benchmark corpus (benchmarks/README.md,
 * "Synthetic corpus": Zipf s = 1 over 1,000,000 consonant-vowel words, body about 1 KB, a 2 to 8
 * word title, a date keyword), one full segment of the engine's default size: the index overhead
 * (everything but the stored documents, printed with its parts) stays under 2 KB per document,
 * and {@link LiveSegment#ramBytesUsed} is within 10 % of the heap the segment really holds.
 */
public class LiveSegmentMemoryTest extends LuceneTestCase {
  private static final RtSchema SCHEMA =
      RtSchema.builder().text("title").keyword("date").text("body").build();
  private static final int DOCS = 10_000;
  /**
   * The bound on index bytes per document; this layout measures about 1,970 on this corpus (the
   * previous layout about 2,440, before the pooled layout about 7,400), see search-server/README.md
   * for where the bytes go.
   */
  private static final long MAX_INDEX_BYTES_PER_DOC = 2_048;

  public void testBytesPerDocumentOnBenchmarkLikeCorpus() {
    DocumentInverter inverter =
        new DocumentInverter(SCHEMA, new StandardAnalyzer(), new BM25Similarity());
    ZipfWords words = new ZipfWords(1_000_000);
    Random r = new Random(42);
    LiveSegment live = new LiveSegment(SCHEMA, DOCS);
    long textBytes = 0;
    for (int i = 0; i < DOCS; i++) {
      String body = words.text(r, (int) Math.max(64, 1024 + 256 * r.nextGaussian()));
      String title = words.text(r, 1 + 6 * (2 + r.nextInt(7)));
      String date = String.format(Locale.ROOT, "2024-%02d-%02d", 1 + i / 1000 % 12, 1 + i % 28);
      textBytes += body.length() + title.length();
      live.add(
          inverter.invert(
              new RtDocument("doc" + i, Map.of("title", title, "date", date, "body", body))));
    }
    long total = live.ramBytesUsed();
    long stored = live.storedBytesUsed();
    long measured = RamUsageTester.ramUsed(live, new SegmentOnly());
    double indexPerDoc = (double) (total - stored) / DOCS;
    System.out.printf(
        Locale.ROOT,
        "live segment, %d docs, %.0f text bytes/doc: index %.0f B/doc, stored %.0f B/doc,"
            + " ramBytesUsed %.0f B/doc (measured %.0f)%n",
        DOCS,
        (double) textBytes / DOCS,
        indexPerDoc,
        (double) stored / DOCS,
        (double) total / DOCS,
        (double) measured / DOCS);
    long fieldBytes = 0;
    for (String name : List.of(RtSchema.ID_FIELD, "title", "date", "body")) {
      LiveField field = live.field(name, DOCS);
      LiveTermHash terms = field.terms;
      int once = 0;
      for (int id = 0; id < terms.termCount(); id++) {
        once += terms.state(id) >>> 32 == 1 ? 1 : 0;
      }
      fieldBytes += field.ramBytesUsed();
      System.out.printf(
          Locale.ROOT,
          "  field %s: %d terms (%d occur once), %.0f B/doc (term table, hash, summaries, statistics, norms)%n",
          name, terms.termCount(), once, (double) field.ramBytesUsed() / DOCS);
    }
    System.out.printf(
        Locale.ROOT,
        "  the rest (byte pool: slices, long terms, sealed blocks; per-doc id array): %.0f B/doc%n",
        (double) (total - stored - fieldBytes) / DOCS);
    assertTrue("index overhead " + indexPerDoc + " B/doc", indexPerDoc <= MAX_INDEX_BYTES_PER_DOC);
    assertEquals("ramBytesUsed vs measured heap", measured, total, measured * 0.10);
  }

  /**
   * Walks the segment's own structures, stored documents included, but not the JDK collections
   * and field infos the module system does not let the tester reflect on (a few hundred bytes per
   * segment).
   */
  private static final class SegmentOnly extends RamUsageTester.Accumulator {
    @Override
    public long accumulateObject(
        Object o, long shallowSize, Map<Field, Object> fieldValues, Collection<Object> queue) {
      for (Object value : fieldValues.values()) {
        if (value != null
            && !(value instanceof AbstractMap
                || value instanceof AbstractList
                || value instanceof AtomicReferenceArray
                || value instanceof FieldInfo
                || value instanceof Enum)) {
          queue.add(value);
        }
      }
      return shallowSize;
    }

    @Override
    public long accumulateArray(
        Object array, long shallowSize, List<Object> values, Collection<Object> queue) {
      queue.addAll(values);
      return shallowSize;
    }
  }

  /**
   * Words of consonant-vowel syllables whose ranks follow Zipf's law with s = 1 (the demo corpus's
   * {@link ZipfRanks}), spelled as the benchmark corpus spells them rather than as the demo's.
   */
  private static final class ZipfWords {
    private static final String CONSONANTS = "bcdfghjklmnprstvwxz";
    private static final String VOWELS = "aeiou";
    private final ZipfRanks ranks;

    ZipfWords(int vocabulary) {
      ranks = new ZipfRanks(vocabulary);
    }

    /** Words up to about {@code bytes} characters, space separated. */
    String text(Random r, int bytes) {
      StringBuilder sb = new StringBuilder(bytes + 16);
      while (sb.length() < bytes) {
        if (!sb.isEmpty()) {
          sb.append(' ');
        }
        appendWord(sb, ranks.rank(r.nextDouble()));
      }
      return sb.toString();
    }

    /** Frequent ranks get two syllables, rarer ones three, then four (as the benchmark's words). */
    private static void appendWord(StringBuilder sb, int rank) {
      int syllables = rank < 95 * 95 ? 2 : rank < 95 * 95 * 96 ? 3 : 4;
      long code = rank * 7_777_777L + 12_345L;
      for (int i = 0; i < syllables; i++) {
        int syllable = (int) (code % 95);
        code /= 95;
        sb.append(CONSONANTS.charAt(syllable / 5)).append(VOWELS.charAt(syllable % 5));
      }
    }
  }
}
