package org.lucenenvm.bench;

import java.util.List;
import java.util.Locale;

/**
 * One side of {@code compare}, from its command-line spec: an NC configuration name ({@code
 * lucene-dram}, ...; the index is built once and each JVM queries it), or a WRT run, {@code nrt-K}
 * ({@code K} a refresh interval, {@code inf} = never) or {@code rt-<mode>-<engrave>-<pointer>} (the
 * real-time engine, e.g. {@code rt-volatile-eager-lazy}); every WRT JVM ingests the corpus itself
 * while it queries, as {@code run --modes wrt} does.
 *
 * @param spec the spec as given
 * @param realTime whether this is a WRT run
 */
public record CompareSide(String spec, boolean realTime) {

  /** Parses a spec; an unknown configuration name is an error listing the known ones. */
  public static CompareSide parse(String spec) {
    String lower = spec.toLowerCase(Locale.ROOT);
    if (lower.startsWith("nrt-")) {
      RefreshPolicy.parse(spec.substring(4));
      return new CompareSide(spec, true);
    }
    if (lower.startsWith("rt-")) {
      EngineSettings.parse(spec.substring(3), EngineSettings.DEFAULT_CODEC, 1, 1, 1, 1);
      return new CompareSide(spec, true);
    }
    Configurations.select(List.of(spec), 1);
    return new CompareSide(spec, false);
  }

  /** The NRT/RT options of {@code run} for this WRT side. */
  List<String> runArgs() {
    if (!realTime) {
      throw new IllegalStateException(spec + " is an NC configuration");
    }
    String rest = spec.substring(spec.indexOf('-') + 1);
    return spec.toLowerCase(Locale.ROOT).startsWith("nrt-")
        ? List.of("--modes", "wrt", "--nrt", rest, "--rt", "none")
        : List.of("--modes", "wrt", "--nrt", "none", "--rt", rest);
  }
}
