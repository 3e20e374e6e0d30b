#!/usr/bin/env bash
# The web edition: umax-viz in the browser (WebAssembly + WebGL 2) and the
# course, as one static site in build-web/site/ (index.html the course's main
# page, viz/index.html the app, viz/traces/ a few recorded searches).
#   scripts/web.sh                # install what is missing, build build-web/site/
#   scripts/web.sh --serve [PORT] # the same, then serve it on http://127.0.0.1:PORT/ (8000)
#   scripts/web.sh --no-install   # build only (CI, when the packages are known to be there)
# The site works on any static file server (no special headers); not from
# file:// (browsers refuse WebAssembly there).
# What it installs (Debian packages, idempotent): the project's own
# (scripts/install-deps.sh), emscripten, chromium (the browser tests),
# python3-fonttools (the pieces' font cut to the 12 chess glyphs) and
# dpkg-dev; then Dear ImGui's sources, `apt-get source imgui` (libimgui-dev
# has only headers and a host library), through a deb-src entry it adds.
# While another apt or dpkg holds the package lock, it waits (scripts/apt-lock.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
serve=no
port=8000
install=yes
while (($#)); do
  case "$1" in
    --serve)
      serve=yes
      if [[ "${2:-}" =~ ^[0-9]+$ ]]; then port=$2; shift; fi
      ;;
    --no-install) install=no ;;
    -h | --help)
      sed -n '2,15p' "$0"
      exit 0
      ;;
    *)
      echo "web.sh: unknown argument '$1' (try --help)" >&2
      exit 2
      ;;
  esac
  shift
done

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
# apt_get: apt-get that waits while another apt or dpkg holds the package lock.
source scripts/apt-lock.sh
imgui_version=1.86+ds
imgui_dir=$root/build-web/imgui-$imgui_version

if [[ $install == yes ]]; then
  scripts/install-deps.sh
  missing=()
  for p in emscripten chromium dpkg-dev xz-utils python3-fonttools; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "web.sh: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt_get update -qq
    apt_get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
  fi
  if [[ ! -f $imgui_dir/imgui.cpp ]]; then
    if ! grep -rqs "^Types:.*deb-src" /etc/apt/sources.list.d/ && ! grep -qs "^deb-src" /etc/apt/sources.list; then
      echo "web.sh: adding Debian's source packages (deb-src) to apt's sources"
      $SUDO tee /etc/apt/sources.list.d/umax-deb-src.sources >/dev/null <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
      apt_get update -qq
    fi
    mkdir -p build-web
    (cd build-web && apt-get source -qq "imgui=1.86+ds-1" >/dev/null 2>&1 || apt-get source -qq imgui)
  fi
fi
if [[ ! -f $imgui_dir/imgui.cpp ]]; then
  echo "web.sh: $imgui_dir/imgui.cpp missing (run scripts/web.sh without --no-install)" >&2
  exit 1
fi
command -v emcmake >/dev/null || {
  echo "web.sh: emscripten missing (Debian: emscripten)" >&2
  exit 1
}

# The course and the sample traces come from the normal build (build/).
if [[ ! -f build/CMakeCache.txt ]]; then cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo; fi
cmake --build build -j "$(nproc)" --target docs umax-trace

# The app and the worker's recorder, with Debian's emscripten (its cache is
# frozen: no ports, hence no zlib, GLFW and WebGL from its own library).
export NODE_PATH=/usr/share/nodejs
mkdir -p build-web/headers
ln -sfn /usr/include/nlohmann build-web/headers/nlohmann  # header-only, and alone (not all of /usr/include)
# The app draws only the 12 chess glyphs from DejaVu Sans: 7 KB instead of 760 KB to load.
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
if /usr/bin/python3 -c "import fontTools" 2>/dev/null; then
  /usr/bin/python3 -m fontTools.subset "$font" --unicodes=U+2654-265F \
    --output-file=build-web/DejaVuSans-chess.ttf 2>/dev/null
  font=$root/build-web/DejaVuSans-chess.ttf
fi
emcmake cmake -S web -B build-web/wasm -DIMGUI_DIR="$imgui_dir" -DUMAX_HEADERS="$root/build-web/headers" \
  -DUMAX_FONT="$font" >/dev/null
cmake --build build-web/wasm -j "$(nproc)"

# The site: the course, the app beside it in viz/.
site=build-web/site
rm -rf "$site"
mkdir -p "$site/viz/traces"
cp -r build/docs/html/. "$site/"
cp build-web/wasm/out/{index.html,umax-worker.js,umax-viz.js,umax-viz.wasm,umax-viz.data,umax-record.js,umax-record.wasm} \
  "$site/viz/"
# Sample traces the app opens with ?trace=traces/NAME.trc (and the browser tests use).
trace=build/bin/umax-trace
"$trace" record --nodes 1000 -q -o "$site/viz/traces/start-1000.trc"
"$trace" record --moves "e2e4" --nodes 3000 -q -o "$site/viz/traces/e2e4-3000.trc"
"$trace" record --fen "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1" --nodes 300 -q -o "$site/viz/traces/mate-300.trc"
# Every topic page gets its worked example live (the traces the docs build recorded).
python3 web/embed_live_views.py "$site" build/docs/examples | tail -1
echo "web.sh: the site is in $site/ ($(du -sh "$site" | cut -f1)); viz/index.html is the app"

if [[ $serve == yes ]]; then
  echo "web.sh: serving $site/ on http://127.0.0.1:$port/ (the app: http://127.0.0.1:$port/viz/index.html); Ctrl+C ends"
  exec python3 -m http.server --bind 127.0.0.1 --directory "$site" "$port"
fi
