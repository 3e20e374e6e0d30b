#!/usr/bin/env bash
# Installs the Debian packages micro-Max Anatomy needs, and nothing else.
# Idempotent: when every package is already installed it only runs dpkg-query.
#   scripts/install-deps.sh          # packages for building and testing (incl. xvfb)
#   scripts/install-deps.sh --gui    # the same plus what a desktop session needs
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  catch2 libcli11-dev nlohmann-json3-dev libbenchmark-dev
  libisal-dev  # CRC-32C of the trace format (Intel's ISA-L: crc32_iscsi)
  libimgui-dev libglfw3-dev libgl-dev libgl1-mesa-dri libstb-dev fonts-dejavu-core
  doxygen graphviz
  libjs-lunr  # the docs' search of the prose (lunr.js, copied into the docs)
  nodejs  # the suite runs a query of the prose search with lunr (test_docs_prose.cpp)
  clang-format  # scripts/check-format.sh (CI)
  clang libclang-rt-14-dev  # libFuzzer and clang's sanitizer runtimes (fuzz/)
  xvfb xauth
  xdotool  # umax-viz test: Ctrl+Q while a search is recorded (keys into the window under xvfb)
  time  # /usr/bin/time: peak memory in the bench table (scripts/bench.sh --big)
  xboard polyglot fairymax  # real chess GUI, UCI adapter and sparring engine (protocol tests, matches)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
# apt_get waits while another apt or dpkg holds the package lock.
source "$(dirname "$0")/apt-lock.sh"
export DEBIAN_FRONTEND=noninteractive
apt_get update -qq
apt_get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
