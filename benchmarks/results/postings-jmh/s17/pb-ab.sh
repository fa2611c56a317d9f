#!/usr/bin/env bash
# Issue 11: PostingsBenchmark term and AND top-10, main jar (lucene-dram and nvm-uncompressed) against variant jars
# (nvm-uncompressed), one invocation per jar and round, order rotated per round; each jar its own index directory.
# Usage: pb-ab.sh <out> <rounds> <name>=<jar>... (the first is the main jar, also run with lucene-dram)
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; R=${2:?rounds}; shift 2; JARS=("$@"); rm -rf $O; mkdir -p $O
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
n=${#JARS[@]}
for r in $(seq 1 $R); do
  for k in $(seq 0 $((n-1))); do
    spec=${JARS[$(( (k + r - 1) % n ))]}; name=${spec%%=*}; jar=${spec#*=}
    configs=nvm-uncompressed; [ "$spec" = "${JARS[0]}" ] && configs=lucene-dram,nvm-uncompressed
    java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xmx2g -Dbench.rounds=1 \
      -cp $jar org.lucenenvm.bench.PostingsBenchmark "${BENCH_RE:-PostingsBenchmark.(term|and).*Top10}" \
      -p config=$configs -wi ${WI:-4} -w 3 -i ${IT:-5} -r 2 -jvmArgsAppend -Dbench.tmpfs=/dev/shm/pb-$name > $O/$name-r$r.txt 2>&1
  done
done
uptime > $O/load-after.txt
touch $O/done
