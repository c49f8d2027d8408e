#!/usr/bin/env bash
# Builds the Debian package: a portable Release build (no -march=native, so it runs on any
# x86-64 machine), installed under /usr by CPack, dependencies from dpkg-shlibdeps (Debian's Qt 6
# libraries and the C/C++ runtime). Usage: scripts/package.sh [BUILD_DIR]; prints the .deb's path.
# Install it with: apt-get install ./build-package/faexplorer_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
dir=${1:-build-package}
bash scripts/build.sh "$dir" -DFAEXPLORER_NATIVE=OFF -DBUILD_TESTING=OFF -DCMAKE_INSTALL_PREFIX=/usr
(cd "$dir" && cpack -G DEB >/dev/null)
deb=$(ls -t "$dir"/faexplorer_*.deb | head -1)
dpkg-deb --info "$deb" | sed -n '/Package:/,/Description:/p'
echo "package: $deb"
