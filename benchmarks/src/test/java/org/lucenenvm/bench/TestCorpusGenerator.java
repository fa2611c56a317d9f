package org.lucenenvm.bench;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class TestCorpusGenerator {

  private static final int DOCS = 3000;

  @Rule public TemporaryFolder temp = new TemporaryFolder();

  @Test
  public void sameSettingsGiveIdenticalFilesAndAnotherSeedDiffers() throws IOException {
    Path a = generate(7, "a");
    Path b = generate(7, "b");
    Path c = generate(8, "c");
    assertArrayEquals(Files.readAllBytes(a.resolve("corpus.txt")), Files.readAllBytes(b.resolve("corpus.txt")));
    assertArrayEquals(Files.readAllBytes(a.resolve("corpus.tasks")), Files.readAllBytes(b.resolve("corpus.tasks")));
    assertFalse(Files.readString(a.resolve("corpus.txt")).equals(Files.readString(c.resolve("corpus.txt"))));
  }

  @Test
  public void tasksMatchTheCorpusTheyWereGeneratedFrom() throws IOException {
    Path dir = generate(3, "d");
    List<Set<String>> bodies = new ArrayList<>();
    Map<String, Integer> docFreq = new HashMap<>();
    long bodyBytes = 0;
    try (LineDocReader reader = LineDocReader.open(dir.resolve("corpus.txt"))) {
      for (LineDoc doc = reader.next(); doc != null; doc = reader.next()) {
        Set<String> terms = new HashSet<>(List.of(doc.body().split(" ")));
        terms.forEach(t -> docFreq.merge(t, 1, Integer::sum));
        bodies.add(terms);
        bodyBytes += doc.body().length();
      }
    }
    assertEquals(DOCS, bodies.size());
    double meanBytes = (double) bodyBytes / DOCS;
    assertTrue("mean body length " + meanBytes, meanBytes > 900 && meanBytes < 1150);

    Map<String, Integer> perCategory = new HashMap<>();
    for (Task task : TaskFile.read(dir.resolve("corpus.tasks"))) {
      perCategory.merge(task.category(), 1, Integer::sum);
      String[] words = task.query().replace("+", "").split(" ");
      String[] freqs = task.comment().split(" ");
      assertEquals(task.toLine(), words.length, freqs.length);
      for (int i = 0; i < words.length; i++) {
        assertEquals(task.toLine(), "freq=" + docFreq.get(words[i]), freqs[i]);
      }
      TermClass expected = switch (task.category()) {
        case "TermLow", "AndLowLow" -> TermClass.LOW;
        case "TermMed", "AndMedMed" -> TermClass.MED;
        default -> TermClass.HIGH;
      };
      assertTrue(task.toLine(), expected.contains(docFreq.get(words[0]), DOCS));
      if (task.category().startsWith("And")) {
        assertTrue(task.toLine(), expected.contains(docFreq.get(words[1]), DOCS));
        assertTrue("conjunction matches no document: " + task.toLine(),
            bodies.stream().anyMatch(b -> b.contains(words[0]) && b.contains(words[1])));
      }
    }
    assertEquals(Set.of("TermLow", "TermMed", "TermHigh", "AndLowLow", "AndMedMed", "AndHighHigh", "OrHighHigh", "OrHighMed", "OrHighLow"),
        perCategory.keySet());
    perCategory.values().forEach(n -> assertTrue(n <= 40));
  }

  @Test
  public void vocabularyWordsAreDistinctAndHaveTheAdvertisedLength() {
    Set<String> seen = new HashSet<>();
    for (int rank = 0; rank < 300_000; rank++) {
      String word = SyntheticVocabulary.word(rank);
      assertEquals(SyntheticVocabulary.wordLength(rank), word.length());
      assertTrue("duplicate word " + word + " at rank " + rank, seen.add(word));
    }
  }

  @Test
  public void zipfSamplerFollowsItsDistribution() {
    ZipfSampler zipf = new ZipfSampler(1000, 1.0);
    var random = new java.util.SplittableRandom(1);
    int[] counts = new int[1000];
    int samples = 200_000;
    for (int i = 0; i < samples; i++) {
      counts[zipf.sample(random)]++;
    }
    double expected = zipf.probability(0) * samples;
    assertEquals(expected, counts[0], 5 * Math.sqrt(expected));
    assertEquals(2.0, (double) counts[0] / counts[1], 0.1);
  }

  private Path generate(long seed, String name) throws IOException {
    Path dir = temp.newFolder(name).toPath();
    new CorpusGenerator(new GeneratorSettings(DOCS, seed, 50_000, 1.0, 1024, 40))
        .generate(dir.resolve("corpus.txt"), dir.resolve("corpus.tasks"));
    return dir;
  }
}
