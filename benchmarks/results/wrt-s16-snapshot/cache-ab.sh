#!/usr/bin/env bash
# Issue 13: the cache's gain under each of several jars, each jar's uncached engine and GDSF cache in one runner invocation
# (a JVM each), jars rotated per round. Usage: cache-ab.sh <out> <rounds> <jar>... (rows named after the jar files).
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=${1:?out}; ROUNDS=${2:?rounds}; shift 2; JARS=("$@"); rm -rf $O; mkdir -p $O
quiet; uptime > $O/load-before.txt
for r in $(seq 1 $ROUNDS); do
  for i in $(seq 0 $((${#JARS[@]} - 1))); do
    j=${JARS[$(( (i + r - 1) % ${#JARS[@]} ))]}; d=$O/$(basename $j .jar)-$r
    uptime > $d.load-start.txt
    BENCH_JAR=$j BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
      --modes wrt --nrt none --rt graceful-eager-lazy --query-popularity zipf:1.0 \
      --rt-cache off,dram-gdsf-176k --forks 1 --warmup-runs 1 \
      --work-dir /dev/shm/cache200k --nvm-pool-size 3g --out $d > $d.stdout.txt 2> $d.stderr.txt
    echo "rc=$?" >> $d.stdout.txt
    uptime > $d.load-end.txt
    rm -rf /dev/shm/cache200k
  done
done
uptime > $O/load-after.txt
touch $O/done
