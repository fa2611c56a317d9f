#!/bin/bash
# Round 2 (and 3) of the static tail experiment, with JFR (profile settings) in each JVM.
cd /work/main
while pgrep -f 'tailexp' > /dev/null; do sleep 5; done
echo "round 1 seg 9999 end $(uptime)" >> /work/exp/tail/loads.txt
for round in 2 3; do
  for seg in 9999 10000; do
    echo "round $round seg $seg start $(uptime)" >> /work/exp/tail/loads.txt
    rm -rf /dev/shm/tailexp
    out=/work/exp/tail/r$round-s$seg
    mkdir -p $out
    BENCH_JVM_OPTS="-Xms2g -Xmx8g -XX:StartFlightRecording=filename=$out/rec.jfr,settings=profile" scripts/bench.sh run --corpus /work/data/c1m.txt --tasks /work/data/c1m.tasks \
      --modes wrt --nrt none --rt crash-eager-lazy --rt-segment-size $seg --warmup-share 1 --queries-per-category 10000 \
      --work-dir /dev/shm/tailexp --nvm-pool-size 6g --out $out > $out.log 2>&1
    echo "round $round seg $seg end $(uptime)" >> /work/exp/tail/loads.txt
  done
done
