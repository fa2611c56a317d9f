package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.store.Directory;

/** A {@link Configuration} assembled from a codec supplier and a directory factory. */
public record StaticConfiguration(
    String name,
    String description,
    Supplier<Codec> codecSupplier,
    DirectoryFactory directoryFactory)
    implements Configuration {

  /** Creates the directory that backs an index in a given work directory. */
  @FunctionalInterface
  public interface DirectoryFactory {
    /** A new, empty directory whose files live in or under {@code workDir}. */
    Directory create(Path workDir) throws IOException;
  }

  @Override
  public Codec codec() {
    return codecSupplier.get();
  }

  @Override
  public Directory createDirectory(Path workDir) throws IOException {
    return directoryFactory.create(workDir);
  }
}
