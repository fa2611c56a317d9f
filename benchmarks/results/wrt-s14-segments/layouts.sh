#!/usr/bin/env bash
# Issue 10, 200 K documents: engine segment layouts against NRT-inf, each row a runner invocation of its own,
# the rows' order rotated by one per round. Usage: layouts.sh <out> <rounds> <jar> <row>...
# Rows: nrt; s<K> (K thousand docs per segment), optionally m<M> (--rt-max-segments M) and q1 (a flush queue of
# 1, read by the experiment build of experiment.patch), e.g. s10 s40m4 s40m6q1.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=${1:?output directory}; ROUNDS=${2:?rounds}; J=${3:?benchmark jar}; shift 3; ROWS=("$@")
rm -rf $O; mkdir -p $O
quiet; uptime > $O/load-before.txt
WORK=/dev/shm/segsize
SHARED=(--corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks --modes wrt --forks 1 --warmup-runs 1 --nvm-pool-size 3g)
row_options() { # name
  JAR=$J
  if [ $1 = nrt ]; then
    ARGS=(--nrt inf --rt none)
  else
    [[ $1 =~ ^s([0-9]+)(m([0-9]+))?(q1)?$ ]] || { echo "bad row $1" >&2; exit 2; }
    ARGS=(--nrt none --rt graceful-eager-lazy --rt-segment-size ${BASH_REMATCH[1]}000)
    [ -n "${BASH_REMATCH[3]}" ] && ARGS+=(--rt-max-segments ${BASH_REMATCH[3]})
    [ -n "${BASH_REMATCH[4]}" ] && CHILD_JVM="$CHILD_JVM -Dlucenenvm.queueCapacity=1"
  fi
}
source /work/main/benchmarks/results/rotated-rows.sh
rotated_rows "${ROWS[@]}"
uptime > $O/load-after.txt
touch $O/done
