#!/usr/bin/env bash
# Issue 13: CacheHitBenchmark miss against uncached under async-profiler (cpu, 1 ms), DRAM tier, 2,000-doc live tail,
# long enough that C2 has finished (5 x 3 s warmup).
# Usage: prof-miss.sh <out> <jar> [categories]
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; JAR=${2:?jar}; CATS=${3:-TermLow}; LIB=/work/exp/s15/ap/linux-x64/libasyncProfiler.so
rm -rf $O; mkdir -p $O /dev/shm/jmh-tmp
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xms2g -Xmx4g -Djava.io.tmpdir=/dev/shm/jmh-tmp \
  -cp $JAR org.openjdk.jmh.Main 'CacheHitBenchmark.(miss|uncached)' -p tier=dram -p tailDocs=2000 -p category=$CATS \
  -f 1 -wi 5 -w 3s -i 5 -r 3s -jvmArgsAppend "-Djava.io.tmpdir=/dev/shm/jmh-tmp" \
  -prof "async:libPath=$LIB;output=collapsed;event=cpu;interval=1000000;dir=$O/prof" > $O/run.txt 2>&1
uptime > $O/load-after.txt
rm -rf /dev/shm/jmh-tmp
touch $O/done
