#!/usr/bin/env bash
# Issue 13: what a miss costs beyond an uncached search of the same queries (CacheHitBenchmark.miss vs uncached).
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=${1:-/work/notes/s13/miss-jmh}
rm -rf $O; mkdir -p $O /dev/shm/jmh-tmp
quiet; uptime > $O/load-before.txt
BENCH_JAR=/tmp/bench-miss.jar BENCH_JVM_OPTS="-Xms2g -Xmx4g" scripts/bench.sh jmh 'CacheHitBenchmark.(miss|uncached)' \
  -p tier=dram -p tailDocs=2000 -p category=TermLow,TermHigh,AndHighHigh,OrHighHigh \
  -f 2 -wi 3 -w 2s -i 5 -r 2s -jvmArgsAppend "-Djava.io.tmpdir=/dev/shm/jmh-tmp" \
  -rf csv -rff $O/jmh.csv > $O/stdout.txt 2> $O/stderr.txt
echo "rc=$?" >> $O/stdout.txt
uptime > $O/load-after.txt
rm -rf /dev/shm/jmh-tmp
touch $O/done
