#!/usr/bin/env bash
# Issue 13, session 24, second run (split/): the two paired rows of run.sh again, with the pairs split by the
# cached run's outcome (the jar of this folder's commit).
#   split.sh <out (emptied first)> <jar>
exec "$(dirname "$0")/run.sh" "${1:?out}" "${2:?jar}" dram-gdsf-176k-paired,nvm-gdsf-176k-paired
