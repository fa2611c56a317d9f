#!/usr/bin/env bash
# Issue 13: is a miss's excess over an uncached query of its class the miss's own work, or which queries miss? Per round,
# one runner invocation with the uncached engine and the GDSF cache under Zipf 1.0 popularity (the workload of
# ../wrt-s16-snapshot/cache-ab.sh), and one with the uncached engine under uniform popularity (every query of the tasks
# file as often, so each one recurs rarely, as the queries a cache misses do); the two invocations' order alternates.
# Usage: run.sh <out> <rounds> <benchmarks jar>
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
source scripts/env.sh
O=${1:?out}; ROUNDS=${2:?rounds}; JAR=${3:?jar}; rm -rf $O; mkdir -p $O
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
invoke() { # <row> <popularity> <rt-cache>
  local d=$O/$1
  uptime > $d.load-start.txt
  BENCH_JAR=$JAR BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
    --modes wrt --nrt none --rt graceful-eager-lazy --query-popularity $2 --rt-cache $3 --forks 1 --warmup-runs 1 \
    --work-dir /dev/shm/cache-bound --nvm-pool-size 3g --out $d > $d.stdout.txt 2> $d.stderr.txt
  echo "rc=$?" >> $d.stdout.txt
  uptime > $d.load-end.txt
  rm -rf /dev/shm/cache-bound
}
for r in $(seq 1 $ROUNDS); do
  if [ $((r % 2)) = 1 ]; then
    invoke zipf-$r zipf:1.0 off,dram-gdsf-176k; invoke uniform-$r uniform off
  else
    invoke uniform-$r uniform off; invoke zipf-$r zipf:1.0 off,dram-gdsf-176k
  fi
done
uptime > $O/load-after.txt
touch $O/done
