#!/usr/bin/env bash
# Issue 13, 200 K generated documents ingested while one query thread replays the tasks, GDSF 176 KB (about 50 % hits).
#   run.sh bound <out> <rounds> <jar>: per round, one runner invocation with the uncached engine and the GDSF cache under
#     Zipf 1.0 popularity (row zipf-<r>), one with the uncached engine under uniform popularity (uniform-<r>: every query
#     of the tasks file equally often, so each recurs rarely, as the queries a cache misses do); order alternating.
#   run.sh ab <out> <rounds> <base jar> <new jar>: per round, the base jar's uncached engine and GDSF cache in one
#     invocation (base-<r>), the new jar's GDSF cache in another (new-<r>); order alternating.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
source scripts/env.sh
MODE=${1:?mode: bound or ab}; O=${2:?out}; ROUNDS=${3:?rounds}; JAR=${4:?jar}; NEW=${5:-}
rm -rf $O; mkdir -p $O
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
invoke() { # <row> <jar> <popularity> <rt-cache>
  local d=$O/$1
  uptime > $d.load-start.txt
  BENCH_JAR=$2 BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
    --modes wrt --nrt none --rt graceful-eager-lazy --query-popularity $3 --rt-cache $4 --forks 1 --warmup-runs 1 \
    --work-dir /dev/shm/cache-s18 --nvm-pool-size 3g --out $d > $d.stdout.txt 2> $d.stderr.txt
  echo "rc=$?" >> $d.stdout.txt
  uptime > $d.load-end.txt
  rm -rf /dev/shm/cache-s18
}
for r in $(seq 1 $ROUNDS); do
  if [ $MODE = bound ]; then
    first=(zipf-$r $JAR zipf:1.0 off,dram-gdsf-176k); second=(uniform-$r $JAR uniform off)
  else
    first=(base-$r $JAR zipf:1.0 off,dram-gdsf-176k); second=(new-$r ${NEW:?new jar} zipf:1.0 dram-gdsf-176k)
  fi
  if [ $((r % 2)) = 1 ]; then invoke "${first[@]}"; invoke "${second[@]}"; else invoke "${second[@]}"; invoke "${first[@]}"; fi
done
uptime > $O/load-after.txt
touch $O/done
