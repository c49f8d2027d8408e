#!/usr/bin/env bash
# Installs the Debian 12 packages FA Explorer needs, only if some are missing. Run as root.
set -euo pipefail

packages=(
  build-essential cmake ninja-build            # compiler and build
  dpkg-dev file                                 # the .deb (scripts/package.sh: dpkg-shlibdeps)
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev
  libqt6opengl6-dev libqt6openglwidgets6       # Qt6Charts' CMake config needs Qt6OpenGL
  qt6-qpa-plugins libgl-dev libgl1-mesa-dri     # platform plugins (xcb, offscreen)
  libeigen3-dev                                 # the engine's linear algebra
  libgif-dev                                    # giflib: recordings as animated GIFs
  zlib1g-dev                                    # zlib: the gzipped IDX image files
  dataset-fashion-mnist                         # Zalando's Fashion-MNIST, IDX files (MIT)
  xvfb xauth fonts-dejavu-core                  # headless runs and screenshots
  clang-format                                  # the format check the tests run
  clang libclang-rt-14-dev                      # libFuzzer and its sanitizers (scripts/fuzz.sh)
  ccache                                        # the CLI-only build reuses the Release objects
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages (${missing[*]}); run as root or install them with apt-get" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${packages[@]}"
