package org.lucenenvm.realtime;

import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.tests.util.LuceneTestCase;

/** The block summaries map finds every term's latest array through growth, and no other. */
public class LiveBlockSummariesTest extends LuceneTestCase {

  public void testPutReplaceAndGrow() {
    LiveBlockSummaries map = new LiveBlockSummaries();
    Map<Integer, int[]> expected = new HashMap<>();
    int terms = atLeast(2_000);
    for (int i = 0; i < 4 * terms; i++) {
      int id = random().nextInt(terms) * 3; // sparse ids, as the terms that fill a block are
      int[] summaries = new int[] {id, i};
      map.put(id, summaries);
      expected.put(id, summaries);
    }
    for (int id = 0; id < 3 * terms; id++) {
      assertSame("term " + id, expected.get(id), map.get(id));
    }
    assertTrue(map.ramBytesUsed() > 0);
  }
}
