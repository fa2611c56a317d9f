#!/usr/bin/env bash
# Bounded load test of the search server on loopback: concurrent bulk ingest and search over HTTP,
# then the same workload on the engine called directly. Options: see --help (e.g. --docs 40000).
# Result cache off against LRU and GDSF, queries with Zipf popularity, unqualified words:
#   scripts/server-load.sh --caches off,lru,gdsf --cache-size 64m --zipf 1.0
# A soak (SoakBenchmark; see search-server/README.md), e.g.: scripts/server-load.sh soak --duration 60m --window 5m
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
nvm_find_jdk
nvm_find_maven
cd "$NVM_ROOT"
echo "lucene-nvm: building..." >&2
"${NVM_MVN[@]}" -q -pl search-server -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/load.classpath -Dmdep.includeScope=test >&2
CP="search-server/target/test-classes:search-server/target/classes:$(cat search-server/target/load.classpath)"
exec "$JAVA_HOME/bin/java" "${NVM_JAVA_FLAGS[@]}" -Xmx2g -Djava.util.logging.SimpleFormatter.format="[%4\$s] %5\$s%n" \
  -cp "$CP" org.lucenenvm.server.LoadBenchmark "$@"
