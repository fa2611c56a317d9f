package org.lucenenvm.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Random;

/**
 * Test support for {@link PowerFailureSimulator} runs: writes the pool images one crash point may
 * leave and hands each to a check, and crashes the recovery of an image in turn.
 *
 * <p>The images of a crash point: no dirty line survives, every one does (if any is dirty), and
 * then, with up to {@value #MAX_ENUMERATED_WORDS} dirty 8-byte words (a header update, a root
 * publication), every other subset of those words (torn lines included); with more (file bytes, a
 * file table), a random subset of the words and one of the lines. Images are written to two scratch
 * files in turn, so a check may keep the previous one open.
 */
public final class CrashImages {

  /** Checks one pool image; {@code where} names the crash point and the kind of image. */
  @FunctionalInterface
  public interface Check {
    void check(Path image, String where) throws IOException;
  }

  /** What a recovery does to a crashed pool: opens it with {@code backend} and recovers. */
  @FunctionalInterface
  public interface Recovery {
    void recover(Path pool, PoolBackend backend) throws IOException;
  }

  /** Up to this many dirty words, every subset of them is an image (pmreorder's full reordering). */
  static final int MAX_ENUMERATED_WORDS = 4;

  private final Path dir;
  private final String prefix;
  private final Random random;
  private int written;

  /** Images in {@code dir} named {@code <prefix>0.pool}, {@code <prefix>1.pool}. */
  public CrashImages(Path dir, String prefix, Random random) {
    this.dir = dir;
    this.prefix = prefix;
    this.random = random;
  }

  /** Writes each image of {@code point} and checks it; returns how many were checked. */
  public int checkEach(PowerFailureSimulator.CrashPoint point, Check check) throws IOException {
    int dirty = point.dirtyLines().length;
    long[] words = point.dirtyWords();
    String at = "crash point " + point.index() + " (";
    String of = " of " + dirty + " dirty lines, " + words.length + " words)";
    int images = 0;
    Path image = next();
    point.writeImage(image, PowerFailureSimulator.noDirtyLines());
    check.check(image, at + "none" + of);
    images++;
    if (dirty > 0) {
      image = next();
      point.writeImage(image, PowerFailureSimulator.allDirtyLines());
      check.check(image, at + "all" + of);
      images++;
    }
    if (words.length <= MAX_ENUMERATED_WORDS) {
      for (int subset = 1; subset < (1 << words.length) - 1; subset++) {
        int survivors = subset;
        image = next();
        point.writeTornImage(image, word -> (survivors & (1 << Arrays.binarySearch(words, word))) != 0);
        check.check(image, at + "words " + Integer.toBinaryString(subset) + of);
        images++;
      }
      return images;
    }
    image = next();
    point.writeTornImage(image, PowerFailureSimulator.randomDirtyLines(new Random(random.nextLong())));
    check.check(image, at + "random words" + of);
    images++;
    if (dirty > 1) {
      image = next();
      point.writeImage(image, PowerFailureSimulator.randomDirtyLines(new Random(random.nextLong())));
      check.check(image, at + "random lines" + of);
      images++;
    }
    return images;
  }

  /**
   * Crashes the recovery of {@code image}: runs {@code recovery} on a copy under a simulator, checks
   * the images of every crash point of that recovery with {@code check} (as if the power failed
   * again while recovering; their images go to {@code nested}), then checks the recovered copy.
   * Returns the number of crash points the recovery had.
   */
  public int crashRecovery(Path image, String where, Recovery recovery, CrashImages nested, Check check)
      throws IOException {
    Path recovering = dir.resolve(prefix + "-recovering.pool");
    Files.copy(image, recovering, StandardCopyOption.REPLACE_EXISTING);
    int[] points = new int[1];
    PowerFailureSimulator simulator =
        new PowerFailureSimulator(
            point -> {
              points[0]++;
              nested.checkEach(
                  point, (crashed, at) -> check.check(crashed, where + ", recovery " + at));
            });
    recovery.recover(recovering, simulator);
    check.check(recovering, where + ", recovered");
    return points[0];
  }

  private Path next() {
    return dir.resolve(prefix + (written++ % 2) + ".pool");
  }
}
