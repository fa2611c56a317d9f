#!/usr/bin/env bash
# Issue 13, session 23: is the NVM result cache warm after every graceful restart now that a close aborts a running
# merge? cache-s22's NVM rows at 5 % of the index (LRU, DLIRS), 2 JVMs each, 200 K generated documents, WRT,
# Zipf 1.0, GRACEFUL engine; each JVM restarts twice (after its warm-up pass and after the timed run).
#   run.sh <out> <jar>
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
source scripts/env.sh
O=${1:?out}; JAR=${2:?jar}
rm -rf $O; mkdir -p $O
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
BENCH_JAR=$JAR BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
  --modes wrt --nrt none --rt graceful-eager-lazy --query-popularity zipf:1.0 --rt-cache nvm-lru-5500k,nvm-dlirs-5500k \
  --forks 2 --warmup-runs 1 --work-dir /dev/shm/cache-restart-s23 --nvm-pool-size 3g --out $O/nvm > $O/nvm.stdout.txt 2> $O/nvm.stderr.txt
echo "rc=$?" >> $O/nvm.stdout.txt
rm -rf /dev/shm/cache-restart-s23
uptime > $O/load-after.txt
touch $O/done
