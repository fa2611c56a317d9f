#!/usr/bin/env bash
# Issue 11: PostingsBenchmark's main, lucene-dram / lucene-nvm / nvm-uncompressed interleaved, ROUNDS rounds (default 6), classes
# BENCH_RE (default every *Top10), indexes in /dev/shm/pb-final (FRESH=1: removed first, so the parent JVM builds them).
# `final`: FRESH=1 ROUNDS=3 pb-rounds.sh final <jar>; `rounds6`: ROUNDS=6 BENCH_RE='PostingsBenchmark.(term.*|andHighMedium)Top10' pb-rounds.sh rounds6 <jar>
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; JAR=${2:?jar}; rm -rf $O; mkdir -p $O
[ "${FRESH:-0}" = 1 ] && rm -rf /dev/shm/pb-final
mkdir -p /dev/shm/pb-final
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xmx2g -Dbench.rounds=${ROUNDS:-6} -Dbench.tmpfs=/dev/shm/pb-final \
  -cp $JAR org.lucenenvm.bench.PostingsBenchmark "${BENCH_RE:-PostingsBenchmark.*Top10}" \
  -p config=lucene-dram,lucene-nvm,nvm-uncompressed -wi 3 -w 2 -i 4 -r 2 > $O/run.txt 2>&1
uptime > $O/load-after.txt; touch $O/done
