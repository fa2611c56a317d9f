package org.lucenenvm.store;

/**
 * When and how far an {@link NvmDirectory} grows its pool while it is open ({@link
 * NvmHeap#grow}). Growth is off ({@link #OFF}) unless a maximum is set. With a maximum, the pool
 * grows by {@code stepBytes} when an allocation finds no room (by more if the allocation needs
 * more) and when an allocation leaves less than {@code freeWatermarkPercent} of the pool free,
 * never beyond {@code maxBytes}, and never so far that the file system holding the pool keeps
 * less than {@code fileSystemMarginBytes} usable. A growth that cannot happen leaves the pool as
 * it is: an allocation without room fails with a {@link PoolFullException} saying why it did not
 * grow, and nothing already written is affected.
 *
 * @param maxBytes the largest size the pool grows to; 0 turns growth off, {@link #UNBOUNDED} sets
 *     no maximum (the file system's margin still bounds it). A pool already this large does not
 *     grow (it never shrinks either).
 * @param stepBytes bytes added by one growth (at least 4 KiB; rounded up to 4 KiB)
 * @param freeWatermarkPercent grow ahead of need once less than this share of the pool is free (0
 *     to grow only when an allocation finds no room; below 100)
 * @param fileSystemMarginBytes usable bytes a growth leaves on the pool's file system
 */
public record PoolGrowth(
    long maxBytes, long stepBytes, int freeWatermarkPercent, long fileSystemMarginBytes) {

  /** No growth while open (the pool still grows when it is reopened with a larger size). */
  public static final PoolGrowth OFF = new PoolGrowth(0, 0, 0, 0);

  /** {@code maxBytes} of a growth with no maximum but the file system's margin ({@link #unbounded}). */
  public static final long UNBOUNDED = Long.MAX_VALUE;

  /** Default step of {@link #upTo}: 64 MiB. */
  public static final long DEFAULT_STEP_BYTES = 64L << 20;

  /** Default watermark of {@link #upTo}: grow once less than 10 % of the pool is free. */
  public static final int DEFAULT_FREE_WATERMARK_PERCENT = 10;

  /** Default file-system margin of {@link #upTo}: 512 MiB. */
  public static final long DEFAULT_FILE_SYSTEM_MARGIN_BYTES = 512L << 20;

  /** Validates the settings; the messages name the setting and its value. */
  public PoolGrowth {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("pool growth maxBytes must be >= 0 (0: off), got " + maxBytes);
    }
    if (maxBytes > 0 && stepBytes < ExtentAllocator.BLOCK) {
      throw new IllegalArgumentException(
          "pool growth stepBytes must be >= " + ExtentAllocator.BLOCK + ", got " + stepBytes);
    }
    if (freeWatermarkPercent < 0 || freeWatermarkPercent >= 100) {
      throw new IllegalArgumentException(
          "pool growth freeWatermarkPercent must be in [0, 100), got " + freeWatermarkPercent);
    }
    if (fileSystemMarginBytes < 0) {
      throw new IllegalArgumentException(
          "pool growth fileSystemMarginBytes must be >= 0, got " + fileSystemMarginBytes);
    }
  }

  /** Growth up to {@code maxBytes} with the default step, watermark and file-system margin. */
  public static PoolGrowth upTo(long maxBytes) {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("pool growth maxBytes must be > 0, got " + maxBytes);
    }
    return new PoolGrowth(
        maxBytes, DEFAULT_STEP_BYTES, DEFAULT_FREE_WATERMARK_PERCENT, DEFAULT_FILE_SYSTEM_MARGIN_BYTES);
  }

  /**
   * Growth with no maximum: the pool grows with the default step and watermark for as long as the
   * file system it lives on keeps the default margin usable.
   */
  public static PoolGrowth unbounded() {
    return upTo(UNBOUNDED);
  }

  /** True unless this is {@link #OFF}. */
  public boolean enabled() {
    return maxBytes > 0;
  }
}
