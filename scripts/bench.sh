#!/usr/bin/env bash
# Benchmark runner (benchmarks/target/benchmarks.jar); builds the jar first if it is missing.
#   scripts/bench.sh generate --docs 1000000 --corpus data/c.txt --tasks data/c.tasks
#   scripts/bench.sh run --corpus data/c.txt --tasks data/c.tasks --out benchmarks/results/x
#   scripts/bench.sh run --modes wrt --forks 3 --warmup-runs 1 --corpus data/c.txt --tasks data/c.tasks --out benchmarks/results/x   (each row in its own warmed JVM, 3 rounds)
#   scripts/bench.sh plot --csv benchmarks/results/x/results.csv
#   scripts/bench.sh compare --baseline lucene-dram --candidate nvm-uncompressed --corpus data/c.txt --tasks data/c.tasks --out benchmarks/results/cmp
#   scripts/bench.sh paper --experiment spirit-table1 --csv benchmarks/results/x/results.csv --out benchmarks/results/x   (scripts/reproduce.sh runs it)
#   scripts/bench.sh jmh QueryLatencyBenchmark -f 1        (JMH's own options after 'jmh')
# BENCH_JAR runs another copy of the jar (taken as given); the project's jar is rebuilt when missing or older than a main source or pom, or with BENCH_REBUILD=1; BENCH_JVM_OPTS replaces the default heap flags (-Xms2g -Xmx8g -XX:+AlwaysPreTouch).
# BENCH_UPTIME=<prefix> first waits until the 1-minute load average is below BENCH_QUIET_LOAD (default 0.5; at most
# BENCH_QUIET_WAIT seconds, default 1800, then fails), then writes `uptime` to <prefix>.before and, once the run ends,
# to <prefix>.after: the record a measurement needs next to its figures.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
nvm_find_jdk
JAR="${BENCH_JAR:-$(nvm_benchmarks_jar)}"
# shellcheck disable=SC2206 # BENCH_JVM_OPTS is a list of flags
BENCH_JAVA=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector
  ${BENCH_JVM_OPTS:--Xms2g -Xmx8g -XX:+AlwaysPreTouch} -jar "$JAR" "$@")
if [ -z "${BENCH_UPTIME:-}" ]; then
  exec "${BENCH_JAVA[@]}"
fi
nvm_wait_quiet "${BENCH_QUIET_LOAD:-0.5}" "${BENCH_QUIET_WAIT:-1800}"
uptime > "$BENCH_UPTIME.before"
rc=0
"${BENCH_JAVA[@]}" || rc=$?
uptime > "$BENCH_UPTIME.after"
exit "$rc"
