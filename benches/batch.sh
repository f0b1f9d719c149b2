#!/usr/bin/env bash
# Whole-process batch scaling: the release CLI converting MCP -> OpenAI with --jobs 1 and
# --jobs 2, paired (1, 2, 1, 2, ...), and the speedup (wall time) and the CPU-time ratio
# (user + sys, 2 threads / 1 thread) of each pair, then their medians.
#
# Inputs are built at run time from the corpus's MCP catalogs ($TOOLADAPTER_CORPUS, default
# ../shared/corpus), in a temporary folder that is removed at the end; nothing is copied into
# the repository. Cases:
#   catalogs  compact NDJSON, one catalog a line, repeated to >= $MB MB (default 150)
#   tools     compact NDJSON, one tool a line, repeated to >= $MB MB (needs jq)
#   folder    a folder of the compact catalogs, $FOLDER_COPIES copies each (default 100)
#   catalog   one catalog of every corpus tool, $COPIES times over (default 20) with unique
#             names, so that it splits across the threads (needs jq)
#
# Usage: bash benches/batch.sh [case ...]   (all four by default)
# Env:   RUNS (pairs, default 5), MB, COPIES, FOLDER_COPIES, BIN (default target/release/tooladapter, built
#        with `cargo build --release` when missing), KEEP=1 keeps the inputs.
set -euo pipefail
TIMEFORMAT='%3R %3U %3S'
cd "$(dirname "$0")/.."
corpus="${TOOLADAPTER_CORPUS:-../shared/corpus}/mcp-catalogs"
runs="${RUNS:-5}"
mb="${MB:-150}"
copies="${COPIES:-20}"
folder_copies="${FOLDER_COPIES:-100}"
bin="${BIN:-target/release/tooladapter}"
[ -x "$bin" ] || cargo build --release
[ -d "$corpus" ] || { echo "no corpus at $corpus (set TOOLADAPTER_CORPUS)" >&2; exit 1; }
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(catalogs tools folder catalog)

tmp="$(mktemp -d)"
[ "${KEEP:-}" = 1 ] && echo "inputs kept in $tmp" || trap 'rm -rf "$tmp"' EXIT

# One compact line per corpus catalog (MCP -> MCP writes compact JSON).
for f in "$corpus"/*.json; do
  "$bin" convert --from mcp --to mcp --report none "$f"
done >"$tmp/once.ndjson"

# Repeats $1 into $2 until it holds at least $mb MB.
repeat() {
  local size n
  size=$(wc -c <"$1")
  n=$(((mb * 1000000 + size - 1) / size))
  for _ in $(seq "$n"); do cat "$1"; done >"$2"
}

# Prints the median of its arguments.
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# Runs `$bin convert ... "$@"` with --jobs 1 and 2, $runs pairs; prints each pair and medians.
measure() {
  local name="$1"; shift
  local speedups=() cpus=() j wall cpu w1 c1
  echo "== $name"
  for i in $(seq "$runs"); do
    for j in 1 2; do
      { time "$bin" convert --from mcp --to openai --report none --jobs "$j" "$@" \
        >/dev/null 2>"$tmp/stderr"; } 2>"$tmp/time"
      read -r wall user sys <"$tmp/time"
      cpu=$(echo "$user + $sys" | bc -l)
      if [ "$j" = 1 ]; then w1=$wall; c1=$cpu; fi
    done
    speedups+=("$(echo "$w1 / $wall" | bc -l)")
    cpus+=("$(echo "$cpu / $c1" | bc -l)")
    printf 'pair %d: --jobs 1 %.3f s wall %.3f s cpu, --jobs 2 %.3f s wall %.3f s cpu\n' \
      "$i" "$w1" "$c1" "$wall" "$cpu"
  done
  printf '%s: speedup (wall, 1 / 2 threads) median %.2fx [%s]; cpu time (2 / 1 threads) median %.3f [%s]\n' \
    "$name" "$(median "${speedups[@]}")" "$(printf '%.2f ' "${speedups[@]}")" \
    "$(median "${cpus[@]}")" "$(printf '%.3f ' "${cpus[@]}")"
}

for c in "${cases[@]}"; do
  case "$c" in
    catalogs)
      repeat "$tmp/once.ndjson" "$tmp/catalogs.ndjson"
      measure "NDJSON, a catalog a line ($(du -m "$tmp/catalogs.ndjson" | cut -f1) MB)" \
        --ndjson "$tmp/catalogs.ndjson" ;;
    tools)
      jq -c '(.tools // .)[]?' "$tmp/once.ndjson" >"$tmp/tools_once.ndjson"
      repeat "$tmp/tools_once.ndjson" "$tmp/tools.ndjson"
      measure "NDJSON, a tool a line ($(du -m "$tmp/tools.ndjson" | cut -f1) MB)" \
        --ndjson "$tmp/tools.ndjson" ;;
    folder)
      mkdir -p "$tmp/folder"
      n=0
      while IFS= read -r line; do
        n=$((n + 1))
        for k in $(seq "$folder_copies"); do printf '%s\n' "$line" >"$tmp/folder/$k-$n.json"; done
      done <"$tmp/once.ndjson"
      measure "a folder of $((n * folder_copies)) catalogs ($(du -sm "$tmp/folder" | cut -f1) MB)" \
        "$tmp/folder" ;;
    catalog)
      jq -cs --argjson k "$copies" \
        '[range($k) as $i | .[] | (.tools // .)[]? | select(.name | test("^[A-Za-z0-9_-]{1,56}$")) | .name = "c\($i)_\(.name)"] | {tools: unique_by(.name)}' \
        "$tmp/once.ndjson" >"$tmp/catalog.json"
      measure "one catalog of $(jq '.tools | length' "$tmp/catalog.json") tools ($(du -m "$tmp/catalog.json" | cut -f1) MB)" \
        "$tmp/catalog.json" ;;
    *) echo "unknown case $c (catalogs, tools, folder, catalog)" >&2; exit 2 ;;
  esac
done
