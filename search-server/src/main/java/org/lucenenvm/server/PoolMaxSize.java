package org.lucenenvm.server;

import java.util.Locale;
import org.lucenenvm.store.PoolGrowth;
import picocli.CommandLine;

/**
 * Parses {@code --pool-max-size}: {@code unbounded} ({@link PoolGrowth#UNBOUNDED}: no maximum but
 * the file system's margin), or a byte size ({@link ByteSize}; 0 turns growth while serving off).
 */
public final class PoolMaxSize implements CommandLine.ITypeConverter<Long> {
  /** The word for no maximum. */
  public static final String UNBOUNDED = "unbounded";

  @Override
  public Long convert(String value) {
    return value.trim().toLowerCase(Locale.ROOT).equals(UNBOUNDED) ? PoolGrowth.UNBOUNDED : ByteSize.parse(value);
  }
}
