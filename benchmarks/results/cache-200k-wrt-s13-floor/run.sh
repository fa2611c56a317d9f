#!/usr/bin/env bash
# Issue 13: A/B of two benchmark jars with the result cache. Per round: OLD_JAR (off, gdsf), NEW_JAR (gdsf); forks 1 each.
# The tail floor: OLD_JAR=/tmp/bench-old.jar (benchmarks.jar built at 164d295, before), NEW_JAR=/tmp/bench-new.jar (with the
# floor), the defaults; ../cache-200k-wrt-s13-noparts ran it with its own two jars.
# Usage: [OLD_JAR=<jar>] [NEW_JAR=<jar>] run.sh <out dir> <rounds>
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=${1:?output directory}; ROUNDS=${2:-3}
rm -rf $O; mkdir -p $O
quiet; uptime > $O/load-before.txt
one() { # jar caches out
  BENCH_JAR=$1 BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
    --modes wrt --nrt none --rt graceful-eager-lazy --query-popularity zipf:1.0 \
    --rt-cache $2 --forks 1 --warmup-runs 1 \
    --work-dir /dev/shm/cache200k --nvm-pool-size 3g --out $3 > $3.stdout.txt 2> $3.stderr.txt
  echo "rc=$?" >> $3.stdout.txt
  rm -rf /dev/shm/cache200k
}
for r in $(seq 1 $ROUNDS); do # the order alternates between rounds
  if [ $((r % 2)) = 1 ]; then
    one ${OLD_JAR:-/tmp/bench-old.jar} off,dram-gdsf-176k $O/old-$r
    one ${NEW_JAR:-/tmp/bench-new.jar} dram-gdsf-176k $O/new-$r
  else
    one ${NEW_JAR:-/tmp/bench-new.jar} dram-gdsf-176k $O/new-$r
    one ${OLD_JAR:-/tmp/bench-old.jar} off,dram-gdsf-176k $O/old-$r
  fi
done
uptime > $O/load-after.txt
touch $O/done
