#!/usr/bin/env bash
# The kill -9 loop of crash-consistent mode: a child JVM ingests adds, updates and
# deletes through the engine on a pool file; this kills it with SIGKILL at N random points aimed
# at each pipeline stage, reopens the pool after each and checks that exactly the acknowledged
# operations (or those plus the one in flight) are there.
# Usage: scripts/killtest.sh [--points N] [--seed S] [--work-dir DIR] [--out FILE.csv]
# Writes one CSV row per kill point (default benchmarks/results/crash/killtest-<points>.csv) and
# prints a summary (points held, stage distribution). Exit status 0 when every point held.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

points=1000
seed=$RANDOM$RANDOM
work_dir=""
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --points) points="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --work-dir) work_dir="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) nvm_die "unknown option $1 (see --help)" ;;
  esac
done
[ -n "$work_dir" ] || work_dir="$(mktemp -d "${TMPDIR:-/tmp}/lucene-nvm-killtest-XXXXXX")"
[ -n "$out" ] || out="$NVM_ROOT/benchmarks/results/crash/killtest-$points.csv"

nvm_find_jdk
nvm_find_maven
cd "$NVM_ROOT"
echo "lucene-nvm: building search-server and its tests..." >&2
"${NVM_MVN[@]}" -q -pl search-server -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test >&2
cp="search-server/target/test-classes:search-server/target/classes:$(cat search-server/target/test.classpath)"
mkdir -p "$(dirname "$out")"
echo "lucene-nvm: $points kill points, seed $seed, pool in $work_dir, results in $out" >&2
exec "$JAVA_HOME/bin/java" "${NVM_JAVA_FLAGS[@]}" -Xmx1g -cp "$cp" \
  org.lucenenvm.realtime.KillLoop "$points" "$seed" "$work_dir" "$out"
