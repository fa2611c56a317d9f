#!/usr/bin/env bash
# REST benchmark on a running OpenSearch node with the lucene-nvm plugin (scripts/opensearch.sh):
# bulk ingest rate and search latency percentiles per task category, for each codec:store pair.
#   scripts/opensearch-bench.sh [--docs 100000] [--url http://127.0.0.1:9200] [--out FILE.csv]
#                               [--configs default:fs,nvm:nvm] [--pool-size 2gb] [--queries 500]
# The corpus and tasks are generated once (scripts/bench.sh generate) under data/opensearch-bench/;
# BENCH_DOCS sets the corpus size (default: 200000). Other options go to OpenSearchRestBench.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
nvm_find_jdk
dir="$NVM_ROOT/data/opensearch-bench"
docs="${BENCH_DOCS:-200000}"
corpus="$dir/corpus-$docs.txt"
tasks="$dir/corpus-$docs.tasks"
JAR="$(nvm_benchmarks_jar)"
if [ ! -f "$corpus" ]; then
  mkdir -p "$dir"
  BENCH_JVM_OPTS="${BENCH_JVM_OPTS:--Xms1g -Xmx2g}" "$NVM_ROOT/scripts/bench.sh" generate \
    --docs "$docs" --corpus "$corpus" --tasks "$tasks"
fi
# shellcheck disable=SC2086 # BENCH_JVM_OPTS is a list of flags
exec "$JAVA_HOME/bin/java" ${BENCH_JVM_OPTS:--Xms1g -Xmx2g} -cp "$JAR" org.lucenenvm.bench.OpenSearchRestBench \
  --corpus "$corpus" --tasks "$tasks" "$@"
