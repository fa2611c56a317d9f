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
exec "${NVM_MVN[@]}" install "$@"
