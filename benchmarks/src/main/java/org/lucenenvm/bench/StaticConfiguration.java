package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.store.Directory;

/**
 * A {@link Configuration} assembled from three parts: an availability check, a codec supplier and a
 * directory factory. The suppliers are only called when the check passed.
 */
public record StaticConfiguration(
    String name,
    String description,
    Supplier<Optional<String>> availability,
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
  public Optional<String> absence() {
    return availability.get();
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
