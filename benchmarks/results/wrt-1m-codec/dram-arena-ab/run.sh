#!/usr/bin/env bash
# Issue 10: A/B at 1 M WRT, engine only: head vs an experimental DramDirectory with Arena.ofAuto per file (no all-thread handshake per file release). Alternated, 1 JVM per run.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=/work/notes/s10/abdram; rm -rf $O; mkdir -p $O
for i in 1 2 3; do
  if [ $((i%2)) = 1 ]; then order="dramauto head"; else order="head dramauto"; fi
  for v in $order; do
    quiet; echo "$v-$i start $(uptime)" >> $O/loads.txt
    BENCH_JAR=/tmp/bench-$v.jar BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c1m.txt --tasks /work/data/c1m.tasks \
      --modes wrt --nrt none --rt crash-eager-lazy --forks 1 --warmup-runs 1 --warmup-docs 200000 \
      --work-dir /dev/shm/ab --nvm-pool-size 6g --out $O/$v-$i --child-jvm-opts "-Xms2g -Xmx8g -XX:StartFlightRecording=filename=$O/$v-$i/wrt-%p.jfr" > $O/$v-$i.log 2>&1
    rm -rf /dev/shm/ab
    echo "$v-$i end $(uptime)" >> $O/loads.txt
  done
done
touch $O/done
