#!/usr/bin/env bash
# Runs every test of every module (Lucene's conformance suites included), then the builds for the
# other versions users run (docs/compatibility.md): the plugin for each OpenSearch version in
# NVM_OPENSEARCH_EXTRA_VERSIONS (default 3.9.0: zip, unit tests and, where OpenSearch can run, its
# 3-node cluster tests) and the store and codec on Lucene 10.6 (their tests).
# Extra arguments go to Maven and run that one build only, e.g.
#   scripts/test.sh -pl lucene-nvm-directory -Dtest=TestNvmHeap
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
nvm_find_jdk
nvm_find_maven
nvm_find_pmdk
cd "$NVM_ROOT"
echo "lucene-nvm: testing with $("$JAVA_HOME/bin/java" -version 2>&1 | head -n1) from $JAVA_HOME"

# Runs "$@" (a Maven build), then says how long it took.
timed() {
  local label="$1" start=$SECONDS
  shift
  "$@"
  echo "lucene-nvm: $label took $((SECONDS - start)) s"
}

# The OpenSearch integration tests (profile opensearch-it) start real nodes from the distribution
# on Maven Central; when it cannot be had (or NVM_SKIP_OPENSEARCH_IT=1) they are skipped, saying why.
profiles=()
os_version="$(nvm_default_opensearch_version)"
os_dist="org.opensearch.distribution.integ-test-zip:opensearch:$os_version:zip"
if [ "${NVM_SKIP_OPENSEARCH_IT:-0}" = 1 ]; then
  echo "lucene-nvm: SKIPPING the OpenSearch $os_version integration tests: NVM_SKIP_OPENSEARCH_IT=1"
elif [ "$(id -u)" = 0 ] && ! command -v setpriv >/dev/null 2>&1; then
  echo "lucene-nvm: SKIPPING the OpenSearch $os_version integration tests: running as root without setpriv (util-linux) to run nodes as a non-root user"
elif ! "${NVM_MVN[@]}" -q dependency:get -Dartifact="$os_dist" -Dtransitive=false >/dev/null 2>&1; then
  echo "lucene-nvm: SKIPPING the OpenSearch $os_version integration tests: $os_dist does not resolve from Maven Central"
else
  profiles=(-Popensearch-it)
  echo "lucene-nvm: the OpenSearch $os_version integration tests (real nodes) run in the main build"
fi
if [ $# -gt 0 ]; then
  exec "${NVM_MVN[@]}" install "${profiles[@]}" "$@"
fi
timed "the main build (every module, plugin for OpenSearch $os_version)" "${NVM_MVN[@]}" install "${profiles[@]}"

# The API docs: javadoc of every module, failing on any lint warning (doclint all,-missing).
timed "the API docs (mvn javadoc:aggregate)" "${NVM_MVN[@]}" -q javadoc:aggregate

# The plugin for the other OpenSearch versions, against the modules just installed. Its 3-node
# cluster tests (profile opensearch-cluster-it) run OpenSearch inside the test JVM, which
# OpenSearch refuses to do as root: as root the test JVM runs with another user ID in a user
# namespace (unshare, util-linux), or the cluster tests are skipped, saying why.
for version in ${NVM_OPENSEARCH_EXTRA_VERSIONS-3.9.0}; do
  cluster=(-Popensearch-cluster-it)
  if [ "${NVM_SKIP_OPENSEARCH_CLUSTER_IT:-0}" = 1 ]; then
    echo "lucene-nvm: SKIPPING the OpenSearch $version cluster tests: NVM_SKIP_OPENSEARCH_CLUSTER_IT=1"
    cluster=()
  elif [ "$(id -u)" = 0 ] && ! unshare --user --map-user=65534 --map-group=65534 true >/dev/null 2>&1; then
    echo "lucene-nvm: SKIPPING the OpenSearch $version cluster tests: running as root and 'unshare --user' (util-linux) cannot run the test JVM with another user ID"
    cluster=()
  fi
  timed "the plugin for OpenSearch $version (zip, unit tests${cluster:+, 3-node cluster tests})" \
    "${NVM_MVN[@]}" -pl lucene-nvm-opensearch verify "-Dopensearch.version=$version" "${cluster[@]}"
  zip="$(nvm_opensearch_plugin_zip "$version")" || nvm_die "the build made no plugin zip for OpenSearch $version"
  echo "lucene-nvm: plugin for OpenSearch $version: $zip"
done

# The store and the codec compiled against Lucene 10.6 and run through their tests there.
timed "lucene-nvm-directory and lucene-nvm-codec on Lucene 10.6" \
  "${NVM_MVN[@]}" -Plucene-10.6 -pl lucene-nvm-directory,lucene-nvm-codec test
