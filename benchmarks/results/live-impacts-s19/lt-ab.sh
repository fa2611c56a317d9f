#!/usr/bin/env bash
# Issue 10: LiveTailBenchmark A/B, the live segment's block impacts as one (max freq, min norm) pair (base) against up to
# 4 competitive pairs (pairs): 50,000 flushed documents of c200k and a 9,999-document live tail (or none), one JVM per
# jar and round, the jars alternated.
# Usage: lt-ab.sh <out> <rounds> <base jar> <pairs jar> [tailDocs, default 0,9999] [measured iterations, default 3]
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; ROUNDS=${2:?rounds}; BASE=${3:?base jar}; PAIRS=${4:?pairs jar}; TAILS=${5:-0,9999}; ITERATIONS=${6:-3}
rm -rf $O; mkdir -p $O
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
run() { # <side> <jar> <round>
  uptime > $O/$1-$3.load-start.txt
  java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -jar $2 jmh LiveTailBenchmark \
    -f 1 -wi 2 -w 5s -i $ITERATIONS -r 5s -p docs=50000 -p tailDocs=$TAILS -p category=TermHigh,AndHighHigh,OrHighHigh \
    -p corpus=/work/data/c200k.txt -p tasks=/work/data/c200k.tasks -p poolCache=/dev/shm/lt-s19 \
    -jvmArgs "-Xms2g -Xmx4g --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector" \
    -rf csv -rff $O/$1-$3.csv > $O/$1-$3.txt 2>&1
}
for r in $(seq 1 $ROUNDS); do
  if [ $((r % 2)) = 1 ]; then run base $BASE $r; run pairs $PAIRS $r; else run pairs $PAIRS $r; run base $BASE $r; fi
done
uptime > $O/load-after.txt
touch $O/done
