#!/usr/bin/env bash
# Issue 10: LiveTailBenchmark (a 9,000-doc live tail on the first 30,000 docs of c200k, top 10) for several rows, the rows'
# order rotated per round, one fork per row, round and category.
# Usage: tail-rows.sh <out> <rounds> <categories: comma-separated, "all" = the mixed stream> <row>...
# A row is a benchmarks jar, optionally with one JVM flag for the forked JVM: <jar>[@-D<property>=<value>]; its files are
# <out>/r<round>-<category>-<jar name>[-<value>].{csv,txt,load-start.txt,load-end.txt}.
# This session ran it as tail-rows.sh jmh 3 TermLow,all base.jar leaflist.jar, as tail-rows.sh scorer-path/all-queries 3 all
# exp.jar@-Dlucenenvm.smallLeaf={0,16384,1048576} and scorer-path/disjunctions 3 all exp2.jar@-Dlucenenvm.smallLeaf={0,16384}
# (those two with an earlier form that named the files r<round>-<value>.csv and ran 5 s iterations), and for the header
# variant (README §4).
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=${1:?out}; R=${2:?rounds}; CATS=${3:?categories}; shift 3; ROWS=("$@"); rm -rf $O; mkdir -p $O
quiet; uptime > $O/load-before.txt
n=${#ROWS[@]}
for r in $(seq 1 $R); do
  for c in ${CATS//,/ }; do
    [ $c = all ] && cp="" || cp=$c
    for i in $(seq 0 $((n - 1))); do
      row=${ROWS[$(( (i + r - 1) % n ))]}; jar=${row%%@*}; flag=""; name=$(basename $jar .jar)
      if [ "$row" != "$jar" ]; then flag=${row#*@}; name=$name-${flag#*=}; fi
      f=$O/r$r-$c-$name
      uptime > $f.load-start.txt
      java --enable-native-access=ALL-UNNAMED -jar $jar jmh LiveTailBenchmark \
        -f 1 -wi 3 -w 4s -i 5 -r 4s -p tailDocs=9000 -p docs=30000 -p "category=$cp" -p corpus=/work/data/c200k.txt \
        -p tasks=/work/data/c200k.tasks -p poolCache=/dev/shm/tail-pools \
        -jvmArgs "-Xms2g -Xmx4g --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector $flag" \
        -rf csv -rff $f.csv > $f.txt 2>&1
      uptime > $f.load-end.txt
    done
  done
done
uptime > $O/load-after.txt
touch $O/done
