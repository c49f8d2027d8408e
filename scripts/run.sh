#!/usr/bin/env bash
# Installs what is missing, builds the window and nothing else, and starts it. Without a
# display (a server or container) it starts under Xvfb and saves a screenshot instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# Only what it runs: the window and the presets beside it (the test suites are the test command's).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --parallel "$(nproc)" --target faexplorer
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec build/bin/faexplorer "$@"
fi
echo "run: no display found; starting FA Explorer under Xvfb and saving build/screenshot.png"
xvfb-run -a -s '-screen 0 1600x1000x24' build/bin/faexplorer --screenshot build/screenshot.png --after-samples 20000 "$@"
echo "run: screenshot written to build/screenshot.png"
