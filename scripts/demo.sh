#!/usr/bin/env bash
# The main job: the search server on its embedded default (a pool file under ./data): ingest a
# synthetic corpus over HTTP, search while ingesting, restart, show the index back.
# Usage: scripts/demo.sh [--docs N] [--data-dir DIR] [--pool-size 256m] [--partitions N] [--codec NAME]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
NVM_LOG_FORMAT="   [%4\$s] %5\$s%n" nvm_exec_server_main org.lucenenvm.demo.ServerDemo "$@"
