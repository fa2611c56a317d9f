#!/usr/bin/env bash
# Does building the index in the measuring JVM slow the queries? termHighTop10, lucene-dram and lucene-nvm (and the two NvmCodec configs),
# each fork either on an index built by an earlier JVM ("prebuilt") or building it first ("fresh"), 2 rounds.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; JAR=${2:?jar}; rm -rf $O; mkdir -p $O
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
for r in 1 2; do for mode in prebuilt fresh; do for c in lucene-dram lucene-nvm nvm-uncompressed-mmap nvm-uncompressed; do
  T=/dev/shm/pb-prof; [ $mode = fresh ] && { T=/dev/shm/pb-fresh; rm -rf $T; mkdir -p $T; }
  java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xmx2g -Dbench.rounds=1 \
    -cp $JAR org.lucenenvm.bench.PostingsBenchmark 'PostingsBenchmark.termHighTop10' \
    -p config=$c -wi 4 -w 3 -i 4 -r 2 -jvmArgsAppend -Dbench.tmpfs=$T > $O/$mode-$c-r$r.txt 2>&1
done; done; done
uptime > $O/load-after.txt; touch $O/done
