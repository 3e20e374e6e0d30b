#!/usr/bin/env bash
# The web edition's browser tests: serves build-web/site/ (scripts/web.sh
# builds it) on a free port of 127.0.0.1 and drives headless Chromium
# against it (tests/web/test_web.py, through tests/web/cdp.py).
#   tests/web/run.sh            # after scripts/web.sh
#   tests/web/run.sh --bench    # the figures instead (tests/web/bench.py; scripts/web-bench.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
site=build-web/site
if [[ ! -f $site/viz/umax-viz.wasm || ! -f $site/index.html ]]; then
  echo "tests/web/run.sh: $site/ is not built (run scripts/web.sh)" >&2
  exit 1
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$site" "$port" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
python3 - "$port" <<'WAIT'
import sys, time, urllib.request
for _ in range(100):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/index.html")
        break
    except OSError:
        time.sleep(0.1)
WAIT
program=tests/web/test_web.py
if [[ "${1:-}" == --bench ]]; then program=tests/web/bench.py; fi
python3 "$program" "http://127.0.0.1:$port/" "$site" build/bin
