// examples.cpp - umax-docexamples: the worked examples of the walkthrough,
// made from real traces while the documentation is built.
//
// Each topic page includes one example (@umax-example NAME@). This program
// records a small think for each (with umax-trace record, a few hundred to a
// few thousand nodes), finds in the trace the event that shows the page's
// mechanism (a cutoff, a stand pat, an e.p. capture, ...), and writes
// NAME.md: a table or a Graphviz figure whose numbers are all read from the
// trace. When a position stops showing its mechanism, the program stops with
// a message naming the example, so a page can never describe something its
// example does not show.
//
//   umax-docexamples --umax-trace PATH --out DIR [--viz yes] [--web-url URL]
//
// With --viz yes, the alpha-beta and hashing examples also show a screenshot
// of the visualizer at their event: the program writes NAME.event (the
// cursor) and the docs build renders NAME-viz.png with umax-viz. With --web-url (CMake's
// UMAX_WEB_URL: where the web edition is served), every example also links the web edition's
// viewer opened at its trace and event.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "render.h"
#include "trace_walk.h"
#include "umax/engine.h"
#include "umax/position.h"
#include "umax/types.h"

namespace fs = std::filesystem;
using umax::docs::Call;
using umax::docs::claimFails;
using umax::docs::TraceWalk;
using umax::trace::Event;
using umax::trace::EventKind;

namespace umax::docs {
namespace {

/// A "predict, then check" question at the end of a topic page: the answer is worked out from
/// the trace walk here; `command` prints it from the same trace by another road (umax-trace's
/// jsonl export or its view model), and the suite checks that its output holds `expected`.
struct Exercise {
  std::string page;                   ///< the example name of the topic page it ends
  std::string question;               ///< Markdown-free text
  std::string answer;                 ///< the answer, in a sentence
  std::string command;                ///< run from the repository root after the docs build
  std::vector<std::string> expected;  ///< pieces of the command's output that show the answer, all
};

/// The jsonl line of event `event` of example trace `name`.
std::string jsonlCommand(const std::string& name, std::size_t event) {
  return "build/bin/umax-trace jsonl build/docs/examples/" + name +
         ".umaxtrace | grep '\"i\":" + std::to_string(event) + ",'";
}

/// One field of the view model at event `event` of example trace `name`.
std::string stateCommand(const std::string& name, std::size_t event, const std::string& key) {
  return "build/bin/umax-trace state build/docs/examples/" + name + ".umaxtrace --event " +
         std::to_string(event) + " | grep -o '\"" + key + "\":[^,]*'";
}

/// The jsonl lines of events `first` to `last` of example trace `name` (event i is line i+1).
std::string rangeCommand(const std::string& name, std::size_t first, std::size_t last) {
  return "build/bin/umax-trace jsonl build/docs/examples/" + name + ".umaxtrace | sed -n '" +
         std::to_string(first + 1) + "," + std::to_string(last + 1) + "p'";
}

/// The start of event `event`'s jsonl line up to its kind: `{"i":N,"kind":"KIND"`.
std::string lineStart(std::size_t event, const std::string& kind) {
  return "{\"i\":" + std::to_string(event) + ",\"kind\":\"" + kind + "\"";
}

/// A jsonl field as it is printed, followed by the comma of the next field.
std::string field(const std::string& key, long value) {
  return "\"" + key + "\":" + std::to_string(value) + ",";
}

/// A link to another page inside a question or answer: [[page_name|text]] (the exercises are HTML,
/// where Doxygen's \ref does not work).
std::string pageLink(const std::string& page, const std::string& text) {
  return "[[" + page + "|" + text + "]]";
}

struct Context {
  std::string umaxTrace;
  fs::path out;
  bool viz = false;    ///< the build makes visualizer screenshots (umax-viz is built)
  std::string webUrl;  ///< where the web edition is served, ending in '/' (empty: no links to it)
  mutable std::vector<Exercise> exercises;
  /// Example name -> the event its text opens the trace at: its header's command, its screenshot
  /// and the web edition's live view (NAME.event, web/embed_live_views.py) all show that one.
  mutable std::map<std::string, long> liveEvents;
  mutable std::set<std::string> recorded;  ///< the traces the examples recorded (NAME.umaxtrace)

  /// Notes that example `name` shows its trace at `event`, into NAME.event; an example that
  /// names two different events fails the build.
  void showsEvent(const std::string& name, long event) const {
    const auto [at, fresh] = liveEvents.emplace(name, event);
    if (!fresh && at->second != event)
      claimFails(name, "the example names event " + std::to_string(at->second) + " and event " +
                           std::to_string(event) + " for its view: its live view opens at one only");
    std::ofstream(out / (name + ".event")) << event << "\n";
  }

  /// The example's header (exampleHeader): the command that recorded `walk`, and the event its text
  /// is about, `what`, which the header's umax-viz command, the screenshot and the live view open at.
  std::string header(const std::string& name, const std::string& title, const TraceWalk& walk, long event,
                     const std::string& what) const {
    if (event < 0 || static_cast<std::size_t>(event) >= walk.events().size())
      claimFails(name, "the example's event " + std::to_string(event) + " is not in its trace");
    showsEvent(name, event);
    return exampleHeader(title, walk.command(), event, what, webUrl);
  }

  void ask(const std::string& page, const std::string& question, const std::string& answer,
           const std::string& command, std::vector<std::string> expected) const {
    exercises.push_back({page, question, answer, command, std::move(expected)});
  }
  void ask(const std::string& page, const std::string& question, const std::string& answer,
           const std::string& command, const std::string& expected) const {
    ask(page, question, answer, command, std::vector<std::string>{expected});
  }

  /// What `umax-trace state` says at an event of an example's trace: one string field.
  std::string stateField(const std::string& name, std::size_t event, const std::string& key) const {
    const std::string run = "\"" + umaxTrace + "\" state \"" + (out / (name + ".umaxtrace")).string() +
                            "\" --event " + std::to_string(event);
    FILE* pipe = popen(run.c_str(), "r");
    if (!pipe) throw std::runtime_error("cannot run " + run);
    std::string text;
    char buffer[4096];
    for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, got);
    if (pclose(pipe) != 0) throw std::runtime_error("failed: " + run);
    const std::string open = "\"" + key + "\":\"";
    const auto at = text.find(open);
    if (at == std::string::npos) throw std::runtime_error(run + ": no string field " + key);
    const auto end = text.find('"', at + open.size());
    return text.substr(at + open.size(), end - at - open.size());
  }

  /// A screenshot of the visualizer just after event `event` (numbered from 0,
  /// as umax-trace jsonl's "i" and umax-viz --event) of the example's trace:
  /// the docs build renders NAME-viz.png from NAME.event.
  /// The caption is words only: Doxygen prints an image caption as plain text, where a command would
  /// wrap after any hyphen ("--event 29"); the command that opens the same view follows the picture
  /// as a code span that does not wrap.
  std::string screenshot(const std::string& name, uint64_t event, const std::string& caption) const {
    showsEvent(name, static_cast<long>(event));
    if (!viz) return "";
    // Doxygen shrinks the picture to the page width: a link opens it at full size.
    return "\n\\image html " + name + "-viz.png \"" + caption +
           "\"\n\n\\htmlonly\n<p>Open the same view: <code " +
           "class=\"umax-nowrap\">build/bin/umax-viz build/docs/examples/" + name + ".umaxtrace --event " +
           std::to_string(event) + "</code> &#160;|&#160; <a href=\"" + name +
           "-viz.png\">Open the screenshot at full size.</a></p>\n\\endhtmlonly\n";
  }
  TraceWalk record(const std::string& name, const std::string& fen, const std::string& moves, int nodes,
                   int hashBits = 0) const {
    recorded.insert(name);
    return TraceWalk(umaxTrace, (out / (name + ".umaxtrace")).string(), fen, moves, nodes, hashBits);
  }
};

const char* const kTypeNames[8] = {"empty", "pawn (up)", "pawn (down)", "knight",
                                   "king",  "bishop",    "rook",        "queen"};

std::string binary(int code) {
  std::string bits;
  for (int bit = 5; bit >= 0; --bit) bits += (code >> bit & 1) ? '1' : '0';
  return "`" + bits + "`";
}

std::string hex(int square) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02X", square & 0xFF);
  return "`" + std::string(text) + "`";
}

std::string bounds(int from) {
  const bool lower = from & kLowerBoundBit, upper = from & kUpperBoundBit;
  return lower && upper ? "exact" : lower ? "lower bound" : upper ? "upper bound" : "none";
}

/// The calls the root made during its iteration `draft`.
std::vector<int> rootChildrenOfIteration(const TraceWalk& walk, int draft) {
  const auto iterations = walk.ownOfKind(0, EventKind::kIteration);
  std::size_t begin = 0, end = walk.events().size();
  bool found = false;
  for (std::size_t index = 0; index < iterations.size(); ++index)
    if (walk.events()[iterations[index]].value == draft) {
      begin = iterations[index];
      if (index + 1 < iterations.size()) end = iterations[index + 1];
      found = true;
    }
  if (!found) return {};
  std::vector<int> children;
  for (int child : walk.calls()[0].children)
    if (walk.calls()[child].callEvent > begin && walk.calls()[child].callEvent < end)
      children.push_back(child);
  return children;
}

int returned(const TraceWalk& walk, int call) { return walk.events()[walk.calls()[call].returnEvent].best; }

int scored(const TraceWalk& walk, int call) {
  const int index = walk.calls()[call].scoreEvent;
  return index < 0 ? 0 : walk.events()[index].value;
}

// ---- 1. piece encoding --------------------------------------------------------
std::string pieces(const Context& context) {
  const auto walk = context.record("pieces", "r3k2r/8/8/3p4/4P3/8/8/R3K2R w KQkq - 0 1", "", 300);
  // The codes of the root's own moves (movers and victims): no piece has moved yet in the search, so
  // the table leaves the exercise's answer, a code after a move, to the reader.
  std::set<int> codes;
  for (std::size_t index : walk.ownOfKind(0, EventKind::kMoveMade)) {
    const auto& move = walk.events()[index].move;
    codes.insert(move.piece & 0xFF);
    if (move.victim) codes.insert(move.victim & 0xFF);
  }
  bool virgin = false, plain = false, white = false, black = false;
  std::vector<std::vector<std::string>> rows;
  for (int code : codes) {
    virgin |= (code & kVirgin) != 0;
    plain |= (code & kVirgin) == 0;
    white |= (code & kWhite) != 0;
    black |= (code & kBlack) != 0;
    const int type = code & 7;
    if ((type == kKing || type == kRook) != ((code & kVirgin) != 0))
      claimFails("pieces", "a king or rook at the root without its virgin bit, or another piece with it");
    rows.push_back({num(code), binary(code), kTypeNames[type], code & kWhite ? "white" : "black",
                    code & kVirgin ? "yes" : "no"});
  }
  if (!(virgin && plain && white && black))
    claimFails("pieces", "the root's moves do not show virgin and plain, white and black codes");
  // What the page says of main()'s board (line 119): the virgin bit on all 16 back-rank pieces, on
  // no pawn (an unmoved pawn has none).
  const Board start = startBoard();
  for (int file = 0; file < 8; ++file) {
    for (const int row : {0, 7})
      if (!(start[static_cast<std::size_t>(16 * row + file)] & kVirgin))
        claimFails("pieces", "a back-rank piece of the start position has no virgin bit");
    for (const int row : {1, 6})
      if (start[static_cast<std::size_t>(16 * row + file)] & kVirgin)
        claimFails("pieces", "a pawn of the start position has the virgin bit");
  }
  {
    // A piece that moved at the root moves again at ply 2: the virgin bit it had is gone. Its code is
    // in neither the table nor the page's figure (whose moved example is a black king, 20): the reader
    // works it out from its bits.
    bool asked = false;
    for (int reply : walk.calls()[0].children) {
      const Call& after = walk.calls()[reply];
      if (asked || after.moveEvent < 0) continue;
      const auto& rootMove = walk.events()[after.moveEvent].move;
      if (!(rootMove.piece & kVirgin) || !(rootMove.piece & kWhite)) continue;
      for (int again : after.children) {
        if (asked || walk.calls()[again].moveEvent < 0) continue;
        for (std::size_t index : walk.ownOfKind(again, EventKind::kMoveMade)) {
          const auto& move = walk.events()[index].move;
          if (move.from != rootMove.to) continue;
          const int before = rootMove.piece & 0xFF, code = move.piece & 0xFF;
          if (code != (before & ~kVirgin)) claimFails("pieces", "a piece kept its virgin bit after moving");
          if (codes.count(code)) claimFails("pieces", "the exercise's answer is in the table");
          context.ask(
              "pieces",
              "At the root white plays " + moveText(rootMove.from, rootMove.to) +
                  " with u = " + std::to_string(before) + " (event " + std::to_string(after.moveEvent) +
                  " of pieces.umaxtrace); black answers " + walk.moveName(again) + ", and at ply 2 (event " +
                  std::to_string(index) + ") white moves the same piece again, " +
                  moveText(move.from, move.to) + ". Which piece code u does that move carry?",
              "u = " + std::to_string(code) + " = binary " + binary(code).substr(1, 6) + ": type " +
                  std::to_string(code & 7) + " (" + kTypeNames[code & 7] + ") and white (bit 3, 8) as " +
                  "before, but bit 5 (32) is gone: the move at the root stored the piece as u & 31, so " +
                  std::to_string(before) + " - 32 = " + std::to_string(code) + ".",
              jsonlCommand("pieces", index), {field("u", code)});
          asked = true;
          break;
        }
      }
    }
    if (!asked) claimFails("pieces", "no king or rook moved at the root moves again at ply 2");
  }
  return context.header("pieces", "the piece codes of the root's moves", walk,
                        static_cast<long>(walk.ownOfKind(0, EventKind::kMoveMade).at(0)),
                        "the root's first move, whose piece code `u` the table's first rows split") +
         "\nEvery distinct piece code `u` (the mover) or `t` (the victim) of the moves the root made, "
         "split into its bits:\n" +
         table({"code", "bits 5..0", "type (bits 0-2)", "colour (bit 3 or 4)", "virgin (bit 5)"}, rows) +
         "No piece has moved yet at the root: the kings and rooks still carry bit 5 (the FEN lets all four "
         "castlings), and pawns never carry it.\n";
}

// ---- 2. the board ---------------------------------------------------------------
std::string board(const Context& context) {
  const auto walk = context.record("board", "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1", "", 200);
  std::vector<std::vector<std::string>> rows;
  std::set<int> steps;
  long firstKnightMove = -1;  // the table's first row
  for (std::size_t index : walk.ownOfKind(0, EventKind::kMoveMade)) {
    const auto& move = walk.events()[index].move;
    if ((move.piece & 7) != kKnight || !steps.insert(move.to - move.from).second) continue;
    if (firstKnightMove < 0) firstKnightMove = static_cast<long>(index);
    if ((move.from & kOffBoard) || (move.to & kOffBoard)) claimFails("board", "a square with a 0x88 bit set");
    rows.push_back(
        {"`" + moveText(move.from, move.to) + "`", hex(move.from), hex(move.to), num(move.to - move.from)});
  }
  if (rows.size() != 8) claimFails("board", "the knight on d4 did not make 8 different steps");
  std::set<int> sizes;  // the steps without their sign
  for (int step : steps) sizes.insert(std::abs(step));
  if (sizes.size() != 4) claimFails("board", "the eight steps are not four sizes with both signs");
  {
    // Black's king answers at ply 1 with a diagonal step: a square the table does not show.
    bool asked = false;
    for (int reply : walk.calls()[0].children)
      for (std::size_t index : walk.ownOfKind(reply, EventKind::kMoveMade)) {
        const auto& move = walk.events()[index].move;
        if (asked || (move.piece & 7) != kKing || move.to - move.from != 17) continue;
        context.ask(
            "board",
            "After the root's " + walk.moveName(reply) + ", black's king on " + squareName(move.from) +
                " (x = " + std::to_string(move.from) + ") steps one square diagonally to " +
                squareName(move.to) + " (event " + std::to_string(index) +
                " of board.umaxtrace). The figure above gives the square's number; which step r = y - x "
                "did the generator add to x, and which entry of o[] (the king's list is 1, 16, 15, 17) "
                "gave it? (The sign comes from how the generator walks each list, which topic 3 explains; "
                "here the number is enough.)",
            "r = +17: one row down the array (towards rank 1) is +16 and one file right is +1, so y = " +
                std::to_string(move.from) + " + 17 = " + std::to_string(move.to) + " = " +
                hex(move.to).substr(1, 4) +
                ". It is the king's last entry, 17. (As [[topic_move_generation|topic 3]] shows, the "
                "generator "
                "takes each entry first negated, -17, and then as its mirror image, +17: this is the second "
                "of its two passes.)",
            jsonlCommand("board", index), {field("x", move.from) + field("y", move.to)});
        asked = true;
      }
    if (!asked) claimFails("board", "black's king made no diagonal step of +17 at ply 1");
  }
  std::string sizeList;
  for (int size : sizes) sizeList += (sizeList.empty() ? "" : ", ") + num(size);
  return context.header("board", "a knight's eight steps as square numbers", walk, firstKnightMove,
                        "the knight's first move at the root, the table's first row") +
         "\nThe knight on d4 (square `0x43`) at the root: each move's from- and to-square as the search "
         "holds them, and the step between them. The eight steps are four sizes, " +
         sizeList +
         ", each with both signs: the knight's entries of `o[]` are those four, and the generator uses "
         "each forwards and backwards:\n" +
         table({"move", "x", "y", "y - x"}, rows);
}

// ---- 3. move generation -----------------------------------------------------------
std::string generation(const Context& context) {
  const auto walk = context.record("generation", "", "", 100);
  const auto children = rootChildrenOfIteration(walk, 2);
  std::vector<std::pair<int, std::vector<std::string>>> groups;  // from-square, moves in order
  for (int child : children) {
    const auto& move = walk.events()[walk.calls()[child].moveEvent].move;
    if (groups.empty() || groups.back().first != move.from) groups.push_back({move.from, {}});
    groups.back().second.push_back("`" + moveText(move.from, move.to) + "`");
  }
  // The board scan visits the squares in the order x = x+9 & ~0x88 from the
  // first one: every piece's moves come together, pieces in scan order.
  std::set<int> seen;
  int previousRank = -1;
  for (const auto& [from, moves] : groups) {
    if (!seen.insert(from).second) claimFails("generation", "a piece's moves are not generated together");
    const int rank = (from >> 4) * 8 + (from & 7);
    if (rank < previousRank) claimFails("generation", "the pieces are not met in board-scan order");
    previousRank = rank;
  }
  if (groups.empty() || groups.front().first != 0x60)
    claimFails("generation", "the scan did not meet a2 first");
  if (children.size() != 20) claimFails("generation", "the start position does not have 20 root moves");
  if (!rootChildrenOfIteration(walk, 1).empty() || walk.calls()[0].args.lastTo != 8)
    claimFails("generation", "the root searched a move at draft 1, or its z is not 8");
  {
    // The reply's first move in the next iteration: black's scan from a8 with the knight's steps in
    // the order the table of the board page shows them.
    const auto next = rootChildrenOfIteration(walk, 3);
    bool asked = false;
    for (int child : next) {
      if (asked || (walk.events()[walk.calls()[child].moveEvent].move.flags & trace::kMoveSneaked)) continue;
      const auto made = walk.ownOfKind(child, EventKind::kMoveMade);
      if (made.empty()) continue;
      const auto& move = walk.events()[made.front()].move;
      if (move.flags & trace::kMoveSneaked) continue;
      if (move.from != 1) claimFails("generation", "black's first move is not the b8 knight's");
      for (std::size_t own : walk.calls()[child].own)
        if (own < made.front() && walk.events()[own].kind == EventKind::kBestMove)
          claimFails("generation", "the reply had a best move, so its scan does not start at a8");
      context.ask(
          "generation",
          "In its third iteration the root plays " + walk.moveName(child) + " (event " +
              std::to_string(walk.calls()[child].moveEvent) +
              " of generation.umaxtrace), and black's reply searches its own moves with the same three "
              "loops; it has no best move yet, so its board scan also starts at a8 (square 0). Which move "
              "does black make first "
              "(event " +
              std::to_string(made.front()) + ")?",
          moveText(move.from, move.to) +
              ": the scan meets the rook on a8 first, which cannot move, then "
              "the knight on " +
              squareName(move.from) +
              "; of the knight's steps, taken in o[]'s order (as in the table of the board page: -14, "
              "+14, -18, +18, -31, +31, ...), the first ones leave the board or hit a black pawn, and "
              "the first that lands on an empty square is " +
              moveText(move.from, move.to) + ".",
          jsonlCommand("generation", made.front()), {"\"move\":\"" + moveText(move.from, move.to) + "\""});
      asked = true;
    }
    if (!asked) claimFails("generation", "no reply of iteration 3 made a move of its own");
  }
  std::vector<std::vector<std::string>> rows;
  int order = 0;
  for (const auto& [from, moves] : groups) {
    std::string list;
    for (const auto& move : moves) list += (list.empty() ? "" : " ") + move;
    rows.push_back({num(++order), "`" + squareName(from) + "`", list});
  }
  return context.header("generation", "the order in which the root's moves are generated", walk,
                        static_cast<long>(walk.calls()[children.front()].moveEvent),
                        "the second iteration's first move, the table's first") +
         "\nThe root's first iteration, at draft 1, searched no move: at draft 1 only a move onto `z` is "
         "searched (see \\ref topic_quiescence), and the root's `z` is 8, a square no move reaches, so "
         "every move gets `h = 0`. These are the root's moves in its second iteration, in the order they "
         "were made: " +
         std::to_string(children.size()) +
         " moves, one piece after another as the board scan meets them (a2 first: the scan starts at "
         "square 0, a8, and walks towards h1):\n" +
         table({"#", "square", "moves, in the order searched"}, rows);
}

// ---- 4. en passant -------------------------------------------------------------
std::string enPassant(const Context& context) {
  // White's double step is played first (--moves), so black's root call gets
  // E = e3 and searches every move, the e.p. capture included.
  const auto walk = context.record("ep", "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "e2e4", 300);
  for (std::size_t index = 0; index < walk.events().size(); ++index) {
    const Event& event = walk.events()[index];
    if (event.kind != EventKind::kMoveMade || !(event.move.flags & trace::kMoveEnPassant)) continue;
    const Call& call = walk.calls()[walk.callOf(index)];
    const auto& capture = event.move;
    if (capture.captureSquare != (capture.to ^ 16) || call.args.epSquare != capture.to)
      claimFails("ep", "the capture square is not y^16 or E is not the skipped square");
    const auto before = walk.boardAfter(index - 1), after = walk.boardAfter(index);
    if (before[capture.captureSquare] == 0 || after[capture.captureSquare] != 0 || before[capture.to] != 0)
      claimFails("ep", "the victim was not taken from H");
    const std::string caller =
        call.moveEvent < 0
            ? "the root of the think (black to move: `--moves` played `e2e4` first, so the root gets its E "
              "from `O`)"
            : "the call after `" + walk.moveName(walk.callOf(index)) + "`";
    // Two things the table does not show: H of an ordinary pawn step, and E after the capture.
    for (std::size_t other : walk.ownOfKind(walk.callOf(index), EventKind::kMoveMade)) {
      const auto& step = walk.events()[other].move;
      if ((step.piece & 7) != kDownwardPawn || step.victim || (step.flags & trace::kMoveEnPassant)) continue;
      if (step.captureSquare != step.to) claimFails("ep", "an ordinary step's capture square is not y");
      context.ask(
          "ep",
          "Black's pawn also steps straight ahead, " + moveText(step.from, step.to) + " (event " +
              std::to_string(other) +
              " of ep.umaxtrace), in the same node that plays the e.p. capture "
              "with H = y^16. Which capture square H does this ordinary step record?",
          "H = y = " + std::to_string(step.to) + " (" + squareName(step.to) +
              "): H moves to y^16 only for a pawn's step onto E; every other move takes (or finds empty) "
              "the square it lands on.",
          jsonlCommand("ep", other), {field("H", step.to)});
      break;
    }
    for (int reply : walk.calls()[walk.callOf(index)].children) {
      const Call& after = walk.calls()[reply];
      if (after.moveEvent != static_cast<int>(index)) continue;
      if (after.args.epSquare != 128) claimFails("ep", "the reply to the e.p. capture has a skipped square");
      context.ask(
          "ep",
          "White's reply to the e.p. capture " + moveText(capture.from, capture.to) +
              " is searched from event " + std::to_string(after.callEvent) +
              " of ep.umaxtrace. Which E does that call get?",
          "E = 128, \"no square\": the capture is a diagonal step, not a double step, so it skipped no "
          "square and white has no e.p. capture of its own (only the root of a think can get something else, "
          "from O: see above).",
          jsonlCommand("ep", after.callEvent), {field("E", 128)});
    }
    return context.header("ep", "an e.p. capture in the search", walk, static_cast<long>(index),
                          "the e.p. capture " + moveText(capture.from, capture.to) + " being made") +
           table({"ply", "what the trace records"},
                 {{num(call.ply), caller + " gets E = `" + squareName(call.args.epSquare) +
                                      "`, the square the pawn skipped"},
                  {num(call.ply), "`" + moveText(capture.from, capture.to) + "` lands on y = `" +
                                      squareName(capture.to) + "` (empty: " + num(before[capture.to]) +
                                      "), so the capture square moves to H = y^16 = `" +
                                      squareName(capture.captureSquare) + "`"},
                  {num(call.ply), "the board at H: " + num(before[capture.captureSquare]) +
                                      " (the white pawn) before the move, " +
                                      num(after[capture.captureSquare]) + " while the reply is searched"}});
  }
  claimFails("ep", "no e.p. capture in the tree");
}

// ---- 5. castling -----------------------------------------------------------------
std::string castling(const Context& context) {
  const auto walk = context.record("castling", "r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1", "", 300);
  // Every castling's reply: refused (a move onto E or next to it), cut off before its scan reached such
  // a move (a stand pat or a refutation), answered by the hash table, or searched to the end without one.
  long count = 0, refused = 0, cutOff = 0, fromHash = 0, searched = 0;
  for (int call = 1; call < static_cast<int>(walk.calls().size()); ++call) {
    const int made = walk.calls()[call].moveEvent;
    if (made < 0 || !(walk.events()[made].move.flags & trace::kMoveCastling)) continue;
    ++count;
    bool bad = false;
    for (std::size_t index : walk.ownOfKind(call, EventKind::kKingCapture))
      bad |= walk.events()[index].badCastling;
    if (bad)
      ++refused;
    else if (!walk.ownOfKind(call, EventKind::kCutoff).empty())
      ++cutOff;
    else if (walk.ownOfKind(call, EventKind::kIteration).empty())
      ++fromHash;
    else
      ++searched;
  }
  if (refused + cutOff + fromHash + searched != count)
    claimFails("castling", "a castling's reply not counted");
  std::vector<std::string> parts;
  if (cutOff)
    parts.push_back((cutOff == count - refused ? "all " : "") + std::to_string(cutOff) +
                    " cut off (a stand pat, or a refutation among their first moves) before their board scan "
                    "reached a move onto the passed square or next to it");
  if (fromHash) parts.push_back(std::to_string(fromHash) + " were answered by the hash table");
  if (searched) parts.push_back(std::to_string(searched) + " searched every move without meeting one");
  if (parts.empty()) claimFails("castling", "every castling was refused");
  std::string others;
  for (std::size_t at = 0; at < parts.size(); ++at)
    others += (at == 0 ? "" : at + 1 == parts.size() ? " and " : ", ") + parts[at];
  for (int child = 1; child < static_cast<int>(walk.calls().size()); ++child) {
    const Call& call = walk.calls()[child];
    if (call.moveEvent < 0) continue;
    const auto& move = walk.events()[call.moveEvent].move;
    if (!(move.flags & trace::kMoveCastling)) continue;
    for (std::size_t index : call.own) {
      const Event& event = walk.events()[index];
      if (event.kind != EventKind::kKingCapture || !event.badCastling) continue;
      // The other castling, which the table does not show: its rook squares and the reply's E.
      for (std::size_t index : walk.ownOfKind(0, EventKind::kMoveMade)) {
        const auto& other = walk.events()[index].move;
        if (!(other.flags & trace::kMoveCastling) || other.to > other.from) continue;
        const Event& next = walk.events()[index + 1];
        if (next.kind != EventKind::kCall || next.call.epSquare != other.passedSquare)
          claimFails("castling", "the queen-side castling's reply does not get F as E");
        context.ask("castling",
                    "White can also castle queen-side: the root plays " + moveText(other.from, other.to) +
                        " at event " + std::to_string(index) +
                        " of castling.umaxtrace. From which square G to which square F does the rook move, "
                        "and which E does the reply's call (the next event) get?",
                    "G = " + std::to_string(other.rookFrom) + " (" + squareName(other.rookFrom) + "), F = " +
                        std::to_string(other.passedSquare) + " (" + squareName(other.passedSquare) +
                        "), the square the king passes over; the reply gets E = F = " +
                        std::to_string(other.passedSquare) + ", so a reply move onto " +
                        squareName(other.passedSquare) + " (or next to it) counts as capturing the king.",
                    rangeCommand("castling", index, index + 1),
                    {field("G", other.rookFrom) + field("F", other.passedSquare),
                     lineStart(index + 1, "call"), field("E", other.passedSquare)});
        break;
      }
      return context.header("castling", "a castling tried and refused through check", walk,
                            static_cast<long>(index),
                            "the reply's move onto the passed square, counted as a king capture") +
             table(
                 {"", "from the trace"},
                 {{"castling made at ply " + std::to_string(call.ply - 1),
                   "`" + moveText(move.from, move.to) + "`: rook from G = `" + squareName(move.rookFrom) +
                       "` to F = `" + squareName(move.passedSquare) + "`"},
                  {"the reply's E", "`" + squareName(call.args.epSquare) + "` (the square the king passed)"},
                  {"the reply's move that reaches E or next to it",
                   "`" + moveText(event.move.from, event.move.to) + "`: counted as a king capture"},
                  {"the reply returns", num(returned(walk, child))},
                  {"so the castling scores", num(scored(walk, child)) + ": never chosen"},
                  {"in the whole search", std::to_string(count) + " castlings made, " +
                                              std::to_string(refused) + " refused this way"}}) +
             "\nOf the other " + std::to_string(count - refused) + " replies to a castling, " + others +
             ". The refusal only shows where the reply gets that "
             "far: elsewhere the search scores a castling through check like any other move, and only the "
             "legality check of a move actually played (a search two plies deep, see "
             "\\ref topic_legality_interface) refuses it, as the Try it below shows.\n";
    }
  }
  claimFails("castling", "no castling refused by a reply onto the passed square");
}

// ---- 6. promotion -----------------------------------------------------------------
std::string promotion(const Context& context) {
  const auto walk = context.record("promotion", "8/P6k/8/8/8/8/8/K7 w - - 0 1", "", 300);
  for (int child : walk.calls()[0].children) {
    const Call& call = walk.calls()[child];
    if (call.moveEvent < 0 || !(walk.events()[call.moveEvent].move.flags & trace::kMovePromotion)) continue;
    const auto& move = walk.events()[call.moveEvent].move;
    const int after = walk.boardAfter(call.moveEvent)[move.to];
    if ((after & 7) != kQueen) claimFails("promotion", "the promoted piece is not a queen");
    const int rootEval = walk.calls()[0].args.eval;
    // The same promotion deeper in the tree: the same step adds the same v + i, whatever the node's e.
    const int gain = -call.args.eval - rootEval;
    bool asked = false;
    for (int reply : walk.calls()[0].children)
      for (int node : walk.calls()[reply].children) {
        if (asked || walk.calls()[node].moveEvent < 0) continue;
        for (int deeper : walk.calls()[node].children) {
          const Call& promoted = walk.calls()[deeper];
          if (asked || promoted.moveEvent < 0 ||
              !(walk.events()[promoted.moveEvent].move.flags & trace::kMovePromotion))
            continue;
          const int nodeEval = walk.calls()[node].args.eval;
          if (-promoted.args.eval - nodeEval != gain)
            claimFails("promotion", "the same promotion gained another v + i");
          context.ask(
              "promotion",
              "The table shows what a7a8 adds at the root: v + i = " + std::to_string(gain) +
                  ". Deeper in the tree, after " + walk.moveName(reply) + " " + walk.moveName(node) +
                  ", white's node at ply 2 has e = " + std::to_string(nodeEval) + " (event " +
                  std::to_string(walk.calls()[node].callEvent) +
                  " of promotion.umaxtrace) and promotes again. Which e does the reply's call get (event " +
                  std::to_string(promoted.callEvent) + ")?",
              "e = -(e + v + i) = -(" + std::to_string(nodeEval) + " + " + std::to_string(gain) +
                  ") = " + std::to_string(promoted.args.eval) +
                  ": the kings' moves in between do not change what "
                  "the pawn's step from a7 to a8 adds (the same squares, the same promotion bonus, and no "
                  "pawn of its own two files away), only the e it is added to.",
              jsonlCommand("promotion", promoted.callEvent), {field("e", promoted.args.eval)});
          asked = true;
        }
      }
    if (!asked) claimFails("promotion", "no promotion at ply 2");
    // v's two parts, from the board the move was made on (lines 74 and 78-79): the centre points
    // of the step, read in the board's right half, and the pawn-structure term.
    const auto board = walk.boardAfter(static_cast<std::size_t>(call.moveEvent) - 1);
    if (board.size() < 128) claimFails("promotion", "the replayed board has no centre table");
    const int x = move.from, y = move.to, u = move.piece;
    const int centre = board[static_cast<std::size_t>(x + 8)] - board[static_cast<std::size_t>(y + 8)];
    const bool leftBare = ((x - 2) & 0x88) != 0 || board[static_cast<std::size_t>(x - 2)] != u;
    const bool rightBare = ((x + 2) & 0x88) != 0 || board[static_cast<std::size_t>(x + 2)] != u;
    const int structure = -9 * (static_cast<int>(leftBare) + static_cast<int>(rightBare) - 1);
    if (centre + structure != -call.args.eval - rootEval - 799)
      claimFails("promotion", "the centre points and the pawn structure do not add up to v");
    const std::string positional =
        "the centre points of the step, b[x+8]-b[y+8] = " + num(board[static_cast<std::size_t>(x + 8)]) +
        " - " + num(board[static_cast<std::size_t>(y + 8)]) + " = " + num(centre) +
        ", plus the pawn-structure term of line 78, -9 for each square two files away without an own pawn "
        "(off the board counts as without), +9: here " +
        std::to_string(static_cast<int>(leftBare) + static_cast<int>(rightBare)) + " such square" +
        (leftBare + rightBare == 1 ? "" : "s") + ", so " + num(structure) + "; " + num(centre) + " + " +
        num(structure) + " = " + num(centre + structure);
    return context.header("promotion", "a promotion at the root", walk, static_cast<long>(call.callEvent),
                          "the reply's call after the promotion, with its e = -e-v-i") +
           table({"", "from the trace"},
                 {{"move", "`" + moveText(move.from, move.to) + "`"},
                  {"piece before (u)", num(move.piece) + " = " + kTypeNames[move.piece & 7]},
                  {"piece on y after the move", num(after) + " = " + kTypeNames[after & 7]},
                  {"root's evaluation e", num(rootEval)},
                  {"the reply's evaluation -e-v-i", num(call.args.eval)},
                  {"so v + i", num(-call.args.eval - rootEval) + " (i includes the promotion bonus 799)"},
                  {"so v, the positional part", num(-call.args.eval - rootEval - 799) + ": " + positional}});
  }
  claimFails("promotion", "no promotion at the root");
}

// ---- 7. alpha-beta ----------------------------------------------------------------
/// The first refutation in the trace: a cutoff found after a move of the node reached beta (not a
/// stand pat, whose cutoff comes right after the iteration starts, nor a king capture), at the
/// shallowest ply where one occurs. Its numbers, the moves the node made, and the view model's
/// narration, which counts the moves not tried.
std::string refutationCutoff(const Context& context, const TraceWalk& walk) {
  std::size_t found = 0;
  int foundPly = 1 << 30;
  for (std::size_t index = 1; index < walk.events().size(); ++index) {
    const Event& event = walk.events()[index];
    if (event.kind != EventKind::kCutoff) continue;
    const EventKind before = walk.events()[index - 1].kind;
    if (before == EventKind::kIteration || before == EventKind::kKingCapture) continue;
    const Call& call = walk.calls()[walk.callOf(index)];
    if (call.ply < 1 || call.ply >= foundPly || call.moveEvent < 0) continue;
    // One where a move below beta came first, so the table shows both kinds.
    int made = 0;
    for (std::size_t own : call.own)
      if (own < index) {
        if (walk.events()[own].kind == EventKind::kIteration) made = 0;
        if (walk.events()[own].kind == EventKind::kMoveMade) ++made;
      }
    if (made < 2) continue;
    found = index;
    foundPly = call.ply;
  }
  if (!found) claimFails("alphabeta", "no move of a node below the root reached beta");
  const int callIndex = walk.callOf(found);
  const Call& call = walk.calls()[callIndex];
  const Event& cutoff = walk.events()[found];
  if (cutoff.value < call.args.beta) claimFails("alphabeta", "a refutation below beta");
  // The moves the node made in the iteration that cut off, with their scores.
  std::size_t iteration = 0;
  for (std::size_t index : call.own)
    if (index < found && walk.events()[index].kind == EventKind::kIteration) iteration = index;
  std::vector<std::vector<std::string>> rows;
  std::string refuting;
  for (int child : call.children) {
    const Call& reply = walk.calls()[child];
    if (reply.callEvent < iteration || reply.callEvent > found || reply.moveEvent < 0) continue;
    refuting = walk.moveName(child);
    const bool sneaked = walk.events()[reply.moveEvent].move.flags & trace::kMoveSneaked;
    rows.push_back({"`" + refuting + "`", num(scored(walk, child)),
                    scored(walk, child) >= call.args.beta ? "reaches beta: the refutation" : "below beta",
                    sneaked ? "the previous iteration's best, tried first (it comes again in the board scan)"
                            : "in the board scan's order"});
  }
  if (rows.empty()) claimFails("alphabeta", "the refuting node made no move in its iteration");
  const std::string narration = context.stateField("alphabeta", found, "narration");
  const std::string refuted = walk.moveName(callIndex);
  const std::string parentSide = walk.calls()[call.parent].args.side == kWhite ? "white" : "black";
  return "\n### A refutation: a move that fails high\n\nThe cutoffs above are stand pats: at draft 1 a "
         "node's best starts at its own eval, on which it may stand (\\ref topic_quiescence), and when that "
         "eval already reaches beta it cuts off before trying a move. Deeper in the same trace (found by "
         "searching it: the first node, at the "
         "shallowest ply, where a move scored below beta before the refutation) a node cuts off because "
         "one of its moves reached beta, a CUT node (the visualizer's tree marks it so). The tree names a "
         "node by its result, as the glossary does: CUT when it fails high (score >= beta), ALL when it "
         "fails low (score <= alpha), PV when its score lands inside its window, even a node that "
         "searched no move and stood pat there: event " +
         std::to_string(found) + ", at ply " + std::to_string(call.ply) + ", the reply to " + parentSide +
         "'s `" + refuted + "`. Its window is " + window(call.args.alpha, call.args.beta) +
         "; the moves it made in " + "its iteration " + std::to_string(walk.events()[iteration].value) +
         " (every node searches itself again one ply deeper each time, draft 1, 2, 3 and on: "
         "\\ref topic_iterative_deepening), in order:\n" +
         table({"move", "score v", "against beta " + std::to_string(call.args.beta), "why here"}, rows) +
         "\nThe score " + num(cutoff.value) + " >= beta " + num(call.args.beta) +
         ": the opponent, one ply up, already has a way to hold this node to less, so `" + refuted +
         "` is refuted and the rest of the node's moves are not searched. `umax-trace state` says it in "
         "one line (the moves not tried are counted in the generator's order, from the board at that "
         "event):\n\n    build/bin/umax-trace state build/docs/examples/alphabeta.umaxtrace --event " +
         std::to_string(found) + "\n\n> " + narration + "\n";
}

std::string alphaBeta(const Context& context) {
  const auto walk = context.record("alphabeta", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "", 300);
  const int draft = 2;
  const auto children = rootChildrenOfIteration(walk, draft);
  std::vector<std::vector<std::string>> rows;
  std::ostringstream dot;
  dot << "\\dot \"The root's iteration " << draft
      << " of the recorded search: each reply with the window it was given and the score it returned\"\n"
         "digraph tree {\n  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fillcolor=\"#f3e3c3\", "
         "fontname=\"Helvetica\", fontsize=9];\n  edge [fontname=\"Helvetica\", fontsize=9];\n"
      << "  root [label=\"root (white)\\nwindow [" << walk.calls()[0].args.alpha << ", "
      << walk.calls()[0].args.beta << "]\\ne = " << walk.calls()[0].args.eval
      << "\", fillcolor=\"#ffd98a\"];\n";
  int best = -kInfinity, cutoffs = 0, step = 0;
  std::size_t firstCutoff = 0;
  std::ostringstream story;  // the same steps in words
  for (int child : children) {
    const Call& call = walk.calls()[child];
    const int value = returned(walk, child);
    std::string cut = "no";
    for (std::size_t index : walk.ownOfKind(child, EventKind::kCutoff)) {
      const int at = walk.events()[index].value;
      if (at < call.args.beta) claimFails("alphabeta", "a cutoff below beta");
      cut = "yes: best " + num(at) + " >= beta " + num(call.args.beta);
      if (!cutoffs++) firstCutoff = index;
      break;
    }
    const int score = scored(walk, child);
    // A stand pat: the reply's first cutoff comes at its evaluation, before it made a move.
    bool standPat = false;
    for (std::size_t index : call.own) {
      const EventKind kind = walk.events()[index].kind;
      if (kind == EventKind::kMoveMade) break;
      if (kind == EventKind::kCutoff) {
        standPat = walk.events()[index].value == call.args.eval;
        break;
      }
    }
    if (best != -kInfinity && call.args.beta != -best)
      claimFails("alphabeta", "a reply's beta is not minus the root's best");
    const std::string move = "`" + walk.moveName(child) + "`";
    // The move's score is minus the reply's value, less the delayed-gain point where v > e.
    const std::string penalty =
        score == -value - 1 ? " (" + num(-value) + " minus the 1-point delayed-gain penalty)" : "";
    if (score != -value && score != -value - 1) claimFails("alphabeta", "a score is not -v or -v - 1");
    if (score > best)
      story << step + 1 << ". " << move << ": its reply gets the window "
            << window(call.args.alpha, call.args.beta) << " and returns " << num(value)
            << ", so the move scores " << num(score) << penalty
            << (best == -kInfinity ? "" : ", more than " + num(best))
            << ": the new best, and the next reply's beta becomes " << num(-score) << ".\n";
    else if (cut != "no" && standPat)
      story << step + 1 << ". " << move << ": its reply gets " << window(call.args.alpha, call.args.beta)
            << "; its evaluation " << num(call.args.eval) << " already reaches beta " << num(call.args.beta)
            << ", so it cuts off before searching a move. The move scores " << num(score) << penalty
            << ", no better than " << num(best) << ".\n";
    else if (cut != "no")
      story << step + 1 << ". " << move << ": its reply gets " << window(call.args.alpha, call.args.beta)
            << "; a move of the reply reaches beta and it cuts off, returning " << num(value)
            << ". The move scores " << num(score) << penalty << ", no better than " << num(best) << ".\n";
    else
      story << step + 1 << ". " << move << ": its reply gets " << window(call.args.alpha, call.args.beta)
            << " and returns " << num(value) << "; the move scores " << num(score) << penalty
            << ", no better than " << num(best) << ".\n";
    best = std::max(best, score);
    rows.push_back({num(++step), "`" + walk.moveName(child) + "`", window(call.args.alpha, call.args.beta),
                    num(call.args.eval), cut, num(value), num(score), num(best)});
    dot << "  c" << child << " [label=\"" << walk.moveName(child) << "\\n[" << call.args.alpha << ", "
        << call.args.beta << "]\\nreturns " << value << (cut == "no" ? "" : "\\ncutoff") << "\""
        << (cut == "no" ? "" : ", fillcolor=\"#dde6ee\"") << "];\n  root -> c" << child << " [label=\""
        << score << "\"];\n";
  }
  dot << "}\n\\enddot\n";
  if (cutoffs == 0) claimFails("alphabeta", "no reply of the iteration cut off");
  const std::string refutation = refutationCutoff(context, walk);
  {
    // The next iteration, which the page does not show: the second reply's window, and a stand pat.
    const auto next = rootChildrenOfIteration(walk, draft + 1);
    if (next.size() < 3) claimFails("alphabeta", "the root's next iteration made fewer than three moves");
    // The first move after the sneaked best that is another move (the best comes again first).
    std::size_t later = 1;
    while (later < next.size() && walk.moveName(next[later]) == walk.moveName(next[0])) ++later;
    if (later >= next.size()) claimFails("alphabeta", "the next iteration tried no second move");
    const Call& first = walk.calls()[next[0]];
    const Call& second = walk.calls()[next[later]];
    const Call& root = walk.calls()[0];
    int bestSoFar = -kInfinity;
    for (std::size_t at = 0; at < later; ++at) {
      bestSoFar = std::max(bestSoFar, scored(walk, next[at]));
      if (scored(walk, next[at]) != scored(walk, next[0]))
        claimFails("alphabeta", "the best move scored twice differently");
    }
    const int firstScore = scored(walk, next[0]);
    // A move of the table that this iteration does not try at all: the pawn's push, skipped because the
    // pawn's best move is a capture (the quirk of topic 11).
    std::string missing;
    std::size_t missingStep = 0;
    for (std::size_t step = 0; step < children.size(); ++step) {
      const int child = children[step];
      const auto& move = walk.events()[walk.calls()[child].moveEvent].move;
      if ((move.piece & 7) > kDownwardPawn || move.victim) continue;
      bool tried = false;
      for (int again : next) tried |= walk.moveName(again) == walk.moveName(child);
      const auto& best = walk.events()[first.moveEvent].move;
      if (!tried) {
        if (best.from != move.from || !best.victim)
          claimFails("alphabeta", "a pawn push left out, but the pawn's best move is no capture");
        missing = walk.moveName(child);
        missingStep = step + 1;
      }
    }
    const int alpha = -root.args.beta - (root.args.beta > root.args.eval);
    if (second.args.alpha != alpha || second.args.beta != -std::max(root.args.alpha, bestSoFar) ||
        bestSoFar != firstScore)
      claimFails("alphabeta",
                 "the reply's window is not [-l - (l > e), -max(q, m)] with m the first move's score");
    context.ask(
        "alphabeta",
        "Iteration " + std::to_string(draft + 1) + " is not in the table. The root (window [" +
            std::to_string(root.args.alpha) + ", " + std::to_string(root.args.beta) +
            "], e = " + std::to_string(root.args.eval) + ") first tries the previous best, " +
            walk.moveName(next[0]) + ", which scores " + std::to_string(firstScore) + " (event " +
            std::to_string(first.scoreEvent) + " of alphabeta.umaxtrace)" +
            (later > 1 ? std::string("; then the board scan brings it once more, and it scores the same")
                       : "") +
            (missing.empty() ? std::string()
                             : ". " + missing + " (step " + std::to_string(missingStep) +
                                   " of the table) is not tried in this iteration: " +
                                   "a pawn whose best move is a capture skips its push (see " +
                                   pageLink("topic_move_sorting", "Best-move-first ordering") + " and " +
                                   pageLink("page_quirks", "the quirks page") + ")") +
            ". Which window [q, l] does the reply to the next move, " + walk.moveName(next[later]) +
            ", get (event " + std::to_string(second.callEvent) + ")?",
        "[" + std::to_string(second.args.alpha) + ", " + std::to_string(second.args.beta) +
            "]: alpha is -l, one lower because l = " + std::to_string(root.args.beta) + " > e, and beta is " +
            "-max(q, m) = -" + std::to_string(std::max(root.args.alpha, bestSoFar)) +
            ": the root's best so far, turned round.",
        jsonlCommand("alphabeta", second.callEvent),
        {field("q", second.args.alpha) + field("l", second.args.beta)});
    bool asked = false;
    for (int child : next)
      for (int grandchild : walk.calls()[child].children) {
        const Call& node = walk.calls()[grandchild];
        const auto iterations = walk.ownOfKind(grandchild, EventKind::kIteration);
        if (asked || node.moveEvent < 0 || iterations.empty() || node.args.eval < node.args.beta ||
            walk.events()[iterations.front()].value != 1)
          continue;
        const std::size_t start = iterations.front();
        const Event& after = walk.events()[start + 1];
        if (after.kind != EventKind::kCutoff || after.value != node.args.eval ||
            walk.events()[node.returnEvent].best != node.args.eval)
          claimFails("alphabeta", "a node whose e reaches beta did not stand pat");
        const std::string side = node.args.side == kWhite ? "white" : "black";
        context.ask(
            "alphabeta",
            "In the same iteration, after " + walk.moveName(child) + " " + walk.moveName(grandchild) + ", " +
                side +
                "'s node at ply 2 (a new position: its first iteration has draft 1) gets "
                "the window [" +
                std::to_string(node.args.alpha) + ", " + std::to_string(node.args.beta) +
                "] and e = " + std::to_string(node.args.eval) + " (event " + std::to_string(node.callEvent) +
                " of alphabeta.umaxtrace). Does it try a move, and what does it return?",
            "No move: at draft 1 its best m starts at e = " + std::to_string(node.args.eval) +
                ", which already reaches beta " + std::to_string(node.args.beta) +
                ", so it stands pat: the cutoff is the very next event after its iteration starts (event " +
                std::to_string(start + 1) + "), and the call returns " + std::to_string(node.args.eval) + ".",
            rangeCommand("alphabeta", start, start + 1),
            {lineStart(start, "iteration"), lineStart(start + 1, "cutoff"),
             "\"m\":" + std::to_string(node.args.eval) + "}"});
        asked = true;
      }
    if (!asked) claimFails("alphabeta", "no node at ply 2 of the next iteration stands pat");
  }

  return context.header("alphabeta", "one iteration of a small search, step by step", walk,
                        static_cast<long>(firstCutoff), "the first cutoff of the table") +
         "\nThe root (white to move, draft " + std::to_string(draft) +
         ") searches its moves in order. Each reply gets the window turned round: alpha `-l` (one lower "
         "when `l > e`) and beta `-max(q, m)`, so it narrows as the root's best `m` improves. A reply "
         "whose own best reaches its beta stops at once (a cutoff): it has shown the move is no better "
         "than one the root already has.\n" +
         table({"step", "root move", "reply's window [q, l]", "reply's e", "reply cut off?", "reply returns",
                "move's score v", "root's best m"},
               rows) +
         "\nStep by step:\n\n" + story.str() + "\n" + dot.str() + refutation +
         context.screenshot(
             "alphabeta", firstCutoff,
             "The visualizer at the first cutoff of the table, event " + std::to_string(firstCutoff) +
                 "; its readable source panel shows the tracing lines next to Step 9, see the tools page");
}

// ---- 8. quiescence -------------------------------------------------------------
std::string quiescence(const Context& context) {
  const auto walk = context.record("quiescence", "4k3/8/2n5/3p4/4P3/2N5/8/4K3 w - - 0 1", "", 2000);
  // The longest chain of recaptures searched at draft 1.
  std::vector<int> bestChain;
  for (int call = 0; call < static_cast<int>(walk.calls().size()); ++call) {
    std::vector<int> chain;
    for (int at = call; at > 0; at = walk.calls()[at].parent) {
      const Call& node = walk.calls()[at];
      if (node.moveEvent < 0 || node.args.depth != 1) break;
      const Call& parent = walk.calls()[node.parent];
      if (parent.args.depth != 1 || walk.events()[node.moveEvent].move.to != parent.args.lastTo) break;
      chain.insert(chain.begin(), at);
    }
    bool plain = true;  // no king capture or mate score in the chain: easier to read
    if (!chain.empty()) plain &= std::abs(returned(walk, walk.calls()[chain.front()].parent)) < kMateBound;
    for (int at : chain) plain &= std::abs(returned(walk, at)) < kMateBound;
    if (plain && chain.size() > bestChain.size()) bestChain = chain;
  }
  if (bestChain.size() < 2) claimFails("quiescence", "no chain of two recaptures at draft 1");
  // The chain begins at the first capture: the move before the first recapture, if it took a piece.
  const int opening = walk.calls()[bestChain.front()].parent;
  const int openingMove = walk.calls()[opening].moveEvent;
  if (openingMove >= 0 && walk.events()[openingMove].move.victim)
    bestChain.insert(bestChain.begin(), opening);
  std::vector<std::vector<std::string>> rows;
  bool stoodPat = false;
  for (int call : bestChain) {
    const Call& node = walk.calls()[call];
    const auto& move = walk.events()[node.moveEvent].move;
    if (!move.victim) claimFails("quiescence", "a move of the chain is not a capture");
    const int value = returned(walk, call);
    const bool pat = node.args.depth == 1 && value == node.args.eval;
    stoodPat |= pat;
    rows.push_back({num(node.ply), "`" + walk.moveName(call) + "`", kTypeNames[move.victim & 7],
                    "`" + squareName(node.args.lastTo) + "`", num(node.args.depth),
                    window(node.args.alpha, node.args.beta), num(node.args.eval),
                    pat ? "yes: returns its own e" : "no", num(value)});
  }
  if (!stoodPat) claimFails("quiescence", "no node of the chain stands pat");
  // The path from the root to the chain's first capture, and the board just before it.
  const int first = bestChain.front();
  std::vector<std::string> path;
  for (int at = walk.calls()[first].parent; at > 0; at = walk.calls()[at].parent)
    path.insert(path.begin(), "`" + walk.moveName(at) + "`");
  std::string pathText;
  for (const auto& move : path) pathText += (pathText.empty() ? "" : " ") + move;
  const std::size_t firstMove = static_cast<std::size_t>(walk.calls()[first].moveEvent);
  const std::string fen = context.stateField("quiescence", firstMove - 1, "fen");
  {
    // A node at draft 1 (a new position) that does not stand pat: which move does it make first?
    bool asked = false;
    for (int call = 1; call < static_cast<int>(walk.calls().size()) && !asked; ++call) {
      const Call& node = walk.calls()[call];
      if (node.args.depth != 1 || node.moveEvent < 0 || node.args.eval >= node.args.beta) continue;
      const auto probes = walk.ownOfKind(call, EventKind::kProbe);
      if (probes.empty() || walk.events()[probes.front()].probe.outcome != ProbeOutcome::kMiss) continue;
      const auto made = walk.ownOfKind(call, EventKind::kMoveMade);
      std::set<int> froms;
      for (std::size_t index : made) {
        if (walk.events()[index].move.to != node.args.lastTo)
          claimFails("quiescence", "a node at draft 1 made a move that does not land on z");
        froms.insert(walk.events()[index].move.from);
      }
      if (froms.empty() || std::abs(returned(walk, call)) >= kMateBound) continue;
      std::string path;
      for (int at = call; at > 0; at = walk.calls()[at].parent)
        path = walk.moveName(at) + (path.empty() ? "" : " ") + path;
      const auto& move = walk.events()[made.front()].move;
      const std::string fen = context.stateField("quiescence", node.callEvent, "fen");
      context.ask(
          "quiescence",
          "After " + path + " from the root, the node at ply " + std::to_string(node.ply) + " (event " +
              std::to_string(node.callEvent) +
              " of quiescence.umaxtrace) is new to the hash table, has depth n = 1, e = " +
              std::to_string(node.args.eval) + " below its beta " + std::to_string(node.args.beta) +
              " (so it does not stand pat), and the last move landed on z = " + squareName(node.args.lastTo) +
              ". Its board is " + fen + ". Which move does it make first?",
          moveText(move.from, move.to) +
              ": at draft 1 only a move onto z is searched, so the node makes "
              "only captures on " +
              squareName(node.args.lastTo) +
              "; with no best move yet its board scan starts at a8, and the first of its pieces it meets "
              "that can take there stands on " +
              squareName(move.from) + ".",
          jsonlCommand("quiescence", made.front()), {"\"move\":\"" + moveText(move.from, move.to) + "\""});
      asked = true;
    }
    if (!asked) claimFails("quiescence", "no new node at draft 1 below beta that recaptures");
  }
  const std::string start =
      "\nThe chain starts at the end of the full-width search: after the moves " +
      (pathText.empty() ? std::string("(none)") : pathText) + " from the root, the node at ply " +
      std::to_string(walk.calls()[first].ply - 1) +
      " is already at depth `n = " + std::to_string(walk.calls()[walk.calls()[first].parent].args.depth) +
      "` (the last full-width move, the one that led to it, had `h = 1`): quiescence begins there. At "
      "draft 1 only a move onto `z`, the square the previous move reached, keeps the draft, so that node "
      "searches the capture `" +
      walk.moveName(first) + "` (it lands on `" + squareName(walk.calls()[first].args.lastTo) +
      "`; a recapture in the code's sense, whether or not the move before took anything), and its reply "
      "gets draft `h = " +
      std::to_string(walk.calls()[first].args.depth) + "`. The board just before that capture (event " +
      std::to_string(firstMove - 1) + "):\n\n    " + fen + "\n\n";
  return context.header("quiescence", "a recapture chain at draft 1, ending in a stand pat", walk,
                        static_cast<long>(firstMove), "the chain's first capture being made") +
         start +
         "\nThe longest run of captures on one square searched at draft 1. Each row is one capture; "
         "the columns after the victim describe the reply's node, the call made after this move: its `z` "
         "is this move's to-square, and a capture there keeps the draft (`h = d`); every other move at "
         "draft 1 gets `h = 0` and is not searched. A side that stands pat returns its own evaluation "
         "`e`: no recapture did better than stopping the exchange.\n" +
         table({"ply of the reply", "move", "victim", "the reply after this move: z", "its depth n",
                "its window", "its e", "it stands pat", "it returns"},
               rows);
}

// ---- 9. do and undo ---------------------------------------------------------------
std::string doUndo(const Context& context) {
  const auto walk = context.record("doundo", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "", 100);
  for (int child : walk.calls()[0].children) {
    const Call& call = walk.calls()[child];
    if (call.moveEvent < 0 || call.scoreEvent < 0) continue;
    const auto& move = walk.events()[call.moveEvent].move;
    if (!move.victim) continue;
    const auto before = walk.boardAfter(call.moveEvent - 1), made = walk.boardAfter(call.moveEvent),
               undone = walk.boardAfter(call.scoreEvent);
    std::vector<std::vector<std::string>> rows;
    for (int square : {move.from, move.to}) {
      if (before[square] != undone[square]) claimFails("doundo", "the undo did not restore the board");
      rows.push_back(
          {"`" + squareName(square) + "`", num(before[square]), num(made[square]), num(undone[square])});
    }
    if (made[move.from] != 0 || made[move.to] != (move.piece & 31))
      claimFails("doundo", "the move was not made");
    // A capture deeper in the tree, by a piece that moved earlier on its path: its t and u, which
    // the table does not show.
    bool asked = false;
    for (std::size_t index = 0; index < walk.events().size() && !asked; ++index) {
      const Event& event = walk.events()[index];
      const int node = walk.callOf(index);
      if (event.kind != EventKind::kMoveMade || !event.move.victim || node == 0) continue;
      const auto& capture = event.move;
      std::string path, mover;
      int moverPiece = 0;
      for (int at = node; at > 0; at = walk.calls()[at].parent) {
        path = walk.moveName(at) + (path.empty() ? "" : " ") + path;
        const int made = walk.calls()[at].moveEvent;
        if (made >= 0 && walk.events()[made].move.to == capture.from && mover.empty()) {
          mover = walk.moveName(at);
          moverPiece = walk.events()[made].move.piece;
        }
      }
      if (mover.empty()) continue;
      if (capture.piece & kVirgin) claimFails("doundo", "a piece that moved kept its virgin bit");
      const std::string side = capture.piece & kWhite ? "white" : "black";
      // Whether the piece lost a virgin bit on its way here, or never had one (the FEN grants no castling).
      // First the reason a learner gives: its own move stored u&31 (line 75), which clears the bit.
      const int type = moverPiece & 7;
      const std::string before = moverPiece & kVirgin ? "it had the bit before " + mover
                                 : type <= 2          ? "a pawn never has it anyway"
                                 : type == 4 || type == 6
                                     ? "it had none before either: the FEN grants no castling"
                                     : "it had none before either: it did not start on its home square";
      const std::string virginNote = "no virgin bit: its own move " + mover +
                                     " put it there as u&31 (b[y]=u&31, line 75), which clears the bit; " +
                                     before;
      context.ask(
          "doundo",
          "After " + path + " from the root, " + side + " captures " + moveText(capture.from, capture.to) +
              " at event " + std::to_string(index) + " of doundo.umaxtrace (the piece came to " +
              squareName(capture.from) + " with " + mover +
              "). Which victim code t does the move keep for its undo, and which piece code u goes back "
              "to " +
              squareName(capture.from) + " when it is taken back?",
          "t = " + std::to_string(capture.victim) + " (" + kTypeNames[capture.victim & 7] + ", " +
              (capture.victim & kWhite ? "white" : "black") + ") and u = " + std::to_string(capture.piece) +
              " (" + kTypeNames[capture.piece & 7] + " " + std::to_string(capture.piece & 7) + " + " + side +
              " " + std::to_string(capture.piece & (kWhite | kBlack)) + ", " + virginNote +
              "), the byte it had on " + squareName(capture.from) +
              ": the undo writes b[H] = t and b[x] = u back.",
          jsonlCommand("doundo", index), {field("u", capture.piece) + field("t", capture.victim)});
      asked = true;
    }
    if (!asked) claimFails("doundo", "no capture below the root by a piece that moved before");
    return context.header("doundo", "a capture made and taken back", walk, static_cast<long>(call.moveEvent),
                          "the capture being made, the table's middle column") +
           "\nThe root's move `" + moveText(move.from, move.to) +
           "`: the two squares it touches, before it, while its reply is searched, "
           "and after the undo (piece codes as on \\ref topic_piece_encoding):\n" +
           table({"square", "before", "after the move", "after the undo"}, rows);
  }
  claimFails("doundo", "no capture at the root");
}

// ---- 10. iterative deepening ---------------------------------------------------
std::string lifeOfNode(const Context& context, const TraceWalk& walk);

std::string deepening(const Context& context) {
  const auto walk = context.record("deepening", "", "e2e4", 3000);
  struct Iteration {
    int draft = 0;
    long nodesBefore = 0, nodes = 0, calls = 0;
    std::size_t store = 0;
    int score = 0, deepestFullWidth = -1, lastMover = 0;
    std::string best;
  };
  std::vector<Iteration> iterations;
  long nodes = 0;
  for (std::size_t index = 0; index < walk.events().size(); ++index) {
    const Event& event = walk.events()[index];
    if (event.kind == EventKind::kNodeCounted) ++nodes;
    const int call = walk.callOf(index);
    if (call == 0 && event.kind == EventKind::kIteration) {
      Iteration started;
      started.draft = event.value;
      started.nodesBefore = nodes;
      iterations.push_back(started);
    }
    if (iterations.empty() || iterations.back().store) continue;
    Iteration& current = iterations.back();
    if (event.kind == EventKind::kCall) ++current.calls;
    // A move of the full-width search: not a recapture (those keep the draft below the horizon).
    // The last full-width move of a line without recapture extensions: made at ply d-2, its reply
    // gets h = 1 and only looks at recaptures.
    if (event.kind == EventKind::kMoveMade && event.move.to != walk.calls()[call].args.lastTo &&
        event.move.remaining == 1 && walk.calls()[call].ply == current.draft - 2) {
      if (current.deepestFullWidth >= 0 && current.lastMover != walk.calls()[call].args.side)
        claimFails("deepening", "two sides move at the same ply");
      current.deepestFullWidth = walk.calls()[call].ply;
      current.lastMover = walk.calls()[call].args.side;
    }
    if (call == 0 && event.kind == EventKind::kStore) {
      current.store = index;
      current.nodes = nodes - current.nodesBefore;
      current.score = event.after.score;
      current.best = moveText(event.after.from & 0x77, event.after.to & 0x77);
    }
  }
  while (!iterations.empty() && !iterations.back().store) iterations.pop_back();
  if (iterations.size() < 4) claimFails("deepening", "fewer than four root iterations");
  if (iterations.front().best != "a8a8") claimFails("deepening", "the first iteration found a move");
  const int rootSide = walk.calls()[0].args.side;
  std::vector<std::vector<std::string>> rows;
  bool alternates = true;
  for (std::size_t at = 0; at < iterations.size(); ++at) {
    const Iteration& it = iterations[at];
    // The parity: at draft d the full-width moves are plies 0 .. d-2 (a node at draft 1 searches
    // recaptures only), so the last one is the root side's when d is even.
    if (it.draft >= 2 &&
        (it.deepestFullWidth != it.draft - 2 || (it.lastMover == rootSide) != (it.draft % 2 == 0)))
      claimFails("deepening", "no full-width move at ply d-2 by the side the parity says");
    if (at >= 2) {
      const int before = iterations[at - 1].score - iterations[at - 2].score,
                now = it.score - iterations[at - 1].score;
      alternates &= (before > 0 && now < 0) || (before < 0 && now > 0);
    }
    char ratio[32] = "-";
    if (at > 0 && iterations[at - 1].nodes > 0)
      std::snprintf(ratio, sizeof ratio, "%.2f", static_cast<double>(it.nodes) / iterations[at - 1].nodes);
    const std::string branching = ratio;
    rows.push_back({num(it.draft), num(static_cast<long>(it.store)), num(it.nodes),
                    num(it.nodesBefore + it.nodes), num(it.calls), branching, "`" + it.best + "`",
                    num(it.score),
                    it.draft < 2 ? "(none: only recaptures)"
                                 : "ply " + std::to_string(it.deepestFullWidth) + ", " +
                                       (it.lastMover == kWhite ? "white" : "black")});
  }
  {
    // The calls so far: the table gives each iteration's own; the view model counts them all.
    const Iteration& third = iterations[2];
    long calls = 0, sum = 1;  // the root's own call comes before its first iteration
    for (std::size_t index = 0; index <= third.store; ++index)
      calls += walk.events()[index].kind == EventKind::kCall;
    for (std::size_t at = 0; at <= 2; ++at) sum += iterations[at].calls;
    if (calls != sum) claimFails("deepening", "the calls so far are not the root's and the iterations' own");
    context.ask(
        "deepening",
        "Iteration " + std::to_string(third.draft) +
            " of deepening.umaxtrace ends with the root's store "
            "at event " +
            std::to_string(third.store) +
            ". How many calls of D() have been made by then, all iterations together? (The table gives "
            "each iteration's own calls.)",
        std::to_string(calls) +
            ": the root's own call, made before its first iteration, plus the calls "
            "of iterations 1 to " +
            std::to_string(third.draft) + " (" + std::to_string(iterations[0].calls) + " + " +
            std::to_string(iterations[1].calls) + " + " + std::to_string(iterations[2].calls) +
            "). Calls, unlike nodes, also count the ones the hash table answered at once.",
        stateCommand("deepening", third.store, "calls"), {"\"calls\":" + std::to_string(calls)});
  }
  return context.header("deepening", "the root's iterations", walk,
                        static_cast<long>(iterations.front().store),
                        "the root's store of iteration " + std::to_string(iterations.front().draft) +
                            " (the table gives each iteration's)") +
         "\nAfter 1. e2e4, black's think searches the root again and again, one ply deeper each time, until "
         "the node budget is spent. After each iteration it stores its result (the table shows the store and "
         "its event). "
         "Two "
         "counters are kept: **nodes** are the calls of `D()` that passed the hash probe and counted `N++` "
         "(the "
         "think's clock, what `--nodes` limits); **calls** are all calls of `D()`, also those the hash table "
         "answered at once. The table gives each iteration's own nodes and calls, the nodes counted so far "
         "(cumulative, what the budget is compared with), and the **branching**: this iteration's nodes "
         "divided by the previous one's, how much one more ply costs. At draft 1 only recaptures are "
         "searched, "
         "and the root has none, so its best move is still empty (`a8a8`) and its score is the "
         "evaluation. (The one node before iteration 1 is the root's own, counted before its first "
         "iteration.)\n" +
         table({"iteration d", "root's store (event)", "its nodes", "nodes so far", "its calls", "branching",
                "best move", "score", "last full-width move"},
               rows) +
         "\n**Why the score " + (alternates ? "alternates" : "changes") +
         ".** At draft d the root searches every move d-1 plies deep: a node at draft 1 only looks at "
         "recaptures and otherwise stands pat on its evaluation, so the last move of a line (without "
         "recaptures, which keep the draft) is made at ply d-2, and its reply only stands pat or recaptures "
         "(the last column, read from the trace). When d is even that move is the side to move's "
         "(black's here): its gain, such as the centre points of a developing move, is counted and nobody "
         "answers it. When d is odd the opponent makes the last move and takes back a similar gain. " +
         (alternates ? "So the score swings from one iteration to the next, which is why one compares "
                       "iterations of the same parity."
                     : "") +
         " The documentation build checks, for every iteration, that the trace's moves with h = 1 outside "
         "recapture lines are made at ply d-2 by the side this parity says.\n" +
         lifeOfNode(context, context.record("life", "", "e2e4", 3000));
}

std::string webLinks(const Context& context, const std::vector<std::pair<std::string, long>>& traces);

/// The life of one node, from the deepening example's trace: a call of D() that probes the
/// table, deepens over two iterations or more, sneaks its stored best move in first, scans the board
/// for the rest and stores at the end of each iteration; its events in order, step by step. The
/// same search as the deepening example's, recorded again as life.umaxtrace: its live view opens at
/// the call (one event a trace).
std::string lifeOfNode(const Context& context, const TraceWalk& walk) {
  const auto bounds = [](int from) {
    const int bits = from & 0x88;
    return std::string(bits & 8 ? "lo" : "") + (bits == 0x88 ? " " : "") + (bits & 0x80 ? "up" : "");
  };
  // Of the calls below the root that sneak a move in and store, the one with the most iterations
  // (the first of them).
  int chosen = -1;
  std::size_t most = 1;
  for (std::size_t at = 1; at < walk.calls().size(); ++at) {
    const int call = static_cast<int>(at);
    const std::size_t iterations = walk.ownOfKind(call, EventKind::kIteration).size();
    if (iterations <= most || walk.ownOfKind(call, EventKind::kStore).empty() ||
        walk.ownOfKind(call, EventKind::kProbe).empty())
      continue;
    bool sneaked = false;
    for (std::size_t index : walk.ownOfKind(call, EventKind::kMoveMade))
      sneaked |= (walk.events()[index].move.flags & trace::kMoveSneaked) != 0;
    if (sneaked) {
      chosen = call;
      most = iterations;
    }
  }
  if (chosen < 0)
    claimFails("deepening", "no call below the root with two iterations, a sneaked move and a store");
  const Call& node = walk.calls()[static_cast<std::size_t>(chosen)];
  const Event& probe = walk.events()[walk.ownOfKind(chosen, EventKind::kProbe).front()];
  struct Iteration {
    std::size_t event = 0;
    int draft = 0;
    std::string sneak = "-";
    int scanned = 0;
    std::size_t firstScan = 0, lastScan = 0;
    std::string best = "-";
    std::string cutoff = "no";
    std::string store = "-";
  };
  std::vector<Iteration> iterations;
  bool scoringSneak = false;
  std::string sneakMove;
  std::size_t sneakEvent = 0;
  const Event* returned = nullptr;
  std::size_t returnEvent = 0;
  for (std::size_t index : node.own) {
    const Event& event = walk.events()[index];
    if (event.kind == EventKind::kIteration) {
      iterations.push_back({index, event.value});
    } else if (iterations.empty()) {
      continue;
    } else if (event.kind == EventKind::kMoveMade && (event.move.flags & trace::kMoveSneaked)) {
      scoringSneak = true;
      sneakMove = moveText(event.move.from, event.move.to);
      sneakEvent = index;
    } else if (event.kind == EventKind::kMoveMade) {
      Iteration& it = iterations.back();
      if (it.scanned++ == 0) it.firstScan = index;
      it.lastScan = index;
    } else if (event.kind == EventKind::kMoveScored && scoringSneak) {
      scoringSneak = false;
      iterations.back().sneak =
          "`" + sneakMove + "` (event " + std::to_string(sneakEvent) + ") scores " + num(event.value);
    } else if (event.kind == EventKind::kBestMove) {
      iterations.back().best =
          num(event.best) + " `" + moveText(event.bestFrom & 0x77, event.bestTo & 0x77) + "`";
    } else if (event.kind == EventKind::kCutoff) {
      iterations.back().cutoff = "yes, event " + std::to_string(index);
    } else if (event.kind == EventKind::kStore) {
      iterations.back().store = "event " + std::to_string(index) + ": D " +
                                std::to_string(event.after.draft) + ", V " + num(event.after.score) + ", `" +
                                bounds(event.after.from) + "`, `" +
                                moveText(event.after.from & 0x77, event.after.to & 0x77) + "`" +
                                (event.written ? "" : " (not written)");
    } else if (event.kind == EventKind::kReturn) {
      returned = &event;
      returnEvent = index;
    }
  }
  if (!returned) claimFails("deepening", "the chosen call does not return");
  std::vector<std::vector<std::string>> rows;
  for (const Iteration& it : iterations)
    rows.push_back({num(it.draft), num(static_cast<long>(it.event)), it.sneak,
                    it.scanned ? std::to_string(it.scanned) + " (events " + std::to_string(it.firstScan) +
                                     " to " + std::to_string(it.lastScan) + ")"
                               : "0",
                    it.best, it.cutoff, it.store});
  std::string probed = std::string(trace::outcomeName(probe.probe.outcome)) + " after " +
                       std::to_string(probe.probe.slotsProbed) + " slot" +
                       (probe.probe.slotsProbed == 1 ? "" : "s");
  if (probe.probe.outcome == ProbeOutcome::kHit)
    probed += ": the entry holds D " + std::to_string(probe.entry.draft) + ", V " + num(probe.entry.score) +
              ", `" + bounds(probe.entry.from) + "`, best move `" +
              moveText(probe.entry.from & 0x77, probe.entry.to & 0x77) +
              "`, so the call starts its iterations from there and sneaks that move in first";
  // Where the call stands, read from the trace: the moves from the root down to it, each made by
  // the call one ply above the next (a move made at ply p is answered by the call at ply p + 1).
  std::vector<int> line;
  for (int at = chosen; walk.calls()[static_cast<std::size_t>(at)].parent >= 0;
       at = walk.calls()[static_cast<std::size_t>(at)].parent)
    line.insert(line.begin(), at);
  if (static_cast<int>(line.size()) != node.ply || node.ply < 1)
    claimFails("deepening", "the chosen call's ply is not the length of its line from the root");
  std::string path;
  for (std::size_t at = 0; at < line.size(); ++at) {
    const Call& step = walk.calls()[static_cast<std::size_t>(line[at])];
    if (step.ply != static_cast<int>(at) + 1 || step.moveEvent < 0)
      claimFails("deepening", "a null move or a ply out of order on the chosen call's line");
    path += std::string(at == 0                 ? ""
                        : at + 1 == line.size() ? " and "
                                                : ", ") +
            "`" + walk.moveName(line[at]) + "` made at ply " + std::to_string(at) +
            (at == 0 ? " by the root" : "");
  }
  if (node.args.side != 8 && node.args.side != 16) claimFails("deepening", "the chosen call has no side");
  context.showsEvent("life", static_cast<long>(node.callEvent));
  return "\n### The life of one node\n\nThe same search, recorded again under a name of its own so "
         "that its live view opens at the call this section follows:\n\n    " +
         walk.command() + "\n\nOne call of D() from its start to its return: the call at ply " +
         std::to_string(node.ply) + ", " + (node.args.side == 8 ? "white" : "black") +
         " to move, that answers `" + walk.moveName(chosen) + "` (the line from the root: " + path +
         "; a move made at ply p is answered by the call at ply p + 1), called at event " +
         std::to_string(node.callEvent) + " with the window " + window(node.args.alpha, node.args.beta) +
         " and depth n = " + std::to_string(node.args.depth) + ". Its probe (event " +
         std::to_string(walk.ownOfKind(chosen, EventKind::kProbe).front()) + ") is a " + probed +
         ". Then each iteration: the previous iteration's best move (kept in Y, and stored) sneaked in first "
         "(the sneak bit, \\ref page_flags), "
         "the board scanned for the other moves, the best score m and its move, and the store that ends "
         "the iteration (D the draft, V the score, then the bound bits of X: `lo` = the 8 bit, a lower "
         "bound; `up` = "
         "the 128 bit, an upper bound; `lo up` = both, an exact score; \\ref topic_hash_replacement):\n" +
         table({"draft d", "iteration's event", "sneaked in first", "moves of the scan", "best m", "cutoff",
                "store"},
               rows) +
         (iterations.front().draft == 1 && iterations.front().scanned == 0 && iterations.front().sneak == "-"
              ? "At draft 1 only a move onto the square the last move landed on (z) is made; here there is "
                "none, so the first iteration stores the call's eval and no move (`a8a8`: X = Y = 0). "
              : "") +
         "It returns " + num(returned->best) + " at event " + std::to_string(returnEvent) + " (`" +
         moveText(returned->bestFrom & 0x77, returned->bestTo & 0x77) +
         "`). Every number is read from the trace; to step through the same life, open it at the call's "
         "event: `build/bin/umax-viz build/docs/examples/life.umaxtrace --event " +
         std::to_string(node.callEvent) + "`." + webLinks(context, {{"life", long(node.callEvent)}}) + "\n";
}

// ---- 11. best move first --------------------------------------------------------
std::string sorting(const Context& context) {
  const auto walk = context.record("sorting", "", "e2e4", 3000);
  std::vector<std::vector<std::string>> rows;
  std::string previous;
  std::size_t previousStore = 0;  // the event of the root's store of `previous`
  long firstSneaked = -1;         // the event of the first sneaked move
  int draft = 0;
  bool firstMove = false;
  int checked = 0;
  for (std::size_t index : walk.calls()[0].own) {
    const Event& event = walk.events()[index];
    if (event.kind == EventKind::kIteration) {
      draft = event.value;
      firstMove = true;
    } else if (event.kind == EventKind::kMoveMade && firstMove) {
      firstMove = false;
      const std::string move = moveText(event.move.from, event.move.to);
      const bool sneaked = event.move.flags & trace::kMoveSneaked;
      if (draft >= 3) {
        if (!sneaked || move != previous)
          claimFails("sorting", "an iteration did not start with the previous best");
        ++checked;
        if (firstSneaked < 0) firstSneaked = static_cast<long>(index);
      }
      rows.push_back({num(draft), previous.empty() ? "(none)" : "`" + previous + "`",
                      previous.empty() ? "" : num(static_cast<long>(previousStore)), "`" + move + "`",
                      num(static_cast<long>(index)), sneaked ? "yes" : "no"});
    } else if (event.kind == EventKind::kStore && (event.after.to & 0x80)) {
      previous = moveText(event.after.from & 0x77, event.after.to & 0x77);
      previousStore = index;
    }
  }
  if (checked < 2) claimFails("sorting", "fewer than two iterations with a previous best");
  {
    // The table gives each iteration's first move; the second one and the count are the reader's to predict.
    const auto starts = walk.ownOfKind(0, EventKind::kIteration);
    bool asked = false;
    for (std::size_t at = 0; at + 1 < starts.size() && !asked; ++at) {
      if (walk.events()[starts[at]].value != 3) continue;
      std::vector<std::size_t> made;
      for (std::size_t index : walk.ownOfKind(0, EventKind::kMoveMade))
        if (index > starts[at] && index < starts[at + 1]) made.push_back(index);
      if (made.size() < 2 || !(walk.events()[made[0]].move.flags & trace::kMoveSneaked))
        claimFails("sorting", "iteration 3 did not start with a sneaked move");
      const auto& best = walk.events()[made[0]].move;
      const auto& second = walk.events()[made[1]].move;
      if (second.from != best.from) claimFails("sorting", "the second move is not the best piece's");
      long again = 0;
      for (std::size_t index : made)
        again += walk.events()[index].move.from == best.from && walk.events()[index].move.to == best.to;
      if (again != 2) claimFails("sorting", "the sneaked move did not come again in the scan");
      std::set<std::pair<int, int>> distinct;
      for (std::size_t index : made)
        distinct.insert({walk.events()[index].move.from, walk.events()[index].move.to});
      if (distinct.size() != 20 || made.size() != 21)
        claimFails("sorting", "black's root did not make its 20 moves");
      context.ask("sorting",
                  "Iteration 3 of the root of sorting.umaxtrace (events " + std::to_string(starts[at]) +
                      " to " + std::to_string(starts[at + 1] - 1) + ") first tries the previous best, " +
                      moveText(best.from, best.to) +
                      ". Which move does it try second, and how many moves does "
                      "the root make in that iteration (black has 20 moves after 1. e2e4)?",
                  moveText(second.from, second.to) + " second: the scan starts at the best move's piece on " +
                      squareName(best.from) +
                      " (x = B = X) and the ray restarts (goto A), so that piece's own "
                      "moves follow. " +
                      std::to_string(made.size()) + " moves in all: the 20, and " +
                      moveText(best.from, best.to) + " a second time when the scan meets it again.",
                  rangeCommand("sorting", starts[at], starts[at + 1] - 1) +
                      " | grep '\"kind\":\"move\",\"ply\":0,' | grep -o '\"move\":\"[a-h1-8]*\"' | head -2 | "
                      "tr '\\n' ' '; " +
                      rangeCommand("sorting", starts[at], starts[at + 1] - 1) +
                      " | grep -c '\"kind\":\"move\",\"ply\":0,'",
                  {"\"move\":\"" + moveText(best.from, best.to) + "\" \"move\":\"" +
                       moveText(second.from, second.to) + "\"",
                   std::to_string(made.size())});
      asked = true;
    }
    if (!asked) claimFails("sorting", "no complete root iteration 3");
  }
  return context.header("sorting", "every iteration starts with the previous best move", walk, firstSneaked,
                        "the first move sneaked in before the board scan") +
         "\nThe same think as on \\ref topic_iterative_deepening. For each iteration of the root: the best "
         "move the previous one stored and the event of that store, and the first move this one made, its "
         "event and the trace's flag that says it was sneaked in before the board scan:\n" +
         table({"iteration d", "previous best", "stored at event", "first move searched", "made at event",
                "sneaked in"},
               rows);
}

// ---- 12. hashing -----------------------------------------------------------------
std::string hashing(const Context& context) {
  const auto walk = context.record("hashing", "", "e2e4", 3000);
  for (std::size_t index = 0; index < walk.events().size(); ++index) {
    const Event& event = walk.events()[index];
    if (event.kind != EventKind::kProbe || !event.probe.endsNode || walk.callOf(index) == 0) continue;
    const int callIndex = walk.callOf(index);
    const Call& call = walk.calls()[callIndex];
    const auto& entry = event.entry;
    if (entry.draft < call.args.depth) claimFails("hashing", "a hit that ends the node is not deep enough");
    // The row "window start j ... found in slot ..., the Nth it read": A[j+1] is the first slot read.
    if (event.probe.slot != event.probe.firstSlot + static_cast<uint32_t>(event.probe.slotsProbed))
      claimFails("hashing", "the hit's slot is not the last of the slots read from j + 1");
    long hits = 0, ends = 0;
    for (const Event& other : walk.events())
      if (other.kind == EventKind::kProbe && other.probe.outcome == ProbeOutcome::kHit) {
        ++hits;
        ends += other.probe.endsNode;
      }
    // A probe that had to walk past slots other positions hold.
    std::string walkRow = "none in this search";
    for (const Event& other : walk.events())
      if (other.kind == EventKind::kProbe && other.probe.slotsProbed > 1 &&
          other.probe.outcome != ProbeOutcome::kFull) {
        if (other.probe.slot != other.probe.firstSlot + static_cast<uint32_t>(other.probe.slotsProbed))
          claimFails("hashing", "a probe did not stop at the slot after the ones it walked past");
        walkRow = "j = " + num(other.probe.firstSlot) + ": " +
                  (other.probe.slotsProbed == 2
                       ? "slot " + num(other.probe.firstSlot + 1) + " held another position"
                       : "slots " + num(other.probe.firstSlot + 1) + " to " + num(other.probe.slot - 1) +
                             " held other positions") +
                  ", so the probe went on to slot " + num(other.probe.slot) + " (" +
                  (other.probe.outcome == ProbeOutcome::kHit ? "a hit" : "empty: a miss") + ")";
        break;
      }
    if (walkRow == "none in this search") claimFails("hashing", "no probe walked past a taken slot");
    // Two more hits, not on the page: one that ends its node, one that does not.
    bool endsAsked = false, goesOnAsked = false;
    for (std::size_t other = index + 1; other < walk.events().size(); ++other) {
      const Event& hit = walk.events()[other];
      if (hit.kind != EventKind::kProbe || hit.probe.outcome != ProbeOutcome::kHit) continue;
      const int hitCall = walk.callOf(other);
      if (hitCall == 0 || hitCall == callIndex) continue;
      const Call& node = walk.calls()[hitCall];
      const auto& stored = hit.entry;
      const bool deep = stored.draft >= node.args.depth;
      // Line 47: if(v>=l|X&S&&v<=q|X&8)return v; ('|' binds before '&&').
      const bool settles = (stored.score >= node.args.beta || (stored.from & kUpperBoundBit)) &&
                           (stored.score <= node.args.alpha || (stored.from & kLowerBoundBit));
      if ((deep && settles) != hit.probe.endsNode)
        claimFails("hashing", "a hit ended its node against the rule");
      const std::string given =
          "the call at ply " + std::to_string(node.ply) + " that answers " + walk.moveName(hitCall) +
          " (a move made at ply " + std::to_string(node.ply - 1) + "; the call's window [" +
          std::to_string(node.args.alpha) + ", " + std::to_string(node.args.beta) +
          "], depth n = " + std::to_string(node.args.depth) + ") finds its position in the table (event " +
          std::to_string(other) + " of hashing.umaxtrace) with draft D = " + std::to_string(stored.draft) +
          ", score V = " + std::to_string(stored.score) + " and bound bits: " + bounds(stored.from) + ".";
      const Event& next = walk.events()[other + 1];
      if (hit.probe.endsNode && !endsAsked) {
        if (next.kind != EventKind::kReturn || next.best != stored.score)
          claimFails("hashing", "a hit that ends its node is not followed by its return");
        context.ask(
            "hashing",
            "Later, " + given +
                " Does the node end here? If so, what does it return, and is a node "
                "counted?",
            "Yes: D >= n and the " + bounds(stored.from) + " " + std::to_string(stored.score) +
                " settles the window, so the call returns " + std::to_string(stored.score) +
                " at once. No node is counted: the return is the very next event after the probe (event " +
                std::to_string(other + 1) + "), with no node event (N++) and no move in between.",
            rangeCommand("hashing", other, other + 1),
            {lineStart(other, "probe"), "\"endsNode\":true,", lineStart(other + 1, "return"),
             field("m", stored.score)});
        endsAsked = true;
      } else if (!hit.probe.endsNode && deep && !goesOnAsked) {
        if (next.kind != EventKind::kNodeCounted) claimFails("hashing", "a hit that goes on counts no node");
        context.ask(
            "hashing", "Later, " + given + " Does the node end here, and is a node counted?",
            std::string("No: D >= n, but the ") + bounds(stored.from) + " " + std::to_string(stored.score) +
                " does not settle the window [" + std::to_string(node.args.alpha) + ", " +
                std::to_string(node.args.beta) +
                "], so the node is searched after all: the next event counts it (N++), and its iterative "
                "deepening starts at draft n.",
            rangeCommand("hashing", other, other + 1),
            {lineStart(other, "probe"), "\"endsNode\":false,", lineStart(other + 1, "node")});
        goesOnAsked = true;
      }
      if (endsAsked && goesOnAsked) break;
    }
    if (!endsAsked || !goesOnAsked)
      claimFails("hashing", "no second hit that ends its node, or none that goes on");
    return context.header("hashing", "a hash hit that ends a node, and a probe that walks on", walk,
                          static_cast<long>(index), "the hash hit of the first rows") +
           table({"", "from the trace"},
                 {{"the call", "at ply " + std::to_string(call.ply) + ", the reply to `" +
                                   walk.moveName(callIndex) + "` (a move made at ply " +
                                   std::to_string(call.ply - 1) + "), window " +
                                   window(call.args.alpha, call.args.beta) +
                                   ", depth n = " + std::to_string(call.args.depth)},
                  {"probe", "window start j = " + num(event.probe.firstSlot) +
                                " (the probe reads from j + 1): " +
                                (event.probe.slotsProbed == 1
                                     ? "found in the first slot it read, " + num(event.probe.slot)
                                     : "found in slot " + num(event.probe.slot) + ", the last of the " +
                                           std::to_string(event.probe.slotsProbed) + " slots it read")},
                  {"entry found", "draft D = " + num(entry.draft) + ", score V = " + num(entry.score) +
                                      ", bound bits of X: " + bounds(entry.from)},
                  {"why it ends the node",
                   "D >= n, and the " + bounds(entry.from) + " " + num(entry.score) +
                       " settles the window: the call returns it without counting a node"},
                  {"in the whole search", std::to_string(hits) + " probes hit, " + std::to_string(ends) +
                                              " of them ended their node"},
                  {"a probe that walked on", walkRow}}) +
           context.screenshot("hashing", index,
                              "The visualizer at the hash hit of the first rows, event " +
                                  std::to_string(index) + ": the hash panel shows that probe's window");
  }
  claimFails("hashing", "no hash hit ended a node");
}

// ---- 13. hash replacement -----------------------------------------------------
/// The think of the small-table example: after 1. e4 c5, 8,000 nodes, a table of 2^12 + 9 slots
/// (found by recording thinks of many positions with small tables and counting their stores).
constexpr const char* kSmallTableMoves = "e2e4 c7c5";
constexpr int kSmallTableNodes = 8000;
constexpr int kSmallTableBits = 12;

/// The moves from the root to `call`, as a line ("e2e4 c7c5 ...").
std::string lineTo(const TraceWalk& walk, int call) {
  std::vector<std::string> moves;
  for (int at = call; walk.calls()[at].parent >= 0; at = walk.calls()[at].parent)
    moves.push_back(walk.moveName(at));
  std::string line;
  for (auto move = moves.rbegin(); move != moves.rend(); ++move) line += (line.empty() ? "" : " ") + *move;
  return line;
}

/// A hash entry as the example's rows give it: lock, draft, score and bound bits.
std::string entryText(const HashEntry& entry) {
  return "lock " + std::to_string(static_cast<uint32_t>(entry.lock)) + ", D " + std::to_string(entry.draft) +
         ", V " + std::to_string(entry.score) + ", " + bounds(entry.from);
}

/// Stores that met another position's entry (written over it) and stores refused, in a trace.
struct StoreKinds {
  long stores = 0, refused = 0, foreign = 0;
  std::size_t firstRefused = 0, firstForeign = 0;  ///< event indices (valid when the count is > 0)
};

StoreKinds storeKinds(const TraceWalk& walk) {
  StoreKinds kinds;
  for (std::size_t index = 0; index < walk.events().size(); ++index) {
    const Event& event = walk.events()[index];
    if (event.kind != EventKind::kStore) continue;
    ++kinds.stores;
    if (!event.written && kinds.refused++ == 0) kinds.firstRefused = index;
    if (event.written && event.before.lock != 0 && event.before.lock != event.after.lock &&
        kinds.foreign++ == 0)
      kinds.firstForeign = index;
  }
  return kinds;
}

/// Refused stores and overwrites of another position's entry are rare: a node's slot must change
/// hands between its probe and its first store. A table of 2^12 + 9 slots makes positions meet:
/// the same think recorded with it and with the original's table.
std::string smallTable(const Context& context, const TraceWalk& walk) {
  const StoreKinds small = storeKinds(walk);
  if (small.foreign == 0)
    claimFails("replacement", "the small table's think overwrote no other position's entry");
  const std::size_t index = small.firstForeign;
  const Event& store = walk.events()[index];
  const int node = walk.callOf(index);
  const Call& call = walk.calls()[node];
  const auto probes = walk.ownOfKind(node, EventKind::kProbe);
  if (probes.empty()) claimFails("replacement", "the overwriting node has no probe");
  const Event& probe = walk.events()[probes[0]];
  if (probe.probe.slot != store.slot || probe.probe.outcome != ProbeOutcome::kMiss)
    claimFails("replacement", "the overwriting node did not find its slot empty");
  if (!walk.storedDrafts(node).empty() && walk.ownOfKind(node, EventKind::kStore)[0] != index)
    claimFails("replacement", "the overwrite is not the node's first store");
  // Who took the slot: the last store into it before, by another call.
  long takenAt = -1;
  for (std::size_t at = index; at-- > probes[0];)
    if (walk.events()[at].kind == EventKind::kStore && walk.events()[at].slot == store.slot &&
        walk.events()[at].written) {
      takenAt = static_cast<long>(at);
      break;
    }
  if (takenAt < 0) claimFails("replacement", "no store took the slot between the probe and the overwrite");
  const int taker = walk.callOf(static_cast<std::size_t>(takenAt));
  const auto takerProbes = walk.ownOfKind(taker, EventKind::kProbe);
  if (takerProbes.empty() || walk.calls()[taker].parent < 0)
    claimFails("replacement", "the taker has no probe");
  const Event& takerProbe = walk.events()[takerProbes[0]];
  std::string relation = "a call it made";
  for (int up = walk.calls()[taker].parent; up >= 0; up = walk.calls()[up].parent)
    if (up == node)
      relation = walk.calls()[taker].parent == node ? "the call answering the node's own move"
                                                    : "a call below it, the one answering";
  if (relation == "a call it made")
    claimFails("replacement", "the slot was taken by a call outside the node");

  {
    // Not on the page: a node whose probe found its whole window taken, and where its store goes.
    bool asked = false;
    for (std::size_t at = 0; at < walk.events().size() && !asked; ++at) {
      const Event& full = walk.events()[at];
      if (full.kind != EventKind::kProbe || full.probe.outcome != ProbeOutcome::kFull) continue;
      const int owner = walk.callOf(at);
      if (walk.calls()[owner].parent < 0 || walk.calls()[owner].ply < 2) continue;
      const auto stores = walk.ownOfKind(owner, EventKind::kStore);
      if (stores.empty()) continue;
      const Event& dummy = walk.events()[stores[0]];
      if (dummy.slot != kDummySlot || !dummy.written || dummy.after.lock != 0 ||
          static_cast<uint32_t>(walk.calls()[owner].args.hashLock) == 0)
        claimFails("replacement", "a store after a full window did not go to the dummy slot and empty it");
      context.ask(
          "replacement",
          "At event " + std::to_string(at) + " of replacement-small.umaxtrace the node after " +
              lineTo(walk, owner) +
              " (lock Z = " + std::to_string(static_cast<uint32_t>(walk.calls()[owner].args.hashLock)) +
              ") probes from j = " + std::to_string(full.probe.firstSlot) +
              " and finds all 9 slots of its window taken by other positions. It searches on and stores at "
              "event " +
              std::to_string(stores[0]) +
              ". Into which slot does that store write, and which lock does the slot hold after it?",
          "Slot 0, the dummy slot A[0] (a stayed at A when the window was full). The store writes score " +
              std::to_string(dummy.after.score) + " and draft " + std::to_string(dummy.after.draft) +
              " there like anywhere else, but A->K=0 empties the lock again, so the slot holds lock 0: no "
              "probe will ever find this entry, and the node's work is not remembered.",
          jsonlCommand("replacement-small", stores[0]),
          std::vector<std::string>{"\"a\":0,", "\"after\":{\"K\":0,"});
      asked = true;
    }
    if (!asked) claimFails("replacement", "no node below ply 1 met a full probe window");
  }

  long probeCount = 0, fullWindows = 0;
  for (const Event& event : walk.events())
    if (event.kind == EventKind::kProbe) {
      ++probeCount;
      fullWindows += event.probe.outcome == ProbeOutcome::kFull;
    }
  const auto original = context.record("replacement-original", "", kSmallTableMoves, kSmallTableNodes);
  const StoreKinds big = storeKinds(original);
  // The live views: the small table's at the overwrite the table below shows; the original's, of
  // which the text gives only totals, at its first store.
  context.showsEvent("replacement-small", static_cast<long>(index));
  long originalStore = -1;
  for (std::size_t at = 0; at < original.events().size() && originalStore < 0; ++at)
    if (original.events()[at].kind == EventKind::kStore) originalStore = static_cast<long>(at);
  if (originalStore < 0) claimFails("replacement", "the original's think stored nothing");
  context.showsEvent("replacement-original", originalStore);
  std::string refusedText;
  if (small.refused > 0) {
    const Event& kept = walk.events()[small.firstRefused];
    refusedText = " It also refused " + std::to_string(small.refused) + " store" +
                  (small.refused == 1 ? "" : "s") + "; the first, at event " +
                  std::to_string(small.firstRefused) + ", met in slot " + std::to_string(kept.slot) + " " +
                  entryText(kept.before) + ", exact and deeper than the node's draft, which line 104 keeps.";
  } else {
    refusedText = " No store was refused in it either (why, see the first table).";
  }
  return "\n### A smaller table: positions meet\n\nTo see positions meet, the documentation build records "
         "the same kind of think with a table **shrunk** to "
         "2^" +
         std::to_string(kSmallTableBits) + " + 9 = " + std::to_string((1 << kSmallTableBits) + 9) +
         " slots (the original's mask `U-9` cut to `2^" + std::to_string(kSmallTableBits) +
         " - 1`, so that probes land in a few thousand slots and positions collide; the search is then "
         "no longer the original's):\n\n    " +
         walk.command() + "\n\nThe table fills up: " + std::to_string(fullWindows) + " of the think's " +
         std::to_string(probeCount) +
         " probes found all 9 slots of their window taken and fell back on the dummy slot 0. The first store "
         "that overwrote another position's entry, read from that trace:\n" +
         table({"", "from the trace"},
               {{"the node", "event " + num(call.callEvent) + ": after `" + lineTo(walk, node) + "` (ply " +
                                 std::to_string(call.ply) +
                                 "), lock Z = " + num(static_cast<long>(call.args.hashLock)) + ", window " +
                                 window(call.args.alpha, call.args.beta)},
                {"its probe", "event " + num(probes[0]) + ": window from j = " + num(probe.probe.firstSlot) +
                                  ", slot " + num(probe.probe.slot) +
                                  " empty: a miss, the node will store there"},
                {"the slot taken", "event " + num(takenAt) + ": " + relation + " `" + walk.moveName(taker) +
                                       "` (that call at ply " + std::to_string(walk.calls()[taker].ply) +
                                       ", lock " + num(static_cast<long>(walk.calls()[taker].args.hashLock)) +
                                       ") probed from j = " + num(takerProbe.probe.firstSlot) +
                                       ", found slot " + num(store.slot) + " still empty and stored there"},
                {"the node's store", "event " + num(index) + ": slot " + num(store.slot) + " holds " +
                                         entryText(store.before) + " (another position's)"},
                {"the store's rule (line 104: written unless the slot holds an exact score from a deeper "
                 "search)",
                 std::string((store.before.from & kExactBits) == kExactBits ? "exact but not deeper"
                                                                            : "not exact") +
                     ", so it is written over: " + entryText(store.after)},
                {"the narration", "`" + context.stateField("replacement-small", index, "narration") + "`"}}) +
         "\nIn the whole think (" + std::to_string(small.stores) + " stores) " +
         std::to_string(small.foreign) + " overwrote another position's entry." + refusedText +
         "\n\nThe same think with the original's 16,777,224 slots (`" + original.command() +
         "`, a different search: the tables collide differently) made " + std::to_string(big.stores) +
         " stores: " + std::to_string(big.refused) + " refused and " + std::to_string(big.foreign) +
         " over another position's entry" +
         (big.refused == 0 && big.foreign == 0 ? ": in the original's table no two positions met at all.\n"
                                               : ".\n");
}

std::string replacement(const Context& context) {
  const auto walk = context.record("replacement", "", "e2e4", 3000);
  const auto smallWalk =
      context.record("replacement-small", "", kSmallTableMoves, kSmallTableNodes, kSmallTableBits);
  const StoreKinds small = storeKinds(smallWalk);
  auto shortEntry = [](const HashEntry& entry) {
    return "D " + std::to_string(entry.draft) + ", V " + std::to_string(entry.score) + ", " +
           bounds(entry.from);
  };
  // Stores into an occupied slot, of four kinds: a node updating its own entry (same lock) after a
  // deeper iteration; a node's first store over the same position's entry an earlier node left (its
  // probe's hit did not end it); a node replacing another position's entry; a store refused. One row
  // per kind, in that order, with its count and its first store; a kind this search never made says so.
  // (The third reader: 1532 of the 1887 "own entry" stores were first stores after a hit.)
  std::size_t firstOf[4] = {0, 0, 0, 0};
  long counts[4] = {0, 0, 0, 0};
  long firstRow = -1;  // the event of the table's first store
  std::vector<char> hasStored(walk.calls().size(), 0);
  for (std::size_t index = 0; index < walk.events().size(); ++index) {
    const Event& event = walk.events()[index];
    if (event.kind != EventKind::kStore) continue;
    const int node = walk.callOf(index);
    const bool first = !hasStored[node];
    hasStored[node] = 1;
    if (event.before.lock == 0) continue;
    const bool same = event.before.lock == event.after.lock;
    const int kind = !event.written ? 3 : !same ? 2 : first ? 1 : 0;
    if (kind == 1) {
      // The row says the entry was the one the node's probe found: a hit that did not end the node.
      const auto probes = walk.ownOfKind(node, EventKind::kProbe);
      if (probes.empty() || walk.events()[probes.front()].probe.outcome != ProbeOutcome::kHit)
        claimFails("replacement", "a node's first store met its own lock without a hit at its probe");
    }
    if (counts[kind]++ == 0) {
      firstOf[kind] = index;
      if (firstRow < 0) firstRow = static_cast<long>(index);
    }
  }
  const bool own = counts[0] + counts[1] > 0, other = counts[2] > 0;
  if (!own && !other) claimFails("replacement", "no store replaced an entry");
  {
    // Not on the page: which bound bits a store writes, from the node's window and its result.
    bool asked = false;
    for (std::size_t index = 0; index < walk.events().size() && !asked; ++index) {
      const Event& event = walk.events()[index];
      if (event.kind != EventKind::kStore || !event.written) continue;
      const int node = walk.callOf(index);
      const Call& call = walk.calls()[node];
      const int m = event.after.score;
      // A fail low below a real alpha, at a node that tried moves (not a stand pat at draft 1).
      if (call.ply < 2 || call.args.alpha <= -kInfinity || m > call.args.alpha || event.after.draft < 2 ||
          event.after.draft == 99)
        continue;
      if ((event.after.from & kExactBits) != kUpperBoundBit)
        claimFails("replacement", "a fail low did not store an upper bound");
      const std::string narration = context.stateField("replacement", index, "narration");
      const std::string bound = "upper bound (it failed low: at most " + std::to_string(m) + ")";
      if (narration.find(bound) == std::string::npos)
        claimFails("replacement", "the narration does not name the upper bound");
      context.ask(
          "replacement",
          "At event " + std::to_string(index) + " of replacement.umaxtrace the node after " +
              lineTo(walk, node) + " (ply " + std::to_string(call.ply) + ", window [" +
              std::to_string(call.args.alpha) + ", " + std::to_string(call.args.beta) +
              "]) ends its iteration at draft " + std::to_string(event.after.draft) +
              " with best score m = " + std::to_string(m) +
              " and stores it. Which bound bits go into X, and what does the entry then say about this "
              "position's score?",
          "Only the 128 bit: m = " + std::to_string(m) +
              " is below beta (m < l sets 128) but not above alpha " + std::to_string(call.args.alpha) +
              " (m > q would set 8). Every move failed low, so the entry is an upper bound: the position "
              "is worth at most " +
              std::to_string(m) + " for the side to move, and a later probe may use it only to fail low.",
          "build/bin/umax-trace state build/docs/examples/replacement.umaxtrace --event " +
              std::to_string(index) + " | grep -o '\"narration\":\"[^\"]*\"'",
          bound);
      asked = true;
    }
    if (!asked) claimFails("replacement", "no node below ply 1 failed low below a real alpha");
  }
  long stores = 0, empty = 0;
  for (const Event& event : walk.events())
    if (event.kind == EventKind::kStore) {
      ++stores;
      empty += event.before.lock == 0;
    }
  const std::string kindNames[4] = {
      "this position's entry, from the node's own previous iteration: written over",
      "this position's entry, left by an earlier node of it (the node's first store, after a probe "
      "hit that did not end the node): written over",
      "another position's entry: written over",
      "an exact score from a deeper search: refused, the slot kept as it was"};
  const std::size_t smallFirst[4] = {0, 0, small.firstForeign, small.firstRefused};
  const long smallCounts[4] = {0, 0, small.foreign, small.refused};
  std::vector<std::vector<std::string>> rows;
  for (int kind = 0; kind < 4; ++kind) {
    const std::string label = std::to_string(kind + 1) + ". " + kindNames[kind];
    if (counts[kind] > 0) {
      const Event& event = walk.events()[firstOf[kind]];
      rows.push_back({label, num(counts[kind]),
                      "event " + num(static_cast<long>(firstOf[kind])) + ", slot " + num(event.slot),
                      shortEntry(event.before), event.written ? shortEntry(event.after) : "(not written)"});
    } else {
      rows.push_back({label, num(0),
                      smallCounts[kind] > 0 ? "none here; " + num(smallCounts[kind]) +
                                                  " in the smaller table's think below, the first "
                                                  "at its event " +
                                                  num(static_cast<long>(smallFirst[kind]))
                                            : "none here, nor in the smaller table's think below",
                      "", ""});
    }
  }
  return context.header("replacement", "stores into occupied slots", walk, firstRow,
                        "the store of the table's first row") +
         "\nThis think made " + num(stores) + " stores, one at the end of every iteration of every node. " +
         num(empty) + " of them went into an empty slot. The other " + num(stores - empty) +
         " met an entry already there, of one of four kinds: this position's entry from the node's own "
         "previous iteration; this position's entry left by an earlier node of the same position (a "
         "probe hit that could not end the node, its draft too shallow or its bound not settling the "
         "window: the node resumes deepening from the stored draft, \\ref topic_iterative_deepening, "
         "and its first store writes over that entry); another "
         "position's entry; or an exact score from a deeper search (the only entry line 104 keeps). The "
         "table counts each kind and gives the first store of it:\n" +
         table({"the slot held", "stores", "first store", "entry before", "entry after"}, rows) + "\n" +
         (counts[0] > 0 && counts[1] > 0 && !other && counts[3] == 0
              ? "Only the first two kinds happened here. "
              : "") +
         "Why the other two are so rare:\n\n"
         "- **Another position's entry.** A node's probe chooses its slot when the node starts, and the "
         "node stores there after each iteration; from its first store on, the slot holds the node's own "
         "lock and no other position's probe takes it. So another position gets in only between the "
         "node's probe and its first store, and only a position searched below the node in that time (a "
         "reply, a reply to the reply) whose own probe window of 9 slots reaches the same slot. In a table "
         "of 16,777,224 slots that almost never happens; the next section shrinks the table to make it "
         "happen.\n"
         "- **An exact score from a deeper search.** A node whose probe finds an exact score of its own "
         "position from at least as deep a search takes that score and returns at once (a hash cutoff, "
         "\\ref topic_hashing), so it never stores over it. A refusal needs such an entry to arrive in the "
         "node's slot after its probe, stored there by a search below the node: one no deeper than the "
         "node's iteration (a recapture keeps the draft, every other reply gets one less), so its "
         "entry is deeper only when it was stored at draft 99 (a king capture, a mate or a stalemate, "
         "whatever the depth).\n" +
         smallTable(context, smallWalk);
}

// ---- 14. material -----------------------------------------------------------------
std::string material(const Context& context) {
  const auto walk = context.record("material", "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "", 100);
  const int rootEval = walk.calls()[0].args.eval;
  for (int child : walk.calls()[0].children) {
    const Call& call = walk.calls()[child];
    if (call.moveEvent < 0) continue;
    const auto& move = walk.events()[call.moveEvent].move;
    if ((move.piece & 7) != kRook || !move.victim) continue;
    const int gain = captureGain(move.victim);
    if (call.args.eval != -(rootEval + gain)) claimFails("material", "the reply's e is not -(e + i)");
    // The same capture two plies down, from another e.
    bool asked = false;
    for (int reply : walk.calls()[0].children)
      for (int node : walk.calls()[reply].children)
        for (int deeper : walk.calls()[node].children) {
          const Call& after = walk.calls()[deeper];
          if (asked || after.moveEvent < 0) continue;
          const auto& again = walk.events()[after.moveEvent].move;
          if ((again.piece & 7) != kRook || (again.victim & 7) != kDownwardPawn) continue;
          const int nodeEval = walk.calls()[node].args.eval;
          if (after.args.eval != -(nodeEval + gain))
            claimFails("material", "the deeper reply's e is not -(e + i)");
          context.ask("material",
                      "After " + walk.moveName(reply) + " " + walk.moveName(node) +
                          ", white's node at ply 2 has e = " + std::to_string(nodeEval) + " (event " +
                          std::to_string(walk.calls()[node].callEvent) +
                          " of material.umaxtrace), and its rook takes the pawn with " +
                          moveText(again.from, again.to) + ". Which e does the reply's call get (event " +
                          std::to_string(after.callEvent) + ")?",
                      "e = -(e + v + i) = -(" + std::to_string(nodeEval) + " + 0 + " + std::to_string(gain) +
                          ") = " + std::to_string(after.args.eval) +
                          ": a rook's step has no centre points, and the pawn is "
                          "worth 99 x w[pawn] = " +
                          std::to_string(gain) + " wherever it is taken.",
                      jsonlCommand("material", after.callEvent), {field("e", after.args.eval)});
          asked = true;
        }
    if (!asked) claimFails("material", "the rook did not take the pawn at ply 2");
    const long rootCall = static_cast<long>(walk.calls()[0].callEvent),
               made = static_cast<long>(call.moveEvent), replyCall = static_cast<long>(call.callEvent);
    return context.header("material", "the evaluation passed down", walk, replyCall,
                          "the reply's call with its e") +
           table({"", "from the trace", "event"},
                 {{"root's e (white to move; Q from the material: rook 5 x 99 less pawn 1 x 99)",
                   num(rootEval), num(rootCall)},
                  {"move", "`" + moveText(move.from, move.to) + "`, a rook (no centre points) takes a pawn",
                   num(made)},
                  {"gain i = 99 x w[pawn]", num(gain), num(made)},
                  {"reply's e (black to move) = -(e + v + i), v = 0", num(call.args.eval), num(replyCall)}});
  }
  claimFails("material", "the rook capture was not searched at the root");
}

// ---- 15. centre table ------------------------------------------------------------
std::string centre(const Context& context) {
  const auto walk = context.record("centre", "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "", 100);
  auto points = [](int square) {
    const int row = square >> 4, file = square & 7;
    return static_cast<int>((file - 4) * (file - 4) + (row - 3.5) * (row - 3.5));
  };
  const int rootEval = walk.calls()[0].args.eval;
  std::vector<std::vector<std::string>> rows;
  long firstCall = -1;  // the event of the first row's reply call
  for (int child : rootChildrenOfIteration(walk, 2)) {
    const Call& call = walk.calls()[child];
    const auto& move = walk.events()[call.moveEvent].move;
    if ((move.piece & 7) != kKnight) continue;
    const int v = -call.args.eval - rootEval;
    if (v != points(move.from) - points(move.to))
      claimFails("centre", "v is not the centre-point difference");
    rows.push_back({"`" + moveText(move.from, move.to) + "`", num(points(move.from)), num(points(move.to)),
                    num(v), num(static_cast<long>(call.callEvent))});
    if (firstCall < 0) firstCall = static_cast<long>(call.callEvent);
  }
  {
    // The king's steps use the same table (p < 6): not in the table of the page.
    bool asked = false;
    for (int child : rootChildrenOfIteration(walk, 2)) {
      const Call& call = walk.calls()[child];
      const auto& move = walk.events()[call.moveEvent].move;
      if (asked || (move.piece & 7) != kKing || move.to - move.from != -17) continue;
      const int v = -call.args.eval - rootEval;
      if (v != points(move.from) - points(move.to))
        claimFails("centre", "the king's v is not the centre-point difference");
      context.ask(
          "centre",
          "The king uses the same centre table as the knight (v = b[x+8] - b[y+8] for every piece type "
          "below 6). The root (e = " +
              std::to_string(rootEval) + ") also tries the king's step " + moveText(move.from, move.to) +
              ". Which e does the reply's call get (event " + std::to_string(call.callEvent) +
              " of centre.umaxtrace)?",
          squareName(move.from) + " has " + std::to_string(points(move.from)) + " points and " +
              squareName(move.to) + " " + std::to_string(points(move.to)) + ", so v = " + std::to_string(v) +
              " and the reply gets e = -(e + v) = -(" + std::to_string(rootEval) + " + " + std::to_string(v) +
              ") = " + std::to_string(call.args.eval) + ".",
          jsonlCommand("centre", call.callEvent), {field("e", call.args.eval)});
      asked = true;
    }
    if (!asked) claimFails("centre", "the king made no step towards the centre at the root");
  }
  if (rows.size() != 3) claimFails("centre", "the knight on b1 did not make its three moves");
  return context.header("centre", "the centre points of three knight moves", walk, firstCall,
                        "the first row's reply call") +
         "\nThe knight on b1 at the root. The move's positional gain `v` is read from the trace (the reply's "
         "`e` is `-(e + v)`, no material changes hands, at the event of the last column); the two middle "
         "columns are the table's values `(file-4)^2 + (row-3.5)^2` of the squares, and `v` equals their "
         "difference:\n" +
         table({"move", "points of x", "points of y", "v from the trace", "reply's call (event)"}, rows);
}

// ---- 16. mate and stalemate -----------------------------------------------------
/// With a web edition's address (--web-url), the links that open each trace at its event there, as
/// exampleHeader gives an example of one trace; empty without one.
std::string webLinks(const Context& context, const std::vector<std::pair<std::string, long>>& traces) {
  if (context.webUrl.empty()) return "";
  std::string links;
  for (const auto& [name, event] : traces)
    links += std::string(links.empty() ? "" : ", ") + "[" + name + " at event " + std::to_string(event) +
             "](" + context.webUrl + "viz/index.html?trace=traces/" + name +
             ".umaxtrace&event=" + std::to_string(event) + ")";
  return " Or open them in the browser: " + links + " (the web edition, served at " + context.webUrl + ").";
}

std::string mate(const Context& context) {
  std::vector<std::vector<std::string>> rows;
  const std::pair<const char*, const char*> positions[] = {{"mate", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"},
                                                           {"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}};
  std::string commands;
  std::vector<long> probeEvents;
  for (const auto& [name, fen] : positions) {
    const auto walk = context.record(name, fen, "", 100);
    commands += "\n    " + walk.command();
    int probe = -1;
    for (int child : walk.calls()[0].children)
      if (walk.calls()[child].moveEvent < 0) probe = child;
    if (probe < 0) claimFails("mate", std::string(name) + ": no mate probe at the root");
    const int nullScore = returned(walk, probe), score = returned(walk, 0);
    const bool isMate = score == -kInfinity / 2;
    if (isMate != (std::string(name) == "mate")) claimFails("mate", std::string(name) + ": wrong score");
    rows.push_back({name, "`" + std::string(fen) + "`", num(nullScore), num(score)});
    // Each trace's live view (and the command below) opens at the root's mate probe.
    const long rootProbe = static_cast<long>(walk.ownOfKind(0, EventKind::kMateProbe).at(0));
    context.showsEvent(name, rootProbe);
    probeEvents.push_back(rootProbe);
    // Topic 13 and the variable index: a mate and a stalemate are both stored at draft 99 (line 102
    // sets d=99 while m is still -I, before the probe of line 103 turns a stalemate's score to 0).
    bool stored99 = false;
    for (std::size_t index : walk.ownOfKind(0, EventKind::kStore))
      if (static_cast<long>(index) > rootProbe) {
        stored99 = walk.events()[index].after.draft == 99;
        break;
      }
    if (!stored99)
      claimFails("mate", std::string(name) + ": the root's store after its probe is not at draft 99");
    if (isMate) {
      // Before the probe: black's moves of its last iteration, each refuted by a king capture.
      const std::size_t probeAt = walk.ownOfKind(0, EventKind::kMateProbe).at(0);
      std::size_t start = 0;
      for (std::size_t index : walk.ownOfKind(0, EventKind::kIteration))
        if (index < probeAt) start = index;
      long moves = 0, refuted = 0;
      bool takesQueen = false;
      for (std::size_t index = start; index < probeAt; ++index) {
        const Event& event = walk.events()[index];
        if (walk.callOf(index) != 0) continue;
        moves += event.kind == EventKind::kMoveMade;
        refuted += event.kind == EventKind::kMoveScored && event.value == -kInfinity;
        takesQueen |= event.kind == EventKind::kMoveMade && (event.move.victim & 7) == kQueen;
      }
      if (moves == 0 || refuted != moves || !takesQueen)
        claimFails("mate", "a black move of the mate was not refuted");
      context.ask("mate",
                  std::string("In ") + fen +
                      " black's king is in check and has no legal move. In the root's "
                      "iteration that ends with the mate probe (events " +
                      std::to_string(start) + " to " + std::to_string(probeAt) + " of " + name +
                      ".umaxtrace), how many moves does black make, and what does each of them score?",
                  std::to_string(moves) +
                      " moves, every king step the generator finds (the capture of the queen "
                      "too), and each scores -I = " +
                      std::to_string(-kInfinity) +
                      ": white's reply takes the king. Only then, with best still -I, "
                      "does the mate probe ask whether black is in check.",
                  rangeCommand(name, start, probeAt) +
                      " | grep -c '\"kind\":\"score\",\"ply\":0,.*\"v\":" + std::to_string(-kInfinity) + "}'",
                  {std::to_string(moves)});
    }
  }
  return "## Worked example: a mate and a stalemate\n\nRecorded while this page was built, with\n" +
         commands +
         "\n\nEvery number below is read from those traces; if they stop showing this, the documentation "
         "build fails. The documentation build keeps both traces in its examples folder: open them at "
         "the root's mate probe with `build/bin/umax-viz build/docs/examples/mate.umaxtrace --event " +
         std::to_string(probeEvents.at(0)) +
         "` and `build/bin/umax-viz build/docs/examples/stalemate.umaxtrace --event " +
         std::to_string(probeEvents.at(1)) + "`." +
         webLinks(context, {{"mate", probeEvents.at(0)}, {"stalemate", probeEvents.at(1)}}) +
         " Black to move "
         "has no legal move in either position; the mate probe passes black's turn (a null move) and lets "
         "white "
         "move again:\n" +
         table({"position", "FEN", "the mate probe (white's search after the null move) returns",
                "black's score (-that / 2)"},
               rows);
}

// ---- 17. delayed gain ----------------------------------------------------------
std::string delayedGain(const Context& context) {
  const auto walk = context.record("delayed", "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", "", 300);
  // The page says the penalty follows only the call that searches a move's reply (line 84): the mate
  // probe's call (line 103) takes no point off, its node keeps -r/2 of what the probe returned.
  long probesChecked = 0;
  for (std::size_t index = 0; index + 1 < walk.events().size(); ++index) {
    if (walk.events()[index].kind != EventKind::kMateProbe) continue;
    const Call& probe = walk.calls()[walk.callOf(index + 1)];
    const Call& node = walk.calls()[probe.parent];
    const int r = walk.events()[probe.returnEvent].best, m = walk.events()[node.returnEvent].best;
    if (m != -r / 2) claimFails("delayed", "a node's result after its mate probe is not -r/2");
    ++probesChecked;
  }
  if (probesChecked == 0) claimFails("delayed", "no mate probe in the trace");
  for (int child : walk.calls()[0].children) {
    const Call& call = walk.calls()[child];
    if (call.moveEvent < 0 || call.scoreEvent < 0) continue;
    const int value = returned(walk, child), score = scored(walk, child), eval = walk.calls()[0].args.eval;
    if (-value <= eval || -value < kInfinity / 4) continue;
    if (score != -value - 1) claimFails("delayed", "the penalty was not one point");
    // A move of the same iteration that does not beat e: no point taken off.
    bool asked = false;
    for (int other : walk.calls()[0].children) {
      const Call& quiet = walk.calls()[other];
      if (asked || other == child || quiet.moveEvent < 0 || quiet.scoreEvent < 0) continue;
      const int otherValue = returned(walk, other);
      if (-otherValue > eval || std::abs(otherValue) >= kMateBound) continue;
      if (scored(walk, other) != -otherValue) claimFails("delayed", "a move below e lost a point");
      context.ask("delayed",
                  "The root (e = " + std::to_string(eval) + ") also tries " + walk.moveName(other) +
                      "; its reply returns " + std::to_string(otherValue) + " (event " +
                      std::to_string(quiet.returnEvent) +
                      " of delayed.umaxtrace). Which score v does the root "
                      "give that move (event " +
                      std::to_string(quiet.scoreEvent) + ")?",
                  "v = -(" + std::to_string(otherValue) + ") = " + std::to_string(-otherValue) +
                      ", not more than e = " + std::to_string(eval) +
                      ", so no point is taken off: only a gain over the current evaluation is delayed.",
                  jsonlCommand("delayed", quiet.scoreEvent), {"\"v\":" + std::to_string(-otherValue) + "}"});
      asked = true;
    }
    if (!asked) claimFails("delayed", "no root move scored no more than e");
    // The root's iteration this move belongs to: the last one started before it was made.
    int iteration = 0;
    for (std::size_t index : walk.ownOfKind(0, EventKind::kIteration))
      if (static_cast<int>(index) < call.moveEvent) iteration = walk.events()[index].value;
    const long made = call.moveEvent, returns = static_cast<long>(call.returnEvent),
               scoredAt = call.scoreEvent;
    return context.header("delayed", "the point taken off a mate", walk, scoredAt,
                          "where the root scores the mate, in its iteration " + std::to_string(iteration)) +
           "\nThe root's first move whose reply is mated, in its iteration " + std::to_string(iteration) +
           " (the same move may score less in an earlier iteration, which does not yet see the mate):\n" +
           table({"", "from the trace", "event"},
                 {{"root's move", "`" + walk.moveName(child) + "`", num(made)},
                  {"the reply (mated) returns", num(value), num(returns)},
                  {"turned round, v = -D(...)", num(-value), num(returns)},
                  {"root's e", num(eval), num(static_cast<long>(walk.calls()[0].callEvent))},
                  {"v > e, so v -= 1: the move scores", num(score), num(scoredAt)}});
  }
  claimFails("delayed", "no winning move at the root");
}

// ---- 18. legality and the interface --------------------------------------------
std::string legality(const Context& context) {
  const char* fen = "4k3/8/8/8/8/8/4r3/3K4 w - - 0 1";
  const auto walk = context.record("legality", fen, "", 100);
  // main()'s own check of an entered move, from the same position, tells
  // what the think left open.
  Engine checker;
  std::vector<std::vector<std::string>> rows;
  int illegal = 0, unrefuted = 0;
  long firstCapture = -1;  // the event of the table's first king capture
  for (int child : rootChildrenOfIteration(walk, 2)) {
    std::string capture = "none";
    for (std::size_t index : walk.ownOfKind(child, EventKind::kKingCapture)) {
      const auto& move = walk.events()[index].move;
      capture = "`" + moveText(move.from, move.to) + "` takes the king (event " + std::to_string(index) + ")";
      if (firstCapture < 0) firstCapture = static_cast<long>(index);
    }
    const int score = scored(walk, child);
    const bool cutOff = !walk.ownOfKind(child, EventKind::kCutoff).empty();
    bool storedScore = false;  // the probe returned a stored score: no move was generated
    for (std::size_t index : walk.ownOfKind(child, EventKind::kProbe))
      storedScore |= walk.events()[index].probe.endsNode;
    const auto& made = walk.events()[walk.calls()[child].moveEvent].move;
    checker.setPosition(parseFen(fen));  // a legal move stays played: set the position each time
    const bool legal = checker.checkMove(made.from, made.to);
    if (score == -kInfinity && legal)
      claimFails("legality", "main()'s check passes a move the think refuted");
    std::string verdict = "illegal: the reply takes the king";
    if (score != -kInfinity) {
      const std::string check = legal ? "; main()'s check: legal" : "; main()'s check: illegal";
      verdict = cutOff        ? "not refuted here: the reply cut off first" + check
                : storedScore ? "not refuted here: the reply returned a stored score" + check
                              : "legal: no reply takes the king" + check;
      if (!cutOff && !storedScore && !legal)
        claimFails("legality", "a reply that searched every move missed the king capture");
    }
    (score == -kInfinity ? illegal : unrefuted)++;
    // The move's events: from its making to its score (the reply's call and return in between).
    const Call& reply = walk.calls()[child];
    const std::string events = std::to_string(reply.moveEvent) + " to " + std::to_string(reply.scoreEvent);
    rows.push_back({"`" + walk.moveName(child) + "`", events, capture, num(score), verdict});
  }
  {
    // The next iteration, not in the table: an illegal move that one more ply still does not refute.
    bool asked = false;
    for (int child : rootChildrenOfIteration(walk, 3)) {
      const Call& reply = walk.calls()[child];
      if (asked || reply.scoreEvent < 0) continue;
      const auto& made = walk.events()[reply.moveEvent].move;
      checker.setPosition(parseFen(fen));
      if (checker.checkMove(made.from, made.to) || scored(walk, child) == -kInfinity) continue;
      const auto cutoffs = walk.ownOfKind(child, EventKind::kCutoff);
      const auto moves = walk.ownOfKind(child, EventKind::kMoveMade);
      if (cutoffs.empty() || moves.empty() || !walk.ownOfKind(child, EventKind::kKingCapture).empty())
        continue;
      const auto& first = walk.events()[moves.front()].move;
      const int score = scored(walk, child);
      // Why the scan stops at the king: the reply's probe finds what the same reply stored in
      // iteration 2 (a stand pat at draft 1, D = 1), which does not settle the window (D < n) but
      // skips draft 1: the deepening starts at draft 2, where the king's move is searched a ply deep.
      const auto probes = walk.ownOfKind(child, EventKind::kProbe);
      const auto iterations = walk.ownOfKind(child, EventKind::kIteration);
      if (probes.empty() || iterations.empty()) continue;
      const Event& probe = walk.events()[probes.front()];
      const int firstDraft = walk.events()[iterations.front()].value;
      if (probe.probe.outcome != ProbeOutcome::kHit || probe.probe.endsNode ||
          probe.entry.draft >= reply.args.depth || firstDraft != probe.entry.draft + 1 || firstDraft < 2 ||
          !(probe.entry.from & kLowerBoundBit) || moves.front() > cutoffs.front() ||
          (walk.events()[moves.front()].move.flags & trace::kMoveSneaked) ||
          walk.calls()[child].children.empty())
        claimFails("legality",
                   "iteration 3's unrefuted illegal move: its reply did not start from a "
                   "shallower stored entry, first move then cutoff");
      const Call& firstReply = walk.calls()[walk.calls()[child].children.front()];
      if (firstReply.scoreEvent < 0 || walk.events()[firstReply.scoreEvent].value < reply.args.beta)
        claimFails("legality", "the reply's first move does not reach beta");
      // The entry is what the reply to the same move stored in iteration 2: a stand pat (its draft-1
      // iteration cut off before any move, its eval at or above that reply's beta).
      bool storedByStandPat = false;
      for (int earlier : rootChildrenOfIteration(walk, 2)) {
        const auto& earlierMove = walk.events()[walk.calls()[earlier].moveEvent].move;
        if (earlierMove.from != made.from || earlierMove.to != made.to) continue;
        const Call& earlierReply = walk.calls()[earlier];
        const auto stores = walk.ownOfKind(earlier, EventKind::kStore);
        const auto earlierCutoffs = walk.ownOfKind(earlier, EventKind::kCutoff);
        storedByStandPat = !stores.empty() && !earlierCutoffs.empty() &&
                           walk.ownOfKind(earlier, EventKind::kMoveMade).empty() &&
                           earlierReply.args.eval >= earlierReply.args.beta &&
                           walk.events()[stores.back()].after.score == probe.entry.score &&
                           walk.events()[stores.back()].after.draft == probe.entry.draft &&
                           earlierReply.args.hashLock == reply.args.hashLock;
      }
      if (!storedByStandPat)
        claimFails("legality", "the entry the reply finds is not its own stand pat of iteration 2");
      context.ask(
          "legality",
          "In iteration 3 (not in the table) the root tries " + walk.moveName(child) +
              " again, which main()'s check calls illegal. Its reply now has depth n = " +
              std::to_string(reply.args.depth) + ", the window [" + std::to_string(reply.args.alpha) + ", " +
              std::to_string(reply.args.beta) + "] and e = " + std::to_string(reply.args.eval) + " (event " +
              std::to_string(reply.callEvent) +
              " of legality.umaxtrace); black's board scan meets its king on " + squareName(first.from) +
              " before the rook. Does the think now see that the move is illegal (a score of -I)?",
          "No. The reply's probe (event " + std::to_string(probes.front()) +
              ") finds what the same reply stored in iteration 2: draft D = " +
              std::to_string(probe.entry.draft) + ", a lower bound of " + std::to_string(probe.entry.score) +
              " (black stood pat, its eval being above beta). D < n, so the entry does not end the node, "
              "but it skips draft " +
              std::to_string(probe.entry.draft) + ": the deepening starts at draft " +
              std::to_string(firstDraft) + " (event " + std::to_string(iterations.front()) +
              "), where best starts at -I and every move is searched at least a ply deep. The scan's first "
              "move, the king's " +
              moveText(first.from, first.to) + " (event " + std::to_string(moves.front()) + "), scores " +
              std::to_string(walk.events()[firstReply.scoreEvent].value) + ", which reaches beta " +
              std::to_string(reply.args.beta) + ", and the reply cuts off (event " +
              std::to_string(cutoffs.front()) +
              ") before the scan reaches the rook, so no king capture is generated and " +
              walk.moveName(child) + " scores " + std::to_string(score) + " (event " +
              std::to_string(reply.scoreEvent) +
              "), not -I. Only main()'s check of an entered move, with the full window, is sure to find "
              "the capture.",
          rangeCommand("legality", reply.callEvent, static_cast<std::size_t>(reply.scoreEvent)),
          {lineStart(probes.front(), "probe"), "\"D\":" + std::to_string(probe.entry.draft) + "}",
           lineStart(iterations.front(), "iteration"), "\"d\":" + std::to_string(firstDraft) + "}",
           lineStart(cutoffs.front(), "cutoff"), lineStart(reply.scoreEvent, "score"),
           "\"v\":" + std::to_string(score) + "}"});
      asked = true;
    }
    if (!asked) claimFails("legality", "no illegal root move of iteration 3 was left unrefuted by a cutoff");
  }
  if (!illegal || !unrefuted) claimFails("legality", "the root has no refuted or no unrefuted move");
  return context.header("legality", "illegal moves found by the reply", walk, firstCapture,
                        "the table's first king capture") +
         "\nWhite's king on d1 next to a black rook. The root's moves in its second iteration: a move "
         "whose reply captures the king scores `-80000`, the same test the legality check of an entered "
         "move uses. While thinking, a reply searched with a narrowed window may cut off (a beta cutoff) "
         "before it generates the king capture, so a move without one is not proven legal here. "
         "main()'s legality check searches 2 ply with the full window `-I, I` and every other root move "
         "only reports the current best, so the entered move's reply has nothing to cut off on and does "
         "find a king capture if there is one:\n" +
         table({"root move", "events (made to scored)", "reply's king capture", "score", "so the move is"},
               rows) +
         "\nThe last column's second verdict is main()'s check of the same move from the same position "
         "(`Engine::checkMove`): a move the think left unrefuted can still be illegal.\n";
}

// ---- exercises -------------------------------------------------------------------
std::string html(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return out;
}

/// html(), with every pageLink() turned into a link.
std::string htmlWithLinks(const std::string& text) {
  std::string out;
  std::size_t from = 0;
  for (std::size_t open; (open = text.find("[[", from)) != std::string::npos;) {
    const std::size_t bar = text.find('|', open), close = text.find("]]", open);
    if (bar == std::string::npos || close == std::string::npos || bar > close)
      throw std::runtime_error("a broken page link in: " + text);
    out += html(text.substr(from, open - from)) + "<a class=\"el\" href=\"" +
           text.substr(open + 2, bar - open - 2) + ".html\">" + html(text.substr(bar + 1, close - bar - 1)) +
           "</a>";
    from = close + 2;
  }
  return out + html(text.substr(from));
}

/// NAME-exercises.md: the page's questions, each answer folded away with the command that shows it.
void writeExercises(const Context& context, const std::string& name) {
  std::vector<const Exercise*> mine;
  for (const Exercise& exercise : context.exercises)
    if (exercise.page == name) mine.push_back(&exercise);
  if (mine.empty() || mine.size() > 3) claimFails(name, "a topic page needs one to three exercises");
  std::ostringstream text;
  text
      << "## Exercises: predict, then check\n\nEach question asks about a part of the example's trace that "
         "the page "
         "does not show. Work out the answer from what the page explains before you open it; "
         "then run the command (from the repository's top folder, after `cmake --build build --target docs`, "
         "which records the traces into `build/docs/examples/`). The suite runs every one of these "
         "commands and checks that it prints the answer.\n\n\\htmlonly\n";
  int number = 0;
  for (const Exercise* exercise : mine) {
    std::string pieces;
    for (std::size_t at = 0; at < exercise->expected.size(); ++at)
      pieces += std::string(at == 0                               ? ""
                            : at + 1 == exercise->expected.size() ? " and "
                                                                  : ", ") +
                "<code class=\"umax-nowrap\">" + html(exercise->expected[at]) + "</code>";
    text << "<div class=\"umax-exercise\"><p><b>" << ++number << ".</b> " << htmlWithLinks(exercise->question)
         << "</p>\n<details><summary>Answer</summary><p>" << htmlWithLinks(exercise->answer)
         << "</p><div class=\"umax-try\"><div class=\"umax-try-title\">Check it: the suite runs this command "
            "and finds "
         << pieces << " in its output</div><pre><span class=\"umax-cmd\">$ " << html(exercise->command)
         << "</span></pre></div></details></div>\n";
  }
  text << "\\endhtmlonly\n";
  std::ofstream out(context.out / (name + "-exercises.md"), std::ios::binary);
  out << text.str();
  if (!out) throw std::runtime_error("cannot write " + name + "-exercises.md");
}

/// exercises.tsv: page, question, command, then every expected piece; one line each, for the suite.
void writeExerciseList(const Context& context) {
  std::ofstream out(context.out / "exercises.tsv", std::ios::binary);
  for (const Exercise& exercise : context.exercises) {
    out << exercise.page << "\t" << exercise.question << "\t" << exercise.command;
    for (const std::string& piece : exercise.expected) {
      if (piece.empty() || piece.find_first_of("\t\n") != std::string::npos)
        throw std::runtime_error("an expected piece is empty or holds a tab or newline: " +
                                 exercise.question);
      out << "\t" << piece;
    }
    out << "\n";
  }
  if (!out) throw std::runtime_error("cannot write exercises.tsv");
}

}  // namespace
}  // namespace umax::docs

int main(int argc, char** argv) {
  using namespace umax::docs;
  std::map<std::string, std::string> options;
  for (int index = 1; index + 1 < argc; index += 2) options[argv[index]] = argv[index + 1];
  if (!options.count("--umax-trace") || !options.count("--out")) {
    std::cerr << "usage: umax-docexamples --umax-trace PATH --out DIR [--viz yes] [--web-url URL]\n";
    return 2;
  }
  std::string webUrl = options["--web-url"];
  if (!webUrl.empty() && webUrl.rfind("http://", 0) != 0 && webUrl.rfind("https://", 0) != 0) {
    std::cerr << "umax-docexamples: --web-url must start with http:// or https:// (the web edition is not "
                 "served from file://), not '"
              << webUrl << "'\n";
    return 2;
  }
  if (!webUrl.empty() && webUrl.back() != '/') webUrl += '/';
  const std::map<std::string, std::function<std::string(const Context&)>> examples = {
      {"pieces", pieces},           {"board", board},
      {"generation", generation},   {"ep", enPassant},
      {"castling", castling},       {"promotion", promotion},
      {"alphabeta", alphaBeta},     {"quiescence", quiescence},
      {"doundo", doUndo},           {"deepening", deepening},
      {"sorting", sorting},         {"hashing", hashing},
      {"replacement", replacement}, {"material", material},
      {"centre", centre},           {"mate", mate},
      {"delayed", delayedGain},     {"legality", legality}};
  try {
    Context context{options["--umax-trace"], options["--out"], options["--viz"] == "yes", webUrl, {}, {}, {}};
    fs::create_directories(context.out);
    // Every umax-viz command an example gives opens its trace at the event the live view opens at.
    const std::regex vizCommand(
        R"(umax-viz build/docs/examples/([A-Za-z0-9_-]+)\.umaxtrace --event ([0-9]+))");
    for (const auto& [name, make] : examples) {
      const std::string text = make(context);
      for (std::sregex_iterator at(text.begin(), text.end(), vizCommand), end; at != end; ++at) {
        const std::string trace = (*at)[1];
        const long event = std::stol((*at)[2]);
        if (!context.liveEvents.count(trace) || context.liveEvents.at(trace) != event)
          claimFails(name, "the text opens " + trace + ".umaxtrace at event " + std::to_string(event) +
                               ", its live view at " +
                               (context.liveEvents.count(trace) ? std::to_string(context.liveEvents.at(trace))
                                                                : std::string("none")));
      }
      std::ofstream out(context.out / (name + ".md"), std::ios::binary);
      out << text;
      if (!out) throw std::runtime_error("cannot write " + (context.out / (name + ".md")).string());
      writeExercises(context, name);
    }
    writeExerciseList(context);
    // 18 of 18: every trace an example records has the event its live view opens at.
    for (const std::string& trace : context.recorded)
      if (!context.liveEvents.count(trace))
        claimFails(trace, "the example names no event for the live view of " + trace + ".umaxtrace");
  } catch (const std::exception& error) {
    std::cerr << "umax-docexamples: error: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
