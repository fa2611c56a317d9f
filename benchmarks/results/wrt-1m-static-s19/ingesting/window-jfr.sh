#!/usr/bin/env bash
# Issue 10: JFR (profile settings) of one WRT JVM on 1 M documents during its timed window only: started with jcmd when
# the ingest passes 800,000 of 1,000,000 documents (the runner's default --warmup-share 0.8), stopped at 100 %.
# Usage: window-jfr.sh <out> <nrt|rt>
set -u
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
source /work/main/scripts/env.sh
O=${1:?out}; ROW=${2:?row}; mkdir -p $O
if [ $ROW = nrt ]; then args="--nrt inf --rt none"; else args="--nrt none --rt crash-eager-lazy"; fi
nvm_wait_quiet 0.5 1800; uptime > $O/$ROW.load-before.txt
cd /work/main
BENCH_JAR=/work/exp/s18/base.jar BENCH_JVM_OPTS="-Xms2g -Xmx8g" scripts/bench.sh run --corpus /work/data/c1m.txt --tasks /work/data/c1m.tasks \
  --modes wrt $args --forks 1 --warmup-runs 1 --warmup-docs 200000 \
  --work-dir /dev/shm/wjfr --nvm-pool-size 6g --out $O/$ROW > $O/$ROW.stdout.txt 2> $O/$ROW.stderr.txt &
RUN=$!
started=0
while kill -0 $RUN 2>/dev/null; do
  pid=$(pgrep -f "BenchCli run --out $O/$ROW/" | head -1)
  log=$(ls $O/$ROW/run1/jvms/*/stderr.log 2>/dev/null | head -1)
  if [ -n "$pid" ] && [ -n "$log" ]; then
    last=$(grep -o '[0-9,]*/1,000,000 docs' "$log" | tail -1 | cut -d/ -f1 | tr -d ,)
    if [ $started = 0 ] && [ -n "$last" ] && [ "$last" -ge 800000 ]; then
      jcmd $pid JFR.start name=window settings=profile filename=$O/$ROW.jfr > $O/$ROW.jcmd.txt 2>&1; started=1; date -u +%T >> $O/$ROW.jcmd.txt
      echo "start at $last" >> $O/$ROW.jcmd.txt
    elif [ $started = 1 ] && [ -n "$last" ] && [ "$last" -ge 1000000 ]; then
      jcmd $pid JFR.stop name=window >> $O/$ROW.jcmd.txt 2>&1; started=2; date -u +%T >> $O/$ROW.jcmd.txt
    fi
  fi
  sleep 1
done
wait $RUN; echo "rc=$?" >> $O/$ROW.stdout.txt
uptime > $O/$ROW.load-after.txt
rm -rf /dev/shm/wjfr
