#!/bin/bash
# After the JMH A/B: rebuild the runner's jar on the fixed code, then WRT 1 M (NRT-1000, NRT-inf, engine; 2 rounds) and 200 K (3 rounds).
cd /work/main
while pgrep -f "ab.sh" > /dev/null; do sleep 5; done
# JMH round 3, tailDocs=100 only: round 2's head row at 100 overlapped ~20 s of another process of mine.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for side in head fix; do
  echo "round 3 $side start $(uptime)" >> /work/exp/jmh/loads.txt
  $J --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -jar /work/exp/bench-$side.jar jmh LiveTailBenchmark \
    -f 1 -wi 2 -w 10s -i 4 -r 10s -p tailDocs=100 -p corpus=/work/data/c1m.txt -p tasks=/work/data/c1m.tasks \
    -jvmArgs "-Xms2g -Xmx8g --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector" \
    -rf csv -rff /work/exp/jmh/r3-$side.csv > /work/exp/jmh/r3-$side.log 2>&1
  echo "round 3 $side end $(uptime)" >> /work/exp/jmh/loads.txt
done
source scripts/env.sh; nvm_find_jdk > /dev/null
BENCH_REBUILD=1 nvm_benchmarks_jar > /dev/null
while [ "$(awk '{print ($1 < 0.5)}' /proc/loadavg)" != 1 ]; do sleep 5; done
echo "1m start $(uptime)" >> /work/exp/wrt/loads.txt
BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c1m.txt --tasks /work/data/c1m.tasks \
  --modes wrt --nrt 1000,inf --rt crash-eager-lazy --forks 2 --warmup-runs 1 --warmup-docs 200000 \
  --work-dir /dev/shm/wrt1m --nvm-pool-size 6g --out /work/exp/wrt/wrt-1m > /work/exp/wrt/wrt-1m.log 2>&1
echo "1m end $(uptime)" >> /work/exp/wrt/loads.txt
[ -f /work/data/c200k.txt ] || scripts/bench.sh generate --docs 200000 --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks > /dev/null 2>&1
while [ "$(awk '{print ($1 < 0.5)}' /proc/loadavg)" != 1 ]; do sleep 5; done
echo "200k start $(uptime)" >> /work/exp/wrt/loads.txt
BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c200k.txt --tasks /work/data/c200k.tasks \
  --modes wrt --nrt 1000,inf --rt crash-eager-lazy --forks 3 --warmup-runs 1 \
  --work-dir /dev/shm/wrt200k --nvm-pool-size 3g --out /work/exp/wrt/wrt-200k > /work/exp/wrt/wrt-200k.log 2>&1
echo "200k end $(uptime)" >> /work/exp/wrt/loads.txt
