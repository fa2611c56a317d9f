package org.lucenenvm.codec;

import java.io.IOException;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.tests.util.LuceneTestCase;

/** {@link DocIdArray#firstIndexAfter} against a linear scan, from every kind of start. */
public class TestDocIdArray extends LuceneTestCase {

  public void testSearchMatchesLinearScan() throws IOException {
    for (int iteration = 0; iteration < 50; iteration++) {
      int count = random().nextInt(2000);
      int[] docs = new int[count];
      int doc = -1;
      for (int i = 0; i < count; i++) {
        doc += 1 + random().nextInt(random().nextBoolean() ? 3 : 300);
        docs[i] = doc;
      }
      int padding = random().nextInt(16);
      ByteBuffersDataOutput out = new ByteBuffersDataOutput();
      for (int i = 0; i < padding; i++) {
        out.writeByte((byte) 0x7F);
      }
      for (int d : docs) {
        out.writeInt(d);
      }
      DocIdArray array = new DocIdArray(out.toDataInput());
      array.reset(padding, count);
      for (int i = 0; i < count; i++) {
        assertEquals(docs[i], array.get(i));
      }
      for (int probe = 0; probe < 200; probe++) {
        int index = random().nextInt(count + 1) - 1;
        int current = index < 0 ? -1 : docs[index];
        int target =
            random().nextBoolean()
                ? current + 1 + random().nextInt(3)
                : random().nextInt(doc + 10);
        assertEquals(
            linearScan(docs, index + 1, target), array.firstIndexAfter(index, current, target));
      }
    }
  }

  private static int linearScan(int[] docs, int from, int target) {
    int i = from;
    while (i < docs.length && docs[i] < target) {
      i++;
    }
    return i;
  }
}
