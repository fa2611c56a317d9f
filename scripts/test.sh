#!/usr/bin/env bash
# Runs every test of every module (Lucene's conformance suites included).
# Extra arguments go to Maven, e.g. scripts/test.sh -pl lucene-nvm-directory -Dtest=TestNvmHeap
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
nvm_find_jdk
nvm_find_maven
nvm_find_pmdk
cd "$NVM_ROOT"
echo "lucene-nvm: testing with $("$JAVA_HOME/bin/java" -version 2>&1 | head -n1) from $JAVA_HOME"
# The OpenSearch integration tests (profile opensearch-it) start real nodes from the distribution
# on Maven Central; when it cannot be had (or NVM_SKIP_OPENSEARCH_IT=1) they are skipped, saying why.
profiles=()
os_version="$(sed -n 's:.*<opensearch.version>\(.*\)</opensearch.version>.*:\1:p' lucene-nvm-opensearch/pom.xml)"
os_dist="org.opensearch.distribution.integ-test-zip:opensearch:$os_version:zip"
if [ "${NVM_SKIP_OPENSEARCH_IT:-0}" = 1 ]; then
  echo "lucene-nvm: SKIPPING the OpenSearch integration tests: NVM_SKIP_OPENSEARCH_IT=1"
elif [ "$(id -u)" = 0 ] && ! command -v setpriv >/dev/null 2>&1; then
  echo "lucene-nvm: SKIPPING the OpenSearch integration tests: running as root without setpriv (util-linux) to run nodes as a non-root user"
elif ! "${NVM_MVN[@]}" -q dependency:get -Dartifact="$os_dist" -Dtransitive=false >/dev/null 2>&1; then
  echo "lucene-nvm: SKIPPING the OpenSearch integration tests: $os_dist does not resolve from Maven Central"
else
  profiles=(-Popensearch-it)
fi
exec "${NVM_MVN[@]}" install "${profiles[@]}" "$@"
