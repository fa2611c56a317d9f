#!/usr/bin/env bash
# Issue 13: WRT cache at 200 K after the leaf bound (same command as cache-200k-wrt-s10).
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=${1:-/work/notes/s12/cache-wrt}; shift || true
rm -rf $O; mkdir -p $O
quiet; uptime > $O/load-before.txt
BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
  --modes wrt --nrt none --rt graceful-eager-lazy --query-popularity zipf:1.0 \
  --rt-cache off,dram-lru-176k,dram-gdsf-176k --forks 3 --warmup-runs 1 \
  --work-dir /dev/shm/cache200k --nvm-pool-size 3g --out $O "$@" > $O/stdout.txt 2> $O/stderr.txt
echo "rc=$?" >> $O/stdout.txt
uptime > $O/load-after.txt
rm -rf /dev/shm/cache200k
touch $O/done
