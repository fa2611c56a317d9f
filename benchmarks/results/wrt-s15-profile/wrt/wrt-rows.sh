#!/usr/bin/env bash
# Issue 10, 200 K docs, graceful defaults: runner rows against each other, one runner invocation per row, the rows'
# order rotated by one per round. Usage: wrt-rows.sh <out> <rounds> <jar dir> <row>...
# Row nrt: NRT-inf (with bench-base.jar); any other row <name>: the engine with <jar dir>/bench-<name>.jar.
# Ran as: wrt-rows.sh header 3 <jars> nrt base stats (the header variant's jar was bench-stats.jar; its rows renamed
# header-r<round> afterwards), wrt-rows.sh cache 3 <jars> nrt base cache, wrt-rows.sh aa 3 <jars> base basecopy.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=${1:?output directory}; ROUNDS=${2:?rounds}; JARS=${3:?jar directory}; shift 3; ROWS=("$@")
rm -rf $O; mkdir -p $O
quiet; uptime > $O/load-before.txt
for r in $(seq 1 $ROUNDS); do
  for i in $(seq 0 $((${#ROWS[@]} - 1))); do
    row=${ROWS[$(( (i + r - 1) % ${#ROWS[@]} ))]}; d=$O/$row-r$r
    if [ $row = nrt ]; then args="--nrt inf --rt none"; jar=base; else args="--nrt none --rt graceful-eager-lazy"; jar=$row; fi
    uptime > $d.load-start.txt
    BENCH_JAR=$JARS/bench-$jar.jar BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
      --modes wrt --forks 1 --warmup-runs 1 --work-dir /dev/shm/wrtab --nvm-pool-size 3g --out $d \
      "--child-jvm-opts=-Xms2g -Xmx8g" $args > $d.stdout.txt 2> $d.stderr.txt
    echo "rc=$?" >> $d.stdout.txt
    uptime > $d.load-end.txt
    rm -rf /dev/shm/wrtab
  done
done
uptime > $O/load-after.txt
touch $O/done
