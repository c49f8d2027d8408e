#!/usr/bin/env bash
# Installs what is missing, builds everything in Release and runs all tests headless; then
# builds the engine and its tests with AddressSanitizer + UndefinedBehaviorSanitizer and
# runs those too.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
export QT_QPA_PLATFORM=offscreen
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)}
chmod 0700 "$XDG_RUNTIME_DIR"

bash scripts/build.sh build
(cd build && ctest --output-on-failure)

bash scripts/build.sh build-sanitize -DFAEXPLORER_SANITIZE=ON -DFAEXPLORER_BUILD_GUI=OFF
(cd build-sanitize && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure)
