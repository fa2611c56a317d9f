#!/usr/bin/env bash
# Usage: run.sh <out> <benchmarks.jar>. One long fork per configuration: does one JVM's speed move over minutes once the JIT has settled?
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
for c in lucene-dram nvm-uncompressed; do
  date -u +%T > $O/$c.start
  java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xmx2g \
    -jar ${2:?jar} jmh 'PostingsBenchmark.termHighTop10' -p config=$c -f 1 -wi 4 -w 3 -i 80 -r 2 \
    -jvmArgsAppend -Dbench.tmpfs=/dev/shm > $O/$c.txt 2>&1
  date -u +%T > $O/$c.end
done
uptime > $O/load-after.txt
touch $O/done
