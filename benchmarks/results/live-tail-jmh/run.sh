#!/bin/bash
# LiveTailBenchmark: head (no leaf bound) against fix (searchLeaf bounded at maxDoc), alternated, one fork per param per run.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
cd /work/exp/jmh
for round in 1 2; do
  for side in head fix; do
    echo "round $round $side start $(uptime)" >> loads.txt
    $J --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -jar /work/exp/bench-$side.jar jmh LiveTailBenchmark \
      -f 1 -wi 2 -w 10s -i 4 -r 10s -p tailDocs=0,100,5000 -p corpus=/work/data/c1m.txt -p tasks=/work/data/c1m.tasks \
      -jvmArgs "-Xms2g -Xmx8g --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector" \
      -rf csv -rff r$round-$side.csv > r$round-$side.log 2>&1
    echo "round $round $side end $(uptime)" >> loads.txt
  done
done
