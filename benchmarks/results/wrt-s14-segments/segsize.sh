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
  BENCH_JAR=/tmp/bench-head.jar BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
    --modes wrt --forks 1 --warmup-runs 1 --work-dir /dev/shm/segsize --nvm-pool-size 3g --out $d "$@" > $d.stdout.txt 2> $d.stderr.txt
  echo "rc=$?" >> $d.stdout.txt
  uptime > $d.load-end.txt
  rm -rf /dev/shm/segsize
}
ROWS=(nrt s10 s40 s40m4 s20m5)
args() {
  case $1 in
    nrt) echo "--nrt inf --rt none";;
    s10) echo "--nrt none --rt graceful-eager-lazy";;
    s40) echo "--nrt none --rt graceful-eager-lazy --rt-segment-size 40000";;
    s40m4) echo "--nrt none --rt graceful-eager-lazy --rt-segment-size 40000 --rt-max-segments 4";;
    s20m5) echo "--nrt none --rt graceful-eager-lazy --rt-segment-size 20000 --rt-max-segments 5";;
  esac
}
for r in $(seq 1 $ROUNDS); do
  n=${#ROWS[@]}
  for i in $(seq 0 $((n-1))); do
    name=${ROWS[$(( (i + r - 1) % n ))]}
    row $name $(args $name)
  done
done
uptime > $O/load-after.txt
touch $O/done
