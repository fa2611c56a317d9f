#!/usr/bin/env bash
# Issue 10 experiment: fewer, larger segments now that the live tail is cheap (leaf bound, session 11).
# Rows per round (order rotated): NRT-inf; engine 10K (default); 40K; 40K max 4; 20K max 5. Graceful (no log cap).
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=${1:?output directory}; ROUNDS=${2:-2}
rm -rf $O; mkdir -p $O
quiet; uptime > $O/load-before.txt
row() { # name extra-args...
  local name=$1; shift
  local d=$O/$name-r$r
  uptime > $d.load-start.txt 2>/dev/null || { mkdir -p $(dirname $d); uptime > $d.load-start.txt; }
  BENCH_JAR=/tmp/bench-q.jar BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
    --modes wrt --forks 1 --warmup-runs 1 --work-dir /dev/shm/segsize --nvm-pool-size 3g --out $d "$@" ${QOPT:+"$QOPT"} > $d.stdout.txt 2> $d.stderr.txt
  echo "rc=$?" >> $d.stdout.txt
  uptime > $d.load-end.txt
  rm -rf /dev/shm/segsize
}
ROWS=(nrt s10q1 s20q1 s40q1 s40m6q1)
args() {
  case $1 in
    nrt) echo "--nrt inf --rt none";;
    s10q1) echo "--nrt none --rt graceful-eager-lazy";;
    s20q1) echo "--nrt none --rt graceful-eager-lazy --rt-segment-size 20000";;
    s40q1) echo "--nrt none --rt graceful-eager-lazy --rt-segment-size 40000";;
    s40m6q1) echo "--nrt none --rt graceful-eager-lazy --rt-segment-size 40000 --rt-max-segments 6";;
  esac
}
for r in $(seq 1 $ROUNDS); do
  n=${#ROWS[@]}
  for i in $(seq 0 $((n-1))); do
    name=${ROWS[$(( (i + r - 1) % n ))]}
    if [ $name = nrt ]; then QOPT="--child-jvm-opts=-Xms2g -Xmx8g"; else QOPT="--child-jvm-opts=-Xms2g -Xmx8g -Dlucenenvm.queueCapacity=1"; fi
    row $name $(args $name)
  done
done
uptime > $O/load-after.txt
touch $O/done
