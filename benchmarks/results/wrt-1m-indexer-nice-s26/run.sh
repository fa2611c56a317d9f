#!/usr/bin/env bash
# Session 26 pilot (issue 10 ingest): NRT-inf, the engine as it is (base), the indexer thread at nice 0 (idx0),
# both background threads at nice 7 (n7). One JVM per row, rows rotated per round.
# Usage: run.sh <out (emptied first)> <rounds> <base.jar> <idx0.jar> <row>...  (rows: nrt, base, idx0, n<N>)
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; ROUNDS=${2:?rounds}; BASE=${3:?base}; IDX0=${4:?idx0}; shift 4; ROWS=("$@")
rm -rf $O; mkdir -p $O
cd /work/main
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
row() {
  local name=$1 d=$O/$1-r$r args J=$BASE
  case $name in
    nrt) args="--nrt inf --rt none";;
    base) args="--nrt none --rt crash-eager-lazy";;
    idx0) args="--nrt none --rt crash-eager-lazy"; J=$IDX0;;
    n[0-9]*) args="--nrt none --rt crash-eager-lazy --rt-background-nice ${name#n}";;
    *) echo "bad row $name" >&2; exit 2;;
  esac
  uptime > $d.load-start.txt
  BENCH_JAR=$J BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c1m.txt --tasks /work/data/c1m.tasks \
    --modes wrt --forks 1 --warmup-runs 1 --warmup-docs 200000 --work-dir /dev/shm/wrt1m --nvm-pool-size 6g \
    "--child-jvm-opts=-Xms2g -Xmx8g" --out $d $args > $d.stdout.txt 2> $d.stderr.txt
  echo "rc=$?" >> $d.stdout.txt
  uptime > $d.load-end.txt
  rm -rf /dev/shm/wrt1m
}
for r in $(seq 1 $ROUNDS); do
  for i in $(seq 0 $((${#ROWS[@]} - 1))); do
    row ${ROWS[$(( (i + r - 1) % ${#ROWS[@]} ))]}
  done
done
uptime > $O/load-after.txt
touch $O/done
