#!/usr/bin/env bash
# Runs the search server (HTTP JSON API) until Ctrl-C or SIGTERM, then shuts it down gracefully.
# Usage: scripts/server.sh [--config server.properties] [--port 8080] [--data-dir data] ... (--help)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
nvm_exec_server_main org.lucenenvm.server.ServerCli "$@"
