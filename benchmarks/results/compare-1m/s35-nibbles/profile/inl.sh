#!/bin/bash
# inl.sh <out> <n> : n AndHighHigh query JVMs (JAR, CFG, ROOT, IDX) with a profile and -XX:+PrintInlining each
out=$1; n=$2
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
AP=${ASYNC_LIB:?path to libasyncProfiler.so (async-profiler 4.1, Maven Central tools.profiler:async-profiler:4.1)}
mkdir -p $out; uptime > $out/load-before.txt
for i in $(seq 1 $n); do
  d=$out/$i; mkdir -p $d
  $J --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -Xms1g -Xmx4g -XX:+AlwaysPreTouch \
    -XX:+UnlockDiagnosticVMOptions -XX:+PrintInlining -XX:+PrintCompilation \
    -agentpath:$AP=start,event=cpu,interval=1ms,collapsed,file=$d/prof.collapsed \
    -cp ${JAR:-head.jar} org.lucenenvm.bench.BenchCli query \
    --config ${CFG:-nvm-uncompressed} --index-dir ${ROOT:?the kept compare work dir}/${IDX:-candidate-nvm-uncompressed} --docs 1000000 --tasks ${TASKS:-data/c1m.tasks} --out $d --nvm-pool-size 6g --field body \
    --query-threads 1 --queries-per-category 5000 --warmup-queries-per-category 1500 --top-k 10 --seed 1 --query-popularity uniform \
    --categories AndHighHigh > $d/stdout.log 2> $d/stderr.log
done
uptime > $out/load-after.txt
