#!/usr/bin/env bash
# Issue 13, session 27: cache rows of the paired benchmark (every timed query also runs bypassing the cache, back
# to back), 200 K generated documents, queries timed while the last 20 % is ingested (WRT), Zipf 1.0 popularity,
# GRACEFUL engine: session 24's setting (../cache-paired-s24/run.sh) with the rows, the number of rounds and,
# with AP=<libasyncProfiler.so>, async-profiler (cpu, 1 ms, per thread, collapsed stacks) in every JVM.
#   row.sh <out (emptied first)> <jar> <--rt-cache rows> [rounds, default 1]   (EXTRA=" -D..." appends child JVM options)
# Waits for a quiet host (1-minute load < 0.5) first unless NO_WAIT=1 (ab.sh waits once for all its JVMs).
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; J=${2:?jar}; ROWS=${3:?rows}; ROUNDS=${4:-1}
rm -rf $O; mkdir -p $O
PROF=${AP:+ -agentpath:$AP=start,event=cpu,interval=1ms,threads,collapsed,file=$O/%p.collapsed}
cd /work/main
[ "${NO_WAIT:-0}" = 1 ] || nvm_wait_quiet 0.5 1800
uptime > $O/load-before.txt
BENCH_JAR=$J scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
  --modes wrt --nrt none --rt graceful-eager-lazy --query-popularity zipf:1.0 --forks $ROUNDS --warmup-runs 1 \
  --rt-cache $ROWS "--child-jvm-opts=-Xms2g -Xmx8g${EXTRA:-}$PROF" \
  --work-dir /dev/shm/cache-s27 --nvm-pool-size 3g --out $O > $O/stdout.txt 2> $O/stderr.txt
echo "rc=$?" >> $O/stdout.txt
uptime > $O/load-after.txt
rm -rf /dev/shm/cache-s27
touch $O/done
