#!/usr/bin/env bash
# One command per paper experiment this project can run: runs the benchmark, then puts the paper's
# figures (ratios) beside the measured ones in paper.md / paper.csv / paper-ratios.png.
#   scripts/reproduce.sh spirit-table1 [--docs N] [--queries N] [--out DIR] [--work-dir DIR] [--csv results.csv] [-- run options]
#   scripts/reproduce.sh spirit-fig2   [same options]   (--csv DIR/results.csv of a spirit-table1 run skips the run)
#   scripts/reproduce.sh chilukuri     [same options]   (query threads 1, 2, 4; --threads "1 2 4" changes them;
#                                                     --csv t1=A.csv,t2=B.csv,t4=C.csv skips the runs)
# Defaults: --docs 1000000 (the papers' 1 M), --queries 2000 timed queries per category, corpus
# data/repro-<docs>.{txt,tasks} (generated if missing), --out benchmarks/results/reproduce/<name>.
# JVM flags: BENCH_JVM_OPTS as for scripts/bench.sh.
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
DOCS=1000000 QUERIES=2000 OUT="" WORK=/dev/shm/lucene-nvm-bench/reproduce CSV="" THREADS="1 2 4" EXTRA=()
while [ $# -gt 0 ]; do
  case "$1" in
    --docs) DOCS="$2"; shift 2 ;;
    --queries) QUERIES="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --work-dir) WORK="$2"; shift 2 ;;
    --csv) CSV="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --) shift; EXTRA=("$@"); break ;;
    -h|--help) usage 0 ;;
    *) echo "reproduce: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
OUT="${OUT:-$ROOT/benchmarks/results/reproduce/$NAME}"
mkdir -p "$OUT" "$ROOT/data"
# SPIRIT's six workloads: L, M, H, LL, MM, HH.
SIX=TermLow,TermMed,TermHigh,AndLowLow,AndMedMed,AndHighHigh
CORPUS="$ROOT/data/repro-$DOCS.txt" TASKS="$ROOT/data/repro-$DOCS.tasks"
if [ -z "$CSV" ] && { [ ! -s "$CORPUS" ] || [ ! -s "$TASKS" ]; }; then
  "$BENCH" generate --docs "$DOCS" --corpus "$CORPUS" --tasks "$TASKS"
fi
START=$(date +%s)
echo "reproduce $NAME: $DOCS docs, $QUERIES queries per category, load averages at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)" >&2
COMMON=(--corpus "$CORPUS" --tasks "$TASKS" --categories "$SIX" --queries-per-category "$QUERIES" --work-dir "$WORK")
CONFIGS=lucene-dram,lucene-nvm,direct-heap,nvm-uncompressed
case "$NAME" in
  spirit-table1|spirit-fig2)
    if [ -z "$CSV" ]; then
      "$BENCH" run "${COMMON[@]}" --out "$OUT" --modes nc,wrt --configs "$CONFIGS" \
        --nrt 1,10,100,1000,inf --rt volatile-eager-lazy,graceful-eager-lazy ${EXTRA[@]+"${EXTRA[@]}"}
      CSV="$OUT/results.csv"
    fi
    CSVS="$CSV"
    ;;
  chilukuri)
    CSVS="$CSV"
    if [ -z "$CSV" ]; then
      for t in $THREADS; do
        "$BENCH" run "${COMMON[@]}" --out "$OUT/t$t" --modes nc --configs "$CONFIGS" --query-threads "$t" ${EXTRA[@]+"${EXTRA[@]}"}
        CSVS="${CSVS:+$CSVS,}t$t=$OUT/t$t/results.csv"
      done
    fi
    ;;
esac
"$BENCH" paper --experiment "$NAME" --csv "$CSVS" --out "$OUT" \
  --context "$DOCS generated documents, $QUERIES timed queries per category; load averages at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown); $(( $(date +%s) - START )) s. Command: scripts/reproduce.sh $NAME --docs $DOCS --queries $QUERIES${EXTRA[*]:+ -- ${EXTRA[*]}}"
echo "reproduce $NAME: $OUT/paper.md, paper.csv, paper-ratios.png ($(( $(date +%s) - START )) s)" >&2
