#!/usr/bin/env bash
# Issue 10, 200 K documents: engine segment layouts against NRT-inf, each row a runner invocation of its own,
# the rows' order rotated by one per round. Usage: layouts.sh <out> <rounds> <jar> <row>...
# Rows: nrt; s<K> (K thousand docs per segment), optionally m<M> (--rt-max-segments M) and q1 (a flush queue of
# 1, read by the experiment build of experiment.patch), e.g. s10 s40m4 s40m6q1.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=${1:?output directory}; ROUNDS=${2:?rounds}; JAR=${3:?benchmark jar}; shift 3; ROWS=("$@")
rm -rf $O; mkdir -p $O
quiet; uptime > $O/load-before.txt
row() { # name
  local name=$1 d=$O/$1-r$r jvm="-Xms2g -Xmx8g" args
  if [ $name = nrt ]; then
    args="--nrt inf --rt none"
  else
    [[ $name =~ ^s([0-9]+)(m([0-9]+))?(q1)?$ ]] || { echo "bad row $name" >&2; exit 2; }
    args="--nrt none --rt graceful-eager-lazy --rt-segment-size ${BASH_REMATCH[1]}000"
    [ -n "${BASH_REMATCH[3]}" ] && args="$args --rt-max-segments ${BASH_REMATCH[3]}"
    [ -n "${BASH_REMATCH[4]}" ] && jvm="$jvm -Dlucenenvm.queueCapacity=1"
  fi
  uptime > $d.load-start.txt
  BENCH_JAR=$JAR BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
    --modes wrt --forks 1 --warmup-runs 1 --work-dir /dev/shm/segsize --nvm-pool-size 3g --out $d \
    "--child-jvm-opts=$jvm" $args > $d.stdout.txt 2> $d.stderr.txt
  echo "rc=$?" >> $d.stdout.txt
  uptime > $d.load-end.txt
  rm -rf /dev/shm/segsize
}
for r in $(seq 1 $ROUNDS); do
  for i in $(seq 0 $((${#ROWS[@]} - 1))); do
    row ${ROWS[$(( (i + r - 1) % ${#ROWS[@]} ))]}
  done
done
uptime > $O/load-after.txt
touch $O/done
