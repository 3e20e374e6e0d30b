// prose_search.js - the search box of every walkthrough page: finds words of
// the text (not only titles and symbols, as Doxygen's own search does).
// umax-docprose writes prose_search_docs.js (the text of every page, cut at
// its headings) and copies lunr.js (Debian's libjs-lunr) next to this file;
// both are loaded on the first use of the box, and lunr builds the index in
// the browser. Works from file:// as well as from a web server.
(function () {
  "use strict";

  // The index over the documents: titles weigh more than the text.
  function buildIndex(lunr, documents) {
    return lunr(function () {
      this.ref("id");
      this.field("title", { boost: 5 });
      this.field("body");
      this.metadataWhitelist = ["position"];
      documents.forEach(function (doc) {
        this.add(doc);
      }, this);
    });
  }

  // A learner's query: every word must occur (lunr's "+word"), unless the
  // query already uses lunr's syntax (a word starting with + or -, or a ~ ^ : *).
  // Words are split and trimmed as lunr splits and trims the text it indexes
  // (at spaces and hyphens; "e.p." is indexed as "e.p"), so that "e.p. square"
  // and "king-capture" find what they say.
  function lunrQuery(text) {
    if (/(^|\s)[+\-]|[~^:*]/.test(text)) return text;
    return text
      .split(/[\s\-]+/)
      .map(function (word) {
        return word.replace(/^\W+|\W+$/g, "");
      })
      .filter(function (word) {
        return word.length > 0;
      })
      .map(function (word) {
        return "+" + word;
      })
      .join(" ");
  }

  function search(index, documents, text) {
    var query = lunrQuery(text.trim());
    if (!query) return [];
    var hits;
    try {
      hits = index.search(query);
    } catch (error) {
      return [];
    }
    return hits.map(function (hit) {
      var doc = documents[Number(hit.ref)];
      return { url: doc.url, title: doc.title, body: doc.body, score: hit.score, matchData: hit.matchData };
    });
  }

  // A piece of the text around the first match, the matched words marked.
  function excerpt(result) {
    var body = result.body;
    var spans = [];
    var metadata = result.matchData.metadata;
    Object.keys(metadata).forEach(function (term) {
      var body_ = metadata[term].body;
      if (body_ && body_.position) spans = spans.concat(body_.position);
    });
    spans.sort(function (a, b) {
      return a[0] - b[0];
    });
    var start = spans.length ? Math.max(0, spans[0][0] - 60) : 0;
    var end = Math.min(body.length, start + 220);
    var html = start > 0 ? "\u2026" : "";
    var at = start;
    spans.forEach(function (span) {
      if (span[0] < at || span[0] + span[1] > end) return;
      html += escape(body.slice(at, span[0])) + "<mark>" + escape(body.substr(span[0], span[1])) + "</mark>";
      at = span[0] + span[1];
    });
    html += escape(body.slice(at, end)) + (end < body.length ? "\u2026" : "");
    return html;
  }

  function escape(text) {
    return text.replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  if (typeof module !== "undefined" && module.exports) {
    module.exports = { buildIndex: buildIndex, search: search, lunrQuery: lunrQuery, excerpt: excerpt };
    return;
  }

  var index = null;
  var loading = false;
  var waiting = [];

  function load(then) {
    if (index) return then();
    waiting.push(then);
    if (loading) return;
    loading = true;
    var pending = 2;
    function loaded() {
      if (--pending > 0) return;
      index = buildIndex(window.lunr, window.umaxProseDocuments);
      waiting.forEach(function (callback) {
        callback();
      });
      waiting = [];
    }
    ["lunr.js", "prose_search_docs.js"].forEach(function (file) {
      var script = document.createElement("script");
      script.src = file;
      script.onload = loaded;
      document.head.appendChild(script);
    });
  }

  // Doxygen's own box, in the top bar, finds names in the code (functions, classes, files), not
  // words of the text: its label says so, beside this box's.
  var SYMBOL_LABEL = "Search code symbols";
  var SYMBOL_TITLE = "Doxygen's search: names of functions, classes and files in the code, not words of the text";
  var PROSE_TITLE = "Finds words of the course's text (the prose of every page), not names in the code";
  var doxygenLabel = null;  // Doxygen's own label ("Search"), shown as the field's text
  function labelSymbolSearch() {
    if (window.searchBox && window.searchBox.searchLabel !== SYMBOL_LABEL) {
      doxygenLabel = window.searchBox.searchLabel;
      window.searchBox.searchLabel = SYMBOL_LABEL;  // what Doxygen writes back when the box closes
    }
    var field = document.getElementById("MSearchField");
    if (!field) return false;
    if (field.value === doxygenLabel || field.value === "Search") field.value = SYMBOL_LABEL;
    field.setAttribute("value", SYMBOL_LABEL);
    field.title = SYMBOL_TITLE;
    field.setAttribute("aria-label", SYMBOL_LABEL);
    return true;
  }

  function install() {
    var box = document.createElement("div");
    box.id = "umax-prose-search";
    box.innerHTML =
      '<label class="umax-prose-label" for="umax-prose-input">Search the course text</label>' +
      '<input type="search" id="umax-prose-input" placeholder="words of the pages, e.g. stand pat" ' +
      'title="' + PROSE_TITLE + '" aria-label="Search the text of the course">' +
      '<div class="umax-prose-results" hidden></div>';
    var host = document.getElementById("doc-content") || document.body;
    host.insertBefore(box, host.firstChild);
    var input = box.querySelector("input");
    var results = box.querySelector(".umax-prose-results");
    function show() {
      var text = input.value;
      if (!text.trim()) {
        results.hidden = true;
        return;
      }
      load(function () {
        var found = search(index, window.umaxProseDocuments, text);
        var html = '<div class="umax-prose-count">' + found.length + (found.length === 1 ? " section" : " sections") +
          " of the course</div>";
        found.slice(0, 12).forEach(function (result) {
          html += '<a class="umax-prose-hit" href="' + result.url + '"><b>' + escape(result.title) + "</b><br>" +
            excerpt(result) + "</a>";
        });
        results.innerHTML = html;
        results.hidden = false;
      });
    }
    input.addEventListener("input", show);
    input.addEventListener("focus", function () {
      load(function () {});
      if (input.value.trim()) show();
    });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Escape") results.hidden = true;
    });
    document.addEventListener("click", function (event) {
      if (!box.contains(event.target)) results.hidden = true;
    });
    var query = /[?&]prose=([^&]*)/.exec(window.location.search);
    if (query) {
      input.value = decodeURIComponent(query[1].replace(/\+/g, " "));
      show();
    }
  }

  // On a phone (umax.css, up to 800 px wide) the navigation tree is folded away: this button opens
  // it over the page and closes it again (a link chosen in it leaves the page anyway).
  function installNavToggle() {
    var tree = document.getElementById("side-nav");
    var host = document.getElementById("doc-content");
    if (!tree || !host || document.getElementById("umax-nav-toggle")) return;
    var button = document.createElement("button");
    button.type = "button";
    button.id = "umax-nav-toggle";
    button.setAttribute("aria-controls", "side-nav");
    function set(open) {
      document.body.classList.toggle("umax-nav-open", open);
      button.textContent = open ? "\u2715 Close" : "\u2630 Topics";
      button.setAttribute("aria-expanded", open ? "true" : "false");
    }
    set(false);
    button.addEventListener("click", function () {
      set(!document.body.classList.contains("umax-nav-open"));
    });
    host.insertBefore(button, host.firstChild);
  }

  // Every board drawn from a FEN carries its squares' numbers on micro-Max's 0x88 board (hex, in the
  // squares' corners), hidden: a button beside the boards shows them on every board (so that x=67,
  // 0x43, can be read off as d4) and the choice is kept for the next pages.
  function installHexToggle() {
    var root = document.documentElement;
    var stored = null;
    try {
      stored = window.localStorage.getItem("umax-hex");
    } catch (error) {}  // storage refused (file://, privacy settings): the numbers start hidden
    root.classList.toggle("umax-hex-on", stored === "on");
    var groups = document.querySelectorAll("div.umax-boards");
    Array.prototype.forEach.call(groups, function (group) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "umax-hex-toggle";
      function label() {
        var on = root.classList.contains("umax-hex-on");
        button.textContent = on ? "hide the 0x88 square numbers" : "show the 0x88 square numbers (hex)";
        button.setAttribute("aria-pressed", on ? "true" : "false");
      }
      label();
      button.addEventListener("click", function () {
        var on = !root.classList.contains("umax-hex-on");
        root.classList.toggle("umax-hex-on", on);
        try {
          window.localStorage.setItem("umax-hex", on ? "on" : "off");
        } catch (error) {}
        Array.prototype.forEach.call(document.querySelectorAll("button.umax-hex-toggle"), function (other) {
          other.dispatchEvent(new Event("umax-relabel"));
        });
      });
      button.addEventListener("umax-relabel", label);
      group.appendChild(button);
    });
  }

  function installAll() {
    install();
    installNavToggle();
    installHexToggle();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", installAll);
  else installAll();
  // Doxygen's menu script makes its search field when the document is ready, in no fixed order with
  // this script: label it as soon as it is there, and once more when the page has loaded.
  if (typeof window !== "undefined" && window.addEventListener) {
    var tries = 0;
    (function again() {
      if (!labelSymbolSearch() && ++tries < 100) setTimeout(again, 30);
    })();
    window.addEventListener("load", labelSymbolSearch);
  }
})();
