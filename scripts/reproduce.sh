#!/usr/bin/env bash
# One command per figure of the README's Performance table and per paper experiment.
#   scripts/reproduce.sh --list                       (the experiment names, one per line)
#   scripts/reproduce.sh <experiment> [--docs N] [--out DIR] [--work-dir DIR] [--wait-quiet] [options below]
# Each experiment writes into benchmarks/results/<experiment> (emptied first, its README.md kept; an
# --out DIR must be new or empty) and records there, in run.txt, the command, the commit, the
# machine, the JDK and `uptime` before and after. --wait-quiet first waits (at most 30 min) for a
# 1-minute load average below 0.5. The corpus is data/repro-<docs>.{txt,tasks}, generated if missing
# (scripts/bench.sh generate, seed 42). BENCH_JVM_OPTS replaces each experiment's heap flags.
#   postings-jmh   PostingsBenchmark forks of lucene-dram, nvm-uncompressed, lucene-nvm back to back, order
#                  rotated per round; ratios.txt (docs 200000; --rounds 3, --classes, --jmh "<JMH options>";
#                  --from DIR [--baseline SUFFIX] prints the ratios of the forks in DIR)
#   nc-1m          compare: nvm-uncompressed against lucene-dram, alternated query JVMs (docs 1000000; --jvms 10)
#   wrt-1m         WRT: the engine (crash-consistent) against NRT-1, NRT-1000, NRT-inf (docs 1000000; --rounds 3)
#   cache          result cache: at50/ (GDSF 208 KB, paired, both tiers; --rounds 6) and hit-rates/ (LRU and
#                  DLIRS at 5, 10, 20 % of the index) (docs 200000)
#   cache-server   the result cache through the HTTP server: scripts/server-load.sh with Zipf 1.0 queries typed
#                  as users type them (unqualified words over title and body), cache off, LRU and GDSF
#                  (--cache-size 64m), the order rotated per round (--rounds 3)
#   crash          scripts/killtest.sh: kill -9 at random points of each pipeline stage (--points 1000, --seed)
#   restart        one WRT run of the crash-consistent engine, then close and reopen (docs 1000000)
#   opensearch     scripts/opensearch.sh + scripts/opensearch-bench.sh: default+fs against nvm+nvm (docs 100000)
#   store-jmh      DirectoryReadBenchmark and DirectoryWriteBenchmark (--jmh "<JMH options>")
#   spirit-table1  SPIRIT Table 1: 11 runs, the paper's ratios beside ours (docs 1000000; --queries 2000)
#   spirit-fig2    SPIRIT Fig. 2 from the same runs (--from benchmarks/results/spirit-table1 reuses them)
#   chilukuri      Chilukuri's NC comparison at 1, 2 and 4 query threads (--threads "1 2 4")
#   zero-copy-merge  linked (zero-copy) against copying merges of the same NvmCodec segments on a pool: merge time,
#                  bytes written, query latency per class; the generated corpus and the real-text one (built by
#                  scripts/realtext-corpus.sh if missing), 6 segments of each of --sizes "20000 100000" documents
#                  (fewer if a corpus is shorter; --rounds 3)
#   soak           the server through HTTP, 2 writers + 2 searchers (scripts/server-load.sh soak): growth.txt, the
#                  default configuration for --duration (60m), a line per --window (5m), the pool growing to 2x its
#                  initial size; then flood.txt, a pool of --flood-pool-mb (64) MiB that does not grow filled to its flood stage (429),
#                  half its documents deleted, writes taken again; summary.txt has the checks (options after --
#                  go to both runs, e.g. -- --min-pool-growth 0 for a short smoke run)
#   Options after -- go to scripts/bench.sh run (spirit-table1, spirit-fig2, chilukuri, wrt-1m, restart, cache).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/scripts/bench.sh"
source "$ROOT/scripts/env.sh"
EXPERIMENTS="postings-jmh nc-1m wrt-1m cache cache-server crash restart opensearch store-jmh spirit-table1 spirit-fig2 chilukuri zero-copy-merge soak"
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}" >&2; exit "${1:-2}"; }
[ $# -ge 1 ] || usage
NAME="$1"; shift
case "$NAME" in
  --list) printf '%s\n' $EXPERIMENTS; exit 0 ;;
  -h|--help) usage 0 ;;
esac
case " $EXPERIMENTS " in
  *" $NAME "*) ;;
  *) echo "reproduce: unknown experiment '$NAME'; known (scripts/reproduce.sh --list): $EXPERIMENTS" >&2; exit 2 ;;
esac
COMMAND="scripts/reproduce.sh $NAME${*:+ $(printf '%q ' "$@")}"
COMMAND="${COMMAND% }"
DOCS="" QUERIES=2000 OUT="" WORK=/dev/shm/lucene-nvm-bench/reproduce FROM="" THREADS="1 2 4" EXTRA=()
SIZES="20000 100000" ROUNDS="" JVMS=10 POINTS=1000 SEED=20261124 WAIT_QUIET=0 BASELINE=lucene-dram JMH_OPTS="" DURATION=60m WINDOW=5m FLOOD_MB=64
CLASSES="termHighTop10 termMediumTop10 termLowTop10 andHighHighTop10 andHighMediumTop10 andHighLowTop10 orTop10 phraseTop10"
while [ $# -gt 0 ]; do
  case "$1" in
    --docs) DOCS="$2"; shift 2 ;;
    --queries) QUERIES="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --work-dir) WORK="$2"; shift 2 ;;
    --from) FROM="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --sizes) SIZES="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --jvms) JVMS="$2"; shift 2 ;;
    --points) POINTS="$2"; shift 2 ;;
    --seed) SEED="$2"; shift 2 ;;
    --classes) CLASSES="$2"; shift 2 ;;
    --baseline) BASELINE="$2"; shift 2 ;;
    --jmh) JMH_OPTS="$2"; shift 2 ;;
    --duration) DURATION="$2"; shift 2 ;;
    --window) WINDOW="$2"; shift 2 ;;
    --flood-pool-mb) FLOOD_MB="$2"; shift 2 ;;
    --wait-quiet) WAIT_QUIET=1; shift ;;
    --) shift; EXTRA=("$@"); break ;;
    -h|--help) usage 0 ;;
    *) echo "reproduce: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

# PostingsBenchmark ratios: per class and round, the baseline fork's mean µs/op (JMH's score) over each
# other configuration's; files are r<round>-<class>-<configuration>.txt, as the postings-jmh experiment writes.
jmh_ratios() { # jmh_ratios DIR BASELINE-SUFFIX
  local dir="$1" base="$2" f name rest round cls suffix score
  for f in "$dir"/r[0-9]*-*-*.txt; do
    [ -f "$f" ] || { echo "reproduce: no r<round>-<class>-<configuration>.txt files in $dir" >&2; exit 2; }
    name="${f##*/}"; name="${name%.txt}"; rest="${name#r}"
    round="${rest%%-*}"; rest="${rest#*-}"; cls="${rest%%-*}"; suffix="${rest#*-}"
    # JMH's summary line: Benchmark, params, Mode, [Cnt,] Score, [± Error,] Units (Cnt and Error only with 2+ iterations)
    score=$(awk -v b="PostingsBenchmark.$cls" '$1 == b { for (i = 2; i <= NF; i++) if ($i == "avgt") s = ($(i + 3) == "±") ? $(i + 2) : $(i + 1) }
      END { print s }' "$f")
    if [ -z "$score" ]; then echo "reproduce: no JMH score in $f (a failed fork?)" >&2; continue; fi
    echo "$suffix $cls $round $score"
  done | awk -v base="$base" '
    { score[$1, $2, $3] = $4; suffixes[$1]; classes[$2]; if ($3 > rounds) rounds = $3 }
    function sort(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t } }
    END {
      nc = 0; for (c in classes) cl[++nc] = c; sort(cl, nc)
      ns = 0; for (s in suffixes) if (s != base) sf[++ns] = s; sort(sf, ns)
      if (!(base in suffixes)) { print "no forks of the baseline " base > "/dev/stderr"; exit 2 }
      for (k = 1; k <= ns; k++) {
        cand = sf[k]
        printf "== %s / %s: mean us/op of each fork, ratio > 1 where %s is faster\n", base, cand, cand
        for (i = 1; i <= nc; i++) {
          n = 0; faster = 0; delete v
          for (r = 1; r <= rounds; r++) {
            if (!((base, cl[i], r) in score) || !((cand, cl[i], r) in score)) continue
            if (n == 0) print cl[i]
            b = score[base, cl[i], r]; c = score[cand, cl[i], r]; v[++n] = b / c; if (b / c > 1) faster++
            printf "   round %2d  %s %9.1f  %s %9.1f  ratio %.2f\n", r, base, b, cand, c, b / c
          }
          if (n == 0) continue
          sort(v, n); med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
          printf "   median ratio %.2f [%.2f–%.2f], %s faster in %d of %d rounds\n", med, v[1], v[n], cand, faster, n
        }
      }
    }'
}

if [ "$NAME" = postings-jmh ] && [ -n "$FROM" ]; then
  jmh_ratios "$FROM" "$BASELINE"
  exit
fi

case "$NAME" in
  postings-jmh|cache) DOCS="${DOCS:-200000}" ;;
  opensearch) DOCS="${DOCS:-100000}" ;;
  cache-server) DOCS="${DOCS:-300000}" ;;
  crash|store-jmh|soak) DOCS="" ;;
  zero-copy-merge) DOCS="${DOCS:-600000}" ;;
  *) DOCS="${DOCS:-1000000}" ;;
esac
if [ -z "$OUT" ]; then
  OUT="$ROOT/benchmarks/results/$NAME"
  # The experiment's own folder: its last outputs go (git keeps them), its README.md stays.
  if [ -z "$FROM" ] && [ -d "$OUT" ]; then
    find "$OUT" -mindepth 1 -maxdepth 1 ! -name README.md -exec rm -rf {} +
  fi
elif [ -z "$FROM" ] && [ -d "$OUT" ] && [ -n "$(ls -A "$OUT")" ]; then
  echo "reproduce: --out $OUT is not empty; give a new or empty folder" >&2; exit 2
fi
mkdir -p "$OUT" "$WORK"
START=$(date +%s)

# The record a measurement needs beside its figures: command, commit, machine, JDK, load before and after.
record_start() {
  local commit cpu mem
  commit="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  # The experiment's own folder is left out: its last outputs were just deleted, on purpose.
  if [ "$commit" != unknown ] && [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no -- . ":(exclude)$OUT" 2>/dev/null)" ]; then
    commit="$commit, with uncommitted changes"
  fi
  cpu="$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown)"
  mem="$(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null || echo unknown)"
  nvm_find_jdk
  {
    echo "command: $COMMAND"
    echo "commit: $commit"
    echo "machine: ${cpu:-unknown}, $(nproc) CPUs, $mem RAM"
    echo "jdk: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)"
    if [ -n "$DOCS" ]; then echo "docs: $DOCS"; fi
    echo "started: $(date -u +%Y-%m-%dT%H:%M:%SZ), uptime: $(uptime)"
  } > "$OUT/run.txt"
}
record_end() { # record_end EXIT-STATUS
  echo "ended: $(date -u +%Y-%m-%dT%H:%M:%SZ), uptime: $(uptime), exit status $1, $(( $(date +%s) - START )) s" >> "$OUT/run.txt"
}
corpus() { # sets CORPUS and TASKS for $DOCS documents
  mkdir -p "$ROOT/data"
  CORPUS="$ROOT/data/repro-$DOCS.txt" TASKS="$ROOT/data/repro-$DOCS.tasks"
  if [ ! -s "$CORPUS" ] || [ ! -s "$TASKS" ]; then
    "$BENCH" generate --docs "$DOCS" --corpus "$CORPUS" --tasks "$TASKS"
  fi
}
pool_mb() { # pool_mb BYTES-PER-DOC: a pool for $DOCS documents, at least 512 MiB (the engine's ingest log takes 128)
  local mb=$(( DOCS * $1 / 1048576 ))
  [ "$mb" -ge 512 ] || mb=512
  echo "${mb}m"
}

if [ -z "$FROM" ]; then
  case "$NAME" in
    nc-1m|wrt-1m|cache|restart|spirit-table1|spirit-fig2|chilukuri|zero-copy-merge) corpus ;;
  esac
  if [ "$WAIT_QUIET" = 1 ]; then nvm_wait_quiet 0.5 1800; fi
  record_start
fi
RC=0
case "$NAME" in
  postings-jmh)
    export BENCH_JVM_OPTS="${BENCH_JVM_OPTS:--Xmx2g}"
    configs=(lucene-dram nvm-uncompressed lucene-nvm)
    n=${#configs[@]}
    for cfg in "${configs[@]}"; do # builds the index outside the timed forks
      "$BENCH" jmh 'PostingsBenchmark.termLowTop10$' -p config="$cfg" -p numDocs="$DOCS" -f 1 -wi 0 -i 1 -r 1 \
        -jvmArgsAppend "-Dbench.tmpfs=$WORK" > "$OUT/index-$cfg.txt" 2>&1
    done
    for r in $(seq 1 "${ROUNDS:-3}"); do
      for c in $CLASSES; do
        for k in $(seq 0 $((n - 1))); do
          cfg=${configs[$(( (k + r) % n ))]}
          # shellcheck disable=SC2086 # JMH_OPTS is a list of options
          "$BENCH" jmh "PostingsBenchmark.$c\$" -p config="$cfg" -p numDocs="$DOCS" -f 1 ${JMH_OPTS:--wi 3 -w 2 -i 4 -r 2} \
            -jvmArgsAppend "-Dbench.tmpfs=$WORK" > "$OUT/r$r-$c-$cfg.txt" 2>&1 || RC=$?
        done
      done
    done
    jmh_ratios "$OUT" lucene-dram > "$OUT/ratios.txt" || RC=$?
    ;;
  nc-1m)
    BENCH_JVM_OPTS="${BENCH_JVM_OPTS:--Xms1g -Xmx4g}" "$BENCH" compare --baseline lucene-dram --candidate nvm-uncompressed \
      --jvms "$JVMS" --corpus "$CORPUS" --tasks "$TASKS" --nvm-pool-size "$(pool_mb 6442)" --work-dir "$WORK/nc-1m" \
      --out "$OUT" || RC=$?
    ;;
  wrt-1m)
    BENCH_JVM_OPTS="${BENCH_JVM_OPTS:--Xms2g -Xmx8g}" "$BENCH" run --corpus "$CORPUS" --tasks "$TASKS" --modes wrt \
      --nrt 1,1000,inf --rt crash-eager-lazy --forks "${ROUNDS:-3}" --warmup-runs 1 --warmup-docs $((DOCS / 5)) \
      --work-dir "$WORK/wrt-1m" --nvm-pool-size "$(pool_mb 6442)" --out "$OUT" ${EXTRA[@]+"${EXTRA[@]}"} || RC=$?
    ;;
  cache)
    cache_run() { # cache_run FOLDER FORKS ROWS
      "$BENCH" run --corpus "$CORPUS" --tasks "$TASKS" --modes wrt --nrt none --rt graceful-eager-lazy \
        --query-popularity zipf:1.0 --forks "$2" --warmup-runs 1 --rt-cache "$3" "--child-jvm-opts=${BENCH_JVM_OPTS:--Xms2g -Xmx8g}" \
        --work-dir "$WORK/cache" --nvm-pool-size "$(pool_mb 16106)" --out "$OUT/$1" ${EXTRA[@]+"${EXTRA[@]}"}
    }
    cache_run at50 "${ROUNDS:-6}" dram-gdsf-208k-paired,nvm-gdsf-208k-paired || RC=$?
    cache_run hit-rates 1 off,dram-lru-5500k,dram-dlirs-5500k,nvm-lru-5500k,nvm-dlirs-5500k,dram-lru-11m,dram-dlirs-11m,dram-lru-22m,dram-dlirs-22m || RC=$?
    # Each JVM's paired speed-up (cached against uncached time of the same timed queries) and hit P50.
    for f in "$OUT"/at50/run*/engine.csv; do
      [ -f "$f" ] && awk -F, -v f="${f#"$OUT"/}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { printf "%-28s %-55s hit rate %.3f  speed-up %.3f  hit P50 %s us\n", f, $1, $c["paired_hits"] / $c["paired_queries"], $c["paired_speedup"], $c["cache_hit_p50_us"] }' "$f"
    done > "$OUT/speedup.txt"
    ;;
  cache-server)
    orders=(off,lru,gdsf gdsf,off,lru lru,gdsf,off)
    for r in $(seq 1 "${ROUNDS:-3}"); do
      "$ROOT/scripts/server-load.sh" --docs "$DOCS" --caches "${orders[$(( (r - 1) % 3 ))]}" --cache-size 64m --zipf 1.0 \
        ${EXTRA[@]+"${EXTRA[@]}"} > "$OUT/round$r.txt" 2> "$OUT/round$r.log" || RC=$?
    done
    grep -H -E "^(http|direct) +cache" "$OUT"/round*.txt > "$OUT/summary.txt" || true
    ;;
  crash)
    "$ROOT/scripts/killtest.sh" --points "$POINTS" --seed "$SEED" --work-dir "$WORK/crash" \
      --out "$OUT/killtest-$POINTS.csv" > "$OUT/killtest-$POINTS.log" 2>&1 || RC=$?
    tail -1 "$OUT/killtest-$POINTS.log" >&2
    ;;
  restart)
    BENCH_JVM_OPTS="${BENCH_JVM_OPTS:--Xms2g -Xmx8g}" "$BENCH" run --corpus "$CORPUS" --tasks "$TASKS" --modes wrt \
      --nrt none --rt crash-eager-lazy --work-dir "$WORK/restart" --nvm-pool-size "$(pool_mb 8590)" --out "$OUT" \
      ${EXTRA[@]+"${EXTRA[@]}"} > "$OUT/stdout.txt" 2> "$OUT/stderr.txt" || RC=$?
    [ -f "$OUT/engine.csv" ] && awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      { printf "%s: close %s ms, reopen %s ms, %s documents after the reopen\n", $1, $c["close_ms"], $c["reopen_ms"], $c["reopened_docs"] }' \
      "$OUT/engine.csv" >&2
    ;;
  opensearch)
    trap '"$ROOT/scripts/opensearch.sh" stop >/dev/null 2>&1 || true' EXIT
    "$ROOT/scripts/opensearch.sh" --heap 2g > "$OUT/node-start.txt" 2>&1 || RC=$?
    if [ "$RC" = 0 ]; then
      BENCH_DOCS="$DOCS" "$ROOT/scripts/opensearch-bench.sh" --docs "$DOCS" --queries 300 --warmup 100 --rounds 3 \
        --pool-size 1gb --out "$OUT/results.csv" > "$OUT/bench-stdout.txt" 2> "$OUT/bench-stderr.txt" || RC=$?
    fi
    ;;
  zero-copy-merge)
    REAL="$ROOT/data/realtext"
    [ -s "$REAL/realtext.txt" ] && [ -s "$REAL/realtext.tasks" ] || "$ROOT/scripts/realtext-corpus.sh" > "$OUT/realtext-build.txt" 2>&1 || RC=$?
    for workload in "generated:$CORPUS:$TASKS" "realtext:$REAL/realtext.txt:$REAL/realtext.tasks"; do
      IFS=: read -r wname wcorpus wtasks <<< "$workload"
      available=$(grep -vc '^FIELDS_HEADER_INDICATOR###' "$wcorpus" || true)
      for size in $SIZES; do
        segments=$(( available / size )); [ "$segments" -le 6 ] || segments=6
        if [ "$segments" -lt 2 ]; then echo "$wname: fewer than 2 segments of $size documents in $wcorpus, skipped" >> "$OUT/skipped.txt"; continue; fi
        BENCH_JVM_OPTS="${BENCH_JVM_OPTS:--Xms2g -Xmx4g}" "$BENCH" merge --corpus "$wcorpus" --tasks "$wtasks" --segment-docs "$size" \
          --segments "$segments" --rounds "${ROUNDS:-3}" --work-dir "$WORK/zero-copy-merge" --out "$OUT/$wname-$size.csv" \
          > "$OUT/$wname-$size.txt" 2> "$OUT/$wname-$size.log" || RC=$?
      done
    done
    cat "$OUT"/*-[0-9]*.txt > "$OUT/summary.txt" 2>/dev/null || true
    ;;
  soak)
    "$ROOT/scripts/server-load.sh" soak --run growth --duration "$DURATION" --window "$WINDOW" ${EXTRA[@]+"${EXTRA[@]}"} \
      > "$OUT/growth.txt" 2> "$OUT/growth.log" || RC=$?
    "$ROOT/scripts/server-load.sh" soak --run flood --window 1m ${EXTRA[@]+"${EXTRA[@]}"} \
      -- --pool-size "${FLOOD_MB}m" --pool-max-size 0 --log-size "$(( FLOOD_MB * 1024 / 8 ))k" > "$OUT/flood.txt" 2> "$OUT/flood.log" || RC=$?
    grep -H -E "^(end|check|RESULT)" "$OUT/growth.txt" "$OUT/flood.txt" > "$OUT/summary.txt" || true
    ;;
  store-jmh)
    # shellcheck disable=SC2086 # JMH_OPTS is a list of options
    "$BENCH" jmh DirectoryReadBenchmark $JMH_OPTS -rf json -rff "$OUT/read.json" > "$OUT/read.txt" 2>&1 || RC=$?
    # shellcheck disable=SC2086
    "$BENCH" jmh DirectoryWriteBenchmark $JMH_OPTS -rf json -rff "$OUT/write.json" > "$OUT/write.txt" 2>&1 || RC=$?
    ;;
  spirit-table1|spirit-fig2|chilukuri)
    CSVS=""
    add_csv() { CSVS="${CSVS:+$CSVS,}$1"; }
    CONFIGS="lucene-dram lucene-nvm direct-heap nvm-uncompressed"
    if [ -n "$FROM" ]; then
      # Reuse the runs of an earlier reproduce.sh output directory.
      for f in "$FROM"/*/results.csv; do
        [ -f "$f" ] || { echo "reproduce: no */results.csv under $FROM" >&2; exit 2; }
        run=$(basename "$(dirname "$f")")
        if [ "$NAME" = chilukuri ]; then add_csv "${run%%-*}=$f"; else add_csv "$f"; fi
      done
      CONTEXT="Measured ratios from the runs under $FROM (each run's table.txt has its size and load)."
    else
      # SPIRIT's six workloads: L, M, H, LL, MM, HH.
      COMMON=(--corpus "$CORPUS" --tasks "$TASKS" --categories TermLow,TermMed,TermHigh,AndLowLow,AndMedMed,AndHighHigh
        --queries-per-category "$QUERIES" --work-dir "$WORK")
      run_one() { # run_one NAME run-options...: one JVM, results in $OUT/NAME
        local dir="$OUT/$1"; shift
        "$BENCH" run "${COMMON[@]}" --out "$dir" "$@" ${EXTRA[@]+"${EXTRA[@]}"}
      }
      if [ "$NAME" = chilukuri ]; then
        for t in $THREADS; do
          for c in $CONFIGS; do run_one "t$t-$c" --modes nc --configs "$c" --query-threads "$t"; add_csv "t$t=$OUT/t$t-$c/results.csv"; done
        done
      else
        for c in $CONFIGS; do run_one "nc-$c" --modes nc --configs "$c"; add_csv "$OUT/nc-$c/results.csv"; done
        for k in 1 10 100 1000 inf; do run_one "wrt-nrt-$k" --modes wrt --nrt "$k" --rt none; add_csv "$OUT/wrt-nrt-$k/results.csv"; done
        for e in volatile-eager-lazy graceful-eager-lazy; do run_one "wrt-rt-$e" --modes wrt --nrt none --rt "$e"; add_csv "$OUT/wrt-rt-$e/results.csv"; done
      fi
      # Plain assignments only: under set -e a command substitution that fails inside an assignment
      # ends the script (a `[ ... ] && echo` that is false did, after the last run, before paper.md).
      CONTEXT="$DOCS generated documents, $QUERIES timed queries per category, one JVM per configuration; load averages at the start and end in run.txt. Command: $COMMAND"
    fi
    if [ "$NAME" != chilukuri ]; then
      # One latency/QPS chart set over all runs (the runs' own charts stay in their directories).
      "$BENCH" plot --csv "$CSVS" --out "$OUT"
    fi
    "$BENCH" paper --experiment "$NAME" --csv "$CSVS" --out "$OUT" --context "$CONTEXT"
    echo "reproduce $NAME: $OUT/paper.md, paper.csv, paper-ratios.png" >&2
    ;;
esac
if [ -z "$FROM" ]; then record_end "$RC"; fi
echo "reproduce $NAME: outputs in $OUT (exit status $RC)" >&2
exit "$RC"
