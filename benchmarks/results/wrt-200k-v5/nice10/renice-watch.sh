#!/usr/bin/env bash
# Experiment only: lowers the OS priority (nice N) of every engine background thread (rt-p*-indexer, rt-p*-merger) of any java process, every 0.5 s, until killed.
N=${1:-10}
declare -A done_tids
while true; do
  for p in /proc/[0-9]*; do
    read -r pc < "$p/comm" 2>/dev/null || continue
    [ "$pc" = java ] || continue
    for t in "$p"/task/[0-9]*; do
      tid=${t##*/}
      [ -n "${done_tids[$tid]:-}" ] && continue
      read -r name < "$t/comm" 2>/dev/null || continue
      case "$name" in
        rt-p*-indexer|rt-p*-merger) renice -n "$N" -p "$tid" >/dev/null 2>&1 && done_tids[$tid]=1 ;;
      esac
    done
  done
  sleep 0.5
done
