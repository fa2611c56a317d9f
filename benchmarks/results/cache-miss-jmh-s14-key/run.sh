#!/usr/bin/env bash
# Issue 13: a cache miss with QueryKey's hash computed once (new) against the record (old). Alternated, 2 rounds.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=${1:?output directory}
rm -rf $O; mkdir -p $O /dev/shm/jmh-tmp
quiet; uptime > $O/load-before.txt
one() { # side round
  local jar=/tmp/bench-head.jar; [ $1 = new ] && jar=/tmp/bench-key.jar
  BENCH_JAR=$jar BENCH_JVM_OPTS="-Xms2g -Xmx4g" scripts/bench.sh jmh 'CacheHitBenchmark.(miss|uncached)' \
    -p tier=dram -p tailDocs=2000 -p category=TermLow,TermHigh \
    -f 1 -wi 3 -w 2s -i 5 -r 2s -jvmArgsAppend "-Djava.io.tmpdir=/dev/shm/jmh-tmp" \
    -rf csv -rff $O/$1-r$2.csv > $O/$1-r$2.stdout.txt 2> $O/$1-r$2.stderr.txt
  echo "rc=$?" >> $O/$1-r$2.stdout.txt
}
one old 1; one new 1; one new 2; one old 2
uptime > $O/load-after.txt
rm -rf /dev/shm/jmh-tmp
touch $O/done
