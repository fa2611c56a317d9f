#!/usr/bin/env bash
# Issue 10: LiveTailBenchmark for TermLow and AndLowLow, without and with a 9,000-doc live tail on 30,000 flushed docs of
# c200k, under JMH's async-profiler integration (collapsed stacks, CPU, 1 ms). Usage: prof-termlow.sh <out> <jar> <libasyncProfiler.so>
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=${1:?out}; JAR=${2:?jar}; LIB=${3:?libasyncProfiler.so}; rm -rf $O; mkdir -p $O
quiet; uptime > $O/load-before.txt
for cat in TermLow AndLowLow; do for tail in 0 9000; do
java --enable-native-access=ALL-UNNAMED -jar $JAR jmh LiveTailBenchmark \
  -f 1 -wi 3 -w 4s -i 4 -r 4s -p tailDocs=$tail -p docs=30000 -p category=$cat -p corpus=/work/data/c200k.txt -p tasks=/work/data/c200k.tasks \
  -p poolCache=/dev/shm/tail-pools \
  -prof "async:libPath=$LIB;output=collapsed;event=cpu;interval=1000000;dir=$O/$cat-$tail" \
  -jvmArgs "-Xms2g -Xmx4g --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector" \
  -rf csv -rff $O/$cat-$tail.csv > $O/$cat-$tail.txt 2>&1
done; done
uptime > $O/load-after.txt
touch $O/done
