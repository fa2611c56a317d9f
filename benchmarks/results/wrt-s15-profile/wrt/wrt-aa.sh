#!/usr/bin/env bash
# Issue 10, 200 K docs, graceful defaults: the writer's statistics header (stats) against base, NRT-inf in every round; rows rotated per round.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=${OUT:-/work/exp/s15/wrt-ab}; ROUNDS=${ROUNDS:-3}; rm -rf $O; mkdir -p $O
ROWS=(base basecopy)
quiet; uptime > $O/load-before.txt
for r in $(seq 1 $ROUNDS); do
  for i in 0 1; do
    row=${ROWS[$(( (i + r - 1) % 2 ))]}; d=$O/$row-r$r
    if [ $row = nrt ]; then args="--nrt inf --rt none"; jar=base; else args="--nrt none --rt graceful-eager-lazy"; jar=$row; fi
    uptime > $d.load-start.txt
    BENCH_JAR=/work/exp/s15/bench-$jar.jar BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
      --modes wrt --forks 1 --warmup-runs 1 --work-dir /dev/shm/wrtab --nvm-pool-size 3g --out $d \
      "--child-jvm-opts=-Xms2g -Xmx8g" $args > $d.stdout.txt 2> $d.stderr.txt
    echo "rc=$?" >> $d.stdout.txt
    uptime > $d.load-end.txt
    rm -rf /dev/shm/wrtab
  done
done
uptime > $O/load-after.txt
touch $O/done
