#!/usr/bin/env bash
# The main job: the search server on its embedded default (a pool file under ./data): ingest a
# synthetic corpus over HTTP, search while ingesting, restart, show the index back.
# Usage: scripts/demo.sh [--docs N] [--data-dir DIR] [--pool-size 256m] [--partitions N] [--codec NAME]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
nvm_find_jdk
nvm_find_maven
cd "$NVM_ROOT"
echo "lucene-nvm: building (first run downloads Maven dependencies)..." >&2
"${NVM_MVN[@]}" -q -pl search-server -am package dependency:build-classpath -DskipTests \
  -Dmdep.outputFile=target/demo.classpath -Dmdep.includeScope=runtime >&2
CP="search-server/target/classes:$(cat search-server/target/demo.classpath)"
exec "$JAVA_HOME/bin/java" "${NVM_JAVA_FLAGS[@]}" -Djava.util.logging.SimpleFormatter.format="   [%4\$s] %5\$s%n" -cp "$CP" \
  org.lucenenvm.server.ServerDemo "$@"
