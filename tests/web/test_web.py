#!/usr/bin/env python3
"""The web edition's tests, against a built and served site (tests/web/run.sh starts them).

  test_web.py SITE_URL SITE_DIR BUILD_BIN

1. The page's state (#umax-state) at several events of several traces (?trace=...&event=N)
   equals what `umax-trace jsonl` says of the event just applied: index, kind, ply, site,
   the counted nodes so far, and the window (q, l) of a call.
2. Searches recorded in the page (?fen=...&moves=...&nodes=N, in the Web Worker) give the
   best move, score and node count of `umax-probe --engine minimal` (the original).
3. The keyboard steps the search (Right arrow) and the page does not scroll; the canvas follows
   its frame; a trace opens from the file picker and by drag and drop, and saves as a download.
4. Bad query values, a missing trace and a file that is not a trace give a clear message.
5. A topic page carries a live view opened at its worked example's trace and event.
6. The course's main page and the app render non-blank.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import STATE, Browser, press_key, press_right  # noqa: E402

failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def state(browser):
    text = browser.evaluate(STATE)
    return json.loads(text) if text else {}


def open_page(browser, url, condition, timeout=60):
    browser.open(url)
    if not browser.wait_until(condition, timeout):
        return None
    return state(browser)


def jsonl(build_bin, trace):
    out = subprocess.run([os.path.join(build_bin, "umax-trace"), "jsonl", trace], check=True,
                         capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def distinct_png_bytes(path):
    """How many different byte values the PNG's decompressed image data holds (a blank image: few)."""
    data = open(path, "rb").read()
    position, idat = 8, b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        if kind == b"IDAT":
            idat += data[position + 8:position + 8 + length]
        position += 12 + length
    return len(set(zlib.decompress(idat)))


def main():
    site_url, site_dir, build_bin = sys.argv[1:4]
    viz = site_url.rstrip("/") + "/viz/index.html"
    browser = Browser(1280, 800)
    try:
        # 1. The state at several events of several traces: the page's element holds the object
        # `umax-trace state FILE --event N` prints (plus the page's own fields).
        page_only = ("trace", "indexesReady", "recording", "search", "message", "error")
        for name in ("start-1000", "e2e4-3000", "mate-300"):
            path = os.path.join(site_dir, "viz", "traces", name + ".trc")
            count = len(jsonl(build_bin, path))
            for event in sorted({0, 1, 36, count // 3, count // 2, count - 2, count - 1}):
                got = open_page(browser, f"{viz}?trace=traces/{name}.trc&event={event}",
                                f"JSON.parse({STATE} || '{{}}').event === {event} && "
                                f"JSON.parse({STATE}).indexesReady === true")
                if got is None:
                    check(False, f"{name} event {event}: the page reached it (state {browser.evaluate(STATE)})")
                    continue
                expected = json.loads(subprocess.run(
                    [os.path.join(build_bin, "umax-trace"), "state", path, "--event", str(event)],
                    check=True, capture_output=True, text=True).stdout)
                shown = {key: value for key, value in got.items() if key not in page_only}
                differing = sorted(key for key in set(shown) | set(expected) if shown.get(key) != expected.get(key))
                check(not differing and expected.get("event") == event,
                      f"{name} event {event}: page state == umax-trace state ({len(expected)} fields"
                      + (f"; differ: {differing}" if differing else "") + ")")

        # 2. Searches in the page equal the original's.
        searches = [("", "", 1000), ("", "e2e4 e7e5", 2000),
                    ("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", "", 300),
                    ("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "", 5000)]
        for fen, moves, nodes in searches:
            command = [os.path.join(build_bin, "umax-probe"), "--engine", "minimal", "--nodes", str(nodes)]
            if fen:
                command += ["--fen", fen]
            if moves:
                command += ["--moves", moves]
            probe = subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()
            expected = {"bestmove": probe[1], "score": int(probe[3]), "nodes": int(probe[5])}
            query = "&".join(f"{key}={value}" for key, value in
                             (("fen", fen.replace(" ", "%20")), ("moves", moves.replace(" ", "+")),
                              ("nodes", nodes)) if value)
            got = open_page(browser, f"{viz}?{query}", f"JSON.parse({STATE} || '{{}}').search", 120)
            shown = {key: (got or {}).get("search", {}).get(key) for key in expected}
            check(shown == expected, f"search fen='{fen}' moves='{moves}' nodes={nodes}: page {shown} == "
                                     f"umax-probe --engine minimal {expected}")
            check(got is not None and got.get("cursor") == 0 and got.get("eventCount", 0) > 0,
                  "  the recorded trace is open at its start")

        # 3. The keyboard steps the search; the page does not scroll.
        open_page(browser, f"{viz}?trace=traces/mate-300.trc&event=5", f"JSON.parse({STATE} || '{{}}').event === 5")
        for _ in range(3):
            press_right(browser)
        check(browser.wait_until(f"JSON.parse({STATE}).event === 8", 10), "three Right arrows step to event 8")
        check(browser.evaluate("window.scrollY + document.scrollingElement.scrollTop") == 0, "the page did not scroll")
        width = browser.evaluate("document.getElementById('canvas').width")
        browser.call("Emulation.setDeviceMetricsOverride", width=900, height=600, deviceScaleFactor=1, mobile=False)
        check(browser.wait_until("document.getElementById('canvas').width === 900", 10),
              f"the canvas follows its frame ({width} px wide, then 900)")
        browser.call("Emulation.clearDeviceMetricsOverride")

        # 3b. Files: the picker's <input type=file>, a dropped trace, a saved (downloaded) trace.
        mate = os.path.abspath(os.path.join(site_dir, "viz", "traces", "mate-300.trc"))
        e2e4 = os.path.abspath(os.path.join(site_dir, "viz", "traces", "e2e4-3000.trc"))
        open_page(browser, viz, "window.umaxWeb && umaxWeb.firstFrame")
        browser.call("DOM.enable")
        node = browser.call("DOM.querySelector", nodeId=browser.call("DOM.getDocument")["root"]["nodeId"],
                            selector="#umax-file")["nodeId"]
        browser.call("DOM.setFileInputFiles", nodeId=node, files=[mate])
        check(browser.wait_until(f"JSON.parse({STATE}).eventCount === 1268", 20), "a trace chosen in the picker opens")
        for kind in ("dragEnter", "dragOver", "drop"):
            browser.call("Input.dispatchDragEvent", type=kind, x=640, y=400,
                         data={"items": [], "files": [e2e4], "dragOperationsMask": 1})
        check(browser.wait_until(f"JSON.parse({STATE}).eventCount === 171063", 20), "a dropped trace opens")
        downloads = os.path.join(site_dir, "..", "test-downloads")
        shutil.rmtree(downloads, ignore_errors=True)
        os.makedirs(downloads)
        browser.call("Browser.setDownloadBehavior", behavior="allow", downloadPath=os.path.abspath(downloads))
        browser.evaluate(f"umaxWeb.save(JSON.parse({STATE}).trace), true")
        saved = os.path.join(downloads, "e2e4-3000.trc")
        for _ in range(100):
            if os.path.exists(saved) and os.path.getsize(saved) == os.path.getsize(e2e4):
                break
            time.sleep(0.1)
        check(os.path.exists(saved) and open(saved, "rb").read() == open(e2e4, "rb").read(),
              "the open trace saves (downloads) byte for byte")

        # 4. Clear messages for bad input.
        bad = [("?trace=traces/mate-300.trc&event=x", "event must be a whole number"),
               ("?trace=traces/mate-300.trc&event=999999", "outside the trace"),
               ("?trace=traces/no-such.trc", "cannot fetch the trace"),
               ("?trace=index.html", "cannot open"),
               ("?nodes=-5", "nodes must be a node budget"),
               ("?fen=not-a-fen&nodes=100", "recording failed"),
               ("?moves=e2e5&nodes=100", "recording failed")]
        for query, words in bad:
            got = open_page(browser, viz + query, f"JSON.parse({STATE} || '{{}}').error", 60)
            error = (got or {}).get("error", "")
            check(words in error, f"{query}: the page says '{error}' (expected '{words}')")

        # 5. A topic page carries a live view of its worked example, opened at its event.
        browser.open(site_url.rstrip("/") + "/topic_alpha_beta.html")
        browser.wait_until("document.readyState === 'complete'", 30)
        browser.evaluate("document.querySelector('.umax-live iframe').scrollIntoView(), true")
        frame_state = ("JSON.parse(document.querySelector('.umax-live iframe').contentDocument"
                       ".getElementById('umax-state').textContent || '{}')")
        event = int(open(os.path.join(build_bin, "..", "docs", "examples", "alphabeta.event")).read())
        check(browser.wait_until(f"{frame_state}.event === {event}", 60),
              f"the alpha-beta page's live view opens alphabeta.umaxtrace at event {event}")
        # Keys typed into the live view step it and do not scroll the page around it.
        rect = browser.evaluate("(() => { const r = document.querySelector('.umax-live iframe')"
                                ".getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()")
        # Doxygen's pages scroll their #doc-content, not the window.
        scroll_top = "(document.getElementById('doc-content') || document.scrollingElement).scrollTop"
        scrolled = browser.evaluate(scroll_top)
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):  # into the Source panel's text
            browser.call("Input.dispatchMouseEvent", type=kind, x=rect[0] + rect[2] * 0.5, y=rect[1] + rect[3] * 0.55,
                         button="left", clickCount=1)
            time.sleep(0.1)
        for _ in range(2):
            press_key(browser, "ArrowDown", "ArrowDown", 40)  # Down: step over (on the desktop too)
        press_key(browser, " ", "Space", 32)  # play ...
        press_key(browser, " ", "Space", 32)  # ... and pause
        check(browser.wait_until(f"{frame_state}.event > {event}", 10) and
              browser.evaluate(scroll_top) == scrolled,
              f"keys in the live view step it (event {browser.evaluate(frame_state + '.event')}) and the page "
              f"stays scrolled to {scrolled} px (now {browser.evaluate(scroll_top)})")
        shot = os.path.join(site_dir, "..", "test-topic.png")
        browser.screenshot(shot)
        check(distinct_png_bytes(shot) >= 32, f"the alpha-beta page with its live view renders non-blank ({shot})")

        # 6. Non-blank pages: the course's main page and the app.
        for url, name in ((site_url.rstrip("/") + "/index.html", "course"),
                          (f"{viz}?trace=traces/e2e4-3000.trc&event=100", "app")):
            browser.open(url)
            browser.wait_until("document.readyState === 'complete'", 30)
            if name == "app":
                browser.wait_until(f"JSON.parse({STATE} || '{{}}').event === 100", 60)
            shot = os.path.join(site_dir, "..", f"test-{name}.png")
            browser.screenshot(shot)
            distinct = distinct_png_bytes(shot)
            check(distinct >= 32, f"the {name} page renders non-blank ({distinct} distinct byte values, {shot})")
    finally:
        browser.close()
    print(f"web tests: {len(failures)} failed" if failures else "web tests: all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
