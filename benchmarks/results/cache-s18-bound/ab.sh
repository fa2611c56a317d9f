#!/usr/bin/env bash
# Issue 13: the cache's gain with a miss's terms looked up once per leaf (new jar) against twice in the epoch's segments
# (base jar), while ingesting. Per round: the base jar's uncached engine and GDSF cache in one runner invocation, the new
# jar's GDSF cache in another (the uncached engine does not use the changed path), the two invocations' order alternating.
# Usage: ab.sh <out> <rounds> <base jar> <new jar>
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
source scripts/env.sh
O=${1:?out}; ROUNDS=${2:?rounds}; BASE=${3:?base jar}; NEW=${4:?new jar}; rm -rf $O; mkdir -p $O
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
invoke() { # <row> <jar> <rt-cache>
  local d=$O/$1
  uptime > $d.load-start.txt
  BENCH_JAR=$2 BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
    --modes wrt --nrt none --rt graceful-eager-lazy --query-popularity zipf:1.0 --rt-cache $3 --forks 1 --warmup-runs 1 \
    --work-dir /dev/shm/cache-ab --nvm-pool-size 3g --out $d > $d.stdout.txt 2> $d.stderr.txt
  echo "rc=$?" >> $d.stdout.txt
  uptime > $d.load-end.txt
  rm -rf /dev/shm/cache-ab
}
for r in $(seq 1 $ROUNDS); do
  if [ $((r % 2)) = 1 ]; then
    invoke base-$r $BASE off,dram-gdsf-176k; invoke new-$r $NEW dram-gdsf-176k
  else
    invoke new-$r $NEW dram-gdsf-176k; invoke base-$r $BASE off,dram-gdsf-176k
  fi
done
uptime > $O/load-after.txt
touch $O/done
