#!/bin/bash
# profc.sh <out> <category> <config:mode:label[:window]>... : one Ceiling JVM per spec under async-profiler (cpu, 1 ms)
out=$1; cat=$2; shift 2
root=${ROOT:?directory of the kept indexes (compare --keep-indexes --work-dir)}; jar=${JAR:?benchmarks.jar}; cls=${CLS:?directory of the compiled Ceiling classes}
AP=${ASYNC_LIB:?path to libasyncProfiler.so}
J=${JAVA_HOME:?a JDK 25}/bin/java
mkdir -p $out; uptime > $out/load-before.txt
for spec in "$@"; do
  IFS=: read config mode label window <<< "$spec"
  if [ $config = lucene-dram ]; then idx=$root/baseline-lucene-dram; else idx=$root/candidate-nvm-uncompressed; fi
  d=$out/$label; mkdir -p $d
  $J --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -Xms4g -Xmx4g -XX:+AlwaysPreTouch ${window:+-Doracle.window=$window} -Dtasks=${TASKS:?the .tasks file} \
    -agentpath:$AP=start,event=cpu,interval=1ms,collapsed,file=$d/prof.collapsed -cp $cls:$jar \
    org.lucenenvm.bench.Ceiling $config $idx $mode $d ${WN:-3000} ${QN:-50000} $cat > $d/stdout.log 2> $d/stderr.log
done
uptime > $out/load-after.txt
