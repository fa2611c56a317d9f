package org.lucenenvm.realtime;

import java.io.IOException;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.FilterCollector;
import org.apache.lucene.search.FilterLeafCollector;
import org.apache.lucene.search.FilterScorable;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Scorable;

/**
 * A collector that tells every scorer, before it scores, that no document scoring below {@code
 * floor} is wanted, and never lets the collector it wraps lower that minimum: a search of a cached
 * query's tail starts where the epoch's top-k ends instead of at zero, as one search of all leaves
 * would (its collector's threshold carries over from the leaves searched before). Documents scoring
 * at least {@code floor} are collected as without it, so ties with the floor keep their doc id
 * order; documents below it may or may not be collected, so counts are lower bounds.
 */
final class ScoreFloorCollector extends FilterCollector {
  private final float floor;

  /** Wraps {@code in}, which must score in {@code ScoreMode.TOP_SCORES}; {@code floor} > 0. */
  ScoreFloorCollector(Collector in, float floor) {
    super(in);
    if (!(floor > 0)) {
      throw new IllegalArgumentException("score floor must be > 0, got " + floor);
    }
    this.floor = floor;
  }

  @Override
  public LeafCollector getLeafCollector(LeafReaderContext context) throws IOException {
    return new FilterLeafCollector(super.getLeafCollector(context)) {
      @Override
      public void setScorer(Scorable scorer) throws IOException {
        scorer.setMinCompetitiveScore(floor);
        in.setScorer(new FlooredScorable(scorer));
      }
    };
  }

  /** Forwards a raised minimum, never one below the floor (scorers assume it only rises). */
  private final class FlooredScorable extends FilterScorable {
    FlooredScorable(Scorable in) {
      super(in);
    }

    @Override
    public void setMinCompetitiveScore(float minScore) throws IOException {
      in.setMinCompetitiveScore(Math.max(minScore, floor));
    }
  }
}
