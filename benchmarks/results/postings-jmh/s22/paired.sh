#!/usr/bin/env bash
# Issue 11, session 22: lucene-dram against nvm-uncompressed in adjacent short forks, so that both sides of a pair run
# in the same stretch of the host's speed (../../host-drift-s22). Per round and class: one fork of each configuration,
# back to back, the order alternating per round.
# Usage: paired.sh <out> <rounds> <benchmarks.jar> <class>...   (class: a PostingsBenchmark method, e.g. phraseTop10)
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; R=${2:?rounds}; JAR=${3:?jar}; shift 3; CLASSES=("$@")
rm -rf $O; mkdir -p $O
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
for r in $(seq 1 $R); do
  configs=(lucene-dram nvm-uncompressed); [ $((r % 2)) = 0 ] && configs=(nvm-uncompressed lucene-dram)
  for c in "${CLASSES[@]}"; do
    for cfg in "${configs[@]}"; do
      java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xmx2g \
        -jar $JAR jmh "PostingsBenchmark.$c\$" -p config=$cfg -f 1 -wi 2 -w 3 -i 3 -r 2 \
        -jvmArgsAppend -Dbench.tmpfs=/dev/shm > $O/r$r-$c-$cfg.txt 2>&1
    done
  done
done
uptime > $O/load-after.txt
touch $O/done
