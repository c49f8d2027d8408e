#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in build-fuzz/ (or the folder
# FAEXPLORER_FUZZ_BUILD names) and runs each for the given number of seconds (default 60), from
# the seed corpus in tests/fuzz/corpus/ (copied, so new inputs stay in the build folder). Exits
# non-zero on any finding; the input that caused it is saved there as crash-* (or leak-*,
# timeout-*), to add to the corpus once fixed.
#   bash scripts/fuzz.sh            # a minute each (CI runs them for 30 s each)
#   bash scripts/fuzz.sh 3600       # an hour each
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
# FAEXPLORER_FUZZ_BUILD names a build folder already configured with -DFAEXPLORER_FUZZ=ON (CI's
# sanitizer build, scripts/test.sh): its fuzzers are built there, the engine is not compiled again.
dir=${FAEXPLORER_FUZZ_BUILD:-build-fuzz}
if [ -z "${FAEXPLORER_FUZZ_BUILD:-}" ]; then
  # -O1 with line tables only: the engine compiles in 80 % of the time of -O2 -g (clang 14), and a
  # finding's stack trace still names the lines.
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
    -DFAEXPLORER_FUZZ=ON -DFAEXPLORER_BUILD_GUI=OFF -DBUILD_TESTING=OFF -DFAEXPLORER_NATIVE=OFF \
    -DFAEXPLORER_WERROR=ON -DFAEXPLORER_UNITY=ON > /dev/null
elif ! grep -q '^FAEXPLORER_FUZZ:BOOL=ON' "$dir/CMakeCache.txt" 2> /dev/null; then
  echo "fuzz: $dir is not a build configured with -DFAEXPLORER_FUZZ=ON" >&2
  exit 2
fi
cmake --build "$dir" --parallel "$(nproc)" --target fuzz_csv fuzz_session fuzz_args

run() { # name, corpus folder, extra libFuzzer flags
  local name=$1 corpus=$2
  shift 2
  rm -rf "$dir/corpus-$name"
  cp -r "tests/fuzz/corpus/$corpus" "$dir/corpus-$name"
  echo "fuzz: $name for ${seconds} s"
  if ! (cd "$dir" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "./bin/$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 "$@" "corpus-$name" > "$name.log" 2>&1); then
    tail -n 40 "$dir/$name.log"
    echo "fuzz: $name found a problem; the input is saved in $dir/ (crash-*, leak-*, timeout-*)" >&2
    exit 1
  fi
  grep -E "^stat::(number_of_executed_units|peak_rss_mb)" "$dir/$name.log" | tr '\n' ' '
  echo "corpus: $(ls "$dir/corpus-$name" | wc -l) inputs"
}
run fuzz_csv csv -max_len=4096
run fuzz_session session -max_len=4096 -dict="$PWD/tests/fuzz/session.dict"
run fuzz_args args -max_len=512
echo "fuzz: no findings"
