#!/usr/bin/env bash
# Issue 10, session 24: where the CPU goes while ingesting 1 M documents, the engine (crash mode, nice 10) and
# NRT-inf, one JVM each, async-profiler (cpu, 10 ms, per thread, collapsed stacks) from JVM start to exit
# (no warm-up pass, so the profile holds the whole ingestion and the timed queries).
# Usage: run.sh <out (emptied first)> <benchmarks.jar> <libasyncProfiler.so>
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; J=${2:?jar}; AP=${3:?libasyncProfiler.so}; rm -rf $O; mkdir -p $O
cd /work/main
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
BENCH_JAR=$J scripts/bench.sh run --corpus /work/data/c1m.txt --tasks /work/data/c1m.tasks \
  --modes wrt --nrt inf --rt crash-eager-lazy --forks 1 --warmup-runs 0 \
  "--child-jvm-opts=-Xms2g -Xmx8g -agentpath:$AP=start,event=cpu,interval=10ms,threads,collapsed,file=$O/%p.collapsed" \
  --work-dir /dev/shm/wrt1m --nvm-pool-size 6g --out $O > $O/stdout.txt 2> $O/stderr.txt
echo "rc=$?" >> $O/stdout.txt
uptime > $O/load-after.txt
rm -rf /dev/shm/wrt1m
touch $O/done
