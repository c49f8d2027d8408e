# Shared by the results scripts (sourced): after `results_init NAME DEFAULT_OUT [OUT]`, $root is
# the repository, $out the output folder (created), $cli the CLI (or $CLI) and $timings the
# timings table; `run_cli NAME COMMAND ARGS...` runs one `faexplorer-cli COMMAND ARGS` into
# OUT/NAME.csv and adds its wall-clock seconds to the table.
results_init() {
  local script="$1" fallback="$2"
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  out="${3:-$fallback}"
  mkdir -p "$out"
  out="$(cd "$out" && pwd)"
  cli="${CLI:-$root/build/bin/faexplorer-cli}"
  [ -x "$cli" ] || { echo "$script: no CLI at $cli (build first, or set CLI)" >&2; exit 1; }
  timings="$out/timings.tsv"
  printf 'run\tseconds\n' >"$timings"
}

run_cli() {
  local name="$1"
  shift
  echo "== $name: $*"
  local start end secs
  start=$(date +%s.%N)
  "$cli" "$@" --out "$out/$name.csv"
  end=$(date +%s.%N)
  secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  printf '%s\t%s\n' "$name" "$secs" >>"$timings"
  echo "-- $name: ${secs} s wall clock"
  echo
}
