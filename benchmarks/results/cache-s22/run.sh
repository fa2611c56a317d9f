#!/usr/bin/env bash
# Issue 13, session 22: the result cache on today's code and host, 200 K generated documents, queries timed
# while the last 20 % is ingested (WRT), Zipf 1.0 popularity, GRACEFUL engine.
#   run.sh <out> <jar>
#   fifty/: near a 50 % hit rate (176 KB), DRAM and NVM tier, GDSF and LRU, against the uncached engine;
#           every row in its own JVM, 3 rounds, row order rotated per round (the runner's --forks).
#   sizes/: LRU and DLIRS at 5, 10 and 20 % of the ~109 MB index (5500k, 11m, 22m), DRAM and NVM tier at 5 %,
#           the uncached engine beside them; one JVM per row (hit rates are seeded and repeat; QPS is one JVM each).
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
source scripts/env.sh
O=${1:?out}; JAR=${2:?jar}
rm -rf $O; mkdir -p $O
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
invoke() { # <folder> <forks> <rt-cache>
  local d=$O/$1
  uptime > $d.load-start.txt
  BENCH_JAR=$JAR BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
    --modes wrt --nrt none --rt graceful-eager-lazy --query-popularity zipf:1.0 --rt-cache $3 --forks $2 --warmup-runs 1 \
    --work-dir /dev/shm/cache-s22 --nvm-pool-size 3g --out $d > $d.stdout.txt 2> $d.stderr.txt
  echo "rc=$?" >> $d.stdout.txt
  uptime > $d.load-end.txt
  rm -rf /dev/shm/cache-s22
}
invoke fifty 3 off,dram-gdsf-176k,nvm-gdsf-176k,dram-lru-176k
invoke sizes 1 off,dram-lru-5500k,dram-dlirs-5500k,nvm-lru-5500k,nvm-dlirs-5500k,dram-lru-11m,dram-dlirs-11m,dram-lru-22m,dram-dlirs-22m
uptime > $O/load-after.txt
touch $O/done
