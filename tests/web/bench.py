#!/usr/bin/env python3
"""The web edition's figures, in one run (scripts/web-bench.sh starts it on a served site).

  bench.py SITE_URL SITE_DIR BUILD_BIN

Prints what a page loads (raw and gzip -9), load to first frame in headless Chromium (median of
five loads, with and without a trace), nodes per second of a recorded search in the page's
worker vs `umax-trace record` natively (the same search, one run each), the WebAssembly memory
of the viewing page and of the recorder, and a long trace opened and stepped in the page.
"""
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import STATE, Browser, press_key  # noqa: E402


def main():
    site_url, site_dir, build_bin = sys.argv[1:4]
    viz_dir = os.path.join(site_dir, "viz")
    viz = site_url.rstrip("/") + "/viz/index.html"
    print("== what a page loads (bytes; gzip -9 as a server would send it)")
    total = total_gz = 0
    for name in ("umax-viz.wasm", "umax-viz.js", "umax-viz.data", "index.html", "umax-worker.js",
                 "umax-record.wasm", "umax-record.js"):
        data = open(os.path.join(viz_dir, name), "rb").read()
        packed = len(gzip.compress(data, 9))
        print(f"  {name:18} {len(data):>10,} raw {packed:>10,} gzip")
        if "record" not in name and "worker" not in name:
            total += len(data)
            total_gz += packed
    print(f"  {'viewing page':18} {total:>10,} raw {total_gz:>10,} gzip (the recorder loads only to record)")

    browser = Browser(1280, 800)
    try:
        print("== load to first frame (navigation start to the end of the frame), headless Chromium, "
              "SwiftShader WebGL")
        for label, query, condition in (
                ("empty app", "", "window.umaxWeb && umaxWeb.firstFrame"),
                ("with e2e4-3000.trc", "?trace=traces/e2e4-3000.trc", "window.umaxWeb && umaxWeb.firstTraceFrame")):
            times = []
            for _ in range(5):
                browser.call("Network.setCacheDisabled", cacheDisabled=True)
                browser.open(viz + query)
                if not browser.wait_until(condition, 60):
                    print(f"  {label}: no frame within 60 s")
                    break
                times.append(browser.evaluate(condition.split("&&")[1].strip()) / 1000)
            if times:
                print(f"  {label:20} median {statistics.median(times):.2f} s  "
                      f"(runs: {', '.join(f'{t:.2f}' for t in times)})")
        print(f"  viewing page's WebAssembly memory: {browser.evaluate('umaxWeb.memoryBytes()') / 1e6:.1f} MB "
              "(no hash table: the engine is not instantiated)")

        print("== a recorded search: page (Web Worker) vs native (umax-trace record), one run each")
        moves, nodes = "e2e4", 100000
        with tempfile.TemporaryDirectory() as scratch:
            start = time.perf_counter()
            out = subprocess.run([os.path.join(build_bin, "umax-trace"), "record", "--moves", moves, "--nodes",
                                  str(nodes), "-q", "-o", os.path.join(scratch, "t.trc")],
                                 check=True, capture_output=True, text=True).stdout
            native_wall = time.perf_counter() - start
            searched = int(re.search(r"nodes (\d+)", out).group(1))
            seconds = float(re.search(r", ([0-9.]+) s$", out, re.M).group(1))
            native = searched / seconds
            print(f"  native: {searched:,} nodes in {seconds:.2f} s (the think, as umax-trace record times it) = {native / 1e6:.2f} M nodes/s "
                  f"(process {native_wall:.2f} s)")
        browser.open(f"{viz}?moves={moves}&nodes={nodes}")
        browser.wait_until("window.umaxWeb && umaxWeb.firstFrame", 60)
        # Every animation frame's time, from the recording on (the opening and the indexing included).
        browser.evaluate("umaxWeb.frames = []; (function tick(now) { umaxWeb.frames.push(now); "
                         "if (umaxWeb.frames.length < 100000) requestAnimationFrame(tick); })"
                         "(performance.now()), true")
        if browser.wait_until("window.umaxWeb && umaxWeb.lastSearch", 300):
            result = browser.evaluate("umaxWeb.lastSearch")
            page = result["nodes"] / result["searchSeconds"]
            print(f"  page:   {result['nodes']:,} nodes in {result['searchSeconds']:.2f} s = {page / 1e6:.2f} M nodes/s "
                  f"= {page / native:.2f}x native (with the hash table's allocation and reading the trace "
                  f"out: {result['seconds']:.2f} s)")
            print(f"  recorder's WebAssembly memory: {result['memoryBytes'] / 1e6:.1f} MB (hash table included)")
            browser.wait_until(f"JSON.parse({STATE} || '{{}}').eventCount > 0", 120)
            got = json.loads(browser.evaluate(STATE))
            print(f"  the page then opens its trace: {got.get('eventCount', 0):,} events; "
                  f"viewing page's memory {browser.evaluate('umaxWeb.memoryBytes()') / 1e6:.1f} MB")
            print(f"  opening it (reader, replay; to its first frame): "
                  f"{(browser.evaluate('umaxWeb.firstTraceFrame - umaxWeb.lastSearchAt')) / 1000:.2f} s")
            browser.wait_until(f"JSON.parse({STATE} || '{{}}').indexesReady === true", 300)
            ready = browser.evaluate("performance.now()")
            first = browser.evaluate("umaxWeb.firstTraceFrame")
            frames = [t for t in browser.evaluate("umaxWeb.frames") if first <= t <= ready]
            gaps = sorted(b - a for a, b in zip(frames, frames[1:]))
            if gaps:
                print(f"  indexing it (call tree, hash history; steps before each frame): ready "
                      f"{(ready - first) / 1000:.2f} s after its first frame; {len(gaps)} frames meanwhile, "
                      f"interval median {statistics.median(gaps):.0f} ms, worst {gaps[-1]:.0f} ms")
            # Stepping it: play (Space) at 200,000 events/s and time the frames for 3 s.
            browser.evaluate("umaxWeb.frames = []; (function tick(now) { umaxWeb.frames.push(now); "
                             "if (umaxWeb.frames.length < 100000) requestAnimationFrame(tick); })"
                             "(performance.now()), true")
            for _ in range(10):  # '=' doubles the speed: 200 -> 204,800 events/s
                press_key(browser, "=", "Equal", 187)
            before = json.loads(browser.evaluate(STATE)).get("cursor", 0)
            press_key(browser, " ", "Space", 32)
            browser.evaluate("umaxWeb.frames = [], true")
            time.sleep(3)
            frames = browser.evaluate("umaxWeb.frames")
            press_key(browser, " ", "Space", 32)
            after = json.loads(browser.evaluate(STATE)).get("cursor", 0)
            gaps = sorted(b - a for a, b in zip(frames, frames[1:]))
            if gaps:
                print(f"  playing it for 3 s: {after - before:,} events stepped, {len(gaps)} frames, "
                      f"frame interval median {statistics.median(gaps):.1f} ms, worst {gaps[-1]:.1f} ms")
        else:
            print("  page: no result within 300 s")
    finally:
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
