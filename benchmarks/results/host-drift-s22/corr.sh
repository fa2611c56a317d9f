#!/usr/bin/env bash
# Usage: corr.sh <out> <benchmarks.jar>. The probe beside one JMH fork (lucene-dram term high), every JMH line timestamped: do slow stretches coincide?
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}
nvm_wait_quiet 0.5 1800; uptime > $O/corr-load-before.txt
python3 "$(dirname "$0")"/probe.py 190 > $O/corr-probe.txt &
java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xmx2g \
  -jar ${2:?jar} jmh 'PostingsBenchmark.termHighTop10' -p config=lucene-dram -f 1 -wi 4 -w 3 -i 70 -r 2 \
  -jvmArgsAppend -Dbench.tmpfs=/dev/shm 2>&1 | while IFS= read -r l; do echo "$(date +%s.%N) $l"; done > $O/corr-jmh.txt
wait
uptime > $O/corr-load-after.txt
touch $O/corr-done
