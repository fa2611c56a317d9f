#!/usr/bin/env bash
# Shared set-up for the project's scripts: finds (or installs) what a build needs.
# Sourced, not run. Every failure prints one line naming what is missing and how to get it.

nvm_die() { echo "lucene-nvm: $*" >&2; exit 1; }

# Prints the major version of the java binary given as $1 (empty if it cannot run).
nvm_java_major() {
  "$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2; exit}' | cut -d. -f1
}

# Sets JAVA_HOME to a JDK >= 22: JAVA_HOME first, then java on PATH, then /usr/lib/jvm/*.
nvm_find_jdk() {
  local candidates=() c major
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v javac >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")")
  fi
  for c in /usr/lib/jvm/* /opt/java/* /opt/jdk*; do [ -d "$c" ] && candidates+=("$c"); done
  for c in "${candidates[@]}"; do
    [ -x "$c/bin/java" ] && [ -x "$c/bin/javac" ] || continue
    major=$(nvm_java_major "$c/bin/java")
    if [ -n "$major" ] && [ "$major" -ge 22 ]; then
      export JAVA_HOME="$c"
      export PATH="$JAVA_HOME/bin:$PATH"
      # Maven's own libraries still use sun.misc.Unsafe; keep JDK 24+ from warning about it.
      [ "$major" -ge 24 ] && export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
      return 0
    fi
  done
  nvm_die "no JDK >= 22 found (looked in JAVA_HOME, PATH, /usr/lib/jvm); install one (e.g. Temurin 25) and set JAVA_HOME to it"
}

# Waits until the 1-minute load average is below $1, checking every 10 s; fails after $2 seconds.
nvm_wait_quiet() {
  local limit=$1 budget=$2 waited=0 load
  while :; do
    load=$(cut -d' ' -f1 /proc/loadavg) || nvm_die "cannot read /proc/loadavg to wait for a quiet machine"
    awk -v l="$load" -v m="$limit" 'BEGIN { exit !(l < m) }' && return 0
    [ "$waited" -ge "$budget" ] && nvm_die "1-minute load average still $load after ${budget} s (wanted below $limit): something else is running"
    sleep 10
    waited=$((waited + 10))
  done
}

nvm_can_apt() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }

# Maven 3.8+ from PATH, or Debian's package when we may install it.
nvm_find_maven() {
  command -v mvn >/dev/null 2>&1 && return 0
  if nvm_can_apt; then
    echo "lucene-nvm: installing Debian's maven package" >&2
    apt-get update -qq >/dev/null && apt-get install -y -qq maven >/dev/null || nvm_die "could not install maven with apt-get; install Maven 3.8+ and put mvn on PATH"
  else
    nvm_die "mvn not found; install Maven 3.8+ (Debian: apt-get install maven)"
  fi
}

# PMDK libraries for the optional llpl backend. Missing libraries are not fatal:
# the llpl tests then report themselves as skipped with the reason.
nvm_find_pmdk() {
  if ldconfig -p 2>/dev/null | grep -q 'libpmemobj.so.1' && ldconfig -p 2>/dev/null | grep -q 'libpmempool.so.1'; then
    return 0
  fi
  if nvm_can_apt; then
    echo "lucene-nvm: installing Debian's libpmemobj1 libpmempool1 (llpl backend)" >&2
    { apt-get update -qq && apt-get install -y -qq libpmemobj1 libpmempool1; } >/dev/null 2>&1 && return 0
  fi
  echo "lucene-nvm: libpmemobj1/libpmempool1 not installed (apt-get install libpmemobj1 libpmempool1); the llpl backend and its tests are skipped" >&2
}

# The OpenSearch version the plugin is built for by default: the <opensearch.version> element of
# lucene-nvm-opensearch/pom.xml. Fails unless there is exactly one and it reads X.Y.Z (a second
# one, e.g. in a profile, would otherwise make the scripts use a wrong version).
nvm_default_opensearch_version() {
  local found
  found="$(sed -n 's:^ *<opensearch.version>\(.*\)</opensearch.version>.*:\1:p' "$NVM_ROOT/lucene-nvm-opensearch/pom.xml")"
  [[ "$found" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] \
    || nvm_die "expected exactly one <opensearch.version>X.Y.Z</opensearch.version> in lucene-nvm-opensearch/pom.xml, found '${found//$'\n'/, }'"
  echo "$found"
}

# The Maven arguments that build the plugin for OpenSearch $1 (none for the default version).
nvm_opensearch_version_args() {
  local default
  default="$(nvm_default_opensearch_version)" || return 1
  [ "$1" = "$default" ] || echo "-Dopensearch.version=$1"
}

# The plugin zip for OpenSearch $1 (built by the arguments above): in target/ for the default
# version, in target/opensearch-$1/ for another. Fails if there is none.
nvm_opensearch_plugin_zip() {
  local default dir="$NVM_ROOT/lucene-nvm-opensearch/target" zip
  default="$(nvm_default_opensearch_version)" || return 1
  [ "$1" = "$default" ] || dir="$dir/opensearch-$1"
  for zip in "$dir"/lucene-nvm-opensearch-*-opensearch-"$1".zip; do
    [ -f "$zip" ] && echo "$zip" && return 0
  done
  return 1
}

# Flags every project JVM gets: FFM native access and Lucene's vectorized code paths.
NVM_JAVA_FLAGS=(--enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector)
NVM_MVN=(mvn -B -ntp -Dstyle.color=never)

NVM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export NVM_ROOT

# Builds search-server (and the modules it needs) and runs its main class $1 with the other
# arguments. NVM_LOG_FORMAT overrides the java.util.logging line format.
nvm_exec_server_main() {
  local main="$1"
  shift
  nvm_find_jdk
  nvm_find_maven
  cd "$NVM_ROOT"
  echo "lucene-nvm: building (the first run downloads Maven dependencies)..." >&2
  "${NVM_MVN[@]}" -q -pl search-server -am package dependency:build-classpath -DskipTests \
    -Dmdep.outputFile=target/runtime.classpath -Dmdep.includeScope=runtime >&2
  local cp
  cp="search-server/target/classes:$(cat search-server/target/runtime.classpath)"
  exec "$JAVA_HOME/bin/java" "${NVM_JAVA_FLAGS[@]}" \
    -Djava.util.logging.SimpleFormatter.format="${NVM_LOG_FORMAT:-[%4\$s] %5\$s%n}" \
    -cp "$cp" "$main" "$@"
}

# The benchmark runner's jar, benchmarks/target/benchmarks.jar, built (quietly, to stderr) when it
# is missing, older than a main source or pom (it would measure old code), or BENCH_REBUILD=1.
nvm_benchmarks_jar() {
  local jar="$NVM_ROOT/benchmarks/target/benchmarks.jar"
  if [ ! -f "$jar" ] || [ "${BENCH_REBUILD:-0}" = 1 ] \
    || [ -n "$(find "$NVM_ROOT" -path "$NVM_ROOT/data" -prune -o \( -path '*/src/main/*' -o -name pom.xml \) -newer "$jar" -print -quit)" ]; then
    nvm_find_maven
    echo "lucene-nvm: building $jar" >&2
    (cd "$NVM_ROOT" && "${NVM_MVN[@]}" -q -pl benchmarks -am package -DskipTests) >&2
  fi
  echo "$jar"
}
