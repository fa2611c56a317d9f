#!/bin/bash
# N forks of one PostingsBenchmark class/config, each profiled; prints µs/op and the norms share per fork
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
O=$1; JAR=$2; CLS=$3; CFG=$4; N=$5; TMP=$6
mkdir -p $O; uptime > $O/load-before.txt
for i in $(seq 1 $N); do
  java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xmx2g -jar $JAR jmh "PostingsBenchmark.$CLS\$" -p config=$CFG -f 1 -wi 3 -w 2 -i 4 -r 2 \
    -jvmArgsAppend -Dbench.tmpfs=$TMP -prof "async:libPath=${ASYNC_LIB:?path of libasyncProfiler.so};output=collapsed;event=cpu;interval=1000000;dir=$O/f$i" > $O/f$i.txt 2>&1
  us=$(grep -E "^PostingsBenchmark.$CLS " $O/f$i.txt | head -1 | awk '{print $(NF-3)}')
  norms=$(python3 /work/main/benchmarks/results/postings-jmh/s17/split.py $(find $O/f$i -name collapsed-cpu.csv) 2>/dev/null | grep norms | awk '{print $1}')
  echo "fork $i: $us us/op, norms $norms %" | tee -a $O/summary.txt
done
uptime > $O/load-after.txt
