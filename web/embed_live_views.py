#!/usr/bin/env python3
"""Puts a live view of umax-viz into every topic page of the built course (scripts/web.sh).

  embed_live_views.py SITE_DIR EXAMPLES_DIR

Each worked example is recorded at docs build time into EXAMPLES_DIR/NAME.umaxtrace, with the
event its text is about in NAME.event (every one has it). The trace is copied to
SITE_DIR/viz/traces/, and the page whose text records it ("... -o [DIR/]NAME.umaxtrace") gets, right
after that command, the app in an iframe opened at the trace and event, with a link to open it
full-window. Nothing is taken out of the page: where WebGL is missing the frame says so and the
static figures stay. The course's main page gets a link to the app. Prints what it did.
"""
import html
import os
import re
import shlex
import shutil
import sys

# The idea of the search each topic page explains, as the Lab's --without names it: those pages get a
# "without this idea" control under their live view (web/lab_toggle.js).
TOPIC_IDEAS = {
    "topic_alpha_beta.html": "alpha-beta",
    "topic_quiescence.html": "quiescence",
    "topic_iterative_deepening.html": "deepening",
    "topic_move_sorting.html": "best-first",
    "topic_hashing.html": "hash",
    "topic_hash_replacement.html": "hash",
    "topic_centre_table.html": "centre",
    "topic_delayed_gain.html": "delayed-gain",
}


def recorded_search(text, at):
    """The --fen, --moves and --nodes of the `umax-trace record` command that ends at `at` (its -o)."""
    start = text.rfind("umax-trace record", 0, at)
    if start < 0:
        return None
    command = html.unescape(re.sub(r"<[^>]*>", "", text[start:at]))
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    found = {"fen": "", "moves": "", "nodes": ""}
    for index, word in enumerate(words[:-1]):
        if word in ("--fen", "--moves", "--nodes"):
            found[word[2:]] = words[index + 1]
    return found if found["nodes"].isdigit() else None


def lab_control(idea, search):
    """The "without this idea" control: the same search run twice in the page (web/lab_toggle.js)."""
    query = "&".join(f"{key}={html.escape(search[key].replace(' ', '+'))}" for key in ("fen", "moves", "nodes")
                     if search[key]) + f"&without={idea}"
    return (f'<div class="umax-lab" data-without="{idea}" data-fen="{html.escape(search["fen"])}" '
            f'data-moves="{html.escape(search["moves"])}" data-nodes="{search["nodes"]}">'
            f'<p><b>Without this idea:</b> <button type="button">run the example without {idea}</button> '
            f'searches the same position twice in this page: as micro-Max does, with the example\'s budget, '
            f'then without {idea} to the depth that search reached (<a href="page_lab_theory.html">the Lab</a>, '
            f'<code>umax-probe --without {idea} --depth D</code>), so both rows finish the same depth; or '
            f'<a class="umax-lab-step" href="viz/index.html?{query}" target="_blank">step through it without '
            f'{idea}</a><span class="umax-lab-step-note"> (with the example\'s budget; after a run, to its depth)'
            f'</span>.</p>'
            f'<table class="umax-lab-result"></table><p class="umax-lab-status"></p></div>\n'
            f'<script src="viz/lab_toggle.js"></script>\n')


def live_view(name, event):
    at = f"&event={event}"  # numbered from 0: the state just after it
    url = html.escape(f"viz/index.html?trace=traces/{name}.umaxtrace{at}")
    return (f'\n<div class="umax-live">'
            f'<iframe src="{url}" title="umax-viz: the worked example\'s trace, live" loading="lazy" '
            # As tall as the page's scrolled area (under Doxygen's header and above its footer: the view's
            # line of help follows below): at 1280x800 the whole app, its timeline included, is in sight once
            # scrolled to (a fixed 620 px cut the timeline off).
            f'style="width:100%;height:calc(100vh - 140px);min-height:400px;max-height:800px;'
            f'border:1px solid #555;"></iframe>'
            f'<p><b>Step through it here:</b> click the view, then Right / Left step one event, Down steps '
            f'over a call, Up steps out, F1 lists the keys; on a touch screen, tap its buttons (&gt; steps, '
            f'Over, Out) and its tabs. <a href="{url}" target="_blank">Open it full-window</a>.</p></div>\n')


def main():
    site, examples = sys.argv[1:3]
    traces = os.path.join(site, "viz", "traces")
    os.makedirs(traces, exist_ok=True)
    shutil.copyfile(os.path.join(os.path.dirname(os.path.abspath(__file__)), "lab_toggle.js"),
                    os.path.join(site, "viz", "lab_toggle.js"))
    pages = {}
    for entry in sorted(os.listdir(site)):
        if entry.endswith(".html"):
            with open(os.path.join(site, entry), encoding="utf-8") as page:
                pages[entry] = page.read()
    changed = set()
    for entry in sorted(os.listdir(examples)):
        if not entry.endswith(".umaxtrace"):
            continue
        name = entry[:-len(".umaxtrace")]
        shutil.copyfile(os.path.join(examples, entry), os.path.join(traces, entry))
        # The event the example's text is about (the docs build writes one for every trace it records,
        # and fails when an example names another in its umax-viz command).
        event_file = os.path.join(examples, name + ".event")
        if not os.path.exists(event_file):
            print(f"embed: {name}.umaxtrace has no {name}.event: the docs build names every example's event "
                  "(rebuild the docs)", file=sys.stderr)
            return 1
        event = int(open(event_file).read().split()[0])
        # The command writes where the docs build keeps the trace: -o build/docs/examples/NAME.umaxtrace.
        marker = re.compile(r"-o (?:[\w./-]*/)?" + re.escape(name) + r"\.umaxtrace\b")
        placed = False
        for page_name, text in pages.items():
            found = marker.search(text)
            if not found:
                continue
            # After the code block (Doxygen: <!-- fragment -->) or the paragraph holding the command;
            # one view per block (the mate page records mate and stalemate in one block: the first).
            match = re.compile(r"<!-- fragment -->|</p>|</pre>").search(text, found.start())
            if not match or text[match.end():].lstrip().startswith('<div class="umax-live">'):
                continue
            addition = live_view(name, event)
            idea = TOPIC_IDEAS.get(page_name)
            search = recorded_search(text, found.start()) if idea and 'class="umax-lab"' not in text else None
            if search:
                addition += lab_control(idea, search)
                print(f"embed: {page_name}: without {idea} beside {name}.umaxtrace")
            pages[page_name] = text[:match.end()] + addition + text[match.end():]
            changed.add(page_name)
            placed = True
            print(f"embed: {page_name}: live view of {name}.umaxtrace at event {event}")
        if not placed:
            print(f"embed: {name}.umaxtrace: no live view of its own (no page records it, or its command shares a "
                  "block with another trace's view)")
    index = pages.get("index.html")
    if index is not None:
        link = ('<div class="umax-live"><p><b>Web edition:</b> <a href="viz/index.html">step through a search in '
                'this browser</a> (umax-viz compiled to WebAssembly; File &gt; Record a search, or open a '
                'trace). Every topic page shows its worked example live.</p></div>\n')
        match = re.compile(r'<div class="contents">').search(index)
        if match:
            pages["index.html"] = index[:match.end()] + "\n" + link + index[match.end():]
            changed.add("index.html")
    for page_name in sorted(changed):
        with open(os.path.join(site, page_name), "w", encoding="utf-8") as page:
            page.write(pages[page_name])
    print(f"embed: {len(changed)} pages changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
