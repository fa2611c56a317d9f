#!/usr/bin/env bash
# Issue 13, session 27: one cache row with two or more jars, one JVM each per round, the jars' order reversed
# every other round; each JVM is a row.sh run of its own (<out>/<name>-r<round>), back to back after one wait
# for a quiet host.
#   ab.sh <out> <rounds> <row> <name>=<jar>...
set -u
O=${1:?out}; R=${2:?rounds}; ROW=${3:?row}; shift 3
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p $O
source /work/main/scripts/env.sh
nvm_wait_quiet 0.5 1800; uptime > $O/load-before.txt
for r in $(seq 1 $R); do
  if (( r % 2 )); then ORDER="$*"; else ORDER=$(printf '%s\n' "$@" | tac | tr '\n' ' '); fi
  for nj in $ORDER; do
    NO_WAIT=1 $HERE/row.sh $O/${nj%%=*}-r$r ${nj#*=} $ROW
  done
done
uptime > $O/load-after.txt
touch $O/done
