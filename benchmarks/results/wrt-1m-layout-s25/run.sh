#!/usr/bin/env bash
# Issue 10, session 25: the engine's flush unit and flush queue at 1 M documents (crash mode) against NRT-inf,
# each row a runner invocation of its own (one JVM, one warm-up pass), the rows' order rotated by one per round.
# Usage: run.sh <out (emptied first)> <rounds> <benchmarks.jar> <row>...
# Rows: nrt (NRT-inf); s<K> (K thousand documents per live segment), optionally q<Q> (--rt-queue-capacity Q), e.g. s10 s40q1.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; ROUNDS=${2:?rounds}; J=${3:?jar}; shift 3; ROWS=("$@")
rm -rf $O; mkdir -p $O
cd /work/main
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
WORK=/dev/shm/wrt1m
SHARED=(--corpus /work/data/c1m.txt --tasks /work/data/c1m.tasks --modes wrt --forks 1 --warmup-runs 1 --warmup-docs 200000 --nvm-pool-size 6g)
row_options() { # name
  JAR=$J
  if [ $1 = nrt ]; then
    ARGS=(--nrt inf --rt none)
  else
    [[ $1 =~ ^s([0-9]+)(q([0-9]+))?$ ]] || { echo "bad row $1" >&2; exit 2; }
    ARGS=(--nrt none --rt crash-eager-lazy --rt-segment-size ${BASH_REMATCH[1]}000)
    [ -n "${BASH_REMATCH[3]}" ] && ARGS+=(--rt-queue-capacity ${BASH_REMATCH[3]})
  fi
}
source /work/main/benchmarks/results/rotated-rows.sh
rotated_rows "${ROWS[@]}"
uptime > $O/load-after.txt
touch $O/done
