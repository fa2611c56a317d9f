#!/usr/bin/env bash
# Issue 10: the engine's background nice value 0 / 10 as alternated rows beside NRT-inf, 1 M WRT, 2 rounds.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=$1
rm -rf $O; mkdir -p $O
quiet; uptime > $O/load-before.txt
BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c1m.txt --tasks /work/data/c1m.tasks \
  --modes wrt --nrt inf --rt crash-eager-lazy --rt-background-nice 0,10 --forks 2 --warmup-runs 1 --warmup-docs 200000 \
  --work-dir /dev/shm/wrt1m --nvm-pool-size 6g --out $O > $O/stdout.txt 2> $O/stderr.txt
echo "rc=$?" >> $O/stdout.txt
uptime > $O/load-after.txt
rm -rf /dev/shm/wrt1m
touch $O/done
