#!/bin/bash
# tr.sh <out> <rounds> <config>... : full-category NC query JVMs on /dev/shm/prof with per-query trace and PrintCompilation
out=$1; rounds=$2; shift 2
mkdir -p $out; uptime > $out/load-before.txt
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for r in $(seq 1 $rounds); do
  for config in "$@"; do
    if [ $config = lucene-dram ]; then idx=/dev/shm/prof/baseline-lucene-dram; else idx=/dev/shm/prof/candidate-nvm-uncompressed; fi
    d=$out/$config-$r; mkdir -p $d
    $J --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -Xms1g -Xmx4g -Dtrace=$d/trace.tsv -XX:+PrintCompilation -Xlog:gc:file=$d/gc.log ${JFR:+-XX:StartFlightRecording=settings=/work/exp/s32/comp.jfc,filename=$d/rec.jfr} ${JOPTS} -cp ${JAR:-/work/exp/s32/trace.jar} org.lucenenvm.bench.BenchCli query \
      --config $config --index-dir $idx --docs 1000000 --tasks /work/data/c1m.tasks --out $d --nvm-pool-size 6g --field body \
      --query-threads 1 --queries-per-category 2000 --warmup-queries-per-category 500 --top-k 10 --seed 1 --query-popularity uniform > $d/stdout.log 2> $d/stderr.log
  done
done
uptime > $out/load-after.txt
touch $out/done
