#!/usr/bin/env bash
# Issue 10, session 20: LiveTailBenchmark A/B of the live enum (base: the 75e3203 jar; new: findNextGEQ in advance/nextPostings,
# the partial block read from the lookup's decoded copy). docs 0 (the live segment alone) and 50,000 flushed, a 9,999-doc
# live tail, one JVM per jar and round, the jars alternated.
# Usage: [DOCS=0] lt-ab.sh <out> <rounds> <base jar> <new jar>   (DOCS: the flushed docs, default 0,50000)
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; ROUNDS=${2:?rounds}; BASE=${3:?base jar}; NEW=${4:?new jar}; DOCS=${DOCS:-0,50000}
rm -rf $O; mkdir -p $O
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
run() { # <side> <jar> <round>
  uptime > $O/$1-$3.load-start.txt
  java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -jar $2 jmh LiveTailBenchmark \
    -f 1 -wi 2 -w 3s -i 3 -r 4s -p docs=$DOCS -p tailDocs=9999 -p category=TermHigh,TermMed,AndHighHigh,AndMedMed,OrHighHigh \
    -p corpus=/work/data/c200k.txt -p tasks=/work/data/c200k.tasks -p poolCache=/dev/shm/lt-s20 -p poolSize=2g \
    -jvmArgs "-Xms2g -Xmx4g --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector" \
    -rf csv -rff $O/$1-$3.csv > $O/$1-$3.txt 2>&1
}
for r in $(seq 1 $ROUNDS); do
  if [ $((r % 2)) = 1 ]; then run base $BASE $r; run new $NEW $r; else run new $NEW $r; run base $BASE $r; fi
done
uptime > $O/load-after.txt
touch $O/done
