#!/bin/bash
# paired PostingsBenchmark forks over jar:config specs, order rotated per round. Usage: pbn.sh <out> <rounds> "<classes>" <cfg:jar>...
# The jars are ${JARDIR}/<label>.jar; each label gets its own index folder /dev/shm/pb-<label> (build it with one short fork first).
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
O=$1; R=$2; CLASSES=($3); shift 3; SPECS=("$@"); n=${#SPECS[@]}
mkdir -p $O; uptime > $O/load-before.txt
for r in $(seq 1 $R); do
  for c in "${CLASSES[@]}"; do
    for k in $(seq 0 $((n-1))); do
      spec=${SPECS[$(( (k + r) % n ))]}; IFS=: read cfg jar <<< "$spec"
      java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xmx2g \
        -jar ${JARDIR:?directory of the <label>.jar files}/$jar.jar jmh "PostingsBenchmark.$c\$" -p config=$cfg -f 1 -wi 3 -w 2 -i 4 -r 2 \
        -jvmArgsAppend -Dbench.tmpfs=/dev/shm/pb-$jar > $O/r$r-$c-$cfg-$jar.txt 2>&1
    done
  done
done
uptime > $O/load-after.txt
touch $O/done
