#!/usr/bin/env bash
# The main job: a demo on an embedded default, an emulated NVM pool under ./data.
# Usage: scripts/demo.sh [pool file] [documents] [pool bytes]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
nvm_find_jdk
nvm_find_maven
cd "$NVM_ROOT"
echo "lucene-nvm: building (first run downloads Maven dependencies)..." >&2
"${NVM_MVN[@]}" -q -pl lucene-nvm-directory -am install -DskipTests >&2
"${NVM_MVN[@]}" -q -pl lucene-nvm-directory dependency:build-classpath \
  -Dmdep.outputFile=target/demo.classpath -Dmdep.includeScope=runtime >&2
CP="lucene-nvm-directory/target/classes:$(cat lucene-nvm-directory/target/demo.classpath)"
exec "$JAVA_HOME/bin/java" "${NVM_JAVA_FLAGS[@]}" -cp "$CP" \
  org.lucenenvm.store.demo.StoreDemo "$@"
