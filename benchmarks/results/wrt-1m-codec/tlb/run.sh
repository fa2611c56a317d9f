#!/usr/bin/env bash
# Issue 10: TLB shootdowns and page faults during the 1 M WRT run, NRT-inf then engine, one JVM each; /proc sampled every 2 s.
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/main
quiet() { while :; do l=$(cut -d' ' -f1 /proc/loadavg); awk -v l=$l 'BEGIN{exit !(l<0.5)}' && break; sleep 10; done; }
O=/work/notes/s9/tlb1m; rm -rf $O; mkdir -p $O; quiet; { date -u +%FT%TZ; uptime; } > $O/load-before.txt
( while [ ! -f $O/done ]; do echo "$(date -u +%s) $(awk '/TLB/{print $2+$3}' /proc/interrupts) $(awk '/CAL/{print $2+$3}' /proc/interrupts) $(awk '/^pgfault /{print $2}' /proc/vmstat)"; sleep 2; done ) > $O/proc.txt &
BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c1m.txt --tasks /work/data/c1m.tasks \
  --modes wrt --nrt inf --rt crash-eager-lazy --forks 1 --warmup-runs 1 --warmup-docs 200000 \
  --work-dir /dev/shm/tlb1m --nvm-pool-size 6g --out $O > $O/run.log 2>&1
{ date -u +%FT%TZ; uptime; } > $O/load-after.txt
rm -rf /dev/shm/tlb1m
touch $O/done
