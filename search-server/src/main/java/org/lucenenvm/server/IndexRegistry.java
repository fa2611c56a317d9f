package org.lucenenvm.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Logger;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.util.IOUtils;
import org.lucenenvm.realtime.RtEngine;
import org.lucenenvm.realtime.RtEngineConfig;
import org.lucenenvm.realtime.RtRecovery;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.NvmHeap;

/**
 * The server's indexes, one engine each. Layout of the data directory: per index {@code
 * <name>.pool} (its NVM pool, an {@link NvmDirectory} holding every partition's segments under
 * {@code p<i>.} prefixes) and {@code <name>.index.json} (its {@link IndexDefinition}). One pool file
 * per index keeps indexes independent: dropping one deletes its file and returns the space to the
 * file system at once, and a damaged pool affects one index only.
 *
 * <p>Every pool is opened with the configured pool size: a pool created smaller (an earlier,
 * lower {@code --pool-size}) grows in place to it, crash-consistently; a larger one keeps its size.
 *
 * <p>Opening the registry reopens every index found (CRASH_CONSISTENT and GRACEFUL modes: from
 * its pool, without re-indexing; CRASH_CONSISTENT replays the ingest log and logs what it replayed). An index that cannot be reopened (its engine refuses a pool left by a crash, or by
 * a graceful shutdown that could not persist every acknowledged document, naming what is missing)
 * does not stop the others: it is listed as unavailable with the engine's reason, its requests get
 * 503, and dropping it deletes its files. Usable without HTTP.
 */
public final class IndexRegistry implements Closeable {
  private static final Logger LOG = Logger.getLogger(IndexRegistry.class.getName());
  /** Suffix of an index's pool file in the data directory: {@code <name>.pool}. */
  public static final String POOL_SUFFIX = ".pool";
  static final String DEFINITION_SUFFIX = ".index.json";

  private final ServerConfig config;
  private final ObjectMapper json;
  /**
   * Runs the per-partition searches on platform threads, one per search in flight (at most
   * max-concurrent-requests times the partitions). Not virtual threads: a CPU-bound search never
   * yields its carrier thread, so a few expensive searches would hold every carrier and stall all
   * other requests (health, writes, cheap searches) until they end; the OS time-slices platform
   * threads.
   */
  private final ExecutorService queryExecutor =
      Executors.newCachedThreadPool(Thread.ofPlatform().name("search-", 0).daemon().factory());
  private final Map<String, OpenIndex> indexes = new ConcurrentSkipListMap<>();
  private final Map<String, String> unavailable = new ConcurrentSkipListMap<>();

  private IndexRegistry(ServerConfig config, ObjectMapper json) {
    this.config = config;
    this.json = json;
  }

  /** Opens every index under the configured data directory (creating the directory if needed). */
  public static IndexRegistry open(ServerConfig config, ObjectMapper json) throws IOException {
    Files.createDirectories(config.dataDir());
    IndexRegistry registry = new IndexRegistry(config, json);
    try {
      try (DirectoryStream<Path> files =
          Files.newDirectoryStream(config.dataDir(), "*" + DEFINITION_SUFFIX)) {
        for (Path file : files) {
          registry.reopen(file);
        }
      }
    } catch (IOException | RuntimeException e) {
      registry.close();
      throw e;
    }
    return registry;
  }

  private void reopen(Path definitionFile) {
    String fileName = definitionFile.getFileName().toString();
    String name = fileName.substring(0, fileName.length() - DEFINITION_SUFFIX.length());
    try {
      IndexDefinition definition = json.readValue(definitionFile.toFile(), IndexDefinition.class);
      if (!definition.name().equals(name)) {
        throw new IOException(definitionFile + " defines index '" + definition.name() + "'");
      }
      indexes.put(name, openIndex(definition));
    } catch (IOException | RuntimeException e) {
      LOG.severe("index '" + name + "' is unavailable: " + e.getMessage());
      unavailable.put(name, e.getMessage());
    }
  }

  private OpenIndex openIndex(IndexDefinition definition) throws IOException {
    long start = System.nanoTime();
    Path pool = poolFile(definition.name());
    NvmDirectory directory = NvmDirectory.open(pool, config.poolSizeBytes(), config.poolGrowth());
    NvmHeap heap = directory.heap();
    if (!heap.wasCreated() && heap.sizeBeforeOpen() < heap.size()) {
      LOG.info(
          "index '" + definition.name() + "': pool " + pool + " grown in place from "
              + heap.sizeBeforeOpen() + " to " + heap.size() + " bytes");
    }
    try {
      StandardAnalyzer analyzer = new StandardAnalyzer();
      RtEngineConfig engineConfig =
          RtEngineConfig.defaults(definition.schema())
              .withAnalyzer(analyzer)
              .withCodec(config.codec())
              .withSegmentSize(config.segmentSize())
              .withDramBudgetBytes(config.dramBudgetBytes())
              .withMode(config.mode())
              .withLogBytes(config.logBytes())
              .withLogFullTimeout(config.logFullTimeout())
              .withPartitions(definition.partitions())
              .withBackgroundNice(config.backgroundNice())
              .withFloodStage(config.floodStage())
              .withResultCache(config.cache());
      if (config.discardUnverifiable().contains(definition.name())) {
        int discarded = RtEngine.discardUnverifiable(directory);
        LOG.warning(
            "index '" + definition.name() + "': --discard-unverifiable discarded what a crash left"
                + " unverifiable in " + discarded + " partition(s); they open empty");
      }
      RtEngine engine = RtEngine.open(directory, engineConfig, queryExecutor);
      for (RtRecovery r : engine.recoveries()) {
        LOG.info("index '" + definition.name() + "' opened: " + r.describe());
      }
      return new OpenIndex(definition, directory, engine, analyzer, System.nanoTime() - start);
    } catch (IOException | RuntimeException e) {
      IOUtils.closeWhileHandlingException(directory);
      throw new IOException(
          "cannot open index '" + definition.name() + "' from " + pool + ": " + e.getMessage(), e);
    }
  }

  private Path poolFile(String name) {
    return config.dataDir().resolve(name + POOL_SUFFIX);
  }

  private Path definitionFile(String name) {
    return config.dataDir().resolve(name + DEFINITION_SUFFIX);
  }

  /** The server configuration. */
  public ServerConfig config() {
    return config;
  }

  /** Creates an index; 409 if one with that name exists. */
  public synchronized OpenIndex create(IndexDefinition definition) throws IOException {
    if (indexes.containsKey(definition.name()) || unavailable.containsKey(definition.name())) {
      throw new ApiException(409, "index '" + definition.name() + "' already exists");
    }
    config.requirePoolRoom(definition.partitions());
    Path pool = poolFile(definition.name());
    Files.deleteIfExists(pool);
    Path file = definitionFile(definition.name());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    json.writeValue(tmp.toFile(), definition);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    OpenIndex index;
    try {
      index = openIndex(definition);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(file);
      Files.deleteIfExists(pool);
      throw e;
    }
    indexes.put(definition.name(), index);
    LOG.info("created index '" + definition.name() + "' (" + pool + ")");
    return index;
  }

  /**
   * Drops an index: waits for its requests in flight, closes it, deletes its files (also when the
   * close failed, e.g. on a full pool: the index is being deleted anyway). An unavailable index is
   * dropped by deleting its files.
   */
  public synchronized void drop(String name) throws IOException {
    OpenIndex index = indexes.remove(name);
    if (index == null && unavailable.remove(name) == null) {
      throw unknown(name);
    }
    if (index != null) {
      try {
        index.close();
      } catch (IOException | RuntimeException e) {
        LOG.warning("closing dropped index '" + name + "' failed, deleting it anyway: " + e);
      }
    }
    Files.deleteIfExists(poolFile(name));
    Files.deleteIfExists(definitionFile(name));
    LOG.info("dropped index '" + name + "'");
  }

  /** The index called {@code name}; 404 if there is none, 503 if it could not be reopened. */
  public OpenIndex get(String name) {
    OpenIndex index = indexes.get(name);
    if (index == null) {
      String reason = unavailable.get(name);
      if (reason != null) {
        throw new ApiException(
            503,
            "index '" + name + "' could not be opened (" + reason + "); drop it to start over");
      }
      throw unknown(name);
    }
    return index;
  }

  /** Indexes found on disk that could not be reopened, with the reason. */
  public Map<String, String> unavailable() {
    return Map.copyOf(unavailable);
  }

  /** Whether an index called {@code name} exists. */
  public boolean contains(String name) {
    return indexes.containsKey(name);
  }

  private static ApiException unknown(String name) {
    return new ApiException(404, "index '" + name + "' does not exist");
  }

  /** The open indexes, by name. */
  public List<OpenIndex> list() {
    return new ArrayList<>(indexes.values());
  }

  /**
   * Closes every index (GRACEFUL mode: engraves everything and writes each engine's manifest, so
   * the next open finds the indexes without re-indexing). An index whose close fails (its pool
   * cannot take every document) keeps what it persisted and its engine records it as incomplete,
   * so the next open lists it as unavailable, naming what is missing, instead of serving what is
   * left of it; the others are closed normally and the first failure is rethrown at the end.
   */
  @Override
  public synchronized void close() throws IOException {
    Collection<OpenIndex> open = new ArrayList<>(indexes.values());
    indexes.clear();
    IOException first = null;
    try {
      for (OpenIndex index : open) {
        try {
          index.close();
        } catch (IOException | RuntimeException e) {
          String name = index.definition().name();
          LOG.severe("closing index '" + name + "' failed: " + e);
          if (first == null) {
            first = new IOException("closing index '" + name + "' failed: " + e.getMessage(), e);
          }
        }
      }
    } finally {
      queryExecutor.shutdown();
    }
    if (first != null) {
      throw first;
    }
  }
}
