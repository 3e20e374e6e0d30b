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

struct Context {
  std::string umaxTrace;
  fs::path out;
  bool viz = false;  ///< the build makes visualizer screenshots (umax-viz is built)

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
  TraceWalk record(const std::string& name, const std::string& fen, const std::string& moves,
                   int nodes) const {
    return TraceWalk(umaxTrace, (out / (name + ".umaxtrace")).string(), fen, moves, nodes);
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
  return exampleHeader("one iteration of a small search, step by step", walk.command()) +
         "\nThe root (white to move, draft " + std::to_string(draft) +
         ") searches its moves in order. Each reply gets the window turned round: alpha `-l` (one lower "
         "when `l > e`) and beta `-max(q, m)`, so it narrows as the root's best `m` improves. A reply "
         "whose own best reaches its beta stops at once (a cutoff): it has shown the move is no better "
         "than one the root already has.\n" +
         table({"step", "root move", "reply's window [q, l]", "reply's e", "reply cut off?", "reply returns",
                "move's score v", "root's best m"},
               rows) +
         "\nStep by step:\n\n" + story.str() + "\n" + dot.str() +
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
  return exampleHeader("a recapture chain at draft 1, ending in a stand pat", walk.command()) +
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
  std::vector<std::vector<std::string>> rows;
  long nodes = 0;
  int draft = 0;
  for (std::size_t index = 0; index < walk.events().size(); ++index) {
    const Event& event = walk.events()[index];
    if (event.kind == EventKind::kNodeCounted) ++nodes;
    if (walk.callOf(index) != 0) continue;
    if (event.kind == EventKind::kIteration) draft = event.value;
    if (event.kind == EventKind::kStore)
      rows.push_back({num(draft), num(nodes),
                      "`" + moveText(event.after.from & 0x77, event.after.to & 0x77) + "`",
                      num(event.after.score)});
  }
  if (rows.size() < 4) claimFails("deepening", "fewer than four root iterations");
  if (rows.front()[2] != "`a8a8`") claimFails("deepening", "the first iteration found a move");
  return exampleHeader("the root's iterations", walk.command()) +
         "\nAfter 1. e2e4, black's think searches the root again and again, one ply deeper each time, until "
         "the node budget is spent. After each iteration it stores its result (the table shows the store): "
         "nodes counted so far, best move and score. At draft 1 only recaptures are searched, and the "
         "root has none, so its best move is still empty (`a8a8`) and its score is the evaluation.\n" +
         table({"iteration d", "nodes so far", "best move", "score"}, rows);
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
std::string replacement(const Context& context) {
  const auto walk = context.record("replacement", "", "e2e4", 3000);
  std::vector<std::vector<std::string>> rows;
  auto entryText = [](const HashEntry& entry) {
    return "D " + std::to_string(entry.draft) + ", V " + std::to_string(entry.score) + ", " +
           bounds(entry.from);
  };
  // The first store of each kind into an occupied slot: a node updating its own entry (same lock)
  // after a deeper iteration, a node replacing another position's entry, a store refused.
  bool own = false, other = false, kept = false;
  for (const Event& event : walk.events()) {
    if (event.kind != EventKind::kStore || event.before.lock == 0) continue;
    const bool sameLock = event.before.lock == event.after.lock;
    if (event.written && sameLock && !own) {
      own = true;
      rows.push_back({num(event.slot), "its own, from its previous iteration", entryText(event.before),
                      entryText(event.after), "written"});
    }
    if (event.written && !sameLock && !other) {
      other = true;
      rows.push_back({num(event.slot), "another position's", entryText(event.before), entryText(event.after),
                      "written"});
    }
    if (!event.written && !kept) {
      kept = true;
      rows.push_back({num(event.slot), "", entryText(event.before), "", "refused: exact and deeper"});
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
         table({"slot", "whose entry was there", "entry before", "entry after", "decision"}, rows);
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
    Context context{options["--umax-trace"], options["--out"], options["--viz"] == "yes"};
    fs::create_directories(context.out);
    for (const auto& [name, make] : examples) {
      const std::string text = make(context);
      std::ofstream out(context.out / (name + ".md"), std::ios::binary);
      out << text;
      if (!out) throw std::runtime_error("cannot write " + (context.out / (name + ".md")).string());
    }
  } catch (const std::exception& error) {
    std::cerr << "umax-docexamples: error: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
