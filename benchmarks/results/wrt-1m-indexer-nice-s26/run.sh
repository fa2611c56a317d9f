#!/usr/bin/env bash
# Session 26 pilot (issue 10 ingest): NRT-inf, the engine as it is (base), the indexer thread at nice 0 (idx0),
# both background threads at nice 7 (n7). One JVM per row, rows rotated per round.
# Usage: run.sh <out (emptied first)> <rounds> <base.jar> <idx0.jar> <row>...  (rows: nrt, base, idx0, n<N>)
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; ROUNDS=${2:?rounds}; BASE=${3:?base}; IDX0=${4:?idx0}; shift 4; ROWS=("$@")
rm -rf $O; mkdir -p $O
cd /work/main
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
WORK=/dev/shm/wrt1m
SHARED=(--corpus /work/data/c1m.txt --tasks /work/data/c1m.tasks --modes wrt --forks 1 --warmup-runs 1 --warmup-docs 200000 --nvm-pool-size 6g)
row_options() {
  JAR=$BASE
  case $1 in
    nrt) ARGS=(--nrt inf --rt none);;
    base) ARGS=(--nrt none --rt crash-eager-lazy);;
    idx0) ARGS=(--nrt none --rt crash-eager-lazy); JAR=$IDX0;;
    n[0-9]*) ARGS=(--nrt none --rt crash-eager-lazy --rt-background-nice ${1#n});;
    *) echo "bad row $1" >&2; exit 2;;
  esac
}
source /work/main/benchmarks/results/rotated-rows.sh
rotated_rows "${ROWS[@]}"
uptime > $O/load-after.txt
touch $O/done
