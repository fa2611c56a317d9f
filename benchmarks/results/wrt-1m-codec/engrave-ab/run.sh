#!/usr/bin/env bash
# Issue 10, lead 2 (copies): at 1 M WRT, the volatile engine with eager engrave (DRAM -> NVM copy of every flushed segment) against lazy engrave, NRT-inf for reference; alternated rounds.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=/work/notes/s10/engrave; rm -rf $O; mkdir -p $O
quiet; uptime > $O/load-before.txt
BENCH_JAR=/tmp/bench-cache.jar BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c1m.txt --tasks /work/data/c1m.tasks \
  --modes wrt --nrt inf --rt volatile-eager-lazy,volatile-lazy-lazy --forks 2 --warmup-runs 1 --warmup-docs 200000 \
  --work-dir /dev/shm/engrave --nvm-pool-size 6g --out $O > $O/stdout.txt 2> $O/stderr.txt
echo "rc=$?" >> $O/stdout.txt
uptime > $O/load-after.txt
rm -rf /dev/shm/engrave
touch $O/done
