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
//   umax-docexamples --umax-trace PATH --out DIR [--viz yes]
//
// With --viz yes, the alpha-beta and hashing examples also show a screenshot
// of the visualizer at their event: the program writes NAME.event (the
// cursor) and the docs build renders NAME-viz.png with umax-viz.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
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
  std::string page;      ///< the example name of the topic page it ends
  std::string question;  ///< Markdown-free text
  std::string answer;    ///< the answer, in a sentence
  std::string command;   ///< run from the repository root after the docs build
  std::string expected;  ///< a piece of the command's output that shows the answer
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

/// A jsonl field as it is printed, followed by the comma of the next field.
std::string field(const std::string& key, long value) {
  return "\"" + key + "\":" + std::to_string(value) + ",";
}

struct Context {
  std::string umaxTrace;
  fs::path out;
  bool viz = false;  ///< the build makes visualizer screenshots (umax-viz is built)
  mutable std::vector<Exercise> exercises;

  void ask(const std::string& page, const std::string& question, const std::string& answer,
           const std::string& command, const std::string& expected) const {
    exercises.push_back({page, question, answer, command, expected});
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
  std::string screenshot(const std::string& name, uint64_t event, const std::string& caption) const {
    if (!viz) return "";
    std::ofstream(out / (name + ".event")) << event << "\n";
    // Doxygen shrinks the picture to the page width: a link opens it at full size.
    return "\n\\image html " + name + "-viz.png \"" + caption + "\"\n\n<a href=\"" + name +
           "-viz.png\">Open the screenshot at full size.</a>\n";
  }
  TraceWalk record(const std::string& name, const std::string& fen, const std::string& moves, int nodes,
                   int hashBits = 0) const {
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
  std::set<int> codes;
  for (const Event& event : walk.events())
    if (event.kind == EventKind::kMoveMade) {
      codes.insert(event.move.piece & 0xFF);
      if (event.move.victim) codes.insert(event.move.victim & 0xFF);
    }
  bool virgin = false, moved = false, white = false, black = false;
  std::vector<std::vector<std::string>> rows;
  for (int code : codes) {
    virgin |= (code & kVirgin) != 0;
    moved |= (code & kVirgin) == 0;
    white |= (code & kWhite) != 0;
    black |= (code & kBlack) != 0;
    rows.push_back({num(code), binary(code), kTypeNames[code & 7], code & kWhite ? "white" : "black",
                    code & kVirgin ? "yes" : "no"});
  }
  if (!(virgin && moved && white && black))
    claimFails("pieces", "not all of virgin, moved, white and black pieces move");
  {
    // The root's first move of a piece that has not moved yet (its virgin bit set).
    std::size_t first = walk.ownOfKind(0, EventKind::kMoveMade).at(0);
    for (std::size_t index : walk.ownOfKind(0, EventKind::kMoveMade))
      if (walk.events()[index].move.piece & kVirgin) {
        first = index;
        break;
      }
    const auto& move = walk.events()[first].move;
    const int code = move.piece & 0xFF;
    context.ask("pieces",
                "The root tries " + moveText(move.from, move.to) + " (event " + std::to_string(first) +
                    " of pieces.umaxtrace). Which piece code u does it move: its type, " +
                    "its colour bit and its virgin bit?",
                "u = " + std::to_string(code) + " = binary " + binary(code).substr(1, 6) + ": type " +
                    std::to_string(code & 7) + " (" + kTypeNames[code & 7] + "), " +
                    (code & kWhite ? "white (bit 3, 8)" : "black (bit 4, 16)") +
                    (code & kVirgin ? ", virgin (bit 5, 32): it has not moved yet." : ", not virgin."),
                jsonlCommand("pieces", first), field("u", code));
  }
  return exampleHeader("the piece codes that move in a real search", walk.command()) +
         "\nEvery distinct piece code `u` (mover) or `t` (victim) of the moves made in the search, "
         "split into its bits:\n" +
         table({"code", "bits 5..0", "type (bits 0-2)", "colour (bit 3 or 4)", "virgin (bit 5)"}, rows) +
         "The kings and rooks keep bit 5 until they move: they may still castle.\n";
}

// ---- 2. the board ---------------------------------------------------------------
std::string board(const Context& context) {
  const auto walk = context.record("board", "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1", "", 200);
  std::vector<std::vector<std::string>> rows;
  std::set<int> steps;
  for (std::size_t index : walk.ownOfKind(0, EventKind::kMoveMade)) {
    const auto& move = walk.events()[index].move;
    if ((move.piece & 7) != kKnight || !steps.insert(move.to - move.from).second) continue;
    if ((move.from & kOffBoard) || (move.to & kOffBoard)) claimFails("board", "a square with a 0x88 bit set");
    rows.push_back(
        {"`" + moveText(move.from, move.to) + "`", hex(move.from), hex(move.to), num(move.to - move.from)});
  }
  if (rows.size() != 8) claimFails("board", "the knight on d4 did not make 8 different steps");
  std::set<int> sizes;  // the steps without their sign
  for (int step : steps) sizes.insert(std::abs(step));
  if (sizes.size() != 4) claimFails("board", "the eight steps are not four sizes with both signs");
  for (std::size_t index : walk.ownOfKind(0, EventKind::kMoveMade)) {
    const auto& move = walk.events()[index].move;
    if ((move.piece & 7) != kKnight || move.to - move.from != 33) continue;
    context.ask("board",
                "The knight on d4 (square 0x43 = 67) moves two rows down the board array and one file right "
                "(event " +
                    std::to_string(index) +
                    " of board.umaxtrace). Which square number y does it land on, "
                    "and which square is that?",
                "y = 67 + 33 = " + std::to_string(move.to) + " = " + hex(move.to).substr(1, 4) + ", square " +
                    squareName(move.to) +
                    " (a row is 16 squares: +32 is two rows towards rank 1, +1 one file).",
                jsonlCommand("board", index), field("y", move.to));
    break;
  }
  std::string sizeList;
  for (int size : sizes) sizeList += (sizeList.empty() ? "" : ", ") + num(size);
  return exampleHeader("a knight's eight steps as square numbers", walk.command()) +
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
  {
    const int last = children.back();
    const std::size_t made = static_cast<std::size_t>(walk.calls()[last].moveEvent);
    const auto& move = walk.events()[made].move;
    context.ask(
        "generation",
        "In its second iteration the root of generation.umaxtrace makes its 20 moves in the board "
        "scan's order, a2 first. Which move does it make last (event " +
            std::to_string(made) + ")?",
        "The scan walks from a2 along rank 2, then along rank 1, where only the knights can move; the "
        "last piece met with a move is on " +
            squareName(move.from) + ", and its last move is " + moveText(move.from, move.to) + ".",
        jsonlCommand("generation", made), "\"move\":\"" + moveText(move.from, move.to) + "\"");
  }
  std::vector<std::vector<std::string>> rows;
  int order = 0;
  for (const auto& [from, moves] : groups) {
    std::string list;
    for (const auto& move : moves) list += (list.empty() ? "" : " ") + move;
    rows.push_back({num(++order), "`" + squareName(from) + "`", list});
  }
  return exampleHeader("the order in which the root's moves are generated", walk.command()) +
         "\nThe root's moves in its second iteration (the first one with a full draft), in the order "
         "they were made: " +
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
    const std::string step =
        call.moveEvent < 0 ? "e2e4 (played before the think)" : walk.moveName(walk.callOf(index));
    context.ask("ep",
                "After 1. e2e4 black thinks (ep.umaxtrace). Which e.p. square E does black's root call get "
                "(event 0), and on which square H does the e.p. capture " +
                    moveText(capture.from, capture.to) + " (event " + std::to_string(index) +
                    ") take the pawn?",
                "E = " + squareName(call.args.epSquare) + " (square " + std::to_string(call.args.epSquare) +
                    "), the square the pawn skipped; H = y^16 = " + squareName(capture.captureSquare) +
                    " (square " + std::to_string(capture.captureSquare) + "), where the pawn stands.",
                jsonlCommand("ep", index), field("H", capture.captureSquare));
    return exampleHeader("an e.p. capture in the search", walk.command()) +
           table({"ply", "what the trace records"},
                 {{num(call.ply), "the call after `" + step + "` gets E = `" +
                                      squareName(call.args.epSquare) + "`, the square the pawn skipped"},
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
  long count = 0, refused = 0;
  for (int call = 1; call < static_cast<int>(walk.calls().size()); ++call) {
    const int made = walk.calls()[call].moveEvent;
    if (made < 0 || !(walk.events()[made].move.flags & trace::kMoveCastling)) continue;
    ++count;
    for (std::size_t index : walk.ownOfKind(call, EventKind::kKingCapture))
      refused += walk.events()[index].badCastling;
  }
  for (int child = 1; child < static_cast<int>(walk.calls().size()); ++child) {
    const Call& call = walk.calls()[child];
    if (call.moveEvent < 0) continue;
    const auto& move = walk.events()[call.moveEvent].move;
    if (!(move.flags & trace::kMoveCastling)) continue;
    for (std::size_t index : call.own) {
      const Event& event = walk.events()[index];
      if (event.kind != EventKind::kKingCapture || !event.badCastling) continue;
      context.ask("castling",
                  "White's castling " + moveText(move.from, move.to) + " (event " +
                      std::to_string(call.moveEvent) + " of castling.umaxtrace) is answered by " +
                      moveText(event.move.from, event.move.to) +
                      ", which reaches the square the king passed. "
                      "What does the reply return, and what does the castling score?",
                  "The reply counts it as a king capture and returns " +
                      std::to_string(returned(walk, child)) + " (+I); the castling scores " +
                      std::to_string(scored(walk, child)) + ", so it is never chosen.",
                  jsonlCommand("castling", call.returnEvent), field("m", returned(walk, child)));
      return exampleHeader("a castling tried and refused through check", walk.command()) +
             table(
                 {"", "from the trace"},
                 {{"castling made at ply " + std::to_string(call.ply - 1),
                   "`" + moveText(move.from, move.to) + "`: rook from G = `" + squareName(move.rookFrom) +
                       "` to F = `" + squareName(move.rookTo) + "`"},
                  {"the reply's E", "`" + squareName(call.args.epSquare) + "` (the square the king passed)"},
                  {"the reply's move that reaches E or next to it",
                   "`" + moveText(event.move.from, event.move.to) + "`: counted as a king capture"},
                  {"the reply returns", num(returned(walk, child))},
                  {"so the castling scores", num(scored(walk, child)) + ": never chosen"},
                  {"in the whole search", std::to_string(count) + " castlings made, " +
                                              std::to_string(refused) + " refused this way"}}) +
             "\nSo few are refused this way because most replies to a castling cut off "
             "before they generate the move that reaches the passed square; the refusal only shows "
             "where the reply gets that far.\n";
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
    context.ask(
        "promotion",
        "The root (e = " + std::to_string(rootEval) + ") plays the promotion " +
            moveText(move.from, move.to) + ". Which evaluation e does the reply's call get (event " +
            std::to_string(call.callEvent) + " of promotion.umaxtrace)? Remember the promotion bonus.",
        "e = -(e + v + i) = " + std::to_string(call.args.eval) +
            ": v + i = " + std::to_string(-call.args.eval - rootEval) +
            ", where i = " + std::to_string(kValueScale * kPieceValue[move.victim & 7] + kPromotionBonus) +
            (move.victim ? " (the victim's value and the promotion bonus "
                         : " (nothing is taken: the promotion bonus ") +
            std::to_string(kPromotionBonus) + ") and v = " +
            std::to_string(-call.args.eval - rootEval - kValueScale * kPieceValue[move.victim & 7] -
                           kPromotionBonus) +
            " (the pawn's positional terms).",
        jsonlCommand("promotion", call.callEvent), field("e", call.args.eval));
    return exampleHeader("a promotion at the root", walk.command()) +
           table({"", "from the trace"},
                 {{"move", "`" + moveText(move.from, move.to) + "`"},
                  {"piece before (u)", num(move.piece) + " = " + kTypeNames[move.piece & 7]},
                  {"piece on y after the move", num(after) + " = " + kTypeNames[after & 7]},
                  {"root's evaluation e", num(rootEval)},
                  {"the reply's evaluation -e-v-i", num(call.args.eval)},
                  {"so v + i", num(-call.args.eval - rootEval) + " (i includes the promotion bonus 799)"},
                  {"so v, the positional part", num(-call.args.eval - rootEval - 799) +
                                                    ": the centre points b[x+8]-b[y+8] of the step, and the "
                                                    "pawn-structure term of line 78, -9 for each side square "
                                                    "(two files away) without an own pawn, +9"}});
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
  context.ask("alphabeta",
              "At event " + std::to_string(call.callEvent) + " of alphabeta.umaxtrace, " + parentSide +
                  "'s " + refuted + " is answered with the window [" + std::to_string(call.args.alpha) +
                  ", " + std::to_string(call.args.beta) + "]. Its reply " + refuting + " scores " +
                  std::to_string(cutoff.value) + ". What does the call return (event " +
                  std::to_string(call.returnEvent) + "), and what kind of node is it?",
              "It returns " + std::to_string(walk.events()[call.returnEvent].best) + " >= beta " +
                  std::to_string(call.args.beta) + ": a CUT node (failed high); " + refuting + " refutes " +
                  refuted + " and the moves after it in the node's list are not searched.",
              jsonlCommand("alphabeta", call.returnEvent), field("m", walk.events()[call.returnEvent].best));
  return "\n### A refutation: a move that fails high\n\nThe cutoffs above are stand pats, which cut off "
         "before trying a move. Deeper in the same trace (found by searching it: the first node, at the "
         "shallowest ply, where a move scored below beta before the refutation) a node cuts off because "
         "one of its moves reached beta, a CUT node (the visualizer's tree marks it so; a node where a "
         "move raised alpha is a PV node, one where every move failed low an ALL node): event " +
         std::to_string(found) + ", at ply " + std::to_string(call.ply) + ", the reply to " + parentSide +
         "'s `" + refuted + "`. Its window is " + window(call.args.alpha, call.args.beta) +
         "; the moves it made in " + "its iteration " + std::to_string(walk.events()[iteration].value) +
         ", in order:\n" +
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
  return exampleHeader("one iteration of a small search, step by step", walk.command()) +
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
             "The visualizer at the first cutoff of the table (build/bin/umax-viz "
             "build/docs/examples/alphabeta.umaxtrace --event " +
                 std::to_string(firstCutoff) +
                 "); its readable source panel shows the tracing lines next to Step 9, see the tools page");
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
  const int lastCall = bestChain.back();
  context.ask(
      "quiescence",
      "In the chain above, the last reply (after " + walk.moveName(lastCall) + ", at ply " +
          std::to_string(walk.calls()[lastCall].ply) + ", event " +
          std::to_string(walk.calls()[lastCall].callEvent) +
          " of quiescence.umaxtrace) has e = " + std::to_string(walk.calls()[lastCall].args.eval) +
          " and the window [" + std::to_string(walk.calls()[lastCall].args.alpha) + ", " +
          std::to_string(walk.calls()[lastCall].args.beta) + "]. What does it return (event " +
          std::to_string(walk.calls()[lastCall].returnEvent) + ")?",
      std::to_string(returned(walk, lastCall)) + ": " +
          (returned(walk, lastCall) != walk.calls()[lastCall].args.eval
               ? std::string("a recapture did better than its evaluation.")
           : walk.calls()[lastCall].args.eval >= walk.calls()[lastCall].args.beta
               ? "its own evaluation: it stands pat, since e = " +
                     std::to_string(walk.calls()[lastCall].args.eval) + " already reaches beta " +
                     std::to_string(walk.calls()[lastCall].args.beta) +
                     ", so it cuts off before trying a move."
               : std::string("its own evaluation: no recapture did better than stopping the exchange.")),
      jsonlCommand("quiescence", walk.calls()[lastCall].returnEvent), field("m", returned(walk, lastCall)));
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
  return exampleHeader("a recapture chain at draft 1, ending in a stand pat", walk.command()) + start +
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
    context.ask("doundo",
                "The root's capture " + moveText(move.from, move.to) + " is made at event " +
                    std::to_string(call.moveEvent) +
                    " of doundo.umaxtrace. Which victim code t does the move "
                    "keep for its undo, and which piece code u goes back to " +
                    squareName(move.from) + "?",
                "t = " + std::to_string(move.victim) + " (" + kTypeNames[move.victim & 7] + ") and u = " +
                    std::to_string(move.piece) + ": the undo writes b[H] = t and b[x] = u back.",
                jsonlCommand("doundo", call.moveEvent), field("u", move.piece) + field("t", move.victim));
    return exampleHeader("a capture made and taken back", walk.command()) + "\nThe root's move `" +
           moveText(move.from, move.to) +
           "`: the two squares it touches, before it, while its reply is searched, "
           "and after the undo (piece codes as on \\ref topic_piece_encoding):\n" +
           table({"square", "before", "after the move", "after the undo"}, rows);
  }
  claimFails("doundo", "no capture at the root");
}

// ---- 10. iterative deepening ---------------------------------------------------
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
    rows.push_back({num(it.draft), num(it.nodes), num(it.nodesBefore + it.nodes), num(it.calls), branching,
                    "`" + it.best + "`", num(it.score),
                    it.draft < 2 ? "(none: only recaptures)"
                                 : "ply " + std::to_string(it.deepestFullWidth) + ", " +
                                       (it.lastMover == kWhite ? "white" : "black")});
  }
  const Iteration& third = iterations[2];
  context.ask("deepening",
              "Iteration " + std::to_string(third.draft) +
                  " of deepening.umaxtrace ends with the root's store at "
                  "event " +
                  std::to_string(third.store) +
                  ". How many nodes have been counted by then, and how many of "
                  "them in iteration " +
                  std::to_string(third.draft) + " alone?",
              std::to_string(third.nodesBefore + third.nodes) + " in all (cumulative), of which " +
                  std::to_string(third.nodes) + " in iteration " + std::to_string(third.draft) + ".",
              stateCommand("deepening", third.store, "nodes"),
              "\"nodes\":" + std::to_string(third.nodesBefore + third.nodes));
  const Iteration& fourth = iterations[3];
  context.ask("deepening",
              "Iteration " + std::to_string(third.draft) + " scored " + std::to_string(third.score) +
                  ". Predict the "
                  "score of iteration " +
                  std::to_string(fourth.draft) + " from the parity (store at event " +
                  std::to_string(fourth.store) + ").",
              std::to_string(fourth.score) + ": at draft " + std::to_string(fourth.draft) +
                  " the last full-width move "
                  "is " +
                  (fourth.lastMover == kWhite ? "white" : "black") + "'s (ply " +
                  std::to_string(fourth.deepestFullWidth) +
                  "), and its gain is not answered before the horizon.",
              jsonlCommand("deepening", fourth.store), "\"V\":" + std::to_string(fourth.score) + ",");
  return exampleHeader("the root's iterations", walk.command()) +
         "\nAfter 1. e2e4, black's think searches the root again and again, one ply deeper each time, until "
         "the node budget is spent. After each iteration it stores its result (the table shows the store). "
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
         table({"iteration d", "its nodes", "nodes so far", "its calls", "branching", "best move", "score",
                "last full-width move"},
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
         "recapture lines are made at ply d-2 by the side this parity says.\n";
}

// ---- 11. best move first --------------------------------------------------------
std::string sorting(const Context& context) {
  const auto walk = context.record("sorting", "", "e2e4", 3000);
  std::vector<std::vector<std::string>> rows;
  std::string previous;
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
      }
      rows.push_back({num(draft), previous.empty() ? "(none)" : "`" + previous + "`", "`" + move + "`",
                      sneaked ? "yes" : "no"});
    } else if (event.kind == EventKind::kStore && (event.after.to & 0x80)) {
      previous = moveText(event.after.from & 0x77, event.after.to & 0x77);
    }
  }
  if (checked < 2) claimFails("sorting", "fewer than two iterations with a previous best");
  {
    // The root's first move of its last iteration with a previous best.
    std::size_t lastIteration = 0, firstMade = 0;
    for (std::size_t index : walk.calls()[0].own) {
      const Event& event = walk.events()[index];
      if (event.kind == EventKind::kIteration) lastIteration = index;
      if (event.kind == EventKind::kMoveMade && index > lastIteration &&
          (firstMade < lastIteration || firstMade == 0))
        firstMade = index;
    }
    const auto& move = walk.events()[firstMade].move;
    context.ask("sorting",
                "Iteration " + std::to_string(walk.events()[lastIteration].value) +
                    " of the root of "
                    "sorting.umaxtrace starts at event " +
                    std::to_string(lastIteration) +
                    ". Which move does it try "
                    "first, and why?",
                moveText(move.from, move.to) +
                    ", the best move of the iteration before: it is sneaked in ahead "
                    "of the board scan (the trace flags it bestFirst).",
                jsonlCommand("sorting", firstMade), "\"move\":\"" + moveText(move.from, move.to) + "\"");
  }
  return exampleHeader("every iteration starts with the previous best move", walk.command()) +
         "\nThe same think as on \\ref topic_iterative_deepening. For each iteration of the root: the best "
         "move the previous one stored, and the first move this one made, with the trace's flag that "
         "says it was sneaked in before the board scan:\n" +
         table({"iteration d", "previous best", "first move searched", "sneaked in"}, rows);
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
    context.ask("hashing",
                "At event " + std::to_string(index) + " of hashing.umaxtrace, the call after " +
                    walk.moveName(callIndex) + " (window [" + std::to_string(call.args.alpha) + ", " +
                    std::to_string(call.args.beta) + "], depth n = " + std::to_string(call.args.depth) +
                    ") finds its position in the table with draft " + std::to_string(entry.draft) +
                    " and score " + std::to_string(entry.score) + " (" + bounds(entry.from) +
                    "). What does the call "
                    "return (event " +
                    std::to_string(call.returnEvent) + "), and does it count a node?",
                "It returns the stored " + std::to_string(entry.score) +
                    " at once: the entry is deep enough and its bound settles the window, so the node is not "
                    "counted (the node counter stays where it was) and no move is searched.",
                jsonlCommand("hashing", call.returnEvent), field("m", entry.score));
    return exampleHeader("a hash hit that ends a node, and a probe that walks on", walk.command()) +
           table({"", "from the trace"},
                 {{"the call", "`" + walk.moveName(callIndex) + "` at ply " + std::to_string(call.ply) +
                                   ", window " + window(call.args.alpha, call.args.beta) +
                                   ", depth n = " + std::to_string(call.args.depth)},
                  {"probe", "first slot j = " + num(event.probe.firstSlot) + ", slots probed " +
                                num(event.probe.slotsProbed) + ", found in slot " + num(event.probe.slot)},
                  {"entry found", "draft D = " + num(entry.draft) + ", score V = " + num(entry.score) +
                                      ", bound bits of X: " + bounds(entry.from)},
                  {"why it ends the node",
                   "D >= n, and the " + bounds(entry.from) + " " + num(entry.score) +
                       " settles the window: the call returns it without counting a node"},
                  {"in the whole search", std::to_string(hits) + " probes hit, " + std::to_string(ends) +
                                              " of them ended their node"},
                  {"a probe that walked on", walkRow}}) +
           context.screenshot("hashing", index,
                              "The visualizer at the hash hit of the first rows (build/bin/umax-viz "
                              "build/docs/examples/hashing.umaxtrace --event " +
                                  std::to_string(index) + "): the hash panel shows that probe's window");
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
std::string smallTable(const Context& context) {
  const auto walk =
      context.record("replacement-small", "", kSmallTableMoves, kSmallTableNodes, kSmallTableBits);
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
    if (up == node) relation = walk.calls()[taker].parent == node ? "its own reply" : "a call below it";
  if (relation == "a call it made")
    claimFails("replacement", "the slot was taken by a call outside the node");

  context.ask(
      "replacement",
      "At event " + std::to_string(index) + " of replacement-small.umaxtrace the node after " +
          lineTo(walk, node) + " stores into slot " + std::to_string(store.slot) + ", which " + relation +
          " took after this node's probe: it holds another position's entry, " + bounds(store.before.from) +
          " of draft " + std::to_string(store.before.draft) + ". Is the store written or refused?",
      std::string(
          "Written: another position's entry is replaced unless it is exact and deeper; this one is ") +
          bounds(store.before.from) + ", so the slot now holds lock " +
          std::to_string(static_cast<uint32_t>(store.after.lock)) + ", D " +
          std::to_string(store.after.draft) + ".",
      jsonlCommand("replacement-small", index), "\"written\":true,");

  long probeCount = 0, fullWindows = 0;
  for (const Event& event : walk.events())
    if (event.kind == EventKind::kProbe) {
      ++probeCount;
      fullWindows += event.probe.outcome == ProbeOutcome::kFull;
    }
  const auto original = context.record("replacement-original", "", kSmallTableMoves, kSmallTableNodes);
  const StoreKinds big = storeKinds(original);
  std::string refusedText;
  if (small.refused > 0) {
    const Event& kept = walk.events()[small.firstRefused];
    refusedText = " It also refused " + std::to_string(small.refused) + " store" +
                  (small.refused == 1 ? "" : "s") + "; the first, at event " +
                  std::to_string(small.firstRefused) + ", met in slot " + std::to_string(kept.slot) + " " +
                  entryText(kept.before) + ", exact and deeper than the node's draft, which Step 18 keeps.";
  } else {
    refusedText =
        " No store was refused in it: a refusal needs an *exact* entry *deeper* than the node's draft "
        "in the slot. A node that found its slot empty stores first after its first iteration (draft 1, "
        "or 99 for a mate score), and the only calls that can take its slot before that are the calls "
        "below it in that iteration, recapture chains searched to draft 1: their entry is deeper only when "
        "it holds a "
        "king capture or a mate (draft 99), and it is kept only if that score is exact, inside that "
        "call's window. Such a meeting is far rarer than the overwrite above.";
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
         table(
             {"", "from the trace"},
             {{"the node", "event " + num(call.callEvent) + ": after `" + lineTo(walk, node) + "` (ply " +
                               std::to_string(call.ply) +
                               "), lock Z = " + num(static_cast<long>(call.args.hashLock)) + ", window " +
                               window(call.args.alpha, call.args.beta)},
              {"its probe", "event " + num(probes[0]) + ": window from j = " + num(probe.probe.firstSlot) +
                                ", slot " + num(probe.probe.slot) +
                                " empty: a miss, the node will store there"},
              {"the slot taken", "event " + num(takenAt) + ": " + relation + " `" + walk.moveName(taker) +
                                     "` (ply " + std::to_string(walk.calls()[taker].ply) + ", lock " +
                                     num(static_cast<long>(walk.calls()[taker].args.hashLock)) +
                                     ") probed from j = " + num(takerProbe.probe.firstSlot) +
                                     ", found slot " + num(store.slot) + " still empty and stored there"},
              {"the node's store", "event " + num(index) + ": slot " + num(store.slot) + " holds " +
                                       entryText(store.before) + " (another position's)"},
              {"Step 18", std::string((store.before.from & kExactBits) == kExactBits ? "exact but not deeper"
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
  std::vector<std::vector<std::string>> rows;
  auto shortEntry = [](const HashEntry& entry) {
    return "D " + std::to_string(entry.draft) + ", V " + std::to_string(entry.score) + ", " +
           bounds(entry.from);
  };
  // The first store of each kind into an occupied slot: a node updating its own entry (same lock)
  // after a deeper iteration, a node replacing another position's entry, a store refused.
  bool own = false, other = false, kept = false;
  for (std::size_t index = 0; index < walk.events().size(); ++index) {
    const Event& event = walk.events()[index];
    if (event.kind != EventKind::kStore || event.before.lock == 0) continue;
    const bool sameLock = event.before.lock == event.after.lock;
    if (event.written && sameLock && !own) {
      own = true;
      context.ask(
          "replacement",
          "At event " + std::to_string(index) + " of replacement.umaxtrace a node stores into slot " +
              std::to_string(event.slot) + ", which holds its own entry from the previous iteration: D " +
              std::to_string(event.before.draft) + ", " + bounds(event.before.from) +
              ". Is the store "
              "written or refused, and which draft does the slot hold after it?",
          std::string("Written: only an exact entry from a deeper search is kept, and this one is ") +
              (event.before.draft > event.after.draft ? "deeper" : "not deeper") + "; the slot now holds D " +
              std::to_string(event.after.draft) + ", V " + std::to_string(event.after.score) + ".",
          jsonlCommand("replacement", index), "\"written\":true,");
      rows.push_back({num(event.slot), "its own, from its previous iteration", shortEntry(event.before),
                      shortEntry(event.after), "written"});
    }
    if (event.written && !sameLock && !other) {
      other = true;
      rows.push_back({num(event.slot), "another position's", shortEntry(event.before),
                      shortEntry(event.after), "written"});
    }
    if (!event.written && !kept) {
      kept = true;
      rows.push_back({num(event.slot), "", shortEntry(event.before), "", "refused: exact and deeper"});
    }
  }
  if (!own && !other) claimFails("replacement", "no store replaced an entry");
  long stores = 0, written = 0;
  for (const Event& event : walk.events())
    if (event.kind == EventKind::kStore) {
      ++stores;
      written += event.written;
    }
  return exampleHeader("stores into occupied slots", walk.command()) +
         "\nThe first store of each kind into a slot that already held an entry: a node overwriting "
         "its own entry after a deeper iteration, a node overwriting another position's entry, and a "
         "store refused because the slot holds an exact score from a deeper search. In the whole "
         "search " +
         std::to_string(written) + " of " + std::to_string(stores) + " stores wrote and " +
         std::to_string(stores - written) + " were refused" +
         (other ? "" : "; no store overwrote another position's entry") +
         (kept ? "" : "; none was refused, so the table has no such row") + ":\n" +
         table({"slot", "whose entry was there", "entry before", "entry after", "decision"}, rows) +
         "\nWhy so few? A node stores into the slot its probe chose, and from its first store on the slot "
         "holds its own lock, so no other position's probe takes it. A store meets another position's "
         "entry only when that position took the slot after this node's probe chose it and before its "
         "first store, and that needs two positions within one probe window of 9 slots out of "
         "16,777,224 at the same moment.\n" +
         smallTable(context);
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
    const int gain = kValueScale * kPieceValue[move.victim & 7];
    if (call.args.eval != -(rootEval + gain)) claimFails("material", "the reply's e is not -(e + i)");
    context.ask("material",
                "The root's e is " + std::to_string(rootEval) + ". The rook takes the pawn with " +
                    moveText(move.from, move.to) +
                    " (no centre points for a rook). Which e does the reply's call "
                    "get (event " +
                    std::to_string(call.callEvent) + " of material.umaxtrace)?",
                "e = -(e + v + i) = -(" + std::to_string(rootEval) + " + 0 + " + std::to_string(gain) +
                    ") = " + std::to_string(call.args.eval) + ".",
                jsonlCommand("material", call.callEvent), field("e", call.args.eval));
    return exampleHeader("the evaluation passed down", walk.command()) +
           table({"", "from the trace"},
                 {{"root's e (white to move; Q from the material: rook 5 x 99 less pawn 1 x 99)",
                   num(rootEval)},
                  {"move", "`" + moveText(move.from, move.to) + "`, a rook (no centre points) takes a pawn"},
                  {"gain i = 99 x w[pawn]", num(gain)},
                  {"reply's e (black to move) = -(e + v + i), v = 0", num(call.args.eval)}});
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
  for (int child : rootChildrenOfIteration(walk, 2)) {
    const Call& call = walk.calls()[child];
    const auto& move = walk.events()[call.moveEvent].move;
    if ((move.piece & 7) != kKnight) continue;
    const int v = -call.args.eval - rootEval;
    if (v != points(move.from) - points(move.to))
      claimFails("centre", "v is not the centre-point difference");
    rows.push_back(
        {"`" + moveText(move.from, move.to) + "`", num(points(move.from)), num(points(move.to)), num(v)});
    if (rows.size() == 1)
      context.ask("centre",
                  "The knight on b1 moves " + moveText(move.from, move.to) +
                      " (root e = " + std::to_string(rootEval) + "). The centre table gives b1 " +
                      std::to_string(points(move.from)) +
                      " points: work out the target square's points and the reply's e (event " +
                      std::to_string(call.callEvent) + " of centre.umaxtrace).",
                  squareName(move.to) + " has " + std::to_string(points(move.to)) +
                      " points, so v = " + std::to_string(v) +
                      " and the reply gets e = -(e + v) = " + std::to_string(call.args.eval) + ".",
                  jsonlCommand("centre", call.callEvent), field("e", call.args.eval));
  }
  if (rows.size() != 3) claimFails("centre", "the knight on b1 did not make its three moves");
  return exampleHeader("the centre points of three knight moves", walk.command()) +
         "\nThe knight on b1 at the root. The move's positional gain `v` is read from the trace (the reply's "
         "`e` is `-(e + v)`, no material changes hands); the two middle columns are the table's values "
         "`(file-4)^2 + (row-3.5)^2` of the squares, and `v` equals their difference:\n" +
         table({"move", "points of x", "points of y", "v from the trace"}, rows);
}

// ---- 16. mate and stalemate -----------------------------------------------------
std::string mate(const Context& context) {
  std::vector<std::vector<std::string>> rows;
  const std::pair<const char*, const char*> positions[] = {{"mate", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"},
                                                           {"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}};
  std::string commands;
  for (const auto& [name, fen] : positions) {
    const auto walk = context.record(name, fen, "", 100);
    commands += "\n    " + walk.command();
    int probe = -1;
    for (int child : walk.calls()[0].children)
      if (walk.calls()[child].moveEvent < 0) probe = child;
    if (probe < 0) claimFails("mate", std::string(name) + ": no null-move probe at the root");
    const int nullScore = returned(walk, probe), score = returned(walk, 0);
    const bool isMate = score == -kInfinity / 2;
    if (isMate != (std::string(name) == "mate")) claimFails("mate", std::string(name) + ": wrong score");
    rows.push_back({name, "`" + std::string(fen) + "`", num(nullScore), num(score)});
    context.ask("mate",
                std::string("Black has no legal move in ") + fen + " (" + name +
                    ".umaxtrace). What does black's "
                    "search return (event " +
                    std::to_string(walk.calls()[0].returnEvent) + ")?",
                std::string("The null-move probe returns ") + std::to_string(nullScore) +
                    (isMate ? " (white can take the king: check)" : " (white cannot take the king)") +
                    ", so the root returns " + std::to_string(score) +
                    (isMate ? ": mated." : ": a stalemate is a draw."),
                jsonlCommand(name, walk.calls()[0].returnEvent), field("m", score));
  }
  return "## Worked example: a mate and a stalemate\n\nRecorded while this page was built, with\n" +
         commands +
         "\n\nEvery number below is read from those traces; if they stop showing this, the documentation "
         "build fails. Black to move has no legal move in either position; the null move lets white "
         "move again:\n" +
         table({"position", "FEN", "white's null-move search returns", "black's score (-that / 2)"}, rows);
}

// ---- 17. delayed gain ----------------------------------------------------------
std::string delayedGain(const Context& context) {
  const auto walk = context.record("delayed", "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", "", 300);
  for (int child : walk.calls()[0].children) {
    const Call& call = walk.calls()[child];
    if (call.moveEvent < 0 || call.scoreEvent < 0) continue;
    const int value = returned(walk, child), score = scored(walk, child), eval = walk.calls()[0].args.eval;
    if (-value <= eval || -value < kInfinity / 4) continue;
    if (score != -value - 1) claimFails("delayed", "the penalty was not one point");
    context.ask("delayed",
                "The reply to the root's " + walk.moveName(child) + " returns " + std::to_string(value) +
                    " (event " + std::to_string(call.returnEvent) +
                    " of delayed.umaxtrace). What score v does the "
                    "root give the move (the next event)?",
                "v = -(" + std::to_string(value) + ") = " + std::to_string(-value) +
                    ", more than e = " + std::to_string(eval) +
                    ", so it loses the delayed-gain point: " + std::to_string(score) + ".",
                jsonlCommand("delayed", call.returnEvent + 1),
                field("v", score).substr(0, field("v", score).size() - 1));
    return exampleHeader("the point taken off a mate", walk.command()) +
           table({"", "from the trace"}, {{"root's move", "`" + walk.moveName(child) + "`"},
                                          {"the reply (mated) returns", num(value)},
                                          {"turned round, v = -D(...)", num(-value)},
                                          {"root's e", num(eval)},
                                          {"v > e, so v -= 1: the move scores", num(score)}});
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
  for (int child : rootChildrenOfIteration(walk, 2)) {
    std::string capture = "none";
    for (std::size_t index : walk.ownOfKind(child, EventKind::kKingCapture)) {
      const auto& move = walk.events()[index].move;
      capture = "`" + moveText(move.from, move.to) + "` takes the king";
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
    if (score == -kInfinity && illegal == 1)
      context.ask(
          "legality",
          "White's king on d1 stands next to a black rook on e2. The root tries " + walk.moveName(child) +
              " in its second iteration. What score does the move get (event " +
              std::to_string(walk.calls()[child].returnEvent + 1) + " of legality.umaxtrace)?",
          "The reply takes the king (" + capture.substr(1, 4) + "), returns +I, so the move scores -I = " +
              std::to_string(score) + ": it is illegal and never chosen.",
          jsonlCommand("legality", walk.calls()[child].returnEvent + 1), "\"v\":" + std::to_string(score));
    rows.push_back({"`" + walk.moveName(child) + "`", capture, num(score), verdict});
  }
  if (!illegal || !unrefuted) claimFails("legality", "the root has no refuted or no unrefuted move");
  return exampleHeader("illegal moves found by the reply", walk.command()) +
         "\nWhite's king on d1 next to a black rook. The root's moves in its second iteration: a move "
         "whose reply captures the king scores `-80000`, the same test the legality check of an entered "
         "move uses. While thinking, a reply searched with a narrowed window may cut off (a beta cutoff) "
         "before it generates the king capture, so a move without one is not proven legal here. "
         "main()'s legality check searches 2 ply with the full window `-I, I` and every other root move "
         "only reports the current best, so the entered move's reply has nothing to cut off on and does "
         "find a king capture if there is one:\n" +
         table({"root move", "reply's king capture", "score", "so the move is"}, rows) +
         "\nThe last column's second verdict is main()'s check of the same move from the same position "
         "(`Engine::checkMove`): a move the think left unrefuted can still be illegal.\n";
}

// ---- exercises -------------------------------------------------------------------
std::string html(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return out;
}

/// NAME-exercises.md: the page's questions, each answer folded away with the command that shows it.
void writeExercises(const Context& context, const std::string& name) {
  std::vector<const Exercise*> mine;
  for (const Exercise& exercise : context.exercises)
    if (exercise.page == name) mine.push_back(&exercise);
  if (mine.empty() || mine.size() > 3) claimFails(name, "a topic page needs one to three exercises");
  std::ostringstream text;
  text
      << "## Exercises: predict, then check\n\nWork out the answer from the page before you open it; "
         "then run the command (from the repository's top folder, after `cmake --build build --target docs`, "
         "which records the traces into `build/docs/examples/`). The suite runs every one of these "
         "commands and checks that it prints the answer.\n\n\\htmlonly\n";
  int number = 0;
  for (const Exercise* exercise : mine)
    text << "<div class=\"umax-exercise\"><p><b>" << ++number << ".</b> " << html(exercise->question)
         << "</p>\n<details><summary>Answer</summary><p>" << html(exercise->answer)
         << "</p><div class=\"umax-try\"><div class=\"umax-try-title\">Check it: the suite runs this command "
            "and finds <code>"
         << html(exercise->expected) << "</code> in its output</div><pre><span class=\"umax-cmd\">$ "
         << html(exercise->command) << "</span></pre></div></details></div>\n";
  text << "\\endhtmlonly\n";
  std::ofstream out(context.out / (name + "-exercises.md"), std::ios::binary);
  out << text.str();
  if (!out) throw std::runtime_error("cannot write " + name + "-exercises.md");
}

/// exercises.tsv: page, command, expected, question; one line each, for the suite.
void writeExerciseList(const Context& context) {
  std::ofstream out(context.out / "exercises.tsv", std::ios::binary);
  for (const Exercise& exercise : context.exercises)
    out << exercise.page << "\t" << exercise.command << "\t" << exercise.expected << "\t" << exercise.question
        << "\n";
  if (!out) throw std::runtime_error("cannot write exercises.tsv");
}

}  // namespace
}  // namespace umax::docs

int main(int argc, char** argv) {
  using namespace umax::docs;
  std::map<std::string, std::string> options;
  for (int index = 1; index + 1 < argc; index += 2) options[argv[index]] = argv[index + 1];
  if (!options.count("--umax-trace") || !options.count("--out")) {
    std::cerr << "usage: umax-docexamples --umax-trace PATH --out DIR [--viz yes]\n";
    return 2;
  }
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
    Context context{options["--umax-trace"], options["--out"], options["--viz"] == "yes", {}};
    fs::create_directories(context.out);
    for (const auto& [name, make] : examples) {
      const std::string text = make(context);
      std::ofstream out(context.out / (name + ".md"), std::ios::binary);
      out << text;
      if (!out) throw std::runtime_error("cannot write " + (context.out / (name + ".md")).string());
      writeExercises(context, name);
    }
    writeExerciseList(context);
  } catch (const std::exception& error) {
    std::cerr << "umax-docexamples: error: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
