#!/usr/bin/env bash
# Issue 11: is the fork-to-fork spread the JIT or the host? AND high+medium and term high, nvm-uncompressed and lucene-dram,
# 6 forks each, 12 measurement iterations of 2 s (24 s a fork), on the prebuilt indexes of pb-rounds.sh. Plain JMH (forks in a row).
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; JAR=${2:?jar}; rm -rf $O; mkdir -p $O
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
for c in nvm-uncompressed lucene-dram; do
  java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xmx2g -Dbench.tmpfs=/dev/shm/pb-final -jar $JAR jmh \
    'PostingsBenchmark.(andHighMedium|termHigh)Top10' -p config=$c -f 6 -wi 3 -w 2 -i 12 -r 2 > $O/$c.txt 2>&1
done
uptime > $O/load-after.txt; touch $O/done
