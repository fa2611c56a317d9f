#!/usr/bin/env bash
# Runs the search server (HTTP JSON API) until Ctrl-C or SIGTERM, then shuts it down gracefully.
# Usage: scripts/server.sh [--config server.properties] [--port 8080] [--data-dir data] ... (--help)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
nvm_find_jdk
nvm_find_maven
cd "$NVM_ROOT"
echo "lucene-nvm: building..." >&2
"${NVM_MVN[@]}" -q -pl search-server -am package dependency:build-classpath -DskipTests \
  -Dmdep.outputFile=target/demo.classpath -Dmdep.includeScope=runtime >&2
CP="search-server/target/classes:$(cat search-server/target/demo.classpath)"
exec "$JAVA_HOME/bin/java" "${NVM_JAVA_FLAGS[@]}" -Djava.util.logging.SimpleFormatter.format="[%4\$s] %5\$s%n" \
  -cp "$CP" org.lucenenvm.server.ServerCli "$@"
