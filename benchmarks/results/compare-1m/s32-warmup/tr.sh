#!/bin/bash
# tr.sh <out> <rounds> <config>...: full-category NC query JVMs, rotated per round, on the kept indexes of a
# `compare --keep-indexes --work-dir $ROOT` run, with PrintCompilation, a GC log and (patched jar) a per-query trace.
# JAR = the patched benchmarks jar (required); ROOT (default /dev/shm/prof); TASKS (default data/c1m.tasks);
# JFR=1 adds a recording with comp.jfc (compilations, deoptimizations, GCs); JOPTS = more JVM options.
set -euo pipefail
out=$1; rounds=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=${ROOT:-/dev/shm/prof}
mkdir -p "$out"; uptime > "$out/load-before.txt"
for r in $(seq 1 "$rounds"); do
  for config in "$@"; do
    if [ "$config" = lucene-dram ]; then idx=$root/baseline-lucene-dram; else idx=$root/candidate-$config; fi
    d=$out/$config-$r; mkdir -p "$d"
    # shellcheck disable=SC2086 # JOPTS is a list of flags
    "${JAVA_HOME:?JAVA_HOME= a JDK >= 22}/bin/java" --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -Xms1g -Xmx4g \
      -Dtrace="$d/trace.tsv" -XX:+PrintCompilation -Xlog:gc:file="$d/gc.log" \
      ${JFR:+-XX:StartFlightRecording=settings=$here/comp.jfc,filename=$d/rec.jfr} ${JOPTS:-} \
      -cp "${JAR:?JAR= the patched benchmarks jar}" org.lucenenvm.bench.BenchCli query \
      --config "$config" --index-dir "$idx" --docs 1000000 --tasks "${TASKS:-data/c1m.tasks}" --out "$d" --nvm-pool-size 6g \
      --field body --query-threads 1 --queries-per-category 2000 --warmup-queries-per-category 500 --top-k 10 --seed 1 \
      --query-popularity uniform > "$d/stdout.log" 2> "$d/stderr.log"
  done
done
uptime > "$out/load-after.txt"
