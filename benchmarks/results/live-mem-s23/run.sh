#!/usr/bin/env bash
# Issue 10, session 23: the 1,966 B/doc live layout (new) against session 22's (base), one JVM per jar and round,
# the jars alternated: LiveTailBenchmark on the live segment alone (queries), then WRT on 200 K (ingest and QPS).
# Usage: run.sh <base jar> <new jar>   (writes jmh/ and wrt/ here)
set -u
H=$(cd "$(dirname "$0")" && pwd)
BASE=${1:?base jar}; NEW=${2:?new jar}
DOCS=0 "$H/../live-enum-s20/lt-ab.sh" "$H/jmh" 3 "$BASE" "$NEW"
"$H/../live-impacts-s19/wrt-ab.sh" "$H/wrt" 3 "$BASE" "$NEW" new
