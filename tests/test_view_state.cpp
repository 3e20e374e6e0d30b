// The view model (umax/view/view_state.h) against an independent walk of the JSON-lines export,
// at every event of several traces: the event number is jsonl's "i", the kind and ply are
// jsonl's, the board (as FEN) is the one the walk gets by making and taking back the exported
// moves, alpha and beta are the current call's, the hash counters are those of the events up to
// the cursor, every arrow lies on the board, v at a hash hit is the stored score, a cutoff's
// narration gives the numbers of its comparison and, for a refutation, the moves not tried (from
// a generator written here square by square), a store's says what it did to the slot. Then
// `umax-trace state` prints the same model as JSON and refuses an event outside the trace.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>

#include "support.h"
#include "umax/engine.h"
#include "umax/notation.h"
#include "umax/session.h"
#include "umax/trace/export.h"
#include "umax/trace/reader.h"
#include "umax/trace/replay.h"
#include "umax/trace/writer.h"
#include "umax/view/hash_history.h"
#include "umax/view/view_state.h"

using namespace umax;
using namespace umax::trace;
using nlohmann::json;

namespace {

struct Think {
  const char* name;
  const char* fen;
  const char* moves;
  long budget;
};

// White after 1. e4 e5 (the start), black in an Italian, and kiwipete (castling, e.p., promotions,
// king captures deep in the tree).
constexpr Think kThinks[] = {
    {"e4", "", "e2e4", 2000},
    {"italian", "", "e2e4 e7e5 g1f3 b8c6 f1c4", 2500},
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "", 1500},
};

std::string record(const Think& think) {
  const std::string path = test::scratchFile(std::string("view-") + think.name + ".trc");
  auto engine = std::make_unique<Engine>();
  if (*think.fen) engine->setPosition(parseFen(think.fen));
  playMoves(*engine, think.moves);
  recordThink(*engine, think.budget, path, think.fen, think.moves);
  return path;
}

/// The pieces (type | colour) and the side to move of a FEN, read square by square: the FEN parser
/// refuses the illegal positions a search passes through, such as a king left in check.
std::pair<std::array<int, 128>, int> readFen(const std::string& fen) {
  std::array<int, 128> board{};
  int square = 0;
  std::size_t at = 0;
  for (; at < fen.size() && fen[at] != ' '; ++at) {
    const char c = fen[at];
    const bool black = (c & 0x20) != 0;
    if (c == '/')
      square = (square & 0x70) + 16;
    else if (c >= '1' && c <= '8')
      square += c - '0';
    else if ((c | 0x20) == 'p')
      board[static_cast<std::size_t>(square++)] = black ? (kDownwardPawn | kBlack) : (kUpwardPawn | kWhite);
    else
      board[static_cast<std::size_t>(square++)] =
          static_cast<int>(std::string("???nkbrq").find(static_cast<char>(c | 0x20))) |
          (black ? kBlack : kWhite);
  }
  REQUIRE(at + 1 < fen.size());
  return {board, fen[at + 1] == 'w' ? kWhite : kBlack};
}

struct WalkFrame {
  int side = 0, alpha = 0, beta = 0, eval = 0, epSquare = 0;
  bool moveOnBoard = false;
  json move;
  int best = -kInfinity;
  int bestFrom = 0;   ///< X: the hash entry's move, then each new best's
  int scanStart = 0;  ///< B: X when the current iteration began
  int lastTo = 0;     ///< z: where the move replied to landed
  int draft = 0;      ///< d: the current iteration
  int depth = 0;      ///< n: the depth asked for
};

/// The moves micro-Max's generator offers `side`, in its order, written square by square from the
/// original's rules (not from moves.h): the scan from `scanStart` in steps x = x+9 & ~0x88; each
/// type's directions (every non-pawn step followed by its negation); sliders run on until a piece;
/// pawns push onto empty squares (two from the home row) and take diagonally (on `ep` too); a
/// virgin king beside a virgin rook with empty squares next to it may step twice.
std::vector<std::pair<int, int>> generatorMoves(const Board& board, int side, int ep, int scanStart) {
  const std::map<int, std::vector<int>> directions = {{kUpwardPawn, {-16, -15, -17}},
                                                      {kDownwardPawn, {16, 15, 17}},
                                                      {kKnight, {-14, 14, -18, 18, -31, 31, -33, 33}},
                                                      {kKing, {-1, 1, -16, 16, -15, 15, -17, 17}},
                                                      {kBishop, {-15, 15, -17, 17}},
                                                      {kRook, {-1, 1, -16, 16}},
                                                      {kQueen, {-1, 1, -16, 16, -15, 15, -17, 17}}};
  const auto at = [&](int square) { return static_cast<int>(board[static_cast<std::size_t>(square)]); };
  std::vector<std::pair<int, int>> moves;
  int from = scanStart;
  do {
    const int piece = at(from);
    if (!(piece & side)) continue;
    const int type = piece & 7;
    for (const int step : directions.at(type)) {
      for (int to = from + step, steps = 1;; to += step, ++steps) {
        if (!isOnBoard(to)) break;
        if (type <= kDownwardPawn) {
          const int victim = at(to == ep ? to ^ 16 : to);
          if (victim & side) break;
          if ((step == 16 || step == -16) == (victim != 0)) break;  // push onto a piece, take nothing
          moves.emplace_back(from, to);
          const int row = to >> 4;
          if (victim == 0 && steps == 1 && row == (side == kWhite ? 5 : 2)) continue;  // the double step
          break;
        }
        if (at(to) & side) break;
        moves.emplace_back(from, to);
        if (at(to) != 0) break;
        if (type == kBishop || type == kRook || type == kQueen) continue;
        const int corner = step == 1 ? (from | 7) : (from & 0x70);
        if (type == kKing && (step == 1 || step == -1) && steps == 1 && (piece & kVirgin) &&
            (at(corner) & kVirgin) && at(corner ^ 1) == 0 && at(corner ^ 2) == 0)
          continue;  // castling: the king's second step
        break;
      }
    }
  } while ((from = (from + 9) & ~0x88) != scanStart);
  return moves;
}

// Every event of the trace `reader` reads, as its jsonl export prints it.
std::vector<json> jsonEvents(const TraceReader& reader) {
  std::ostringstream lines;
  writeJsonLines(reader, lines);
  std::vector<json> events;
  std::istringstream in(lines.str());
  for (std::string line; std::getline(in, line);) events.push_back(json::parse(line));
  return events;
}

}  // namespace

TEST_CASE("the view model agrees with an independent walk of the jsonl export at every event",
          "[view][trace]") {
  uint64_t bestsBelowDepth = 0;  // bests at or above beta in an iteration below the call's depth
  for (const Think& think : kThinks) {
    INFO("think " << think.name);
    const std::string path = record(think);
    const TraceReader reader(path);
    std::ostringstream lines;
    writeJsonLines(reader, lines);
    std::istringstream in(lines.str());

    Replay replay(reader);
    HashCounters counters;
    Board board = reader.header().position.board;
    std::vector<WalkFrame> stack;
    uint64_t probes = 0, hits = 0, refused = 0, replaced = 0, written = 0, hashCutoffs = 0, filled = 0;
    json previous;
    std::string line;
    uint64_t checked = 0, cutoffs = 0, standPats = 0, refutations = 0, hitsSeen = 0;
    std::optional<int> predicted;  // what the last return said its parent's move will score
    int returnedScore = 0;
    uint64_t predictionsChecked = 0, penaltiesSeen = 0;
    int movePositional = 0, moveGain = 0;  // the last move's v (at the move) and i
    uint64_t movesChecked = 0, draftOneMoves = 0, draftOneIterations = 0;
    std::optional<std::pair<int, int>> deeperAfterStandPat;  // a cut iteration's call: its ply, next draft
    uint64_t deeperDraftsChecked = 0;
    std::optional<std::pair<int, int>> replyBeta;  // after a new best inside the window: replies' ply, beta
    uint64_t replyBetasChecked = 0;
    while (std::getline(in, line)) {
      json event = json::parse(line);  // moved, not copied, into `previous` at the end
      const std::string kind = event["kind"];
      // The walk: the stack of windows, the board, the counters.
      if (kind == "call") {
        WalkFrame frame;
        frame.side = event["k"];
        frame.alpha = event["q"];
        frame.beta = event["l"];
        frame.eval = event["e"];
        frame.epSquare = event["E"];
        frame.lastTo = event["z"];
        frame.depth = event["n"];
        stack.push_back(frame);
      } else if (kind == "iteration") {
        stack.back().scanStart = stack.back().bestFrom;
        stack.back().draft = event["d"];
      } else if (kind == "best") {
        stack.back().bestFrom = event["X"].get<int>() & 0x77;
      } else if (kind == "move") {
        WalkFrame& top = stack.back();
        const int x = event["x"], y = event["y"], u = event["u"], G = event["G"], H = event["H"],
                  F = event["F"];
        // The original's v and i for this move (lines 66 and 74-80), worked out from the board before
        // it: centre points for a piece below a rook, 30 for a castling, -9 per pawn neighbour two
        // files away that is not the same pawn, plus one; the gain 99 * value, +799 for a promotion.
        const auto at = [&](int square) { return board[static_cast<std::size_t>(square)]; };
        const int type = u & kTypeMask;
        movePositional = type < kRook ? at(x + 8) - at(y + 8) : 0;
        if (event["castling"]) movePositional += 30;
        if (type <= kDownwardPawn)
          movePositional -=
              9 * ((((x - 2) & 0x88) != 0 || at(x - 2) != u) + (((x + 2) & 0x88) != 0 || at(x + 2) != u) - 1);
        moveGain = 99 * kPieceValue[static_cast<std::size_t>(event["t"].get<int>() & kTypeMask)] +
                   (event["promotion"] ? 799 : 0);
        board[static_cast<std::size_t>(G)] = board[static_cast<std::size_t>(H)] =
            board[static_cast<std::size_t>(x)] = 0;
        board[static_cast<std::size_t>(y)] = static_cast<int8_t>(u & 31);
        if (event["castling"]) board[static_cast<std::size_t>(F)] = static_cast<int8_t>(top.side + kRook);
        if (event["promotion"]) board[static_cast<std::size_t>(y)] |= kQueen;
        top.moveOnBoard = true;
        top.move = event;
        // What the draft-1 narration says: only a move onto z is made (h = d - (y != z)).
        if (top.draft == 1) {
          REQUIRE(y == top.lastTo);
          REQUIRE(event["h"].get<int>() == 1);
          ++draftOneMoves;
        }
      } else if (kind == "score") {
        WalkFrame& top = stack.back();
        const json& m = top.move;
        const int x = m["x"], y = m["y"], u = m["u"], t = m["t"], G = m["G"], H = m["H"], F = m["F"];
        board[static_cast<std::size_t>(G)] = static_cast<int8_t>(top.side + kRook + kVirgin);
        board[static_cast<std::size_t>(F)] = board[static_cast<std::size_t>(y)] = 0;
        board[static_cast<std::size_t>(x)] = static_cast<int8_t>(u);
        board[static_cast<std::size_t>(H)] = static_cast<int8_t>(t);
        top.moveOnBoard = false;
      } else if (kind == "probe") {
        ++probes;
        if (event["outcome"] == "hit") {
          ++hits;
          stack.back().bestFrom = event["X"].get<int>() & 0x77;
        }
        if (event["endsNode"]) ++hashCutoffs;
      } else if (kind == "store") {
        if (!event["written"])
          ++refused;
        else {
          ++written;
          if (event["before"]["K"] != 0 && event["before"]["K"] != event["after"]["K"]) ++replaced;
          if (event["before"]["K"] == 0) ++filled;  // the hash panel's "slots filled at the cursor"
        }
      }
      json returned;  // the returning call's window
      if (kind == "return") {
        returned = {{"q", stack.back().alpha}, {"l", stack.back().beta}};
        stack.pop_back();
      }

      REQUIRE(replay.stepForward());
      counters.count(replay.eventAt(replay.cursor() - 1));
      const ViewState view = viewState(replay, counters);
      INFO("event " << event["i"] << ": " << line << "\n narration: " << view.narration);
      REQUIRE(view.event.has_value());
      REQUIRE(*view.event == event["i"].get<uint64_t>());
      REQUIRE(view.kind == kind);
      REQUIRE(view.ply == event["ply"].get<int>());
      // The board: the FEN read back by the FEN parser holds the walk's pieces, the walk's side to move.
      // (Compared first and asserted at a square that differs: an assertion per square and event
      // made tens of millions of them.)
      const auto [shownBoard, shownSide] = readFen(view.fen);
      for (int square = 0; square < 128; ++square)
        if (isOnBoard(square) &&
            shownBoard[static_cast<std::size_t>(square)] != (board[static_cast<std::size_t>(square)] & 31)) {
          CAPTURE(squareName(square));
          REQUIRE(shownBoard[static_cast<std::size_t>(square)] ==
                  (board[static_cast<std::size_t>(square)] & 31));
        }
      if (kind == "return" && !stack.empty()) {
        // The window of the call that returned (as `ply`), not its parent's.
        REQUIRE(view.alpha == returned["q"].get<int>());
        REQUIRE(view.beta == returned["l"].get<int>());
      } else if (!stack.empty()) {
        const WalkFrame& top = stack.back();
        REQUIRE(shownSide == (top.moveOnBoard ? opponentOf(top.side) : top.side));
        REQUIRE(view.alpha == top.alpha);
        REQUIRE(view.beta == top.beta);
      } else {
        REQUIRE(view.alpha == reader.header().root.alpha);
        REQUIRE(view.beta == reader.header().root.beta);
      }
      // The hash counters are those of the events so far.
      REQUIRE(view.hash.probes == probes);
      REQUIRE(view.hash.hits == hits);
      REQUIRE(view.hash.hashCutoffs == hashCutoffs);
      REQUIRE(view.hash.storesRefused == refused);
      REQUIRE(view.hash.storesWritten == written);
      REQUIRE(view.hash.storesReplaced == replaced);
      REQUIRE(view.hash.storesNew == filled);
      // Every arrow lies on the board, between two different squares.
      for (const ArrowView& arrow : view.arrows) {
        // (A hash entry's X carries its bound bits: read as a plain int it was once a negative
        // "square" that passes the 0x88 test and drew the green arrow above the board.)
        REQUIRE((arrow.from >= 0 && arrow.from < 128 && isOnBoard(arrow.from)));
        REQUIRE((arrow.to >= 0 && arrow.to < 128 && isOnBoard(arrow.to)));
        REQUIRE(arrow.from != arrow.to);
        REQUIRE(!arrow.why.empty());
      }
      REQUIRE(!view.narration.empty());
      if (!stack.empty()) {
        // Each variable under its own readable name (E and F were both "passedSquare").
        std::vector<std::string_view> names;
        for (const VariableView& variable : view.variables) names.push_back(variable.readable);
        std::sort(names.begin(), names.end());
        const auto twice = std::adjacent_find(names.begin(), names.end());
        if (twice != names.end()) FAIL("two variables are shown as " << *twice);
      }
      if (!stack.empty()) {
        const auto value = [&](const char* name) {
          const auto it = std::find_if(view.variables.begin(), view.variables.end(),
                                       [&](const VariableView& variable) { return variable.name == name; });
          REQUIRE(it != view.variables.end());
          return it->value;
        };
        // One sign for nothing: "-" (E was once "--" beside other variables' "-").
        for (const VariableView& variable : view.variables)
          if (variable.value == "--") {
            CAPTURE(variable.name);
            REQUIRE(variable.value != "--");
          }
        // Values not set yet are "-", never a made-up 0 or a8 (E = 0 is O's start value, -128 the
        // root's: no square).
        const int passed = stack.back().epSquare;
        REQUIRE((value("E") == "-") == (passed == 0 || !isOnBoard(passed)));
        if (kind == "call") {
          REQUIRE(value("m") == "-");
          REQUIRE(value("X") == "-");
          REQUIRE(value("Y") == "-");
          REQUIRE(view.stack.back().best == "-");
          REQUIRE(view.searchAlpha == view.alpha);
        }
        if (value("m") == "-")
          for (const ArrowView& arrow : view.arrows) REQUIRE(arrow.why.find("m = ") == std::string::npos);
        if (kind == "move") {  // v is the move's positional gain (not the last move's score), i its gain
          REQUIRE(value("v") == std::to_string(movePositional));
          REQUIRE(value("i") == std::to_string(moveGain));
          ++movesChecked;
        }
      }
      if (kind == "probe" && event["outcome"] == "hit") {
        ++hitsSeen;
        // v holds the stored score at a hit (micro-Max: v=a->V), until a move is scored.
        const auto v = std::find_if(view.variables.begin(), view.variables.end(),
                                    [](const VariableView& variable) { return variable.name == "v"; });
        REQUIRE(v != view.variables.end());
        const int stored = event["V"];
        REQUIRE(v->value == (stored == kInfinity            ? "+I"
                             : stored == -kInfinity         ? "-I"
                             : stored == -kInfinity - 1     ? "-I-1"
                             : std::abs(stored) < kInfinity ? std::to_string(stored)
                                                            : "a stored score beyond I"));
        REQUIRE(view.narration.rfind("hash hit", 0) == 0);
        if (event["endsNode"]) {
          REQUIRE(view.narration.find("without searching") != std::string::npos);
          // No iteration ran: m holds nothing yet (it once showed the frame's 0).
          const auto m = std::find_if(view.variables.begin(), view.variables.end(),
                                      [](const VariableView& variable) { return variable.name == "m"; });
          REQUIRE(m->value == "-");
        }
      }
      if (kind == "iteration" && event["d"] == 1) {
        // The draft-1 scan: only a move onto z gets a reply (it once said "only captures and
        // recaptures are searched": a capture elsewhere is not made); z off the board: none.
        ++draftOneIterations;
        const int z = stack.back().lastTo;
        REQUIRE(view.narration.find("captures") == std::string::npos);
        REQUIRE(view.narration.find(isOnBoard(z)
                                        ? "only a move onto z = " + squareName(z) + ", "
                                        : "z = " + std::to_string(z) + " is no square, so no move is made") !=
                std::string::npos);
      }
      if (kind == "cutoff") {
        ++cutoffs;
        const std::string beta = std::to_string(stack.back().beta);
        if (previous["kind"] == "iteration") {
          ++standPats;
          REQUIRE(view.narration.find("stand pat") != std::string::npos);
          REQUIRE(view.narration.find("eval " + std::to_string(stack.back().eval) + " >= beta " + beta) !=
                  std::string::npos);
          // Only the iteration ends (line 71, goto C): a call of depth n > d goes on to draft d + 1, and
          // the walk checks that it does (the sentence once said "the node returns" for every call).
          const WalkFrame& top = stack.back();
          if (top.draft < top.depth) {
            REQUIRE(view.narration.find("the node returns") == std::string::npos);
            REQUIRE(view.narration.find("goes on to draft " + std::to_string(top.draft + 1)) !=
                    std::string::npos);
            deeperAfterStandPat = std::make_pair(event["ply"].get<int>(), top.draft + 1);
          } else {
            REQUIRE(view.narration.find("the node returns without trying a move") != std::string::npos);
          }
        } else if (previous["kind"] != "king-capture") {
          ++refutations;
          const std::string move = stack.back().move["move"];
          REQUIRE(view.narration.rfind(move + " fails high", 0) == 0);
          REQUIRE(view.narration.find("score " + std::to_string(event["m"].get<int>()) + " >= beta " +
                                      beta) != std::string::npos);
          // The moves not tried: those after the refuting one in the generator's order (all but it
          // when it was the sneaked-in best move, before the scan began).
          const WalkFrame& top = stack.back();
          const auto moves = generatorMoves(board, top.side, top.epSquare, top.scanStart);
          const std::pair<int, int> refuting{top.move["x"].get<int>(), top.move["y"].get<int>()};
          const auto found = std::find(moves.begin(), moves.end(), refuting);
          REQUIRE(found != moves.end());
          const long left =
              top.move["bestFirst"] ? static_cast<long>(moves.size()) - 1 : moves.end() - found - 1;
          REQUIRE(left > 0);  // the cutoff is found on visiting the next move
          REQUIRE(view.narration.find("; " + std::to_string(left) + (left == 1 ? " move" : " moves") +
                                      " not tried") != std::string::npos);
          // Below the depth asked for (and without a mate score, line 102) the call goes on.
          const int m = event["m"];
          if (top.draft < top.depth && m <= kInfinity / 4 && m >= -kInfinity / 4) {
            REQUIRE(view.narration.find("goes on to draft " + std::to_string(top.draft + 1)) !=
                    std::string::npos);
            deeperAfterStandPat = std::make_pair(event["ply"].get<int>(), top.draft + 1);
          } else {
            REQUIRE(view.narration.find("goes on to draft") == std::string::npos);
          }
        }
        // The caption says the same, not the parent's move.
        REQUIRE(view.caption.rfind(view.narration, 0) == 0);
      }
      // The caption describes the event first (it once described the E ring at a store), and
      // E = a8 (0, O's start value) is no square.
      if (kind == "store" || kind == "iteration" || kind == "probe" || kind == "mate-probe" ||
          (kind == "return" && !stack.empty()))
        REQUIRE(view.caption.rfind(view.narration, 0) == 0);
      REQUIRE(view.caption.find("E = a8") == std::string::npos);
      if (kind != "call") REQUIRE(view.caption.find("E = ") == std::string::npos);
      if (kind == "store") {
        const bool replace =
            event["written"] && event["before"]["K"] != 0 && event["before"]["K"] != event["after"]["K"];
        REQUIRE((view.narration.find("refused") != std::string::npos) == !event["written"].get<bool>());
        REQUIRE((view.narration.find("replaces another position") != std::string::npos) == replace);
      }
      if (kind == "return") {
        const int m = event["m"];
        const char* type = nodeType(returned["q"], returned["l"], m);
        REQUIRE(view.nodeType == type);
        REQUIRE(view.narration.find(std::string(type) + " node") != std::string::npos);
        // The parent's move "will score" what its score event then says: the negated return
        // minus the delayed-gain point (it once said -m, one too many above the eval).
        if (!stack.empty() && stack.back().moveOnBoard) {
          predicted = -m - (-m > stack.back().eval ? 1 : 0);
          REQUIRE(view.narration.find(" will score " + scoreName(*predicted)) != std::string::npos);
        }
      }
      // The Source shows the site that made the event; a return settled by the hash table is the
      // probe's `return v` (it was shown as the loop's end, with the root's explanation).
      if (kind == "return")
        REQUIRE(view.site == static_cast<int>(previous["kind"] == "probe" && previous["endsNode"]
                                                  ? SearchSite::kHashCutoff
                                                  : SearchSite::kReturn));
      else
        REQUIRE(view.site == event["site"].get<int>());
      REQUIRE(view.innerReturn == (kind == "return" && !stack.empty()));
      if (kind == "score") {
        if (predicted) {
          REQUIRE(event["v"].get<int>() == *predicted);
          ++predictionsChecked;
          if (*predicted != -returnedScore) ++penaltiesSeen;
        }
        predicted.reset();
      }
      // A new best inside the window: the narration names the beta the next replies get, -m (it once
      // said they "are searched with alpha m"), and the next reply's call has it (line 82).
      if (kind == "best") {
        REQUIRE(view.narration.find("searched with alpha") == std::string::npos);
        const int m = event["m"];
        // A best at or above beta ends the iteration; below the depth asked for (and without a mate
        // score, line 102) the call goes on to the next draft, which the walk checks (it once said
        // "the node fails high" there too).
        if (m >= stack.back().beta) {
          const WalkFrame& top = stack.back();
          if (top.draft < top.depth && m <= kInfinity / 4 && m >= -kInfinity / 4) {
            REQUIRE(view.narration.find("the node fails high") == std::string::npos);
            REQUIRE(view.narration.find(
                        "iteration fails high; the call (depth n = " + std::to_string(top.depth) +
                        ") goes on to draft " + std::to_string(top.draft + 1)) != std::string::npos);
            deeperAfterStandPat = std::make_pair(event["ply"].get<int>(), top.draft + 1);
            ++bestsBelowDepth;
          } else {
            REQUIRE(view.narration.find("the node fails high") != std::string::npos);
          }
        }
        if (m > stack.back().alpha && m < stack.back().beta) {
          REQUIRE(view.narration.find("the next replies get beta " + scoreName(-m)) != std::string::npos);
          replyBeta = std::make_pair(event["ply"].get<int>() + 1, -m);
        }
      } else if (replyBeta && kind == "call" && event["ply"] == replyBeta->first) {
        REQUIRE(event["l"].get<int>() == replyBeta->second);
        ++replyBetasChecked;
        replyBeta.reset();
      } else if (replyBeta && event["ply"] == replyBeta->first - 1 &&
                 (kind == "iteration" || kind == "store" || kind == "return" || kind == "mate-probe")) {
        replyBeta.reset();  // the iteration ended: the next one starts its best again
      }
      if (deeperAfterStandPat && event["ply"] == deeperAfterStandPat->first &&
          (kind == "iteration" || kind == "return")) {
        REQUIRE(kind == "iteration");
        REQUIRE(event["d"].get<int>() == deeperAfterStandPat->second);
        ++deeperDraftsChecked;
        deeperAfterStandPat.reset();
      }
      if (kind == "return") returnedScore = event["m"];
      previous = std::move(event);
      ++checked;
    }
    REQUIRE(checked == reader.eventCount());
    REQUIRE(!replay.stepForward());
    // The traces hold what the checks are about.
    CHECK(hitsSeen > 0);
    CHECK(standPats > 0);
    CHECK(refutations > 0);
    CHECK(predictionsChecked > 0);
    CHECK(movesChecked > 100);
    CHECK(draftOneIterations > 0);
    CHECK(draftOneMoves > 0);
    CHECK(penaltiesSeen > 0);
    CHECK(replyBetasChecked > 0);
    CHECK(deeperDraftsChecked > 0);
  }
  CHECK(bestsBelowDepth > 0);
}

TEST_CASE("event numbers are 0-based everywhere: event N is jsonl's i = N, at cursor N + 1",
          "[view][trace]") {
  REQUIRE(!eventAtCursor(0).has_value());
  for (uint64_t event : {0ULL, 1ULL, 29ULL, 123456ULL}) {
    REQUIRE(cursorAfterEvent(event) == event + 1);
    REQUIRE(eventAtCursor(cursorAfterEvent(event)) == event);
  }
}

TEST_CASE("umax-trace state prints the view model at an event as JSON, and refuses one outside the trace",
          "[view][trace][tools]") {
  const std::string path = record(kThinks[0]);
  const TraceReader reader(path);
  const std::vector<json> events = jsonEvents(reader);
  Replay replay(reader);
  for (uint64_t index : {uint64_t{0}, uint64_t{29}, reader.eventCount() / 2, reader.eventCount() - 1}) {
    int status = 0;
    const std::string output = test::runCommand(
        test::binPath("umax-trace") + " state " + path + " --event " + std::to_string(index), &status);
    INFO("event " << index << ": " << output);
    REQUIRE(status == 0);
    const json state = json::parse(output);
    REQUIRE(state["event"] == index);
    REQUIRE(state["event"] == events[index]["i"]);
    REQUIRE(state["kind"] == events[index]["kind"]);
    REQUIRE(state["ply"] == events[index]["ply"]);
    replay.seek(cursorAfterEvent(index));
    const ViewState view = viewState(replay, hashCountersAt(reader, replay.cursor()));
    REQUIRE(state == json::parse(toJson(view)));
    for (const char* key : {"fen", "alpha", "beta", "narration", "variables", "hash", "arrows", "caption"})
      REQUIRE(state.contains(key));
  }
  int status = 0;
  const std::string refused = test::runCommand(test::binPath("umax-trace") + " state " + path + " --event " +
                                                   std::to_string(reader.eventCount()) + " 2>&1",
                                               &status);
  REQUIRE(status != 0);
  REQUIRE(refused.find("outside") != std::string::npos);
  REQUIRE(refused.find("0 to " + std::to_string(reader.eventCount() - 1)) != std::string::npos);
}

TEST_CASE("a move onto or beside a castling's passed square is narrated as through or out of check",
          "[view][trace]") {
  // Line 70 refuses a castling when the reply lands on E (the passed square, the rook on it: through
  // check) or beside it; beside it is the king's start (out of check), as its new square holds the king
  // and a move there is a plain king capture. The sentence once said "passed" of both (the fifth reader).
  int through = 0;
  int outOf = 0;
  for (const Think think : {Think{"through", "r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1", "", 300},
                            Think{"out-of", "4r3/8/8/8/8/8/8/k3K2R w K - 0 1", "", 500}}) {
    INFO("think " << think.name);
    const std::string path = record(think);
    const TraceReader reader(path);
    const std::vector<json> events = jsonEvents(reader);
    Replay replay(reader);
    std::vector<json> calls;  // the open calls' call events
    std::vector<json> moves;  // each open call's move on the board (or null)
    for (std::size_t index = 0; index < events.size(); ++index) {
      const json& event = events[index];
      const std::string kind = event["kind"];
      if (kind == "call") {
        calls.push_back(event);
        moves.push_back(nullptr);
      } else if (kind == "return") {
        calls.pop_back();
        moves.pop_back();
      } else if (kind == "move") {
        moves.back() = event;
      } else if (kind == "king-capture" && event["badCastling"]) {
        REQUIRE(calls.size() >= 2);
        const int passed = calls.back()["E"];
        const json& castling = moves[moves.size() - 2];  // the move this call answers
        REQUIRE(castling["castling"] == true);
        replay.seek(cursorAfterEvent(index));
        const ViewState view = viewState(replay, hashCountersAt(reader, replay.cursor()));
        INFO("event " << index << ": " << view.narration);
        CHECK(view.narration.find("reaches the square") == std::string::npos);
        if (event["y"] == passed) {
          CHECK(view.narration.find("passed (" + squareName(passed) +
                                    ", E, where its rook now stands): the "
                                    "castling was through check") != std::string::npos);
          ++through;
        } else {
          CHECK(event["y"] == castling["x"]);  // the square the king left
          CHECK(view.narration.find("left (" + squareName(event["y"]) + "), next to the square it passed (" +
                                    squareName(passed) + ", E): the castling was out of check") !=
                std::string::npos);
          ++outOf;
        }
      }
    }
  }
  CHECK(through > 0);
  CHECK(outOf > 0);
}

TEST_CASE("the mate probe's return says its parent's best is minus half its score", "[view][trace]") {
  // Line 103: m = -D(24-k,-I,I,0,J,Z,S,S,1)/2. The narration said "half of its score, -40000" of a
  // probe that returned +I (the fifth reader): it is minus half.
  for (const Think think : {Think{"mated", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "", 100},
                            Think{"stalemated", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "", 100}}) {
    INFO("think " << think.name);
    const std::string path = record(think);
    const TraceReader reader(path);
    const std::vector<json> events = jsonEvents(reader);
    Replay replay(reader);
    int probeReturns = 0;
    for (std::size_t index = 1; index + 1 < events.size(); ++index) {
      // The probe's call follows the mate-probe event; its return is the first return at its ply.
      if (events[index - 1]["kind"] != "mate-probe") continue;
      const int ply = events[index]["ply"];
      std::size_t back = index;
      while (!(events[back]["kind"] == "return" && events[back]["ply"] == ply)) ++back;
      const int m = events[back]["m"];
      replay.seek(cursorAfterEvent(back));
      const ViewState view = viewState(replay, hashCountersAt(reader, replay.cursor()));
      INFO("event " << back << ": " << view.narration);
      CHECK(view.narration.find("half of its score") == std::string::npos);
      CHECK(view.narration.find("minus half its score (line 103: -D(...)/2), " + scoreName(-m / 2) +
                                ", becomes the parent's best") != std::string::npos);
      ++probeReturns;
    }
    CHECK(probeReturns > 0);
  }
}

TEST_CASE(
    "a king capture in the mate probe says the side that passed is in check, not that a move was illegal",
    "[view][trace]") {
  // The probe's call follows a null move (line 103): no move of the opponent was made, so "the
  // opponent's last move was illegal" (the sixth reader found it there) is not what the capture shows.
  const Think think{"mated", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "", 100};
  const std::string path = record(think);
  const TraceReader reader(path);
  const std::vector<json> events = jsonEvents(reader);
  Replay replay(reader);
  int inProbe = 0, elsewhere = 0;
  std::optional<int> probePly;  // the ply of the mate probe's call while it runs
  for (std::size_t index = 1; index < events.size(); ++index) {
    const json& event = events[index];
    if (events[index - 1]["kind"] == "mate-probe") probePly = event["ply"].get<int>();
    if (event["kind"] == "king-capture") {
      replay.seek(cursorAfterEvent(index));
      const ViewState view = viewState(replay, hashCountersAt(reader, replay.cursor()));
      INFO("event " << index << ": " << view.narration);
      if (probePly && event["ply"] == *probePly) {
        CHECK(view.narration.find("last move was illegal") == std::string::npos);
        CHECK(
            view.narration.find("takes the king of black, who passed (the null move): that king is in check, "
                                "so black, with no move that keeps it, is mated") != std::string::npos);
        ++inProbe;
      } else {
        CHECK(view.narration.find("the opponent's last move was illegal") != std::string::npos);
        ++elsewhere;
      }
    }
    if (probePly && event["kind"] == "return" && event["ply"] == *probePly) probePly.reset();
  }
  CHECK(inProbe > 0);
  CHECK(elsewhere > 0);
}

TEST_CASE("the hash counters at a cursor from the timeline index equal those counted from the start",
          "[view][trace]") {
  const std::string path = record(kThinks[1]);
  const TraceReader reader(path);
  HashHistory hash(reader.header(), reader.eventCount());
  TimelineIndex timeline(reader.eventCount());
  buildHistories(reader, hash, timeline);
  const Replay replay(reader);
  // Counted once along the trace: the counters after each cursor.
  std::vector<HashCounters> expected{HashCounters{}};
  reader.forEach([&](const Event& event, uint64_t) {
    expected.push_back(expected.back());
    expected.back().count(event);
  });
  REQUIRE(expected.size() == reader.eventCount() + 1);
  // Every bucket boundary and its neighbours, and a stride through the rest.
  std::vector<uint64_t> cursors{0, reader.eventCount()};
  for (uint64_t start = 0; start <= reader.eventCount(); start += timeline.eventsPerBucket())
    for (uint64_t cursor : {start, start + 1, start > 0 ? start - 1 : 0})
      if (cursor <= reader.eventCount()) cursors.push_back(cursor);
  for (uint64_t cursor = 0; cursor <= reader.eventCount(); cursor += 977) cursors.push_back(cursor);
  for (uint64_t cursor : cursors) {
    INFO("cursor " << cursor);
    REQUIRE(hashCountersAt(replay, cursor, timeline) == expected[cursor]);
  }
  REQUIRE(hashCountersAt(reader, reader.eventCount() / 2) == expected[reader.eventCount() / 2]);
  // Counting an event back out (a cursor moving back) undoes counting it.
  HashCounters walked = expected.back();
  for (uint64_t index = reader.eventCount(); index > reader.eventCount() / 2; --index)
    walked.count(replay.eventAt(index - 1), -1);
  REQUIRE(walked == expected[reader.eventCount() / 2]);
  // The trace holds what is counted.
  CHECK(expected.back().storesWritten > 0);
  CHECK(expected.back().hits > 0);
}

TEST_CASE("the hash counters read from the start count the events up to the cursor and read no chunk past it",
          "[view][trace]") {
  const std::string path = test::scratchFile("view-counters.trc");
  {
    auto engine = std::make_unique<Engine>();
    recordThink(*engine, 20000, path, "", "");
  }
  const TraceReader intact(path);
  const auto& chunks = intact.chunks();
  REQUIRE(chunks.size() >= 3);
  // The cursors: each chunk's first event and its neighbours, the ends, one past the end.
  std::set<uint64_t> cursors{0, 1, intact.eventCount() - 1, intact.eventCount(), intact.eventCount() + 5};
  for (const ChunkInfo& chunk : chunks)
    for (const uint64_t cursor : {chunk.firstEvent - 1, chunk.firstEvent, chunk.firstEvent + 1})
      if (chunk.firstEvent > 0) cursors.insert(cursor);
  // Counted along the trace: the counters at each of those cursors.
  std::map<uint64_t, HashCounters> expected;
  HashCounters running;
  intact.forEach([&](const Event& event, uint64_t index) {
    if (cursors.count(index)) expected[index] = running;
    running.count(event);
  });
  for (const uint64_t cursor : cursors)
    if (cursor >= intact.eventCount()) expected[cursor] = running;
  for (const uint64_t cursor : cursors) {
    INFO("cursor " << cursor);
    REQUIRE(hashCountersAt(intact, cursor) == expected[cursor]);
  }
  CHECK(running.probes > expected[chunks[1].firstEvent].probes);  // the chunks hold probes
  // A damaged last chunk: the counters before it are still read, from the chunks before it alone.
  std::vector<uint8_t> bytes = test::fileBytes(path);
  bytes[static_cast<std::size_t>(chunks.back().payloadOffset) + 10] ^= 0x20;
  const std::string damaged = test::scratchFile("view-counters-damaged.trc");
  test::writeBytes(damaged, bytes);
  const TraceReader reader(damaged, ChunkChecks::kOnFirstDecode);
  const uint64_t lastChunk = chunks.back().firstEvent;
  CHECK(hashCountersAt(reader, lastChunk) == expected[lastChunk]);
  CHECK_THROWS_AS(hashCountersAt(reader, lastChunk + 1), TraceError);
}

TEST_CASE("the timeline draws each cutoff and hash hit in the column of its event, as the cursor",
          "[view][trace]") {
  // A short trace: fewer events than the index's buckets (the bars once spread the buckets in use
  // over the trace's first few pixels, while the markers and the cursor sat at their events).
  for (const int columns : {1270, 400, 97}) {
    const TraceReader reader(record({"short", "", "e2e4", 150}));
    const uint64_t count = reader.eventCount();
    REQUIRE(count < static_cast<uint64_t>(TimelineIndex::kBuckets));  // one event per bucket
    TimelineIndex index(count);
    std::vector<uint32_t> cutoffs(static_cast<std::size_t>(columns)), hits(static_cast<std::size_t>(columns));
    reader.forEach([&](const Event& event, uint64_t i) {
      index.add(event, i);
      const auto column = static_cast<std::size_t>(timelineColumn(i, count, columns));
      if (event.kind == EventKind::kCutoff) ++cutoffs[column];
      if (event.kind == EventKind::kProbe && event.probe.outcome == ProbeOutcome::kHit) ++hits[column];
    });
    INFO("events " << count << ", columns " << columns);
    const auto bars = timelineColumns(index, count, columns);
    REQUIRE(bars.size() == static_cast<std::size_t>(columns));
    uint64_t drawn = 0;
    for (std::size_t c = 0; c < bars.size(); ++c) {
      INFO("column " << c);
      // A bar where an event of its kind lies, none elsewhere.
      REQUIRE((bars[c].cutoffs > 0) == (cutoffs[c] > 0));
      REQUIRE((bars[c].hashHits > 0) == (hits[c] > 0));
      drawn += bars[c].cutoffs > 0;
    }
    REQUIRE(drawn > 1);
    // The last event lies in the last column, the first in the first.
    REQUIRE(timelineColumn(count - 1, count, columns) == columns - 1);
    REQUIRE(timelineColumn(0, count, columns) == 0);
  }
}

TEST_CASE("at a king capture and its cutoff a red arrow shows the move that takes the king",
          "[view][trace]") {
  // Black is mated: every black move leaves the king where white takes it.
  const TraceReader reader(record({"kingcapture", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "", 100}));
  Replay replay(reader);
  int captures = 0, cutoffs = 0;
  std::optional<Event> lastCapture;
  for (uint64_t cursor = 1; cursor <= reader.eventCount(); ++cursor) {
    replay.seek(cursor);
    const Event event = *replay.lastEvent();
    const ViewState view = viewState(replay, hashCountersAt(reader, cursor));
    std::vector<ArrowView> shown;
    for (const ArrowView& arrow : view.arrows)
      if (arrow.what == "king capture") shown.push_back(arrow);
    const bool cutByCapture = event.kind == EventKind::kCutoff && lastCapture;
    if (event.kind == EventKind::kKingCapture || cutByCapture) {
      const Event& capture = event.kind == EventKind::kKingCapture ? event : *lastCapture;
      CAPTURE(cursor);
      REQUIRE(shown.size() == 1);
      CHECK(shown[0].from == capture.move.from);
      CHECK(shown[0].to == capture.move.to);
      // The move is not on the board: its piece still stands on its from-square, the king on its to.
      const auto& board = replay.state().board();
      CHECK(board[static_cast<std::size_t>(capture.move.from)] != 0);
      if (!capture.badCastling) CHECK(typeOf(board[static_cast<std::size_t>(capture.move.to)]) == kKing);
      if (cutByCapture) {
        ++cutoffs;
        CHECK(view.caption.find("red arrow: " + moveName(capture.move.from, capture.move.to)) !=
              std::string::npos);
      } else {
        ++captures;
      }
    } else {
      CHECK(shown.empty());
    }
    lastCapture = event.kind == EventKind::kKingCapture ? std::optional<Event>(event) : std::nullopt;
  }
  CHECK(captures >= 2);
  CHECK(cutoffs >= 2);
}

TEST_CASE("at a king capture the variables hold the capturing move, scanned but not made", "[view][trace]") {
  // The original's x, y, u, t and i are the capture's (lines 60-69), not the last move made (the
  // seventh reader found the panel showing an older move's, or "-" before any move was made).
  int captures = 0, refusedCastlings = 0, cutoffs = 0;
  for (const Think& think : {Think{"mated", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "", 100},
                             Think{"castling", "r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1", "", 300}}) {
    const TraceReader reader(record(think));
    Replay replay(reader);
    std::optional<Event> lastCapture;
    while (replay.stepForward()) {
      const Event event = *replay.lastEvent();
      const bool cutByCapture = event.kind == EventKind::kCutoff && lastCapture;
      if (event.kind == EventKind::kKingCapture || cutByCapture) {
        const Event& capture = event.kind == EventKind::kKingCapture ? event : *lastCapture;
        const ViewState view = viewState(replay, HashCounters{});
        std::map<std::string, std::string> value;
        for (const VariableView& variable : view.variables) value[variable.name] = variable.value;
        CAPTURE(think.name, replay.cursor(), view.narration);
        const auto& board = replay.state().board();
        const int piece = board[static_cast<std::size_t>(capture.move.from)];
        const int victim = board[static_cast<std::size_t>(capture.move.to)];  // no pawn takes on E here
        CHECK(value.at("x") == squareName(capture.move.from));
        CHECK(value.at("y") == squareName(capture.move.to));
        CHECK(value.at("u") == std::to_string(piece));
        CHECK(value.at("t") == std::to_string(victim));
        CHECK(value.at("i") ==
              std::to_string(99 * kPieceValue[static_cast<std::size_t>(victim & kTypeMask)]));
        CHECK(value.at("m") == "+I");
        // A king's value is -1: the only capture with a negative gain; a refused castling takes no king.
        CHECK((typeOf(victim) == kKing) == !capture.badCastling);
        CHECK((std::stoi(value.at("i")) < 0) == !capture.badCastling);
        ++(cutByCapture ? cutoffs : capture.badCastling ? refusedCastlings : captures);
      }
      lastCapture = event.kind == EventKind::kKingCapture ? std::optional<Event>(event) : std::nullopt;
    }
  }
  CHECK(captures >= 2);
  CHECK(refusedCastlings >= 1);
  CHECK(cutoffs >= 3);
}

TEST_CASE("a search with no legal move ends saying mated or stalemated, not a8a8", "[view][trace]") {
  struct Case {
    Think think;
    const char* says;
  };
  for (const Case& c :
       {Case{{"mated", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "", 100}, "no legal move: mated"},
        Case{{"stalemated", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "", 100}, "no legal move: stalemated"}}) {
    INFO(c.think.name);
    const TraceReader reader(record(c.think));
    Replay replay(reader);
    replay.seek(reader.eventCount());
    const ViewState view = viewState(replay, hashCountersAt(reader, reader.eventCount()));
    REQUIRE(view.kind == "return");
    // The root's X == Y (a8a8, a zero-length arrow) is no move.
    REQUIRE(view.caption.rfind(c.says, 0) == 0);
    REQUIRE(view.narration.find(c.says) != std::string::npos);
    REQUIRE(view.narration.find("a8a8") == std::string::npos);
    for (const ArrowView& arrow : view.arrows) REQUIRE(arrow.from != arrow.to);
  }
}

// Steps through a trace and hands each event of `kind`, with the view model at it, to `check`.
template <class Check>
void forEachViewOf(const TraceReader& reader, EventKind kind, Check check) {
  Replay replay(reader);
  HashCounters counters;
  while (replay.stepForward()) {
    const Event event = *replay.lastEvent();
    counters.count(event);
    if (event.kind != kind) continue;
    const ViewState view = viewState(replay, counters);
    CAPTURE(replay.cursor(), view.narration);
    check(event, view);
  }
}

TEST_CASE("a store into the dummy slot says so: its lock goes back to 0, nothing is kept", "[view][trace]") {
  // A 2^12 table fills up: some probe windows hold other positions in all 9 slots, and their
  // stores go to the dummy slot 0 (the course's replacement example, topic 13).
  auto engine = std::make_unique<Engine>();
  engine->resizeHashTable(kMinHashSlotBits);
  playMoves(*engine, "e2e4 c7c5");
  const std::string path = test::scratchFile("view-dummy.trc");
  recordThink(*engine, 8000, path, "", "e2e4 c7c5");
  int dummyStores = 0, otherStores = 0;
  forEachViewOf(TraceReader(path), EventKind::kStore, [&](const Event& event, const ViewState& view) {
    const bool dummy = event.written && event.slot == kDummySlot;
    REQUIRE((view.narration.find("dummy slot 0") != std::string::npos) == dummy);
    REQUIRE((view.narration.find("nothing is kept") != std::string::npos) == dummy);
    REQUIRE((view.narration.find("into empty slot") != std::string::npos) ==
            (event.written && !dummy && event.before.lock == 0));
    ++(dummy ? dummyStores : otherStores);
  });
  CHECK(dummyStores >= 1);
  CHECK(otherStores >= 100);
}

TEST_CASE("a root iteration that ends with X == Y names no best move, not a8a8", "[view][trace]") {
  int withoutMove = 0, withMove = 0;
  for (const Think& think : kThinks)
    forEachViewOf(
        TraceReader(record(think)), EventKind::kStore, [&](const Event& event, const ViewState& view) {
          if (view.ply != 0 || !event.written) return;
          // The root's store ends an iteration and writes its best move: X and Y as the entry holds them.
          const int from = bestMoveSquare(event.after.from), to = bestMoveSquare(event.after.to);
          REQUIRE(view.narration.find("root iteration ") != std::string::npos);
          REQUIRE((view.narration.find("ends with no best move (X = Y)") != std::string::npos) ==
                  (from == to));
          REQUIRE((view.narration.find("ends: best " + bestMoveName(event.after.from, event.after.to) +
                                       " ") != std::string::npos) == (from != to));
          REQUIRE(view.narration.find("a8a8") == std::string::npos);
          ++(from == to ? withoutMove : withMove);
        });
  CHECK(withoutMove >= 3);  // draft 1 of each think: the root searches no move
  CHECK(withMove >= 3);
}

TEST_CASE("a stored score that ends the node shows no Y: the original returns before reading it",
          "[view][trace]") {
  int endingHits = 0, otherHitsWithY = 0;
  forEachViewOf(
      TraceReader(record(kThinks[1])), EventKind::kProbe, [&](const Event& event, const ViewState& view) {
        if (event.probe.outcome != ProbeOutcome::kHit) return;
        const auto y = std::find_if(view.variables.begin(), view.variables.end(),
                                    [](const VariableView& variable) { return variable.name == "Y"; });
        REQUIRE(y != view.variables.end());
        if (event.probe.endsNode) {
          ++endingHits;
          REQUIRE(y->value == "-");
        } else if (y->value != "-") {
          ++otherHitsWithY;  // a hit that only starts the iterations hands Y on as the move to try first
        }
      });
  CHECK(endingHits >= 10);
  CHECK(otherHitsWithY >= 1);
}

TEST_CASE("a kind without a sentence of its own is narrated from its row's fields", "[view][trace]") {
  // A kind added after the twelve of format 6 needs no narration: Narration::generic tells its
  // name, where, and each field its row names with its value. Shown here on king-capture's row
  // (int from, int to, bool badCastling) with values as a generic record would hold them.
  const TraceReader reader(record(kThinks[0]));
  Replay replay(reader);
  replay.seek(cursorAfterEvent(1));  // the root's call and probe: a call is open at ply 0
  Event event;
  event.kind = EventKind::kKingCapture;
  event.values = {18, 35, 1, 0};
  const Narration narration{replay, event, replay.state()};
  CHECK(narration.generic() == "king-capture at ply 0: from = 18, to = 35, badCastling = true");
  event.kind = EventKind::kMateProbe;  // a row without fields: its name and place alone
  CHECK(Narration{replay, event, replay.state()}.generic() == "mate-probe at ply 0");
  // The kinds of format 6 keep their own sentences.
  event.kind = EventKind::kKingCapture;
  CHECK(narrate(replay, event, replay.state()) != narration.generic());
}
