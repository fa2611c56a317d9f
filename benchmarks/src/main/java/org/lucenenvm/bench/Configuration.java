package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.store.Directory;

/**
 * A static index configuration under test: a codec and the kind of {@link Directory} the index lives
 * in. The runner builds one index per configuration (NC mode) or ingests into it while querying
 * (WRT mode).
 */
public interface Configuration {

  /** Short name used on the command line, in tables, CSV and plots, e.g. {@code lucene-dram}. */
  String name();

  /** One line saying what is measured. */
  String description();

  /** The codec every segment of the index is written with. */
  Codec codec();

  /**
   * Creates an empty directory for a fresh index, using {@code workDir} (created if needed, empty)
   * for whatever files back it.
   */
  Directory createDirectory(Path workDir) throws IOException;
}
