#!/usr/bin/env bash
# Issue 10: a variant's jar against base, LiveTailBenchmark with a 9,000-doc live tail on 30,000 flushed docs, sides
# alternated, 3 rounds. Usage: tail-ab.sh <out> <jar dir> <variant> (jars <jar dir>/bench-base.jar and bench-<variant>.jar).
# Ran as: tail-ab.sh header <jars> stats (the header variant's jar was bench-stats.jar; files renamed afterwards) and
# tail-ab.sh cache <jars> cache.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=${1:?output directory}; JARS=${2:?jar directory}; V=${3:?variant}; rm -rf $O; mkdir -p $O
quiet; uptime > $O/load-before.txt
for r in 1 2 3; do
  for side in base $V; do
    [ $r = 2 ] && { [ $side = base ] && side=$V || side=base; }
    uptime > $O/r$r-$side.load-start.txt
    java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -jar $JARS/bench-$side.jar jmh LiveTailBenchmark \
      -f 1 -wi 3 -w 5s -i 5 -r 5s -p tailDocs=9000 -p docs=30000 -p corpus=/work/data/c200k.txt -p tasks=/work/data/c200k.tasks \
      -p poolCache=/dev/shm/tail-pools \
      -jvmArgs "-Xms2g -Xmx4g --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector" \
      -rf csv -rff $O/r$r-$side.csv > $O/r$r-$side.txt 2>&1
    uptime > $O/r$r-$side.load-end.txt
  done
done
uptime > $O/load-after.txt
touch $O/done
