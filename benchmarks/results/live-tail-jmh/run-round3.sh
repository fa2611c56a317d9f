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
