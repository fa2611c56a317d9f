#!/usr/bin/env bash
# Issue 11: PostingsBenchmark under async-profiler (cpu, 1 ms), one round. Usage: prof-postings.sh <out> <jar> <libasyncProfiler.so>
# Run `prof`:  defaults (term and AND top-10; lucene-dram, nvm-uncompressed; -wi 2 -w 2 -i 3 -r 2; indexes in /dev/shm).
# Run `prof4`: BENCH_RE='PostingsBenchmark.term(Medium|High)Top10' CONFIGS=lucene-dram,lucene-nvm,nvm-uncompressed-mmap,nvm-uncompressed
#              JMH_OPTS='-wi 4 -w 3 -i 4 -r 2' TMPFS=/dev/shm/pb-prof
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; JAR=${2:?jar}; LIB=${3:?lib}; rm -rf $O; mkdir -p $O ${TMPFS:-/dev/shm}
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
rm -rf /dev/shm/lucene-nvm-postings-*
java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xmx2g -Dbench.rounds=1 \
  -cp $JAR org.lucenenvm.bench.PostingsBenchmark "${BENCH_RE:-PostingsBenchmark.(term|and).*Top10}" \
  -p config=${CONFIGS:-lucene-dram,nvm-uncompressed} ${JMH_OPTS:--wi 2 -w 2 -i 3 -r 2} -jvmArgsAppend -Dbench.tmpfs=${TMPFS:-/dev/shm} \
  -prof "async:libPath=$LIB;output=collapsed;event=cpu;interval=1000000;dir=$O/prof" > $O/run.txt 2>&1
uptime > $O/load-after.txt
touch $O/done
