package org.lucenenvm.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.LuceneTestCase.Nightly;

/**
 * Random creates, clones ({@link NvmDirectory#copyFrom}), deletes, renames, syncs and reads of an
 * {@link NvmDirectory}, closed and reopened at random points, against a model. After every
 * operation no two extents of live files overlap unless they are the same extent of one clone
 * family, and every file of a family names the same extents; the files' contents are checked
 * after every reopen and regularly in between; free plus used bytes (shared extents once) make the
 * pool's capacity whenever no reader holds a deleted file. At the end, with every file deleted, the
 * pool is as free as an empty one.
 */
public class TestNvmSharedExtentsRandom extends LuceneTestCase {
  private static final long POOL_SIZE = 8L * 1024 * 1024;

  public void testRandomOperationsWithReopen() throws Exception {
    runOperations(400 * RANDOM_MULTIPLIER);
  }

  @Nightly
  public void testManyRandomOperationsWithReopen() throws Exception {
    runOperations(5_000);
  }

  /** A live file of the model: its bytes, its clone family and whether a sync of it returned. */
  private record Model(byte[] content, int family, boolean synced) {
    Model synced(boolean value) {
      return new Model(content, family, value);
    }
  }

  private void runOperations(int operations) throws IOException {
    Random random = new Random(random().nextLong());
    Path pool = PoolPaths.poolIn(createTempDir("shared"));
    Map<String, Model> model = new TreeMap<>();
    Map<IndexInput, String> readers = new HashMap<>();
    int names = 0;
    int families = 0;
    int reopens = 0;
    int clones = 0;
    NvmDirectory dir = NvmDirectory.open(pool, POOL_SIZE);
    try {
      for (int op = 0; op < operations; op++) {
        List<String> live = new ArrayList<>(model.keySet());
        String any = live.isEmpty() ? null : live.get(random.nextInt(live.size()));
        int action = random.nextInt(100);
        String where = "operation " + op;
        if (any == null || action < 25 && model.size() < 40) {
          byte[] content = new byte[random.nextInt(random.nextInt(10) == 0 ? 300_000 : 30_000)];
          random.nextBytes(content);
          String name = "f" + names++;
          try (IndexOutput out = dir.createOutput(name, IOContext.DEFAULT)) {
            out.writeBytes(content, content.length);
          }
          model.put(name, new Model(content, families++, false));
          assertContent(dir, name, content, where + " (written)");
        } else if (action < 50) {
          String name = "f" + names++;
          long written = dir.bytesWritten();
          dir.copyFrom(dir, any, name, IOContext.DEFAULT);
          assertEquals(where + ": a clone writes nothing", written, dir.bytesWritten());
          model.put(name, model.get(any).synced(false));
          clones++;
        } else if (action < 65) {
          dir.deleteFile(any);
          model.remove(any);
        } else if (action < 72) {
          String name = "f" + names++;
          dir.rename(any, name);
          model.put(name, model.remove(any));
        } else if (action < 82) {
          List<String> some = live.subList(0, 1 + random.nextInt(live.size()));
          dir.sync(some);
          some.forEach(name -> model.put(name, model.get(name).synced(true)));
        } else if (action < 90) {
          readers.put(dir.openInput(any, IOContext.DEFAULT), any);
        } else if (action < 96 && !readers.isEmpty()) {
          closeReaders(readers);
        } else if (action >= 96) {
          closeReaders(readers);
          dir.close();
          dir = NvmDirectory.open(pool, 0);
          reopens++;
          recovered(dir, model, where);
        }
        assertFamiliesShareExactly(dir, model, where);
        if (readers.isEmpty()) {
          PoolAccounting.assertAccounted(dir, where);
        }
        if (op % 10 == 0) {
          assertContents(dir, model, where);
        }
      }
      closeReaders(readers);
      assertContents(dir, model, "end");
      for (String name : model.keySet()) {
        dir.deleteFile(name);
      }
      assertEmpty(dir, "all deleted");
      dir.close();
      dir = NvmDirectory.open(pool, 0);
      assertEmpty(dir, "all deleted, reopened");
    } finally {
      dir.close();
    }
    assertTrue("too few reopens: " + reopens, operations < 400 || reopens > 2);
    assertTrue("too few clones: " + clones, operations < 400 || clones > 40);
  }

  private static void closeReaders(Map<IndexInput, String> readers) throws IOException {
    for (IndexInput in : readers.keySet()) {
      in.close();
    }
    readers.clear();
  }

  /**
   * After a reopen: every file whose sync returned is there, nothing deleted came back, and a file
   * never synced may be there or not (it is there if a publication named it).
   */
  private static void recovered(NvmDirectory dir, Map<String, Model> model, String where) throws IOException {
    TreeSet<String> present = new TreeSet<>(Arrays.asList(dir.listAll()));
    for (Map.Entry<String, Model> e : model.entrySet()) {
      if (e.getValue().synced()) {
        assertTrue(where + ": synced file " + e.getKey() + " lost by a reopen", present.contains(e.getKey()));
      }
    }
    assertTrue(where + ": files back from the dead: " + present, model.keySet().containsAll(present));
    model.keySet().retainAll(present);
    assertContents(dir, model, where + " (reopened)");
  }

  /**
   * Files of one family (clones of one written file) name exactly the same extents; files of
   * different families share none, and no extents overlap partially.
   */
  private static void assertFamiliesShareExactly(NvmDirectory dir, Map<String, Model> model, String where)
      throws IOException {
    PoolAccounting.extents(dir, where);
    Map<Long, Integer> familyOf = new HashMap<>();
    Map<Integer, String> memberOf = new HashMap<>();
    for (Map.Entry<String, Model> e : model.entrySet()) {
      NvmFile file = dir.closedFile(e.getKey());
      int family = e.getValue().family();
      String member = memberOf.putIfAbsent(family, e.getKey());
      if (member != null) {
        NvmFile other = dir.closedFile(member);
        assertEquals(where + ": extents of clones " + member + ", " + e.getKey(), other.extentCount(), file.extentCount());
        for (int i = 0; i < file.extentCount(); i++) {
          assertEquals(where + ": clones " + member + ", " + e.getKey(), other.extentOffset(i), file.extentOffset(i));
          assertEquals(where + ": clones " + member + ", " + e.getKey(), other.extentLength(i), file.extentLength(i));
        }
      }
      for (int i = 0; i < file.extentCount(); i++) {
        Integer previous = familyOf.put(file.extentOffset(i), family);
        assertTrue(
            where + ": the extent at " + file.extentOffset(i) + " of " + e.getKey() + " belongs to another file",
            previous == null || previous == family);
      }
    }
  }

  private static void assertContents(NvmDirectory dir, Map<String, Model> model, String where) throws IOException {
    assertEquals(where + ": files", model.keySet(), new TreeSet<>(Arrays.asList(dir.listAll())));
    for (Map.Entry<String, Model> e : model.entrySet()) {
      assertContent(dir, e.getKey(), e.getValue().content(), where);
    }
  }

  private static void assertContent(NvmDirectory dir, String name, byte[] content, String where) throws IOException {
    assertEquals(where + ": length of " + name, content.length, dir.fileLength(name));
    assertArrayEquals(where + ": content of " + name, content, PoolAccounting.read(dir, name));
  }

  private static void assertEmpty(NvmDirectory dir, String where) throws IOException {
    assertEquals(where, 0, dir.listAll().length);
    assertEquals(where + ": free bytes", PoolAccounting.capacity(dir) - PoolAccounting.tableBytes(dir), dir.freeBytes());
  }
}
