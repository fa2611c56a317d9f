#!/usr/bin/env bash
# Issue 10 experiment: indexer at nice 0 and merger at nice 10 ("split"). /tmp/bench-split.jar maps
# --rt-background-nice 5 to that split (a hack in Pipeline, not committed); 0 and 10 as committed.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=$1
rm -rf $O; mkdir -p $O
quiet; uptime > $O/load-before.txt
BENCH_JAR=/tmp/bench-split.jar BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
  --modes wrt --nrt inf --rt crash-eager-lazy --rt-background-nice 0,5,10 --forks 3 --warmup-runs 1 \
  --work-dir /dev/shm/wrt200k --nvm-pool-size 3g --out $O > $O/stdout.txt 2> $O/stderr.txt
echo "rc=$?" >> $O/stdout.txt
uptime > $O/load-after.txt
rm -rf /dev/shm/wrt200k
touch $O/done
