#!/usr/bin/env bash
# One command per paper experiment this project can run: runs the benchmark, then puts the paper's
# figures (ratios) beside the measured ones in paper.md / paper.csv / paper-ratios.png.
#   scripts/reproduce.sh spirit-table1 [--docs N] [--queries N] [--out DIR] [--work-dir DIR] [--from DIR] [-- run options]
#   scripts/reproduce.sh spirit-fig2   [same options]   (--from OUT of a spirit-table1 run reuses its runs: seconds)
#   scripts/reproduce.sh chilukuri     [same options]   (query threads 1, 2, 4; --threads "1 2 4" changes them)
# Every configuration runs in its own JVM (scripts/bench.sh run), so none inherits another's JIT
# warm-up or garbage. Defaults: --docs 1000000 (the papers' 1 M), --queries 2000 timed queries per
# category, corpus data/repro-<docs>.{txt,tasks} (generated if missing), --out
# benchmarks/results/reproduce/<name>. JVM flags: BENCH_JVM_OPTS as for scripts/bench.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/scripts/bench.sh"
usage() { sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }
[ $# -ge 1 ] || usage
NAME="$1"; shift
case "$NAME" in
  spirit-table1|spirit-fig2|chilukuri) ;;
  -h|--help) usage 0 ;;
  *) echo "reproduce: unknown experiment '$NAME'; known: spirit-table1, spirit-fig2, chilukuri" >&2; exit 2 ;;
esac
DOCS=1000000 QUERIES=2000 OUT="" WORK=/dev/shm/lucene-nvm-bench/reproduce FROM="" THREADS="1 2 4" EXTRA=()
while [ $# -gt 0 ]; do
  case "$1" in
    --docs) DOCS="$2"; shift 2 ;;
    --queries) QUERIES="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --work-dir) WORK="$2"; shift 2 ;;
    --from) FROM="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --) shift; EXTRA=("$@"); break ;;
    -h|--help) usage 0 ;;
    *) echo "reproduce: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
OUT="${OUT:-$ROOT/benchmarks/results/reproduce/$NAME}"
mkdir -p "$OUT"
CONFIGS="lucene-dram lucene-nvm direct-heap nvm-uncompressed"
START=$(date +%s)
CSVS=""
add_csv() { CSVS="${CSVS:+$CSVS,}$1"; }

if [ -n "$FROM" ]; then
  # Reuse the runs of an earlier reproduce.sh output directory.
  for f in "$FROM"/*/results.csv; do
    [ -f "$f" ] || { echo "reproduce: no */results.csv under $FROM" >&2; exit 2; }
    run=$(basename "$(dirname "$f")")
    if [ "$NAME" = chilukuri ]; then add_csv "${run%%-*}=$f"; else add_csv "$f"; fi
  done
  CONTEXT="Measured ratios from the runs under $FROM (each run's table.txt has its size and load)."
else
  mkdir -p "$ROOT/data"
  CORPUS="$ROOT/data/repro-$DOCS.txt" TASKS="$ROOT/data/repro-$DOCS.tasks"
  if [ ! -s "$CORPUS" ] || [ ! -s "$TASKS" ]; then
    "$BENCH" generate --docs "$DOCS" --corpus "$CORPUS" --tasks "$TASKS"
  fi
  LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
  echo "reproduce $NAME: $DOCS docs, $QUERIES queries per category, load averages at start: $LOAD_START" >&2
  # SPIRIT's six workloads: L, M, H, LL, MM, HH.
  COMMON=(--corpus "$CORPUS" --tasks "$TASKS" --categories TermLow,TermMed,TermHigh,AndLowLow,AndMedMed,AndHighHigh
    --queries-per-category "$QUERIES" --work-dir "$WORK")
  run_one() { # run_one NAME run-options...: one JVM, results in $OUT/NAME
    local dir="$OUT/$1"; shift
    "$BENCH" run "${COMMON[@]}" --out "$dir" "$@" ${EXTRA[@]+"${EXTRA[@]}"}
  }
  case "$NAME" in
    spirit-table1|spirit-fig2)
      for c in $CONFIGS; do run_one "nc-$c" --modes nc --configs "$c"; add_csv "$OUT/nc-$c/results.csv"; done
      for k in 1 10 100 1000 inf; do run_one "wrt-nrt-$k" --modes wrt --nrt "$k" --rt none; add_csv "$OUT/wrt-nrt-$k/results.csv"; done
      for e in volatile-eager-lazy graceful-eager-lazy; do run_one "wrt-rt-$e" --modes wrt --nrt none --rt "$e"; add_csv "$OUT/wrt-rt-$e/results.csv"; done
      ;;
    chilukuri)
      for t in $THREADS; do
        for c in $CONFIGS; do run_one "t$t-$c" --modes nc --configs "$c" --query-threads "$t"; add_csv "t$t=$OUT/t$t-$c/results.csv"; done
      done
      ;;
  esac
  CONTEXT="$DOCS generated documents, $QUERIES timed queries per category, one JVM per configuration; load averages at the start: $LOAD_START, at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown); $(( $(date +%s) - START )) s. Command: scripts/reproduce.sh $NAME --docs $DOCS --queries $QUERIES$([ "$NAME" = chilukuri ] && echo " --threads \"$THREADS\"")${EXTRA[*]:+ -- ${EXTRA[*]}}"
fi
if [ "$NAME" != chilukuri ]; then
  # One latency/QPS chart set over all runs (the runs' own charts stay in their directories).
  "$BENCH" plot --csv "$CSVS" --out "$OUT"
fi
"$BENCH" paper --experiment "$NAME" --csv "$CSVS" --out "$OUT" --context "$CONTEXT"
echo "reproduce $NAME: $OUT/paper.md, paper.csv, paper-ratios.png ($(( $(date +%s) - START )) s)" >&2
