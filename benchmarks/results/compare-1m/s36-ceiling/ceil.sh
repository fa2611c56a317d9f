#!/bin/bash
# ceil.sh <out> <rounds> <categories> <config:mode:label>... : alternated query JVMs of Ceiling on the kept indexes under $ROOT
out=$1; rounds=$2; cats=$3; shift 3
root=${ROOT:?directory of the kept indexes (compare --keep-indexes --work-dir)}; jar=${JAR:?benchmarks.jar}; cls=${CLS:?directory of the compiled Ceiling classes}
J=${JAVA_HOME:?a JDK 25}/bin/java
mkdir -p $out; uptime > $out/load-before.txt
for r in $(seq 1 $rounds); do
  for spec in "$@"; do
    IFS=: read config mode label window <<< "$spec"
    if [ $config = lucene-dram ]; then idx=$root/baseline-lucene-dram; else idx=$root/candidate-nvm-uncompressed; fi
    d=$out/$label-$r; mkdir -p $d
    $J --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -Xms4g -Xmx4g -XX:+AlwaysPreTouch ${window:+-Doracle.window=$window} -Dtasks=${TASKS:?the .tasks file} -cp $cls:$jar \
      org.lucenenvm.bench.Ceiling $config $idx $mode $d ${WN:-1500} ${QN:-5000} $cats > $d/stdout.log 2> $d/stderr.log
    uptime >> $out/loads.txt
  done
done
uptime > $out/load-after.txt
touch $out/done
