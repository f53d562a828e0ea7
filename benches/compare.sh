#!/usr/bin/env bash
# paperboat search against fzf --filter on the same file and queries:
# median wall time of each (of RUNS runs) and the ratio paperboat/fzf,
# paperboat in the default scope (every field: the words of the file's
# titles and abstracts, indexed as they load) and in the title scope.
#
#   cargo run --release --example gen_corpus -- lines 1M /tmp/titles-1M.txt
#   benches/compare.sh /tmp/titles-1M.txt
#
# Builds the release binary first. Without fzf on PATH it times paperboat
# alone and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
  echo "usage: $0 FILE [QUERY...]" >&2
  exit 2
fi
file=$1
shift
queries=("$@")
if [ ${#queries[@]} -eq 0 ]; then
  queries=("rl" "sparse attn" "diffusion language model decoding")
fi
runs=${RUNS:-3}
cargo build --release --quiet
pb=target/release/paperboat

# Median wall time in seconds of running "$@" $runs times, output discarded.
median() {
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null || true
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}

have_fzf=false
if command -v fzf >/dev/null; then
  have_fzf=true
  echo "fzf $(fzf --version | cut -d' ' -f1); $(nproc) cores; $file; median of $runs"
else
  echo "fzf not on PATH: timing paperboat alone"
fi
# A private cache: a first search stores the file's titles (and, for a
# title list, its word index), which the runs timed then read (all,
# titles); all-cold reads the file every time (--no-cache).
export PAPERBOAT_CACHE_DIR=${PAPERBOAT_CACHE_DIR:-$(mktemp -d)}
"$pb" search "${queries[0]}" "$file" >/dev/null 2>&1 || true
printf '%-36s %9s %9s %9s %9s %7s %7s %7s\n' query all all-cold titles fzf all cold titles
for q in "${queries[@]}"; do
  w=$(median "$pb" search "$q" "$file")
  c=$(median "$pb" search --no-cache "$q" "$file")
  t=$(median "$pb" search --scope title "$q" "$file")
  if $have_fzf; then
    f=$(median sh -c 'fzf --filter "$1" < "$2"' sh "$q" "$file")
    ratio() { awk -v a="$1" -v b="$f" 'BEGIN { printf "%.2fx", a / b }'; }
    printf '%-36s %8.2fs %8.2fs %8.2fs %8.2fs %7s %7s %7s\n' "\"$q\"" "$w" "$c" "$t" "$f" \
      "$(ratio "$w")" "$(ratio "$c")" "$(ratio "$t")"
  else
    printf '%-36s %8.2fs %8.2fs %8.2fs %9s\n' "\"$q\"" "$w" "$c" "$t" -
  fi
done
