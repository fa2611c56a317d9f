#!/usr/bin/env bash
# Issue 10: WRT on 200 K generated documents, the engine (crash mode) with the base jar and with the live-impacts
# variant, one runner invocation (one JVM) per jar and round, alternated: ingest rate and QPS while ingesting.
# Usage: wrt-ab.sh <out> <rounds> <base jar> <variant jar> [variant's name, default pairs]
# (session 20's live-enum-s20 ran it with the name new)
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; ROUNDS=${2:?rounds}; BASE=${3:?base jar}; VARIANT=${4:?variant jar}; NAME=${5:-pairs}
rm -rf $O; mkdir -p $O
cd /work/main
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
run() { # <side> <jar> <round>
  BENCH_JAR=$2 BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
    --modes wrt --nrt none --rt crash-eager-lazy --forks 1 --warmup-runs 1 \
    --work-dir /dev/shm/wrt-ab --nvm-pool-size 3g --out $O/$1-$3 > $O/$1-$3.stdout.txt 2> $O/$1-$3.stderr.txt
  rm -rf /dev/shm/wrt-ab
}
for r in $(seq 1 $ROUNDS); do
  if [ $((r % 2)) = 1 ]; then run base $BASE $r; run $NAME $VARIANT $r; else run $NAME $VARIANT $r; run base $BASE $r; fi
done
uptime > $O/load-after.txt
touch $O/done
