#!/bin/bash
# ab.sh <out> <rounds> <category> <jar:config:label>...  : alternated query JVMs on the kept /dev/shm/prof indexes
out=$1; rounds=$2; cat=$3; shift 3
mkdir -p $out; uptime > $out/load-before.txt
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for r in $(seq 1 $rounds); do
  for spec in "$@"; do
    IFS=: read jar config label root <<< "$spec"; root=${root:-${ROOT:-/dev/shm/prof}}
    if [ $config = lucene-dram ]; then idx=$root/baseline-lucene-dram; else idx=$root/candidate-nvm-uncompressed; fi
    d=$out/$label-$r; mkdir -p $d
    $J --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -Xms1g -Xmx4g ${JOPTS} -cp $jar org.lucenenvm.bench.BenchCli query \
      --config $config --index-dir $idx --docs 1000000 --tasks ${TASKS:-/work/data/c1m.tasks} --out $d --nvm-pool-size 6g --field body \
      --query-threads 1 --queries-per-category ${QN:-20000} --warmup-queries-per-category ${WN:-5000} --top-k 10 --seed 1 --query-popularity uniform \
      ${cat:+--categories $cat} > $d/stdout.log 2> $d/stderr.log
  done
done
uptime > $out/load-after.txt
touch $out/done
