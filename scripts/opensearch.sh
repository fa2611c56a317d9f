#!/usr/bin/env bash
# Runs OpenSearch on 127.0.0.1 with the lucene-nvm plugin (the nvm codec and the nvm store).
#
#   scripts/opensearch.sh [start] [--version X.Y.Z] [--nodes 1|2|3] [--data DIR] [--http-port PORT] [--heap SIZE]
#   scripts/opensearch.sh stop [--data DIR]
#
# start: builds the plugin zip for OpenSearch X.Y.Z (default: the version in
# lucene-nvm-opensearch/pom.xml), fetches that version's distribution from Maven Central (its
# integ-test zip; 3.9.0 has none there: the zip is still built, and its path printed), installs
# the plugin, and starts one node (or a cluster of 2 or 3) with its data under DIR (default:
# data/opensearch; one OpenSearch version per DIR). As root it runs the nodes as the system user
# "opensearch" (OpenSearch refuses to run as root), creating it if missing. Node i listens on HTTP
# port PORT+i-1 (default 9200) and transport port PORT+100+i-1.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

action=start
nodes=1
data="$NVM_ROOT/data/opensearch"
http_port=9200
heap=512m
version=
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then action="$1"; shift; fi
while [ $# -gt 0 ]; do
  case "$1" in
    --version) version="$2"; shift 2 ;;
    --nodes) nodes="$2"; shift 2 ;;
    --data) data="$2"; shift 2 ;;
    --http-port) http_port="$2"; shift 2 ;;
    --heap) heap="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) nvm_die "unknown argument '$1' (see: $0 --help)" ;;
  esac
done
[[ "$nodes" =~ ^[123]$ ]] || nvm_die "--nodes must be 1, 2 or 3, got '$nodes'"
[[ "$http_port" =~ ^[0-9]+$ ]] || nvm_die "--http-port must be a number, got '$http_port'"
mkdir -p "$data"
data="$(cd "$data" && pwd)"
user=opensearch

stop_nodes() {
  local pidfile pid
  for pidfile in "$data"/node-*/pid; do
    [ -f "$pidfile" ] || continue
    pid="$(cat "$pidfile")"
    echo "lucene-nvm: stopping OpenSearch node pid $pid ($(dirname "$pidfile"))"
    kill "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 1; done
    rm -f "$pidfile"
  done
}

if [ "$action" = stop ]; then
  stop_nodes
  exit 0
fi
[ "$action" = start ] || nvm_die "unknown action '$action': use start or stop"

nvm_find_jdk
nvm_find_maven
cd "$NVM_ROOT"
[ -n "$version" ] || version="$(nvm_default_opensearch_version)"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || nvm_die "--version must read X.Y.Z, got '$version'"
if [ -f "$data/opensearch.version" ] && [ "$(cat "$data/opensearch.version")" != "$version" ]; then
  nvm_die "$data holds nodes of OpenSearch $(cat "$data/opensearch.version"); give OpenSearch $version another folder with --data DIR"
fi
version_args="$(nvm_opensearch_version_args "$version")"
echo "lucene-nvm: building the plugin for OpenSearch $version..."
# shellcheck disable=SC2086 # no argument, or one without spaces
"${NVM_MVN[@]}" -q -pl lucene-nvm-opensearch -am package -DskipTests $version_args
zip="$(nvm_opensearch_plugin_zip "$version")" \
  || nvm_die "the build made no plugin zip for OpenSearch $version under lucene-nvm-opensearch/target"

home="$data/dist/opensearch-$version"
dist="org.opensearch.distribution.integ-test-zip:opensearch:$version:zip"
if [ ! -x "$home/bin/opensearch" ]; then
  echo "lucene-nvm: fetching the OpenSearch $version distribution from Maven Central..."
  "${NVM_MVN[@]}" -q dependency:unpack -Dartifact="$dist" -DoutputDirectory="$data/dist" >/dev/null 2>&1 \
    || nvm_die "OpenSearch $version cannot be started here: its distribution ($dist) is not on Maven Central (or not reachable). The plugin for it is built: $zip — install it on your own OpenSearch $version nodes with: bin/opensearch-plugin install file://$zip"
fi
echo "$version" >"$data/opensearch.version"
export OPENSEARCH_JAVA_HOME="$JAVA_HOME"
stop_nodes
if [ -d "$home/plugins/lucene-nvm" ]; then
  "$home/bin/opensearch-plugin" remove lucene-nvm >/dev/null
fi
"$home/bin/opensearch-plugin" install --batch "file://$zip" >/dev/null
echo "lucene-nvm: installed $(basename "$zip") into $home"

run_as=()
if [ "$(id -u)" = 0 ]; then
  id -u "$user" >/dev/null 2>&1 || useradd -r -M -s /usr/sbin/nologin "$user"
  run_as=(setpriv "--reuid=$user" "--regid=$user" --init-groups --)
fi

start_node() {
  local i="$1" dir="$data/node-$1" roles seed
  mkdir -p "$dir/data" "$dir/logs" "$dir/repo"
  if [ ! -d "$dir/config" ]; then
    cp -a "$home/config" "$dir/config"
    # jvm.options writes GC logs and heap dumps relative to the (root-owned) home: point them here.
    sed -i "s#file=logs/gc.log#file=$dir/logs/gc.log#; s#HeapDumpPath=data#HeapDumpPath=$dir/data#; s#ErrorFile=logs/#ErrorFile=$dir/logs/#" \
      "$dir/config/jvm.options"
  fi
  [ ${#run_as[@]} -gt 0 ] && chown -R "$user:" "$dir"
  if [ "$nodes" = 1 ]; then
    roles=(-E discovery.type=single-node)
  elif [ "$i" = 1 ]; then
    roles=(-E node.roles=cluster_manager,data,ingest -E cluster.initial_cluster_manager_nodes=node-1)
  else
    roles=(-E node.roles=data,ingest -E "discovery.seed_hosts=127.0.0.1:$((http_port + 100))")
  fi
  OPENSEARCH_PATH_CONF="$dir/config" OPENSEARCH_JAVA_OPTS="-Xms$heap -Xmx$heap" \
    "${run_as[@]}" "$home/bin/opensearch" -d -p "$dir/pid" \
    -E node.name="node-$i" -E cluster.name=lucene-nvm \
    -E path.data="$dir/data" -E path.logs="$dir/logs" -E path.repo="$data" \
    -E network.host=127.0.0.1 -E http.port=$((http_port + i - 1)) -E transport.port=$((http_port + 100 + i - 1)) \
    "${roles[@]}" >"$dir/stdout.log" 2>&1 \
    || nvm_die "node-$i did not start; see $dir/stdout.log and $dir/logs/"
}

for i in $(seq 1 "$nodes"); do start_node "$i"; done
url="http://127.0.0.1:$http_port"
echo "lucene-nvm: waiting for $url ..."
for _ in $(seq 1 120); do
  curl -sf "$url/_cluster/health?wait_for_nodes=$nodes&timeout=1s" >/dev/null 2>&1 && break
  sleep 1
done
curl -sf "$url/_cluster/health?wait_for_nodes=$nodes&timeout=30s" >/dev/null \
  || nvm_die "the cluster did not come up; see $data/node-*/logs/lucene-nvm.log"

cat <<EOF
lucene-nvm: OpenSearch $version with the lucene-nvm plugin is running: $nodes node(s), $url
  data: $data/node-*   logs: $data/node-*/logs/lucene-nvm.log   stop: $0 stop --data $data

Create an index on the NVM store with the NVM codec (pool per shard under its shard directory):
  curl -XPUT '$url/docs' -H 'Content-Type: application/json' -d '{"settings": {
    "index.codec": "nvm", "index.store.type": "nvm", "index.store.nvm.pool.size": "256mb",
    "number_of_shards": $nodes, "number_of_replicas": $((nodes - 1))}}'
Index and search:
  curl -XPOST '$url/docs/_bulk?refresh=true' -H 'Content-Type: application/x-ndjson' --data-binary \$'{"index":{}}\n{"body":"hello nvm"}\n'
  curl '$url/docs/_search?q=body:hello&pretty'
EOF
