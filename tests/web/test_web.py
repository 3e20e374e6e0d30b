#!/usr/bin/env python3
"""The web edition's tests, against a built and served site (tests/web/run.sh starts them).

  test_web.py SITE_URL SITE_DIR BUILD_BIN

1. The page's state (#umax-state) at several events of several traces (?trace=...&event=N)
   equals what `umax-trace jsonl` says of the event just applied: index, kind, ply, site,
   the counted nodes so far, and the window (q, l) of a call.
2. Searches recorded in the page (?fen=...&moves=...&nodes=N, in the Web Worker) give the
   best move, score and node count of `umax-probe --engine minimal` (the original), "none" on
   positions without a move (stalemate, mate) included; so does the worker asked directly. The Lab
   in the worker (without=, depth=, the cap maxNodes) and on each idea's topic page: "without this
   idea" compares both searches at the depth micro-Max's reached, each row equal to umax-probe's
   (--depth D, --without IDEA --depth D), and a search stopped at the page's cap says so
   (screenshot: build-web/test-lab-toggle.png, topic 11's).
3. The keyboard steps the search (Right arrow) and the page does not scroll; the canvas follows
   its frame; a trace opens from the file picker and by drag and drop, and saves as a download.
4. Bad query values (events past the trace however long, event= alone), a missing trace and a
   file that is not a trace give a clear message; ignored parameters are named; from file:// the
   page says to serve it (scripts/web.sh --serve).
5. Every topic page (18 of 18) carries a live view opened at its worked example's trace and at
   the event the example is about, the whole view in sight at 1280x800; keys typed into it step it.
6. The course's main page and the app render non-blank.
7. On a phone (390x844, 3 device pixels per CSS pixel, touch) and a tablet held upright (768x1024),
   in Chromium's device emulation: every course page (the topics, the glossary, the flag bits, the
   Lab and its theory, the quirks, the variable index, the main page) has no horizontal scroll, text of a readable size across the whole width, and its navigation behind a
   button a finger can hit that opens and closes it; the app takes the compact layout (tabs, the
   board first, the Timeline below), all of it on the screen, its tabs and step buttons at least
   40 CSS px, a tap on > steps exactly one event and a tap on a tab shows its panel. One navigation
   button on the course pages (Doxygen's own menu button once sat beside "Topics"); the app says the
   event's sentence once on every tab (it was under the board and again under the Timeline); a tap
   leaves no tooltip up once it has stepped, a tap on a name shows its note until the next step; F1
   opens the help within the screen (at 1280x800 too). Screenshots: build-web/test-phone-*.png and
   test-tablet-*.png. On the phone also the reader's layout findings
   (issue 39 item 7): figures fit the screen or scroll in their box (a phone keeps a figure legible), each line's explanation under its code, wide
   tables keep their first column in sight, no table row taller than 600 px (the quirks' were
   754), the Lab's button and the folds 40 px tall, headings' lines apart, the Lab's result table
   styled and scrolling inside itself.
8. The worked examples recorded with a web edition's address (umax-docexamples --web-url, what
   -DUMAX_WEB_URL passes) link all 18 examples' traces at their events, and a link opens there.
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import STATE, Browser, emulate, press_key, press_right, tap  # noqa: E402

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


# Positions without a move for the side to move: black stalemated, black mated.
STALEMATE = "7k/5Q2/5K2/8/8/8/8/8 b - - 0 1"
MATED = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"


def probe(build_bin, fen, moves, nodes, without="", depth=0):
    """The original's result (umax-probe --engine minimal): bestmove, score and nodes; with `without`,
    the readable build's without those ideas (the Lab: umax-probe --engine readable --without); with
    `depth` (nodes then 0), the readable build's think to that depth (the Lab's --depth)."""
    command = [os.path.join(build_bin, "umax-probe")]
    command += ["--depth", str(depth)] if depth else ["--nodes", str(nodes)]
    if without or depth:
        command += ["--engine", "readable"] + (["--without", without] if without else [])
    else:
        command += ["--engine", "minimal"]
    if fen:
        command += ["--fen", fen]
    if moves:
        command += ["--moves", moves]
    words = subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()
    return {"bestmove": words[1], "score": int(words[3]), "nodes": int(words[5])}


def worker_answer(browser, job):
    """The result the recorder's worker (umax-worker.js, beside the open app) posts for `job` (JSON
    text), or {} when it gives none within a minute."""
    browser.evaluate("window.workerAnswer = null; (() => { const w = new Worker('umax-worker.js'); "
                     "w.onmessage = (m) => { if (m.data.type === 'done') { window.workerAnswer = m.data.result; "
                     "w.terminate(); } }; w.postMessage(" + job + "); })(), true")
    answered = browser.wait_until("window.workerAnswer", 60)
    return browser.evaluate("window.workerAnswer") if answered else {}


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


# What a page looks like on a small screen: its widths, the smallest text shown, and the elements
# that reach past the screen's right edge without a scrolling box of their own around them.
PAGE_METRICS = """(() => {
  const scroller = document.getElementById('doc-content') || document.scrollingElement;
  const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    return {x: r.left, y: r.top, w: r.width, h: r.height, shown: s.display !== 'none' && s.visibility !== 'hidden'
            && r.width > 0}; };
  const sticking = [];
  let smallest = 1000, smallestText = '';
  for (const e of scroller.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.right > innerWidth + 1) {
      let p = e.parentElement, scrolls = false;
      for (; p && p !== scroller; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll' || o === 'hidden') { scrolls = true; break; }
      }
      if (!scrolls) sticking.push(e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') + ' to x '
                                  + Math.round(r.right));
    }
    // Text the reader reads: a paragraph's, a list's, a table's (not the SVG boards' labels).
    if (e.closest('svg') || !e.closest('div.contents')) continue;
    if ([...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim().length > 2)) {
      const size = parseFloat(getComputedStyle(e).fontSize);
      if (size < smallest) { smallest = size; smallestText = e.tagName.toLowerCase() + ': ' + e.textContent.trim().slice(0, 30); }
    }
  }
  return JSON.stringify({scrollWidth: document.scrollingElement.scrollWidth, innerWidth, innerHeight,
    contentScroll: [scroller.scrollWidth, scroller.clientWidth], sticking: sticking.slice(0, 5), smallest, smallestText,
    // The navigation buttons in sight: ours ("Topics") and Doxygen's own menu button (which Doxygen
    // hides above 768 px by moving it 99999 px up).
    navButtons: [document.getElementById('umax-nav-toggle'), document.querySelector('label.main-menu-btn')]
      .map(box).filter((b) => b && b.shown && b.y + b.h > 0 && b.y < innerHeight && b.x < innerWidth).length,
    contents: box(document.querySelector('div.contents')), toggle: box(document.getElementById('umax-nav-toggle')),
    tree: box(document.getElementById('side-nav')), search: box(document.getElementById('umax-prose-input'))});
})()"""


# The reader's layout findings of 2026-11-28 on a phone (issue 39 item 7), measured on one page:
# figures cut by their frame or wider than the screen, "line | code | what it does" tables whose
# explanation is squeezed, wide data tables with no first column kept in sight, small targets (the
# Lab's button, the answers' folds), headings whose lines overlap, and the Lab's bare result table.
LAYOUT_METRICS = """(() => {
  const out = {figures: [], notes: [], tables: [], targets: [], headings: [], labTable: null};
  for (const f of document.querySelectorAll('div.contents iframe[scrolling="no"]'))
    out.figures.push('a frame that cannot scroll: ' + f.getAttribute('src'));
  for (const f of document.querySelectorAll('div.dotgraph img, div.image img')) {
    const r = f.getBoundingClientRect();
    // A figure wider than the screen is one that scrolls sideways inside its own box (a dot figure
    // on a phone); one shrunk there keeps at least its own size or 2.4 screens (labels stay legible).
    const box = f.closest('div.dotgraph');
    const scrolls = box && getComputedStyle(box).overflowX === 'auto' && box.getBoundingClientRect().right <= innerWidth + 1;
    if (r.width > 0 && r.right > innerWidth + 1 && !scrolls) out.figures.push(f.getAttribute('src') + ' to x ' + Math.round(r.right));
    const own = Number(f.getAttribute('width'));
    if (innerWidth <= 600 && f.classList.contains('umax-dot') && own > 0 && r.width > 0 &&
        r.width < 0.99 * Math.min(own, 2.4 * innerWidth))
      out.figures.push(f.getAttribute('src') + ' shrunk to ' + Math.round(r.width) + ' of ' + own + ' px');
  }
  for (const row of document.querySelectorAll('table.umax-notes tr')) {
    const cells = [...row.cells];
    if (cells.length !== 3 || cells[0].tagName === 'TH' || getComputedStyle(row).display === 'none') continue;
    const r = cells[2].getBoundingClientRect();
    if (r.width < innerWidth * 0.7 || r.right > innerWidth + 1)
      out.notes.push(cells[0].textContent.trim() + ': its explanation ' + Math.round(r.width) + ' px wide to x ' + Math.round(r.right));
  }
  for (const t of document.querySelectorAll('table.markdownTable, table.doxtable')) {
    if (t.scrollWidth <= t.clientWidth + 1) continue;
    const first = t.querySelector('td');
    if (!first || getComputedStyle(first).position !== 'sticky')
      out.tables.push((t.rows[0] ? t.rows[0].textContent.trim().slice(0, 40) : '?') + ': scrolls without its first column');
  }
  for (const e of document.querySelectorAll('div.umax-lab button, details > summary')) {
    const r = e.getBoundingClientRect();
    if (r.height > 0 && r.height < 40) out.targets.push(e.textContent.trim().slice(0, 30) + ' ' + Math.round(r.height) + ' px');
  }
  for (const h of document.querySelectorAll('div.contents h1, div.contents h2, div.contents h3')) {
    const s = getComputedStyle(h), size = parseFloat(s.fontSize);
    const line = s.lineHeight === 'normal' ? size * 1.2 : parseFloat(s.lineHeight);
    if (line < size * 1.2) out.headings.push(h.textContent.trim().slice(0, 30) + ': lines ' + line + ' px for ' + size + ' px');
  }
  const lab = document.querySelector('table.umax-lab-result');
  if (lab) { const s = getComputedStyle(lab); out.labTable = [s.overflowX, s.display, s.borderCollapse]; }
  return JSON.stringify(out);
})()"""


def layout_checks(browser, where):
    """Section 7: the reader's phone layout findings, each a check on the page now open."""
    m = json.loads(browser.evaluate(LAYOUT_METRICS))
    check(not m["figures"], f"{where}: every figure fits the screen or scrolls in its box, legible on a phone "
                            f"({m['figures'][:3]})")
    check(not m["notes"], f"{where}: each line's explanation sits under its code, the screen's width ({m['notes'][:3]})")
    check(not m["tables"], f"{where}: a wide table keeps its first column in sight as it scrolls ({m['tables'][:3]})")
    check(not m["targets"], f"{where}: the Lab's button and the answers' folds are 40 px or taller ({m['targets'][:3]})")
    check(not m["headings"], f"{where}: a heading's lines are at least 1.2 times its text apart ({m['headings'][:3]})")
    if m["labTable"] is not None:
        check(m["labTable"][0] in ("auto", "scroll") and m["labTable"][2] == "collapse",
              f"{where}: the Lab's result table is styled and scrolls inside itself ({m['labTable']})")


def center(rect):
    return rect["x"] + rect["w"] / 2, rect["y"] + rect["h"] / 2


def small_screen(browser, site_url, site_dir, device, width, height):
    """Section 7 on one emulated device (its metrics and touch already set)."""
    base = site_url.rstrip("/") + "/"
    pages = ["index.html", "page_glossary.html", "page_flags.html", "page_lab.html", "page_lab_theory.html",
             "page_quirks.html", "page_variables.html"] + sorted(
        name for name in os.listdir(site_dir) if name.startswith("topic_") and name.endswith(".html"))
    for page in pages:
        browser.open(base + page)
        browser.wait_until("document.readyState === 'complete' && document.getElementById('umax-nav-toggle')", 30)
        m = json.loads(browser.evaluate(PAGE_METRICS))
        where = f"{device} {width}x{height}, {page}"
        check(m["scrollWidth"] <= m["innerWidth"] and m["contentScroll"][0] <= m["contentScroll"][1]
              and not m["sticking"],
              f"{where}: no horizontal scroll (page {m['scrollWidth']} of {m['innerWidth']} px, text "
              f"{m['contentScroll'][0]} of {m['contentScroll'][1]} px; sticking out: {m['sticking']})")
        check(m["smallest"] >= 12, f"{where}: the smallest text is {m['smallest']} px ({m['smallestText']}), "
                                   "at least 12")
        if device == "phone":
            layout_checks(browser, where)
            # The third reader: the quirks page's rows were 754 px tall, three words a line in 122 px
            # columns; a table a phone cannot show whole scrolls sideways or turns into cards.
            tallest = browser.evaluate("Math.max(0, ...[...document.querySelectorAll('.contents table tr')]"
                                       ".map(r => r.getBoundingClientRect().height))")
            check(tallest <= 600, f"{where}: no table row is taller than 600 px ({tallest:.0f})")
        contents = m["contents"] or {"w": 0}
        check(contents["w"] >= m["innerWidth"] - 30,
              f"{where}: the text takes the width ({contents['w']:.0f} of {m['innerWidth']} px)")
        toggle, tree = m["toggle"] or {}, m["tree"] or {}
        check(toggle.get("shown") and toggle["w"] >= 40 and toggle["h"] >= 40 and not tree.get("shown"),
              f"{where}: the navigation is folded behind a button of {toggle.get('w', 0):.0f}x{toggle.get('h', 0):.0f} px")
        # One navigation button: Doxygen's own menu button (under 768 px) once sat beside "Topics".
        check(m["navButtons"] == 1, f"{where}: one navigation button in sight ({m['navButtons']})")
        if page in ("index.html", "topic_alpha_beta.html") and toggle.get("shown"):
            time.sleep(0.5)  # Doxygen's scripts settle the header (its menu, the search box) after the load
            toggle = json.loads(browser.evaluate(PAGE_METRICS))["toggle"]
            tap(browser, *center(toggle))
            opened = json.loads(browser.evaluate(PAGE_METRICS))["tree"]
            # The tree's entry of this page (Doxygen marks it "selected") is in sight, and names it.
            link = browser.evaluate("(() => { const a = document.querySelector('#nav-tree .selected .label a'); "
                                    "if (!a) return null; const r = a.getBoundingClientRect(); "
                                    "return [r.left, r.top, r.width, r.height, innerWidth, innerHeight, "
                                    "a.textContent.trim()]; })()")
            check(opened["shown"] and opened["x"] >= 0 and opened["x"] + opened["w"] <= width + 1 and link
                  and 0 <= link[1] and link[1] + link[3] <= link[5] and link[2] > 0,
                  f"{where}: a tap on the button opens the navigation over the page, this page's entry in sight "
                  f"({opened}, link {link})")
            if page == "topic_alpha_beta.html":
                browser.screenshot(os.path.join(site_dir, "..", f"test-{device}-course-topics.png"))
            closer = json.loads(browser.evaluate(PAGE_METRICS))["toggle"]
            tap(browser, *center(closer))
            check(not json.loads(browser.evaluate(PAGE_METRICS))["tree"]["shown"],
                  f"{where}: a second tap folds the navigation away")
        if page == "topic_board.html":
            # The boards' 0x88 square numbers: hidden, shown by a tap on the button beside the boards.
            hex_shown = ("(() => { const t = document.querySelector('div.umax-board text.umax-hex'); "
                         "return t ? getComputedStyle(t).display !== 'none' : null; })()")
            button = json.loads(browser.evaluate(
                "(() => { const b = document.querySelector('button.umax-hex-toggle'); if (!b) return 'null'; "
                "b.scrollIntoView(); const r = b.getBoundingClientRect(); "
                "return JSON.stringify({x: r.left, y: r.top, w: r.width, h: r.height}); })()"))
            before = browser.evaluate(hex_shown)
            if button:
                tap(browser, *center(button))
            after = browser.evaluate(hex_shown)
            check(button and button["h"] >= 40 and before is False and after is True,
                  f"{where}: the boards' 0x88 numbers are hidden ({before}) and a tap on the button "
                  f"({button}) shows them ({after})")
            browser.screenshot(os.path.join(site_dir, "..", f"test-{device}-course-hex.png"))
            if button:
                tap(browser, *center(button))
            check(browser.evaluate(hex_shown) is False, f"{where}: a second tap hides them again")
        if page == "topic_alpha_beta.html":
            browser.screenshot(os.path.join(site_dir, "..", f"test-{device}-course.png"))
            # Its live view: as wide as the screen at most, in the compact layout.
            browser.evaluate("document.querySelector('.umax-live iframe').scrollIntoView(), true")
            frame_state = ("JSON.parse(document.querySelector('.umax-live iframe').contentDocument"
                           ".getElementById('umax-state').textContent || '{}')")
            reached = browser.wait_until(f"{frame_state}.layout && {frame_state}.layout.length > 0", 60)
            frame = browser.evaluate("(() => { const r = document.querySelector('.umax-live iframe')"
                                     ".getBoundingClientRect(); return [r.left, r.right, r.height]; })()")
            compact = browser.evaluate(f"{frame_state}.compact") if reached else None
            check(reached and frame[0] >= 0 and frame[1] <= width + 1 and compact is True,
                  f"{where}: the live view lies within the screen (x {frame[0]:.0f} to {frame[1]:.0f}) in the "
                  f"compact layout ({compact})")
            browser.screenshot(os.path.join(site_dir, "..", f"test-{device}-live-view.png"))

    # The app, full-window.
    viz = base + "viz/index.html"
    got = open_page(browser, f"{viz}?trace=traces/e2e4-3000.trc&event=100",
                    f"JSON.parse({STATE} || '{{}}').event === 100 && JSON.parse({STATE}).layout"
                    ".some((r) => r.name === 'Tabs / Board')", 60)
    where = f"{device} {width}x{height}, the app"
    if got is None:
        check(False, f"{where}: opens at event 100 with its tabs (state {browser.evaluate(STATE)})")
        return
    rects = {r["name"]: r for r in got["layout"]}
    canvas = browser.evaluate("[document.getElementById('canvas').getBoundingClientRect().width, "
                              "document.scrollingElement.scrollWidth, innerWidth, innerHeight]")
    check(got["compact"] is True and got["fontSize"] >= 16,
          f"{where}: the compact layout, text {got['fontSize']} px high (at least 16)")
    check(canvas[0] == canvas[2] and canvas[1] <= canvas[2], f"{where}: the canvas is the screen's width, "
                                                              f"no horizontal scroll ({canvas})")

    def on_screen(r):
        return r["x"] >= 0 and r["y"] >= 0 and r["x"] + r["w"] <= canvas[2] + 1 and r["y"] + r["h"] <= canvas[3] + 1

    board, timeline = rects.get("Board"), rects.get("Timeline")
    check(board is not None and on_screen(board) and board["w"] >= canvas[2] - 2 and board["h"] >= 250
          and rects.get("Board / caption") and on_screen(rects["Board / caption"])
          and rects["Board / caption"]["y"] + rects["Board / caption"]["h"] <= board["y"] + board["h"] + 1,
          f"{where}: the Board panel first, the screen's width, its caption in it ({board}, "
          f"{rects.get('Board / caption')})")
    check(timeline is not None and on_screen(timeline) and timeline["y"] >= board["y"] + board["h"] - 1,
          f"{where}: the Timeline below the board, on the screen ({timeline})")
    fingers = {name: r for name, r in rects.items() if name.startswith("Tabs / ") or name.startswith("Timeline / ")}
    small = {name: (r["w"], r["h"]) for name, r in fingers.items() if r["w"] < 40 or r["h"] < 40 or not on_screen(r)}
    check(len(fingers) >= 7 and not small, f"{where}: {len(fingers)} tabs and step buttons, each on the screen and "
                                           f"at least 40x40 CSS px (smaller or off it: {small})")
    shot = os.path.join(site_dir, "..", f"test-{device}-app-board.png")
    browser.screenshot(shot)
    check(distinct_png_bytes(shot) >= 32, f"{where}: renders non-blank ({shot})")
    # The event's sentence once on the small screen: under the board (the Timeline then gives only
    # the event's number); it was under both.
    said = [n for n in rects if n in ("Board / caption", "Timeline / narration")]
    check(said == ["Board / caption"], f"{where}: the event is said once, under the board ({said})")
    # A tap on > steps one event (the browser's mouse events after a tap once pressed it twice), and
    # leaves no tooltip up (the button's "step one event" once stayed over the narration).
    if "Timeline / step" in rects:
        tap(browser, *center(rects["Timeline / step"]))
        stepped = browser.wait_until(f"JSON.parse({STATE}).event === 101", 10)
        time.sleep(1)
        now = state(browser)
        check(stepped and now.get("event") == 101, f"{where}: a tap on > steps from event 100 to 101 "
                                                   f"(now {now.get('event')})")
        check(now.get("tooltip") is False, f"{where}: after the tap on > no tooltip is up ({now.get('tooltip')})")
    # A tap on each tab shows its panel in the board's place, and nothing else there.
    for name in ("Variables", "Source", "Search tree", "Hash table", "Board"):
        tab = rects.get("Tabs / " + name)
        if not tab:
            check(False, f"{where}: a tab '{name}'")
            continue
        tap(browser, *center(tab))
        shown = browser.wait_until(f"JSON.parse({STATE}).layout.some((r) => r.name === {json.dumps(name)})", 10)
        after = {r["name"]: r for r in state(browser)["layout"]}
        others = [n for n in ("Board", "Variables", "Source", "Search tree", "Hash table") if n != name and n in after]
        check(shown and on_screen(after[name]) and not others,
              f"{where}: a tap on the tab '{name}' shows its panel alone ({after.get(name)}; also {others})")
        said = [n for n in after if n in ("Board / caption", "Timeline / narration")]
        check(said == (["Board / caption"] if name == "Board" else ["Timeline / narration"]),
              f"{where}, the tab '{name}': the event is said once ({said})")
        if name == "Variables" and "Variables / k" in after:
            # A tap on a name shows its note; it stays while the finger is off the screen, and closes
            # at the next step (a tap on >).
            tap(browser, *center(after["Variables / k"]))
            shown_tip = browser.wait_until(f"JSON.parse({STATE}).tooltip === true", 5)
            time.sleep(0.5)
            still = state(browser).get("tooltip")
            browser.screenshot(os.path.join(site_dir, "..", f"test-{device}-app-tooltip.png"))
            tap(browser, *center(after["Timeline / step"]))
            closed = browser.wait_until(f"JSON.parse({STATE}).tooltip === false", 5)
            check(shown_tip and still is True and closed,
                  f"{where}: a tap on the variable k shows its note ({shown_tip}, still {still} after 0.5 s) "
                  f"and a tap on > closes it ({closed})")
        if name != "Board":
            browser.screenshot(os.path.join(site_dir, "..", f"test-{device}-app-{name.split()[0].lower()}.png"))
    help_shown(browser, site_dir, device, where, canvas[2], canvas[3])


def help_shown(browser, site_dir, device, where, width, height):
    """F1 opens the help within the screen (on a phone, all its width); Esc closes it."""
    press_key(browser, "F1", "F1", 112)
    opened = browser.wait_until(f"JSON.parse({STATE}).layout.some((r) => r.name === 'Help')", 10)
    shown = {r["name"]: r for r in state(browser)["layout"]}.get("Help") or {}
    browser.screenshot(os.path.join(site_dir, "..", f"test-{device}-app-help.png"))
    fits = opened and shown["x"] >= 0 and shown["y"] >= 0 and shown["x"] + shown["w"] <= width + 1 \
        and shown["y"] + shown["h"] <= height + 1
    check(fits and (width >= 800 or shown["w"] >= width - 1),
          f"{where}: F1 opens the help within the screen ({shown})")
    press_key(browser, "Escape", "Escape", 27)
    check(browser.wait_until(f"!JSON.parse({STATE}).layout.some((r) => r.name === 'Help')", 10),
          f"{where}: Esc closes the help")


def main():
    site_url, site_dir, build_bin = sys.argv[1:4]
    viz = site_url.rstrip("/") + "/viz/index.html"
    browser = Browser(1280, 800)
    try:
        # 1. The state at several events of several traces: the page's element holds the object
        # `umax-trace state FILE --event N` prints (plus the page's own fields).
        page_only = ("trace", "indexesReady", "recording", "search", "message", "error", "compact", "fontSize",
                     "tooltip", "layout")
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
        # no_move: positions without a move, "bestmove none" as every native tool prints it (not a8a8).
        searches = [("", "", 1000), ("", "e2e4 e7e5", 2000),
                    ("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", "", 300),
                    ("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "", 5000)]
        no_move = [(STALEMATE, "", 100), (MATED, "", 100), ("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", "f7g7", 300)]
        for fen, moves, nodes in searches + no_move:
            expected = probe(build_bin, fen, moves, nodes)
            if (fen, moves, nodes) in no_move:
                check(expected["bestmove"] == "none", f"umax-probe finds no move after fen='{fen}' moves='{moves}'")
            query = "&".join(f"{key}={value}" for key, value in
                             (("fen", fen.replace(" ", "%20")), ("moves", moves.replace(" ", "+")),
                              ("nodes", nodes)) if value)
            got = open_page(browser, f"{viz}?{query}", f"JSON.parse({STATE} || '{{}}').search", 120)
            shown = {key: (got or {}).get("search", {}).get(key) for key in expected}
            check(shown == expected, f"search fen='{fen}' moves='{moves}' nodes={nodes}: page {shown} == "
                                     f"umax-probe --engine minimal {expected}")
            check(got is not None and got.get("cursor") == 0 and got.get("eventCount", 0) > 0,
                  "  the recorded trace is open at its start")

        # 2a. depth= (the Lab's --depth: no budget) with without=: the page records the think to that depth,
        # as umax-probe --without IDEA --depth D prints it; the trace names the variant and its depth.
        for moves, without, depth in [("e2e4", "best-first", 4), ("e2e4", "", 3)]:
            expected = probe(build_bin, "", moves, 0, without, depth)
            query = f"moves={moves}&depth={depth}" + (f"&without={without}" if without else "")
            got = open_page(browser, f"{viz}?{query}", f"JSON.parse({STATE} || '{{}}').search", 120)
            shown = {key: (got or {}).get("search", {}).get(key) for key in expected}
            check(shown == expected, f"search ?{query}: page {shown} == umax-probe --depth {depth} {expected}")

        # 2b. The worker alone (umax-worker.js, what the page's recordings run in) answers as the
        # original does, "none" included.
        open_page(browser, viz, "window.umaxWeb && umaxWeb.firstFrame")
        for fen, moves, nodes in [("", "", 500)] + no_move:
            expected = probe(build_bin, fen, moves, nodes)
            job = json.dumps({"fen": fen, "moves": moves, "nodes": nodes})
            answer = worker_answer(browser, job)
            shown = {key: (answer or {}).get(key) for key in expected}
            check(shown == expected, f"worker fen='{fen}' moves='{moves}' nodes={nodes}: {shown} == "
                                     f"umax-probe --engine minimal {expected}")

        # 2c. The Lab in the worker: a search without an idea answers as umax-probe --without does.
        for fen, moves, nodes, without in [("", "e2e4", 3000, "hash"), ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "", 300,
                                                                        "alpha-beta,quiescence")]:
            expected = probe(build_bin, fen, moves, nodes, without)
            job = json.dumps({"fen": fen, "moves": moves, "nodes": nodes, "without": without})
            answer = worker_answer(browser, job)
            shown = {key: (answer or {}).get(key) for key in expected}
            check(shown == expected, f"worker without {without}, fen='{fen}' moves='{moves}' nodes={nodes}: {shown} == "
                                     f"umax-probe --engine readable --without {without} {expected}")
        # A bad name is refused with the list of the ideas.
        answer = worker_answer(browser, json.dumps({"fen": "", "moves": "", "nodes": 100, "without": "hsh"})) or {}
        check(answer.get("ok") is False and "alpha-beta, quiescence" in answer.get("error", ""),
              f"the worker refuses without 'hsh' with the ideas' names: {answer}")

        # 2c'. nodes=1, the page's smallest budget: the root's own node spends it and no iteration
        # starts. umax-probe refuses 1 (the original's score is then uninitialized memory), so the page
        # answers as the readable build's tools do (umax-trace record --nodes 1), and the web page says so.
        with tempfile.TemporaryDirectory() as scratch:
            line = subprocess.run([os.path.join(build_bin, "umax-trace"), "record", "--nodes", "1", "-q", "-o",
                                   os.path.join(scratch, "one.trc")], check=True, capture_output=True,
                                  text=True).stdout.split()
        expected = {"bestmove": line[1], "score": int(line[3]), "nodes": int(line[5])}
        check(expected == {"bestmove": "none", "score": 0, "nodes": 1},
              f"umax-trace record --nodes 1 answers none, 0, 1: {expected}")
        got = open_page(browser, f"{viz}?nodes=1", f"JSON.parse({STATE} || '{{}}').search", 120)
        shown = {key: (got or {}).get("search", {}).get(key) for key in expected}
        check(shown == expected, f"search ?nodes=1: page {shown} == umax-trace record --nodes 1 {expected}")
        web_page = open(os.path.join(site_dir, "page_web.html"), encoding="utf-8").read()
        check("umax-probe</code> refuses 1" in web_page,
              "the web page says why umax-probe refuses nodes 1 while the page takes it")

        # 2d. The Lab's --depth in the worker: a think to a depth, no budget, answers as umax-probe --depth
        # does (with and without ideas, a mate's position included); a cap (maxNodes) stops a think that
        # passes it and the answer says so; bad depths are refused.
        for fen, moves, without, depth in [("", "e2e4", "", 4), ("", "e2e4", "best-first", 4),
                                           ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "", "alpha-beta", 6),
                                           ("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", "", "delayed-gain", 3)]:
            expected = probe(build_bin, fen, moves, 0, without, depth)
            answer = worker_answer(browser, json.dumps({"fen": fen, "moves": moves, "nodes": 0, "without": without,
                                                        "depth": depth})) or {}
            shown = {key: answer.get(key) for key in expected}
            check(shown == expected and answer.get("stopped") is False and answer.get("depthAsked") == depth,
                  f"worker to depth {depth} without '{without}', fen='{fen}' moves='{moves}': {shown} == "
                  f"umax-probe --depth {depth} {expected}")
        answer = worker_answer(browser, json.dumps({"fen": "", "moves": "e2e4 c7c5", "nodes": 0, "without": "hash",
                                                    "depth": 5, "maxNodes": 65536})) or {}
        full = probe(build_bin, "", "e2e4 c7c5", 0, "hash", 5)
        check(answer.get("ok") is True and answer.get("stopped") is True and answer.get("stoppedInDraft") == 5 and
              65536 <= answer.get("nodes", 0) < full["nodes"] and not {"bestmove", "score", "depth"} & set(answer),
              f"the worker stops a think to depth 5 without hash ({full['nodes']} nodes) at a cap of 65,536 nodes, "
              f"in draft 5, and gives none of a finished think's figures: {answer}")
        for job, words in [({"nodes": 100, "depth": 3}, "exclude each other"), ({"nodes": 0, "depth": 0}, "give a node"),
                           ({"nodes": 0, "depth": 98}, "from 1 to 97"), ({"nodes": 0, "depth": 2.5}, "whole number")]:
            answer = worker_answer(browser, json.dumps(dict(fen="", moves="", **job))) or {}
            check(answer.get("ok") is False and words in answer.get("error", ""),
                  f"the worker refuses {job} ('{words}'): {answer}")

        # 2e. Each idea's topic page: "without this idea" runs the example in the page as micro-Max does (its
        # budget), then without the idea to the depth that search reached (--depth, no budget). The first row
        # equals the original's with the budget and the readable build's to that depth, the second
        # umax-probe --without IDEA --depth D; the line under the table names the depth and the command.
        lab_pages = [("topic_alpha_beta.html", "alpha-beta"), ("topic_quiescence.html", "quiescence"),
                     ("topic_move_sorting.html", "best-first"), ("topic_hashing.html", "hash"),
                     ("topic_iterative_deepening.html", "deepening"), ("topic_delayed_gain.html", "delayed-gain"),
                     ("topic_centre_table.html", "centre")]
        for page, idea in lab_pages:
            browser.open(site_url.rstrip("/") + "/" + page)
            if not browser.wait_until("document.querySelector('.umax-lab button') !== null", 30):
                check(False, f"{page}: a 'without {idea}' control")
                continue
            data = json.loads(browser.evaluate("JSON.stringify(document.querySelector('.umax-lab').dataset)"))
            browser.evaluate("document.querySelector('.umax-lab button').click(), true")
            done = browser.wait_until("document.querySelector('.umax-lab').dataset.done === 'true'", 120)
            rows = json.loads(browser.evaluate(
                "JSON.stringify([...document.querySelectorAll('.umax-lab-result tr')].slice(1).map("
                "(r) => [...r.cells].map((c) => c.textContent)))") or "[]") if done else []
            depth = int(browser.evaluate("document.querySelector('.umax-lab').dataset.depth") or 0) if done else 0
            check(len(rows) == 2 and all(len(row) == 7 for row in rows) and depth >= 1,
                  f"{page}: 'without {idea}' shows two rows of figures, to depth {depth} ({rows})")
            if len(rows) != 2 or any(len(row) != 7 for row in rows) or depth < 1:
                continue
            # The columns: search, nodes, depth, best move, score, iterations, seconds.
            shown = [{"bestmove": row[3], "score": int(row[4]), "nodes": int(row[1].replace(",", ""))} for row in rows]
            check(rows[0][2] == rows[1][2] or (rows[0][2] == "99" and int(rows[0][5]) == depth),
                  f"{page}: both rows finished depth {depth} (the depth column: {rows[0][2]}, {rows[1][2]})")
            budget = int(data["nodes"])
            original = probe(build_bin, data["fen"], data["moves"], budget)
            whole = probe(build_bin, data["fen"], data["moves"], 0, "", depth)
            lacking = probe(build_bin, data["fen"], data["moves"], 0, idea, depth)
            check(shown[0] == original == whole,
                  f"{page}: the row '{rows[0][0]}' {shown[0]} == umax-probe --engine minimal --nodes {budget} "
                  f"{original} == umax-probe --engine readable --depth {depth} {whole}")
            check(shown[1] == lacking, f"{page}: the row '{rows[1][0]}' {shown[1]} == umax-probe --engine readable "
                                       f"--without {idea} --depth {depth} {lacking}")
            status = browser.evaluate("document.querySelector('.umax-lab-status').textContent") or ""
            check(f"reached depth {depth}" in status and f"--without {idea} --depth {depth}" in status and
                  "same depth" in status and "Compare the depth column" not in status,
                  f"{page}: the line under the table names depth {depth} and the command: {status!r}")
            link = browser.evaluate("document.querySelector('.umax-lab a.umax-lab-step').href") or ""
            check(f"depth={depth}&without={idea}" in link and "nodes=" not in link,
                  f"{page}: after the run, 'step through it' records the second row's search ({link})")
            if page == "topic_move_sorting.html":  # the control and its result in sight
                browser.evaluate("document.querySelector('.umax-lab').scrollIntoView(), true")
                time.sleep(0.5)
                browser.screenshot(os.path.join(site_dir, "..", "test-lab-toggle.png"))
        # The page's cap: a search without the idea that passes it is stopped, its row says so and shows
        # no figures, and the line under the table gives the command that finishes it.
        browser.open(site_url.rstrip("/") + "/topic_hash_replacement.html")
        if browser.wait_until("document.querySelector('.umax-lab button') !== null", 30):
            browser.evaluate("document.querySelector('.umax-lab').dataset.cap = '65536', "
                             "document.querySelector('.umax-lab button').click(), true")
            done = browser.wait_until("document.querySelector('.umax-lab').dataset.done === 'true'", 120)
            rows = json.loads(browser.evaluate(
                "JSON.stringify([...document.querySelectorAll('.umax-lab-result tr')].slice(1).map("
                "(r) => [...r.cells].map((c) => c.textContent)))") or "[]") if done else []
            status = browser.evaluate("document.querySelector('.umax-lab-status').textContent") or ""
            check(len(rows) == 2 and len(rows[1]) == 2 and "stopped at the page's cap" in rows[1][1] and
                  "depth 5 not reached" in rows[1][1] and "cap of 65,536 nodes" in status and
                  "more than 65,536 nodes to finish depth 5" in status and
                  "--without hash --depth 5" in status,
                  f"topic_hash_replacement.html with a cap of 65,536 nodes: the row without hash says it stopped "
                  f"({rows}), the line names the cap and the command ({status!r})")
        else:
            check(False, "topic_hash_replacement.html: a 'without hash' control")

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
               ("?trace=traces/mate-300.trc&event=-1", "event must be a whole number"),
               ("?trace=traces/mate-300.trc&event=999999", "outside the trace"),
               # 2^64 and more: it once wrapped round to event 0 and opened there without a word.
               ("?trace=traces/mate-300.trc&event=18446744073709551616",
                "event=18446744073709551616 is outside the trace: its events are numbered 0 to 1267"),
               ("?trace=traces/mate-300.trc&event=99999999999999999999999999",
                "event=99999999999999999999999999 is outside the trace"),
               ("?event=5", "event=5 needs a search to show: add trace=URL"),
               ("?nodes=99999999999999999999", "nodes must be a node budget from 1 to 10000000"),
               ("?trace=traces/no-such.trc", "cannot fetch the trace"),
               ("?trace=index.html", "cannot open"),
               ("?nodes=-5", "nodes must be a node budget"),
               ("?moves=e2e4&nodes=100&depth=3", "nodes= and depth= exclude each other"),
               ("?moves=e2e4&depth=98", "depth must be a number of plies from 1 to 97"),
               ("?moves=e2e4&depth=0", "depth must be a number of plies from 1 to 97"),
               ("?fen=not-a-fen&nodes=100", "recording failed"),
               ("?moves=e2e5&nodes=100", "recording failed")]
        for query, words in bad:
            got = open_page(browser, viz + query, f"JSON.parse({STATE} || '{{}}').error", 60)
            error = (got or {}).get("error", "")
            check(words in error, f"{query}: the page says '{error}' (expected '{words}')")
        # A recording asked to open at an event past its end says so (it cannot know before).
        got = open_page(browser, viz + "?nodes=100&event=18446744073709551616",
                        f"JSON.parse({STATE} || '{{}}').message", 60)
        check("event=18446744073709551616 is outside the trace" in (got or {}).get("message", ""),
              f"a recording asked for event 2^64 says '{(got or {}).get('message')}'")
        # Parameters the page does not use are named, and what it does use still works.
        message = "document.getElementById('umax-message').textContent"
        for query, words in [("?trace=traces/mate-300.trc&event=5&fen=8/8/8/8/8/8/8/K6k%20w%20-%20-%200%201",
                              "fen= is ignored: trace= opens a recorded trace"),
                             ("?trace=traces/mate-300.trc&event=5&nodes=100&moves=e2e4",
                              "moves=, nodes= are ignored"),
                             ("?trace=traces/mate-300.trc&event=5&evnt=9", "ignored: 'evnt'")]:
            got = open_page(browser, viz + query, f"JSON.parse({STATE} || '{{}}').event === 5", 60)
            said = browser.evaluate(message)
            check(got is not None and words in said, f"{query}: opens at event 5 and the page says '{said}'")
        # From file:// the page does not load the app (browsers refuse WebAssembly there): it says
        # how to serve it, with no "Script error." over it and no "loading" left.
        browser.open("file://" + os.path.abspath(os.path.join(site_dir, "viz", "index.html")) + "?trace=t.trc")
        browser.wait_until("document.readyState === 'complete'", 30)
        time.sleep(1)
        said = browser.evaluate(message) or ""
        loading = browser.evaluate("getComputedStyle(document.getElementById('umax-loading')).display")
        check("scripts/web.sh --serve" in said and "http://127.0.0.1:8000/viz/index.html?trace=t.trc" in said
              and "Script error" not in said and loading == "none",
              f"file:// says how to serve the page ('{said}'; loading {loading})")

        # 5. Every topic page (18 of 18) carries a live view of its worked example, opened at the event
        # the example is about (NAME.event, which the docs build checks against the example's text).
        frame_state = ("JSON.parse(document.querySelector('.umax-live iframe').contentDocument"
                       ".getElementById('umax-state').textContent || '{}')")
        examples = os.path.join(build_bin, "..", "docs", "examples")
        topics = sorted(name for name in os.listdir(site_dir) if name.startswith("topic_") and name.endswith(".html"))
        opened = 0
        for topic in topics:
            page = open(os.path.join(site_dir, topic), encoding="utf-8").read()
            found = re.search(r'<div class="umax-live"><iframe src="viz/index.html\?trace=traces/([\w-]+)\.umaxtrace'
                              r'&amp;event=([0-9]+)"', page)
            if not found:
                check(False, f"{topic}: a live view")
                continue
            name, event = found.group(1), int(found.group(2))
            wanted = int(open(os.path.join(examples, name + ".event")).read())
            # A page's further live views (topic 10's life of one node) open their own trace's event too.
            for more in list(re.finditer(r'<div class="umax-live"><iframe src="viz/index.html\?trace=traces/'
                                         r'([\w-]+)\.umaxtrace&amp;event=([0-9]+)"', page))[1:]:
                own = int(open(os.path.join(examples, more.group(1) + ".event")).read())
                check(int(more.group(2)) == own, f"{topic}: its live view of {more.group(1)}.umaxtrace opens at "
                                                 f"event {more.group(2)} (the example's: {own})")
            browser.open(site_url.rstrip("/") + "/" + topic)
            browser.wait_until("document.readyState === 'complete'", 30)
            browser.evaluate("document.querySelector('.umax-live iframe').scrollIntoView(), true")
            reached = browser.wait_until(f"{frame_state}.event === {wanted}", 60)
            # The whole view fits the page's visible area at 1280x800 (Doxygen scrolls #doc-content).
            fits = browser.evaluate("(() => { const f = document.querySelector('.umax-live iframe')"
                                    ".getBoundingClientRect(); const c = (document.getElementById('doc-content') || "
                                    "document.scrollingElement).getBoundingClientRect(); "
                                    "return [f.top, f.bottom, c.top, c.bottom]; })()")
            check(fits[0] >= fits[2] - 1 and fits[1] <= fits[3] + 1,
                  f"{topic}: the live view (y {fits[0]:.0f} to {fits[1]:.0f}) fits the visible page "
                  f"(y {fits[2]:.0f} to {fits[3]:.0f})")
            # Inside the view, the Timeline's narration lies within its panel (it was cut at the bottom).
            # Judged on the settled layout: the same in two reads 0.5 s apart (on a loaded machine the
            # first frames after scrolling the view in once showed a transitional Timeline).
            rects, before = {}, None
            for _ in range(20 if reached else 0):
                rects = {r["name"]: r for r in browser.evaluate(f"{frame_state}.layout") or []}
                if rects == before:
                    break
                before = rects
                time.sleep(0.5)
            line, panel = rects.get("Timeline / narration"), rects.get("Timeline")
            check(line and panel and line["y"] >= panel["y"] and line["y"] + line["h"] <= panel["y"] + panel["h"] + 1,
                  f"{topic}: the live view's narration ({line}) lies inside its Timeline ({panel})")
            opened += reached and event == wanted
            check(reached and event == wanted, f"{topic}: its live view opens {name}.umaxtrace at event {event} "
                                               f"(the example's: {wanted})")
        check(len(topics) == 18 and opened == 18, f"{opened} of {len(topics)} topic pages open their example's event")

        # 5b. Keys in a live view.
        browser.open(site_url.rstrip("/") + "/topic_alpha_beta.html")
        browser.wait_until("document.readyState === 'complete'", 30)
        browser.evaluate("document.querySelector('.umax-live iframe').scrollIntoView(), true")
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

        # 7. Phones and tablets.
        for device, width, height, scale in (("phone", 390, 844, 3), ("tablet", 768, 1024, 2)):
            emulate(browser, width, height, scale, True)
            small_screen(browser, site_url, site_dir, device, width, height)
        emulate(browser, 1280, 800, 1, False)
        browser.call("Emulation.clearDeviceMetricsOverride")
        got = open_page(browser, f"{viz}?trace=traces/e2e4-3000.trc&event=100", f"JSON.parse({STATE} || '{{}}').event === 100")
        check(got is not None and got.get("compact") is False and got.get("fontSize") == 13,
              f"at 1280x800 the app keeps the desktop layout (compact {(got or {}).get('compact')}, "
              f"text {(got or {}).get('fontSize')} px)")
        if got is not None:
            help_shown(browser, site_dir, "desktop", "1280x800, the app", 1280, 800)

        # 8. The desktop docs built with -DUMAX_WEB_URL link each worked example's trace at its event
        # in the web edition (umax-docexamples --web-url): all 18 examples, every link at the event its
        # text names (NAME.event), and a link followed opens the app there.
        examples_out = os.path.join(site_dir, "..", "test-examples")
        shutil.rmtree(examples_out, ignore_errors=True)
        subprocess.run([os.path.join(build_bin, "umax-docexamples"), "--umax-trace",
                        os.path.join(build_bin, "umax-trace"), "--out", examples_out, "--web-url", site_url],
                       check=True, capture_output=True)
        base = site_url.rstrip("/") + "/"
        linked, wrong, links = 0, [], []
        examples_md = sorted(n for n in os.listdir(examples_out) if n.endswith(".md") and "-exercises" not in n)
        for name in examples_md:
            text = open(os.path.join(examples_out, name), encoding="utf-8").read()
            found = re.findall(re.escape(base) + r"viz/index\.html\?trace=traces/([\w-]+)\.umaxtrace&event=([0-9]+)",
                               text)
            linked += bool(found)
            for trace, event in found:
                wanted = open(os.path.join(examples_out, trace + ".event")).read().strip()
                links.append((trace, int(event)))
                if event != wanted:
                    wrong.append(f"{name}: {trace} at {event}, its event {wanted}")
        check(len(examples_md) == 18 and linked == 18 and not wrong,
              f"{linked} of {len(examples_md)} worked examples link the web edition at their events (wrong: {wrong})")
        if links:
            trace, event = links[-1]
            got = open_page(browser, f"{viz}?trace=traces/{trace}.umaxtrace&event={event}",
                            f"JSON.parse({STATE} || '{{}}').event === {event}", 60)
            check(got is not None, f"the link to {trace}.umaxtrace opens the app at event {event}")
    finally:
        browser.close()
    print(f"web tests: {len(failures)} failed" if failures else "web tests: all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
