#!/bin/bash
# Static 1 M window: engine with no live tail (segment size 10000) against a 100-doc tail (9999).
cd /work/main
for round in 1 2; do
  for seg in 10000 9999; do
    echo "round $round seg $seg start $(uptime)" >> /work/exp/tail/loads.txt
    rm -rf /dev/shm/tailexp
    BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c1m.txt --tasks /work/data/c1m.tasks \
      --modes wrt --nrt none --rt crash-eager-lazy --rt-segment-size $seg --warmup-share 1 --queries-per-category 10000 \
      --work-dir /dev/shm/tailexp --nvm-pool-size 6g --out /work/exp/tail/r$round-s$seg > /work/exp/tail/r$round-s$seg.log 2>&1
    echo "round $round seg $seg end $(uptime)" >> /work/exp/tail/loads.txt
  done
done
