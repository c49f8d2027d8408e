#!/usr/bin/env bash
# Installs what is missing; builds everything in Release with warnings as errors and runs all
# tests headless (QtTest suites, the layering and format checks); builds the CLI alone with Qt
# hidden (it must not need Qt); then builds the engine, its file and session libraries, their
# tests and the three libFuzzer targets with clang, AddressSanitizer + UndefinedBehaviorSanitizer,
# runs those tests, and runs the fuzzers (CSV loader, session readers, CLI arguments) 30 s each.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage's wall time, printed as it ends (the CI budget is watched with these).
stage_start=$SECONDS
stage() {
  echo "test.sh: $1 took $((SECONDS - stage_start)) s"
  stage_start=$SECONDS
}
bash scripts/install-deps.sh
stage "installing what is missing"
export QT_QPA_PLATFORM=offscreen
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)}
chmod 0700 "$XDG_RUNTIME_DIR"

bash scripts/build.sh build -DFAEXPLORER_WERROR=ON
stage "the Release build"
(cd build && ctest --output-on-failure --parallel "$(nproc)")
stage "its tests"

# The engine's objects come from ccache (the same sources and flags as build/ just compiled).
bash scripts/build.sh build-cli -DFAEXPLORER_BUILD_GUI=OFF -DBUILD_TESTING=OFF \
  -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=ON -DFAEXPLORER_WERROR=ON
build-cli/bin/faexplorer-cli fa-sweep --dim 20 --latent 2 --samples 200 --trials 1 --algorithms em \
  --out build-cli/smoke.csv > /dev/null
echo "cli-only: configured and built without Qt; fa-sweep ran"
stage "the CLI-only build"

# The engine again with ASan + UBSan and assertions (Eigen's size checks), built portable as the
# .deb is (-DFAEXPLORER_NATIVE=OFF: SSE2, the streaming pass's 2-lane kernels), so the package's
# code paths run under the sanitizers too. Built with clang and libFuzzer's coverage
# (FAEXPLORER_FUZZ), so the same build also holds the fuzzers: the engine is compiled once for
# both (a separate fuzz build compiled it a third time), and the fuzzers run with assertions on.
# The engine's libraries in batches of files (FAEXPLORER_UNITY): 27 % less compile time here.
# A folder configured with GCC (this build's compiler before 2026-11-28) is configured afresh:
# CMake cannot change a build folder's compiler in place.
if [ -f build-sanitize/CMakeCache.txt ] &&
  ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang' build-sanitize/CMakeCache.txt; then
  rm -rf build-sanitize/CMakeCache.txt build-sanitize/CMakeFiles
fi
# Its options are the sanitize preset's (CMakePresets.json), written there once.
bash scripts/build.sh build-sanitize --preset sanitize -DFAEXPLORER_WERROR=ON
stage "the sanitizer build"
(cd build-sanitize && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure --parallel "$(nproc)")
stage "its tests"

FAEXPLORER_FUZZ_BUILD=build-sanitize bash scripts/fuzz.sh 30
stage "the fuzzers"
