#!/usr/bin/env bash
# async-profiler CPU profile (collapsed stacks per thread) of one NRT-inf JVM and one engine JVM (defaults, graceful), 200 K docs.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=/work/exp/s15/ap/run; rm -rf $O; mkdir -p $O
quiet; uptime > $O/load-before.txt
for row in nrt rt; do
  if [ $row = nrt ]; then args="--nrt inf --rt none"; else args="--nrt none --rt graceful-eager-lazy"; fi
  BENCH_JAR=/work/exp/s15/bench-base.jar BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
    --modes wrt --forks 1 --warmup-runs 1 --work-dir /dev/shm/prof --nvm-pool-size 3g --out $O/$row \
    "--child-jvm-opts=-Xms2g -Xmx8g -agentpath:/work/exp/s15/ap/linux-x64/libasyncProfiler.so=start,event=cpu,interval=2ms,threads,file=$O/$row.collapsed" $args > $O/$row.stdout.txt 2> $O/$row.stderr.txt
  uptime > $O/$row.load-end.txt
  rm -rf /dev/shm/prof
done
touch $O/done
