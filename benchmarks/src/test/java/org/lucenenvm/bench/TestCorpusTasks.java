package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Tasks derived from a corpus agree with the index the runner builds of it: every {@code freq=} is
 * the indexed document frequency, every class holds, every conjunction matches, and terms that
 * need escaping parse back to themselves.
 */
public class TestCorpusTasks {

  private static final int DOCS = 2000;

  @Rule public TemporaryFolder temp = new TemporaryFolder();

  /** Short documents over a skewed vocabulary with words the query parser must be given escaped. */
  private Path corpus() throws IOException {
    String[] special = {"iio:device0", "3.11", "don't", "e.g", "AND", "C++", "x86_64", "caf\u00E9"};
    Path corpus = temp.getRoot().toPath().resolve("c.txt");
    SplittableRandom random = new SplittableRandom(5);
    try (BufferedWriter out = Files.newBufferedWriter(corpus, StandardCharsets.UTF_8)) {
      for (int d = 0; d < DOCS; d++) {
        StringBuilder body = new StringBuilder();
        int words = 5 + random.nextInt(30);
        for (int w = 0; w < words; w++) {
          double u = random.nextDouble();
          String word = u < 0.1 ? special[random.nextInt(special.length)] : "w" + (int) Math.floor(Math.pow(3000, u) - 1);
          body.append(w == 0 ? "" : random.nextInt(8) == 0 ? ", " : " ").append(word);
        }
        out.write(new LineDoc("t" + d, LineDoc.date(1000L * d), body + ".").toLine());
        out.write('\n');
      }
    }
    return corpus;
  }

  @Test
  public void tasksAgreeWithTheIndexOfTheirCorpus() throws Exception {
    Path corpus = corpus();
    try (Analyzer analyzer = new StandardAnalyzer(); Directory dir = new ByteBuffersDirectory()) {
      CorpusTasks.Result result = new CorpusTasks(40, 42).derive(corpus, analyzer);
      assertEquals(result.tasks(), new CorpusTasks(40, 42).derive(corpus, analyzer).tasks());
      try (IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
        CorpusIngest.ingest(corpus, DOCS, CorpusIngest.into(writer), acked -> {}, "test");
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        Terms body = MultiTerms.getTerms(reader, DocumentFactory.BODY);
        assertEquals(DOCS, result.docs());
        assertEquals(body.size(), result.distinctTerms());
        assertEquals(body.getSumTotalTermFreq(), result.terms());
        IndexSearcher searcher = new IndexSearcher(reader);
        QueryParser parser = new QueryParser(DocumentFactory.BODY, analyzer);
        Set<String> categories = new LinkedHashSet<>();
        Set<String> escaped = new HashSet<>();
        for (Task task : result.tasks()) {
          categories.add(task.category());
          Query query = parser.parse(task.query());
          List<Term> terms = new ArrayList<>();
          for (String word : task.query().split(" ")) {
            Set<Term> wordTerms = new HashSet<>();
            parser.parse(word.startsWith("+") ? word.substring(1) : word).visit(QueryVisitor.termCollector(wordTerms));
            assertEquals(task.toLine(), 1, wordTerms.size());
            terms.addAll(wordTerms);
          }
          Set<Term> queryTerms = new HashSet<>();
          query.visit(QueryVisitor.termCollector(queryTerms));
          assertEquals(task.toLine(), new HashSet<>(terms), queryTerms);
          String[] freqs = task.comment().split(" ");
          assertEquals(task.toLine(), task.category().startsWith("Term") ? 1 : 2, terms.size());
          int i = 0;
          for (Term term : terms) {
            assertEquals(task.toLine(), "freq=" + reader.docFreq(term), freqs[i++]);
            TermClass expected = classOf(task.category(), i - 1);
            assertEquals(task.toLine(), expected, TermClass.of(reader.docFreq(term), DOCS));
            if (task.query().contains("\\")) {
              escaped.add(term.text());
            }
          }
          if (task.category().startsWith("And")) {
            assertTrue("conjunction matches no document: " + task.toLine(), searcher.count(query) > 0);
          }
        }
        assertEquals(Set.of("TermLow", "TermMed", "TermHigh", "AndLowLow", "AndMedMed", "AndHighHigh", "OrHighHigh", "OrHighMed", "OrHighLow"),
            categories);
        assertTrue("terms written escaped: " + escaped, escaped.contains("iio:device0"));
        Workload.parse(result.tasks(), List.of(), DocumentFactory.BODY, analyzer, 1);
      }
    }
  }

  /** The class of the {@code index}-th term of a category's tasks: {@code AndMedMed} → MED, MED; {@code OrHighLow} → HIGH, LOW. */
  private static TermClass classOf(String category, int index) {
    List<TermClass> classes = new ArrayList<>();
    String rest = category.replaceFirst("^(Term|And|Or)", "");
    while (!rest.isEmpty()) {
      String left = rest;
      TermClass c = Arrays.stream(TermClass.values()).filter(k -> left.startsWith(k.label())).findFirst()
          .orElseThrow(() -> new AssertionError("no term class in category " + category));
      classes.add(c);
      rest = rest.substring(c.label().length());
    }
    return classes.get(Math.min(index, classes.size() - 1));
  }

  @Test
  public void theCommandWritesTheTasksWithTheFiguresInTheHeader() throws Exception {
    Path corpus = corpus();
    Path tasks = temp.getRoot().toPath().resolve("out/c.tasks");
    assertEquals(0, BenchCli.commandLine().execute("tasks", "--corpus", corpus.toString(), "--tasks", tasks.toString(), "--tasks-per-category", "10",
        "--luceneutil-names"));
    List<String> lines = Files.readAllLines(tasks);
    assertTrue(lines.get(0), lines.get(0).startsWith("# derived from c.txt by lucene-nvm benchmarks tasks (seed 42, 10 per category")
        && lines.get(0).contains(DOCS + " docs") && lines.get(0).contains("High [5%,50%]"));
    List<Task> read = TaskFile.read(tasks);
    assertTrue(read.stream().anyMatch(t -> t.category().equals("HighTerm")));
    assertTrue(read.stream().noneMatch(t -> t.category().equals("TermHigh")));
  }
}
