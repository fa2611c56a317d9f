#!/usr/bin/env bash
# Issue 13: JFR of CacheHitBenchmark.miss and .uncached, TermLow and TermHigh, plus JMH's gc profiler.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=${1:-/work/notes/s13/miss-jfr}
rm -rf $O; mkdir -p $O /dev/shm/jmh-tmp
quiet; uptime > $O/load-before.txt
for m in miss uncached; do
BENCH_JAR=/tmp/bench-miss.jar BENCH_JVM_OPTS="-Xms2g -Xmx4g" scripts/bench.sh jmh "CacheHitBenchmark.$m\$" \
  -p tier=dram -p tailDocs=2000 -p category=TermLow,TermHigh \
  -f 1 -wi 3 -w 2s -i 5 -r 2s -prof gc \
  -jvmArgsAppend "-Djava.io.tmpdir=/dev/shm/jmh-tmp -XX:StartFlightRecording=filename=$O/$m-%p.jfr,settings=profile" \
  > $O/$m-stdout.txt 2> $O/$m-stderr.txt
done
uptime > $O/load-after.txt
rm -rf /dev/shm/jmh-tmp
touch $O/done
