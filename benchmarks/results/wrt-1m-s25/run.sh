#!/usr/bin/env bash
# Issue 10, session 25: the WRT run on 1 M generated documents, NRT-1 / NRT-1000 / NRT-inf and the engine (crash mode), 3 JVMs each.
# Usage: run.sh <out (emptied first)> <benchmarks.jar>
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; J=${2:?jar}; rm -rf $O; mkdir -p $O
cd /work/main
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
BENCH_JAR=$J BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c1m.txt --tasks /work/data/c1m.tasks \
  --modes wrt --nrt 1,1000,inf --rt crash-eager-lazy --forks 3 --warmup-runs 1 --warmup-docs 200000 \
  --work-dir /dev/shm/wrt1m --nvm-pool-size 6g --out $O > $O/stdout.txt 2> $O/stderr.txt
echo "rc=$?" >> $O/stdout.txt
uptime > $O/load-after.txt
rm -rf /dev/shm/wrt1m
touch $O/done
