#!/usr/bin/env bash
# The web edition's figures: what a page loads (raw and gzip), load to first
# frame in headless Chromium, nodes/s of a search recorded in the page vs
# native, WebAssembly memory to view and to record, stepping a trace.
#   scripts/web-bench.sh            # builds the site first (scripts/web.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/web.sh
exec tests/web/run.sh --bench
