#!/usr/bin/env bash
# Issue 10: 1M check of the candidate defaults. Rows per round (rotated): NRT-inf, engine defaults, candidate. Crash mode.
# CAND_ARGS: runner flags of the candidate; CAND_JVM: its extra child JVM options.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=${1:?output directory}; ROUNDS=${2:-2}
rm -rf $O; mkdir -p $O
quiet; uptime > $O/load-before.txt
row() { # name jvm-opts args...
  local name=$1 jvm=$2; shift 2
  local d=$O/$name-r$r
  uptime > $d.load-start.txt
  BENCH_JAR=/tmp/bench-q.jar BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c1m.txt --tasks /work/data/c1m.tasks \
    --modes wrt --forks 1 --warmup-runs 1 --warmup-docs 200000 --work-dir /dev/shm/wrt1m --nvm-pool-size 6g --out $d \
    "--child-jvm-opts=-Xms2g -Xmx8g $jvm" "$@" > $d.stdout.txt 2> $d.stderr.txt
  echo "rc=$?" >> $d.stdout.txt
  uptime > $d.load-end.txt
  rm -rf /dev/shm/wrt1m
}
ROWS=(nrt def cand)
for r in $(seq 1 $ROUNDS); do
  n=${#ROWS[@]}
  for i in $(seq 0 $((n-1))); do
    name=${ROWS[$(( (i + r - 1) % n ))]}
    case $name in
      nrt) row nrt "" --nrt inf --rt none;;
      def) row def "" --nrt none --rt crash-eager-lazy;;
      cand) row cand "$CAND_JVM" --nrt none --rt crash-eager-lazy $CAND_ARGS;;
    esac
  done
done
uptime > $O/load-after.txt
touch $O/done
