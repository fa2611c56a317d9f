package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SimpleCollector;

/** Collects every match of a query as id (from the id doc values) to score. */
final class HitsById extends SimpleCollector {
  private final Map<String, Float> hits = new HashMap<>();
  private BinaryDocValues ids;
  private Scorable scorer;

  static Map<String, Float> collect(IndexSearcher searcher, Query query) throws IOException {
    return searcher.search(
        query,
        new CollectorManager<HitsById, Map<String, Float>>() {
          @Override
          public HitsById newCollector() {
            return new HitsById();
          }

          @Override
          public Map<String, Float> reduce(Collection<HitsById> collectors) {
            Map<String, Float> all = new HashMap<>();
            for (HitsById c : collectors) {
              for (Map.Entry<String, Float> e : c.hits.entrySet()) {
                if (all.put(e.getKey(), e.getValue()) != null) {
                  throw new AssertionError("id " + e.getKey() + " matched twice");
                }
              }
            }
            return all;
          }
        });
  }

  @Override
  protected void doSetNextReader(LeafReaderContext context) throws IOException {
    ids = context.reader().getBinaryDocValues(RtSchema.ID_FIELD);
  }

  @Override
  public void setScorer(Scorable scorer) {
    this.scorer = scorer;
  }

  @Override
  public void collect(int doc) throws IOException {
    if (!ids.advanceExact(doc)) {
      throw new AssertionError("doc " + doc + " has no id");
    }
    Float previous = hits.put(ids.binaryValue().utf8ToString(), scorer.score());
    if (previous != null) {
      throw new AssertionError("id " + ids.binaryValue().utf8ToString() + " matched twice");
    }
  }

  @Override
  public ScoreMode scoreMode() {
    return ScoreMode.COMPLETE;
  }
}
