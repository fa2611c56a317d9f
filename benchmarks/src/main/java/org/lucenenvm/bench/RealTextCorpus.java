package org.lucenenvm.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.lucene.analysis.Analyzer;
import org.lucenenvm.bench.text.DocFormat;
import org.lucenenvm.bench.text.Sentences;

/**
 * Builds a corpus of short real documents from unpacked documentation packages: {@code
 * <source>/<package>/usr/share/...}, one directory per package, as {@code dpkg-deb -x} leaves them.
 *
 * <p>Every file that {@link DocFormat#of} reads (manual pages, HTML, POD, plain text; gzipped or
 * not; symbolic links never) is converted to paragraphs, packages and files in the order of their
 * path names. A paragraph of {@code minWords..maxWords} words is one document; a longer one is split
 * into {@link Sentences}, each of {@code minWords..maxWords} words a document; shorter texts and
 * longer sentences are dropped. Words are the terms the runner indexes ({@link BodyTerms} with its
 * analyzer). A document whose terms, in order, equal an earlier document's is a duplicate and
 * dropped. The documents are then shuffled with {@code seed} (so that no part of the corpus holds
 * one package's text) and written as line docs: title {@code <package> <file name>} (without
 * {@code .gz} and a format extension), date one second after the previous document's from {@code
 * 15-JAN-2001}, body the text. The same files and settings give the same bytes.
 */
public final class RealTextCorpus {

  private static final long FIRST_DATE_MILLIS = Instant.parse("2001-01-15T00:00:00Z").toEpochMilli();

  private final int minWords;
  private final int maxWords;
  private final long seed;

  /** A builder of documents of {@code minWords..maxWords} words, shuffled with {@code seed}. */
  public RealTextCorpus(int minWords, int maxWords, long seed) {
    if (minWords < 1 || maxWords < minWords) {
      throw new IllegalArgumentException("words per document must satisfy 1 <= min <= max: " + minWords + ".." + maxWords);
    }
    this.minWords = minWords;
    this.maxWords = maxWords;
    this.seed = seed;
  }

  /** Builds the corpus of the packages under {@code source} into {@code corpusFile}. */
  public Summary build(Path source, Path corpusFile, Analyzer analyzer) throws IOException {
    List<Path> packages;
    try (Stream<Path> dirs = Files.list(source)) {
      packages = dirs.filter(Files::isDirectory).sorted().toList();
    }
    if (packages.isEmpty()) {
      throw new IllegalArgumentException(source + " holds no package directory (expected <source>/<package>/usr/share/...)");
    }
    Collector collector = new Collector(new BodyTerms(analyzer));
    for (Path pkg : packages) {
      collector.readPackage(pkg);
    }
    List<Document> docs = collector.documents;
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = docs.size() - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      Document tmp = docs.get(i);
      docs.set(i, docs.get(j));
      docs.set(j, tmp);
    }
    try (BufferedWriter out = Files.newBufferedWriter(corpusFile, StandardCharsets.UTF_8)) {
      for (int i = 0; i < docs.size(); i++) {
        Document doc = docs.get(i);
        out.write(new LineDoc(collector.titles.get(doc.title()), LineDoc.date(FIRST_DATE_MILLIS + 1000L * i), doc.body()).toLine());
        out.write('\n');
      }
    }
    return collector.summary();
  }

  /** One document before shuffling: its title's number and its body. */
  private record Document(int title, String body) {}

  /** The documents of the packages read so far, and the counts of the summary. */
  private final class Collector {
    final BodyTerms terms;
    final List<Document> documents = new ArrayList<>();
    final List<String> titles = new ArrayList<>();
    final Set<String> seen = new HashSet<>();
    final Set<String> vocabulary = new HashSet<>();
    final Map<DocFormat, Long> files = new EnumMap<>(DocFormat.class);
    final Map<String, PackageCount> perPackage = new TreeMap<>();
    long paragraphs;
    long tooShort;
    long tooLong;
    long duplicates;
    long words;

    Collector(BodyTerms terms) {
      this.terms = terms;
    }

    void readPackage(Path pkg) throws IOException {
      String name = pkg.getFileName().toString();
      List<Path> paths;
      try (Stream<Path> walk = Files.walk(pkg)) {
        paths = walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).sorted().toList();
      }
      long filesRead = 0;
      long before = documents.size();
      for (Path file : paths) {
        String relative = pkg.relativize(file).toString().replace('\\', '/');
        DocFormat format = DocFormat.of(file, relative);
        if (format == null) {
          continue;
        }
        files.merge(format, 1L, Long::sum);
        filesRead++;
        titles.add(name + " " + stem(file.getFileName().toString()));
        for (String paragraph : format.paragraphs(readText(file))) {
          paragraphs++;
          List<String> paragraphTerms = terms.of(paragraph);
          if (paragraphTerms.size() <= maxWords) {
            offer(paragraph, paragraphTerms);
          } else {
            for (String sentence : Sentences.split(paragraph)) {
              offer(sentence, terms.of(sentence));
            }
          }
        }
      }
      perPackage.put(name, new PackageCount(filesRead, documents.size() - before));
    }

    void offer(String text, List<String> textTerms) {
      if (textTerms.size() < minWords) {
        tooShort++;
      } else if (textTerms.size() > maxWords) {
        tooLong++;
      } else if (!seen.add(String.join(" ", textTerms))) {
        duplicates++;
      } else {
        documents.add(new Document(titles.size() - 1, text));
        words += textTerms.size();
        vocabulary.addAll(textTerms);
      }
    }

    Summary summary() {
      return new Summary(documents.size(), words, vocabulary.size(), paragraphs, tooShort, tooLong, duplicates, Map.copyOf(files),
          new TreeMap<>(perPackage), minWords, maxWords);
    }
  }

  /** The file name without {@code .gz} and without a format extension ({@code .html}, {@code .htm}, {@code .txt}, {@code .pod}). */
  static String stem(String fileName) {
    String name = fileName.endsWith(".gz") ? fileName.substring(0, fileName.length() - 3) : fileName;
    for (String extension : List.of(".html", ".htm", ".txt", ".pod")) {
      if (name.toLowerCase(Locale.ROOT).endsWith(extension)) {
        return name.substring(0, name.length() - extension.length());
      }
    }
    return name;
  }

  /** The text of {@code file}, gunzipped if its name ends in {@code .gz}, as UTF-8 (malformed bytes replaced). */
  private static String readText(Path file) throws IOException {
    if (!file.getFileName().toString().endsWith(".gz")) {
      return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    }
    try (InputStream in = new GZIPInputStream(Files.newInputStream(file), 1 << 16)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IOException("cannot gunzip " + file + ": " + e.getMessage(), e);
    }
  }

  /** What one package gave: files read, documents kept. */
  public record PackageCount(long files, long documents) {}

  /**
   * What a build produced and dropped.
   *
   * @param documents documents written
   * @param words their words in all
   * @param distinctTerms distinct terms of their bodies
   * @param paragraphs paragraphs the converters produced
   * @param tooShort paragraphs and sentences of fewer than the minimum words
   * @param tooLong sentences of more than the maximum words
   * @param duplicates texts dropped as duplicates
   * @param filesPerFormat files read, per format
   * @param perPackage per package, by name: files read, documents kept
   * @param minWords the minimum words per document
   * @param maxWords the maximum words per document
   */
  public record Summary(long documents, long words, long distinctTerms, long paragraphs, long tooShort, long tooLong, long duplicates,
      Map<DocFormat, Long> filesPerFormat, Map<String, PackageCount> perPackage, int minWords, int maxWords) {

    /** The mean words per document. */
    public double meanWords() {
      return documents == 0 ? 0 : (double) words / documents;
    }

    /** The summary as text, one fact per line. */
    public String format() {
      StringBuilder sb = new StringBuilder();
      sb.append(String.format(Locale.ROOT, "documents: %d of %d..%d words, %.2f words per document on average, %d words, %d distinct terms%n",
          documents, minWords, maxWords, meanWords(), words, distinctTerms));
      sb.append(String.format(Locale.ROOT, "paragraphs: %d; dropped: %d shorter than %d words, %d sentences longer than %d words, %d duplicates%n",
          paragraphs, tooShort, minWords, tooLong, maxWords, duplicates));
      new TreeMap<>(filesPerFormat).forEach((format, n) -> sb.append(String.format(Locale.ROOT, "files %-5s %d%n", format.name().toLowerCase(Locale.ROOT), n)));
      perPackage.forEach((pkg, n) -> sb.append(String.format(Locale.ROOT, "package %-24s files %6d documents %8d%n", pkg, n.files(), n.documents())));
      return sb.toString();
    }
  }
}
