#!/usr/bin/env bash
# Issue 10: the engine's query path against Lucene's with nothing ingesting: WRT with --warmup-share 1 on 1 M generated
# documents (queries timed once every document was acknowledged; NRT-inf refreshed then, so both see all of them),
# NRT-inf and the engine (crash mode) alternated, 2 JVMs each.
# Usage: static1m.sh <out>
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; rm -rf $O; mkdir -p $O
cd /work/main
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
BENCH_JAR=/work/exp/s18/base.jar BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c1m.txt --tasks /work/data/c1m.tasks \
  --modes wrt --nrt inf --rt crash-eager-lazy --warmup-share 1 --forks 2 --warmup-runs 1 --warmup-docs 200000 \
  --work-dir /dev/shm/static1m --nvm-pool-size 6g --out $O > $O/stdout.txt 2> $O/stderr.txt
echo "rc=$?" >> $O/stdout.txt
uptime > $O/load-after.txt
rm -rf /dev/shm/static1m
touch $O/done
