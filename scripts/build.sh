#!/usr/bin/env bash
# Configures and builds FA Explorer in Release. Usage: scripts/build.sh [BUILD_DIR] [CMAKE_ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
# ccache (when installed): a second build of the same sources with the same flags (test.sh's
# CLI-only build, a rebuild after switching branches) takes its objects from the cache. The
# sloppiness lets ccache cache the files compiled with a precompiled header (FAEXPLORER_PCH: the
# tests and ui/, 41 % of the compiler calls, which it otherwise refuses to cache).
launcher=()
if command -v ccache > /dev/null; then
  export CCACHE_BASEDIR=$PWD
  sloppy=$(ccache --get-config sloppiness 2> /dev/null || true) # the user's, kept
  export CCACHE_SLOPPINESS=${sloppy:+$sloppy,}pch_defines,time_macros
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@"
cmake --build "$dir" --parallel "$(nproc)"
