#!/usr/bin/env bash
# paperboat search against fzf --filter on the same file and queries:
# median wall time of each (of RUNS runs) and the ratio paperboat/fzf.
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
printf '%-36s %10s %10s %8s\n' query paperboat fzf ratio
for q in "${queries[@]}"; do
  p=$(median "$pb" search --scope title --format lines "$q" "$file")
  if $have_fzf; then
    f=$(median sh -c 'fzf --filter "$1" < "$2"' sh "$q" "$file")
    r=$(awk -v a="$p" -v b="$f" 'BEGIN { printf "%.2f", a / b }')
    printf '%-36s %9.2fs %9.2fs %7sx\n' "\"$q\"" "$p" "$f" "$r"
  else
    printf '%-36s %9.2fs %10s %8s\n' "\"$q\"" "$p" - -
  fi
done
