#!/usr/bin/env bash
# Issue 13, session 24: the result cache's speed-up measured inside one JVM (--rt-cache ...-paired: every timed
# query also runs bypassing the cache, back to back, order alternating) beside session 22's design (a cached
# row against the uncached row, each in its own JVM). 200 K generated documents, queries timed while the last
# 20 % is ingested (WRT), Zipf 1.0 popularity, GRACEFUL engine; every row in its own JVM, 2 rounds, row order
# rotated per round (the runner's --forks).
#   run.sh <out (emptied first)> <jar> [--rt-cache rows; default: the four rows of the first run]
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
source scripts/env.sh
O=${1:?out}; JAR=${2:?jar}; ROWS=${3:-off,dram-gdsf-176k,dram-gdsf-176k-paired,nvm-gdsf-176k-paired}
rm -rf $O; mkdir -p $O
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
BENCH_JAR=$JAR BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
  --modes wrt --nrt none --rt graceful-eager-lazy --query-popularity zipf:1.0 --forks 2 --warmup-runs 1 \
  --rt-cache $ROWS \
  --work-dir /dev/shm/cache-s24 --nvm-pool-size 3g --out $O > $O/stdout.txt 2> $O/stderr.txt
echo "rc=$?" >> $O/stdout.txt
uptime > $O/load-after.txt
rm -rf /dev/shm/cache-s24
touch $O/done
