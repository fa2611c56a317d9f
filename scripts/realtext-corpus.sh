#!/usr/bin/env bash
# Builds the short-document real-text corpus (benchmarks/README.md, "Real-text corpus") from the documentation of the
# Debian 12 packages pinned in scripts/realtext-packages.txt:
#   scripts/realtext-corpus.sh [--out data/realtext] [--packages scripts/realtext-packages.txt] [--seed 1] [--task-seed 42]
#                              [--tasks-per-category 500] [--keep-src]
# 1. `apt-get download <package>=<version>` of every pinned package into <out>/debs (a .deb already there with the pinned
#    sha256 is reused); a downloaded .deb whose sha256 differs from the pin is an error.
# 2. `dpkg-deb -x` of each into <out>/src/<package> (deleted at the end unless --keep-src).
# 3. `benchmarks realtext`: paragraphs of the manual pages, HTML, POD and plain-text documents, split into documents of
#    5-60 words (StandardAnalyzer tokens), deduplicated, shuffled (--seed) -> <out>/realtext.txt (luceneutil line docs).
# 4. `benchmarks tasks`: term classes from the corpus's own document frequencies (--task-seed) -> <out>/realtext.tasks.
# Also written: <out>/manifest.tsv (package, version, sha256, file), <out>/summary.txt (the corpus's figures),
# <out>/sha256.txt (of the corpus and tasks: the same manifest gives the same bytes) and <out>/build.txt (command, commit).
# The JVM gets BENCH_JVM_OPTS (default -Xmx4g).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/data/realtext"
PACKAGES="$ROOT/scripts/realtext-packages.txt"
SEED=1
TASK_SEED=42
TASKS_PER_CATEGORY=500
KEEP_SRC=0
COMMAND="$0 $*"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT="$2"; shift 2 ;;
    --packages) PACKAGES="$2"; shift 2 ;;
    --seed) SEED="$2"; shift 2 ;;
    --task-seed) TASK_SEED="$2"; shift 2 ;;
    --tasks-per-category) TASKS_PER_CATEGORY="$2"; shift 2 ;;
    --keep-src) KEEP_SRC=1; shift ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) nvm_die "realtext-corpus.sh: unknown option '$1' (see --help)" ;;
  esac
done
[ -r "$PACKAGES" ] || nvm_die "realtext-corpus.sh: package list $PACKAGES not readable"
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || nvm_die "realtext-corpus.sh: needs apt-get and dpkg-deb (a Debian host)"
mkdir -p "$OUT/debs"
OUT="$(cd "$OUT" && pwd)"

# The .deb of $1=$2 in $OUT/debs with sha256 $3, downloaded unless already there; prints its path.
fetch_deb() {
  local pkg=$1 version=$2 sha=$3 pattern file actual
  pattern="$OUT/debs/${pkg}_${version//:/%3a}_*.deb"
  file=$(compgen -G "$pattern" | head -1 || true)
  if [ -z "$file" ] || [ "$(sha256sum "$file" | cut -d' ' -f1)" != "$sha" ]; then
    [ -z "$file" ] || rm -f "$file"
    (cd "$OUT/debs" && apt-get download -q "$pkg=$version" >&2) \
      || nvm_die "realtext-corpus.sh: apt-get download $pkg=$version failed: the version is not in this host's apt indices (run apt-get update; a superseded version is in Debian's snapshot archive, sha256 $sha; put it in $OUT/debs)"
    file=$(compgen -G "$pattern" | head -1 || true)
    [ -n "$file" ] || nvm_die "realtext-corpus.sh: apt-get download $pkg=$version wrote no file $pattern"
  fi
  actual=$(sha256sum "$file" | cut -d' ' -f1)
  [ "$actual" = "$sha" ] || nvm_die "realtext-corpus.sh: $file has sha256 $actual, but $PACKAGES pins $sha"
  echo "$file"
}

rm -rf "$OUT/src"
mkdir -p "$OUT/src"
printf 'package\tversion\tsha256\tfile\n' > "$OUT/manifest.tsv"
while read -r pkg version sha rest; do
  case "$pkg" in ''|'#'*) continue ;; esac
  [ -n "$sha" ] && [ -z "$rest" ] || nvm_die "realtext-corpus.sh: $PACKAGES: expected 'package version sha256', got '$pkg $version $sha $rest'"
  deb=$(fetch_deb "$pkg" "$version" "$sha")
  dpkg-deb -x "$deb" "$OUT/src/$pkg"
  printf '%s\t%s\t%s\t%s\n' "$pkg" "$version" "$sha" "$(basename "$deb")" >> "$OUT/manifest.tsv"
done < "$PACKAGES"

export BENCH_JVM_OPTS="${BENCH_JVM_OPTS:--Xmx4g}"
"$ROOT/scripts/bench.sh" realtext --source "$OUT/src" --corpus "$OUT/realtext.txt" --seed "$SEED" > "$OUT/summary.txt"
"$ROOT/scripts/bench.sh" tasks --corpus "$OUT/realtext.txt" --tasks "$OUT/realtext.tasks" --seed "$TASK_SEED" \
  --tasks-per-category "$TASKS_PER_CATEGORY" >> "$OUT/summary.txt"
(cd "$OUT" && sha256sum realtext.txt realtext.tasks > sha256.txt)
{
  echo "command: $COMMAND"
  echo "commit: $(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "packages: $PACKAGES"
} > "$OUT/build.txt"
[ "$KEEP_SRC" = 1 ] || rm -rf "$OUT/src"
cat "$OUT/summary.txt"
echo "realtext-corpus.sh: corpus $OUT/realtext.txt, tasks $OUT/realtext.tasks" >&2
