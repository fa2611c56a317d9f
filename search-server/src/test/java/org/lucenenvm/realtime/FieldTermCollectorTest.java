package org.lucenenvm.realtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;

/** The collector against a linked hash map: terms in first-occurrence order, positions, freqs. */
public class FieldTermCollectorTest extends LuceneTestCase {

  public void testMatchesLinkedHashMap() {
    for (int round = 0; round < 20; round++) {
      List<String> vocabulary = new ArrayList<>();
      int words = 1 + random().nextInt(300);
      for (int i = 0; i < words; i++) {
        vocabulary.add(
            random().nextInt(10) == 0
                ? TestUtil.randomUnicodeString(random(), 20)
                : TestUtil.randomSimpleString(random(), 0, 9));
      }
      FieldTermCollector collector = new FieldTermCollector(random().nextInt(8));
      Map<BytesRef, List<Integer>> expected = new LinkedHashMap<>();
      int tokens = random().nextInt(2_000);
      for (int position = 0; position < tokens; position++) {
        BytesRef word = new BytesRef(vocabulary.get(random().nextInt(words)));
        byte[] padded = new byte[word.length + 5]; // the token at an offset, as an attribute has it
        System.arraycopy(word.bytes, word.offset, padded, 3, word.length);
        List<Integer> positions = expected.computeIfAbsent(word, w -> new ArrayList<>());
        positions.add(position);
        assertEquals(
            positions.size(), collector.add(new BytesRef(padded, 3, word.length), position));
      }
      BytesRef[] terms = collector.terms();
      int[][] positions = collector.positions();
      assertEquals(expected.size(), terms.length);
      int i = 0;
      for (Map.Entry<BytesRef, List<Integer>> e : expected.entrySet()) {
        assertEquals(e.getKey(), terms[i]);
        assertArrayEquals(e.getValue().stream().mapToInt(Integer::intValue).toArray(), positions[i]);
        i++;
      }
    }
  }
}
