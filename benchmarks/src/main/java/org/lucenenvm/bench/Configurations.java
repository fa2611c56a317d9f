package org.lucenenvm.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.PostingsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.memory.DirectPostingsFormat;
import org.apache.lucene.store.MMapDirectory;

/**
 * The static configurations the runner knows, by name.
 *
 * <ul>
 *   <li>{@code lucene-dram}: Lucene104 codec on an {@link MMapDirectory} in the work directory
 *       (tmpfs such as {@code /dev/shm} by default: the index is in DRAM).
 *   <li>{@code lucene-nvm}: Lucene104 codec on the project's NVM directory (compressed on NVM).
 *   <li>{@code direct-heap}: {@link DirectPostingsFormat} for every field (uncompressed postings
 *       decoded onto the Java heap at open) on an {@link MMapDirectory}.
 *   <li>{@code nvm-uncompressed}: the project's {@code NvmCodec} (postings {@code NvmUncompressed}) on
 *       the NVM directory.
 * </ul>
 *
 * To add a configuration, add one {@link StaticConfiguration} to {@link #all}.
 */
public final class Configurations {

  private Configurations() {}

  /** All configurations in table order; NVM ones use pools of {@code nvmPoolBytes}. */
  public static Map<String, Configuration> all(long nvmPoolBytes) {
    List<Configuration> list = new ArrayList<>();
    list.add(
        new StaticConfiguration(
            "lucene-dram",
            "Lucene104 codec, MMapDirectory on tmpfs (DRAM)",
            Optional::empty,
            Configurations::lucene104,
            MMapDirectory::new));
    list.add(
        new StaticConfiguration(
            "lucene-nvm",
            "Lucene104 codec, NvmDirectory (pool file on tmpfs: emulated NVM)",
            NvmComponents::directoryAbsence,
            Configurations::lucene104,
            dir -> NvmComponents.openDirectory(dir, nvmPoolBytes)));
    list.add(
        new StaticConfiguration(
            "direct-heap",
            "DirectPostingsFormat for all fields (uncompressed, on heap), MMapDirectory on tmpfs",
            Optional::empty,
            Configurations::directPostings,
            MMapDirectory::new));
    list.add(
        new StaticConfiguration(
            "nvm-uncompressed",
            "NvmCodec (postings NvmUncompressed), NvmDirectory (pool file on tmpfs: emulated NVM)",
            () -> NvmComponents.codecAbsence().or(NvmComponents::directoryAbsence),
            NvmComponents::codec,
            dir -> NvmComponents.openDirectory(dir, nvmPoolBytes)));
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
