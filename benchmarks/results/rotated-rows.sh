# Sourced by the WRT experiment scripts that give every row a runner invocation of its own (one JVM, one warm-up
# pass) and rotate the rows' order by one per round (wrt-s14-segments/layouts.sh, wrt-1m-layout-s25/run.sh,
# wrt-1m-indexer-nice-s26/run.sh). The sourcing script sets O (output directory), ROUNDS, WORK (the runner's
# --work-dir, removed after each row) and the array SHARED (runner options of every row), and defines
# row_options <name>, which sets JAR, the array ARGS (the row's own options) and, optionally, CHILD_JVM (the
# row's child JVM options, default -Xms2g -Xmx8g); then it calls rotated_rows <row>... . Each row writes
# <O>/<name>-r<round>/ and beside it .stdout.txt, .stderr.txt (ending rc=<exit code>), .load-start.txt and
# .load-end.txt (uptime). The caller's directory must be the repository's root; BENCH_SH, when set, replaces
# scripts/bench.sh (a dry run with a stub shows the invocations).
rotated_rows() {
  local rows=("$@") r i name d
  for r in $(seq 1 "$ROUNDS"); do
    for i in $(seq 0 $((${#rows[@]} - 1))); do
      name=${rows[$(( (i + r - 1) % ${#rows[@]} ))]}
      d=$O/$name-r$r
      CHILD_JVM="-Xms2g -Xmx8g"
      row_options "$name"
      uptime > "$d.load-start.txt"
      BENCH_JAR=$JAR BENCH_JVM_OPTS="-Xms2g -Xmx8g" ${BENCH_SH:-scripts/bench.sh} run "${SHARED[@]}" --work-dir "$WORK" \
        "--child-jvm-opts=$CHILD_JVM" --out "$d" "${ARGS[@]}" > "$d.stdout.txt" 2> "$d.stderr.txt"
      echo "rc=$?" >> "$d.stdout.txt"
      uptime > "$d.load-end.txt"
      rm -rf "$WORK"
    done
  done
}
