package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.PostingsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.memory.DirectPostingsFormat;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.lucenenvm.codec.NvmCodec;
import org.lucenenvm.store.NvmDirectory;

/**
 * The static configurations the runner knows, by name.
 *
 * <ul>
 *   <li>{@code lucene-dram}: Lucene104 codec on an {@link MMapDirectory} in the work directory
 *       (tmpfs such as {@code /dev/shm} by default: the index is in DRAM).
 *   <li>{@code lucene-nvm}: Lucene104 codec on an {@link NvmDirectory} whose pool file is {@value
 *       #POOL_FILE} in the work directory (compressed on NVM).
 *   <li>{@code direct-heap}: {@link DirectPostingsFormat} for every field (uncompressed postings
 *       decoded onto the Java heap at open) on an {@link MMapDirectory}.
 *   <li>{@code nvm-uncompressed}: {@link NvmCodec} (postings {@code NvmUncompressed}) on an {@link
 *       NvmDirectory}.
 * </ul>
 *
 * To add a configuration, add one {@link StaticConfiguration} to {@link #all}.
 */
public final class Configurations {

  /** Name of the pool file an NVM configuration creates in its work directory. */
  public static final String POOL_FILE = "index.pool";

  private Configurations() {}

  /** All configurations in table order; NVM ones use pools of {@code nvmPoolBytes}. */
  public static Map<String, Configuration> all(long nvmPoolBytes) {
    List<Configuration> list = new ArrayList<>();
    list.add(
        new StaticConfiguration(
            "lucene-dram",
            "Lucene104 codec, MMapDirectory on tmpfs (DRAM)",
            Configurations::lucene104,
            MMapDirectory::new));
    list.add(
        new StaticConfiguration(
            "lucene-nvm",
            "Lucene104 codec, NvmDirectory (pool file on tmpfs: emulated NVM)",
            Configurations::lucene104,
            dir -> nvmDirectory(dir, nvmPoolBytes)));
    list.add(
        new StaticConfiguration(
            "direct-heap",
            "DirectPostingsFormat for all fields (uncompressed, on heap), MMapDirectory on tmpfs",
            Configurations::directPostings,
            MMapDirectory::new));
    list.add(
        new StaticConfiguration(
            "nvm-uncompressed",
            "NvmCodec (postings NvmUncompressed), NvmDirectory (pool file on tmpfs: emulated NVM)",
            NvmCodec::new,
            dir -> nvmDirectory(dir, nvmPoolBytes)));
    Map<String, Configuration> byName = new LinkedHashMap<>();
    for (Configuration c : list) {
      byName.put(c.name(), c);
    }
    return byName;
  }

  /** Looks configurations up by name; an unknown name is an error listing the known ones. */
  public static List<Configuration> select(List<String> names, long nvmPoolBytes) {
    Map<String, Configuration> all = all(nvmPoolBytes);
    List<Configuration> selected = new ArrayList<>();
    for (String name : names) {
      Configuration c = all.get(name);
      if (c == null) {
        throw new IllegalArgumentException("unknown configuration '" + name + "'; known: " + String.join(", ", all.keySet()));
      }
      selected.add(c);
    }
    return selected;
  }

  /** Opens (creating) an NVM pool of {@code poolBytes} at {@code workDir/}{@value #POOL_FILE}. */
  public static Directory nvmDirectory(Path workDir, long poolBytes) throws IOException {
    return NvmDirectory.open(workDir.resolve(POOL_FILE), poolBytes);
  }

  private static Codec lucene104() {
    return new Lucene104Codec();
  }

  private static Codec directPostings() {
    PostingsFormat direct = new DirectPostingsFormat();
    return new Lucene104Codec() {
      @Override
      public PostingsFormat getPostingsFormatForField(String field) {
        return direct;
      }
    };
  }
}
