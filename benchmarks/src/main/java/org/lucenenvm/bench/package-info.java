/**
 * The benchmark runner ({@code benchmarks.jar}, entry point {@link org.lucenenvm.bench.BenchCli})
 * and its JMH harnesses. Subcommands: {@code generate} a deterministic synthetic corpus and
 * luceneutil tasks ({@link org.lucenenvm.bench.CorpusGenerator}); {@code run} SPIRIT's NC mode
 * ({@link org.lucenenvm.bench.StaticBenchmark}, one index per {@link
 * org.lucenenvm.bench.Configuration}) and WRT mode ({@link org.lucenenvm.bench.RealTimeBenchmark}
 * over Lucene's near-real-time search or the real-time engine, {@link
 * org.lucenenvm.bench.RealTimeTarget}); {@code compare} a baseline with a candidate over
 * alternating JVMs ({@link org.lucenenvm.bench.JvmSchedule}); {@code paper} to set measured ratios
 * beside a paper's ({@link org.lucenenvm.bench.PaperExperiments}); {@code plot}; {@code jmh}.
 * Results are {@link org.lucenenvm.bench.ResultRow}s in CSV ({@link
 * org.lucenenvm.bench.ResultsCsv}). Usage is in {@code benchmarks/README.md}; {@code
 * scripts/bench.sh} and {@code scripts/reproduce.sh} drive it.
 */
package org.lucenenvm.bench;
