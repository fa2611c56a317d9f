package org.lucenenvm.bench;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.store.Directory;

/**
 * Finds the project's NVM store and codec at run time, so the benchmarks build and run whether or
 * not those modules are on the class path.
 *
 * <ul>
 *   <li>Store: class {@value #DIRECTORY_CLASS} with {@code static open(java.nio.file.Path poolFile,
 *       long poolSizeBytes)} returning a Lucene {@link Directory} (module lucene-nvm-directory).
 *   <li>Codec: {@link Codec#forName(String) Codec.forName}({@value #CODEC_NAME}) through Lucene's SPI
 *       (module lucene-nvm-codec).
 * </ul>
 *
 * Adding those modules as dependencies of the benchmarks module is all it takes to enable the
 * {@code lucene-nvm} and {@code nvm-uncompressed} configurations.
 */
public final class NvmComponents {

  /** Fully qualified name of the NVM directory class. */
  public static final String DIRECTORY_CLASS = "org.lucenenvm.store.NvmDirectory";
  /** SPI name of the NVM codec. */
  public static final String CODEC_NAME = "NvmCodec";
  /** Name of the pool file created in a configuration's work directory. */
  public static final String POOL_FILE = "index.pool";

  private NvmComponents() {}

  /** Empty if {@value #DIRECTORY_CLASS} with its {@code open(Path, long)} factory is loadable. */
  public static Optional<String> directoryAbsence() {
    try {
      openHandle();
      return Optional.empty();
    } catch (ReflectiveOperationException | LinkageError e) {
      return Optional.of("absent: not built yet (" + DIRECTORY_CLASS + ".open(Path,long) not on the class path)");
    }
  }

  /** Empty if Lucene's SPI knows the codec {@value #CODEC_NAME}. */
  public static Optional<String> codecAbsence() {
    return Codec.availableCodecs().contains(CODEC_NAME)
        ? Optional.empty()
        : Optional.of("absent: not built yet (codec " + CODEC_NAME + " not registered with Lucene's SPI)");
  }

  /** Opens (creating) an NVM pool of {@code poolBytes} at {@code workDir/index.pool} as a directory. */
  public static Directory openDirectory(Path workDir, long poolBytes) throws IOException {
    try {
      return (Directory) openHandle().invoke(workDir.resolve(POOL_FILE), poolBytes);
    } catch (IOException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IOException("could not open " + DIRECTORY_CLASS + " on " + workDir.resolve(POOL_FILE), t);
    }
  }

  /** The NVM codec; call only when {@link #codecAbsence()} is empty. */
  public static Codec codec() {
    return Codec.forName(CODEC_NAME);
  }

  private static MethodHandle openHandle() throws ReflectiveOperationException {
    Class<?> type = Class.forName(DIRECTORY_CLASS);
    return MethodHandles.publicLookup()
        .findStatic(type, "open", MethodType.methodType(type, Path.class, long.class))
        .asType(MethodType.methodType(Directory.class, Path.class, long.class));
  }
}
