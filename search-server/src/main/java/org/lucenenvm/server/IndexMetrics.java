package org.lucenenvm.server;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The per-index metrics, collected from one {@link IndexStats} per index at each scrape: gauges
 * {@code lucenenvm_index_docs}, {@code _dram_bytes}, {@code _live_segment_bytes}, {@code
 * _nvm_bytes}, {@code _pool_bytes}, {@code _pool_max_bytes}, {@code _pool_free_bytes}, {@code _pool_used_bytes}, {@code
 * _flood_stage_ratio} (the watermark), {@code _writes_refused} (1 while adds and updates answer
 * 429), {@code lucenenvm_index_segments}
 * (by state), and counters {@code lucenenvm_index_ingested_docs_total}, {@code
 * lucenenvm_index_queries_total}, {@code lucenenvm_pipeline_busy_seconds_total} (by stage); for
 * indexes with a result cache, counters {@code lucenenvm_cache_hits_total}, {@code
 * _partial_hits_total}, {@code _tail_resumes_total}, {@code _misses_total}, {@code
 * _evictions_total}, {@code _invalidations_total} and gauges {@code lucenenvm_cache_entries}, {@code _bytes}, {@code
 * _capacity_bytes}; all labelled {@code index}.
 */
final class IndexMetrics implements MultiCollector {
  private final IndexRegistry indexes;

  IndexMetrics(IndexRegistry indexes) {
    this.indexes = indexes;
  }

  @Override
  public MetricSnapshots collect() {
    Map<String, IndexStats> stats = new TreeMap<>();
    for (OpenIndex index : indexes.list()) {
      index.enter();
      try {
        stats.put(index.definition().name(), IndexStats.of(index));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        index.exit();
      }
    }
    List<MetricSnapshot> out = new ArrayList<>();
    out.add(gauge("lucenenvm_index_docs", "Live documents", stats, IndexStats::docs));
    out.add(gauge("lucenenvm_index_dram_bytes", "Read-optimized segment bytes in DRAM", stats, IndexStats::dramBytes));
    out.add(gauge("lucenenvm_index_live_segment_bytes", "Live segment bytes (approximate)", stats, IndexStats::liveSegmentBytes));
    out.add(gauge("lucenenvm_index_nvm_bytes", "Segment file bytes in the NVM pool", stats, IndexStats::nvmBytes));
    out.add(gauge("lucenenvm_index_pool_bytes", "Size of the NVM pool file", stats, IndexStats::poolBytes));
    out.add(gauge("lucenenvm_index_pool_max_bytes", "Size the NVM pool can reach now: its size plus what it can still grow by", stats, IndexStats::poolMaxBytes));
    out.add(gauge("lucenenvm_index_pool_free_bytes", "Free bytes of the NVM pool", stats, IndexStats::poolFreeBytes));
    out.add(gauge("lucenenvm_index_pool_used_bytes", "Used bytes of the NVM pool", stats, IndexStats::poolUsedBytes));
    out.add(gauge("lucenenvm_index_flood_stage_ratio", "Share of the pool at which adds and updates are refused", stats, IndexStats::floodStage));
    out.add(gauge("lucenenvm_index_writes_refused", "1 while adds and updates are refused for want of pool room", stats, s -> s.writesRefused() ? 1 : 0));
    out.add(counter("lucenenvm_index_ingested_docs", "Documents acknowledged since start", stats, IndexStats::ingestedDocs));
    out.add(counter("lucenenvm_index_queries", "Queries run since start", stats, IndexStats::queries));
    GaugeSnapshot.Builder segments =
        GaugeSnapshot.builder().name("lucenenvm_index_segments").help("Segments by life-cycle state");
    CounterSnapshot.Builder busy =
        CounterSnapshot.builder()
            .name("lucenenvm_pipeline_busy_seconds")
            .help("Time pipeline stages spent working");
    stats.forEach(
        (name, s) -> {
          s.segmentsByState()
              .forEach(
                  (state, n) ->
                      segments.dataPoint(
                          GaugeDataPointSnapshot.builder()
                              .labels(Labels.of("index", name, "state", state.name()))
                              .value(n)
                              .build()));
          s.stages()
              .forEach(
                  (stage, work) ->
                      busy.dataPoint(
                          CounterDataPointSnapshot.builder()
                              .labels(Labels.of("index", name, "stage", stage))
                              .value(work.busyMillis() / 1e3)
                              .build()));
        });
    out.add(segments.build());
    out.add(busy.build());
    Map<String, IndexStats> cached = new TreeMap<>(stats);
    cached.values().removeIf(s -> s.cache() == null);
    out.add(counter("lucenenvm_cache_hits", "Queries answered from their cache entry", cached, s -> s.cache().hits()));
    out.add(counter("lucenenvm_cache_partial_hits", "Single-term queries answered from a disjunction's entry", cached, s -> s.cache().partialHits()));
    out.add(counter("lucenenvm_cache_tail_resumes", "Cache hits whose tail search resumed where the previous one ended", cached, s -> s.cache().tailResumes()));
    out.add(counter("lucenenvm_cache_misses", "Cacheable queries computed in full", cached, s -> s.cache().misses()));
    out.add(counter("lucenenvm_cache_evictions", "Cache entries evicted", cached, s -> s.cache().evictions()));
    out.add(counter("lucenenvm_cache_invalidations", "Cache entries dropped as no longer valid", cached, s -> s.cache().invalidations()));
    out.add(gauge("lucenenvm_cache_entries", "Resident cache entries", cached, s -> s.cache().entries()));
    out.add(gauge("lucenenvm_cache_bytes", "Bytes of cache entries", cached, s -> s.cache().bytes()));
    out.add(gauge("lucenenvm_cache_capacity_bytes", "Bytes available for cache entries", cached, s -> s.cache().capacityBytes()));
    return new MetricSnapshots(out);
  }

  private static MetricSnapshot gauge(
      String name, String help, Map<String, IndexStats> stats, ToDoubleFunction<IndexStats> value) {
    GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help);
    stats.forEach(
        (index, s) ->
            b.dataPoint(
                GaugeDataPointSnapshot.builder()
                    .labels(Labels.of("index", index))
                    .value(value.applyAsDouble(s))
                    .build()));
    return b.build();
  }

  /** A counter; the text format appends {@code _total} to {@code name}. */
  private static MetricSnapshot counter(
      String name, String help, Map<String, IndexStats> stats, ToLongFunction<IndexStats> value) {
    CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(help);
    stats.forEach(
        (index, s) ->
            b.dataPoint(
                CounterDataPointSnapshot.builder()
                    .labels(Labels.of("index", index))
                    .value(value.applyAsLong(s))
                    .build()));
    return b.build();
  }
}
