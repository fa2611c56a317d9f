#!/bin/bash
# prof.sh <out> <category> <jar:config:label:root>... : one profiled query JVM per spec
out=$1; cat=$2; shift 2
mkdir -p $out; uptime > $out/load-before.txt
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
AP=${ASYNC_LIB:?path to libasyncProfiler.so (async-profiler 4.1, Maven Central tools.profiler:async-profiler:4.1)}
for spec in "$@"; do
  IFS=: read jar config label root <<< "$spec"
  if [ $config = lucene-dram ]; then idx=$root/baseline-lucene-dram; else idx=$root/candidate-nvm-uncompressed; fi
  d=$out/$label; mkdir -p $d
  $J --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -Xms1g -Xmx4g -XX:+AlwaysPreTouch \
    -agentpath:$AP=start,event=${EV:-cpu},interval=${IV:-1ms}${APX},collapsed,file=$d/prof.collapsed \
    -cp $jar org.lucenenvm.bench.BenchCli query \
    --config $config --index-dir $idx --docs 1000000 --tasks ${TASKS:-data/c1m.tasks} --out $d --nvm-pool-size 6g --field body \
    --query-threads 1 --queries-per-category ${QN:-5000} --warmup-queries-per-category ${WN:-1500} --top-k 10 --seed 1 --query-popularity uniform \
    --categories $cat > $d/stdout.log 2> $d/stderr.log
done
uptime > $out/load-after.txt
touch $out/done
