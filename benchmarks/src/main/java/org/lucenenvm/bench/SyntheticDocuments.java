package org.lucenenvm.bench;

import java.time.Instant;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The deterministic stream of synthetic documents behind {@link CorpusGenerator}: each call to
 * {@link #next()} draws one document's title and body as term ranks from a shared {@link
 * ZipfSampler}. Two instances with the same settings produce the same sequence, which lets the
 * generator make a second pass without re-reading its output.
 */
final class SyntheticDocuments {

  private static final long FIRST_DATE_MILLIS = Instant.parse("2001-01-15T00:00:00Z").toEpochMilli();
  private static final int MAX_TITLE_WORDS = 8;

  private final GeneratorSettings settings;
  private final ZipfSampler zipf;
  private final SplittableRandom random;
  private int[] body = new int[256];
  private int bodyLength;
  private final int[] title = new int[MAX_TITLE_WORDS];
  private int titleLength;
  private long dateMillis = FIRST_DATE_MILLIS;
  private long produced;

  SyntheticDocuments(GeneratorSettings settings, ZipfSampler zipf) {
    this.settings = settings;
    this.zipf = zipf;
    this.random = new SplittableRandom(settings.seed());
  }

  /** Draws the next document; false once {@link GeneratorSettings#docs()} were produced. */
  boolean next() {
    if (produced == settings.docs()) {
      return false;
    }
    produced++;
    titleLength = 2 + random.nextInt(MAX_TITLE_WORDS - 1);
    for (int i = 0; i < titleLength; i++) {
      title[i] = zipf.sample(random);
    }
    int mean = settings.meanBodyBytes();
    int targetBytes = (int) Math.max(8, Math.round(mean + random.nextGaussian() * mean / 4.0));
    bodyLength = 0;
    for (int bytes = 0; bytes < targetBytes; ) {
      int rank = zipf.sample(random);
      if (bodyLength == body.length) {
        body = Arrays.copyOf(body, body.length * 2);
      }
      body[bodyLength++] = rank;
      bytes += SyntheticVocabulary.wordLength(rank) + 1;
    }
    dateMillis += random.nextInt(1, 60_000);
    return true;
  }

  /** Term ranks of the current body; valid up to {@link #bodyLength()}. */
  int[] bodyRanks() {
    return body;
  }

  int bodyLength() {
    return bodyLength;
  }

  /** The current document as line-doc text. */
  LineDoc toLineDoc() {
    return new LineDoc(words(title, titleLength), LineDoc.date(dateMillis), words(body, bodyLength));
  }

  private static String words(int[] ranks, int length) {
    StringBuilder sb = new StringBuilder(length * 8);
    for (int i = 0; i < length; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(SyntheticVocabulary.word(ranks[i]));
    }
    return sb.toString();
  }
}
