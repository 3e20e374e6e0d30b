// view_state.cpp - what the visualizer shows at one event: the board, the open calls, their
// variables, the arrows and the caption, and the sentence saying what happened and why (the
// narration of each kind is in event_kinds.cpp, beside its transition; narrate(), narration.cpp,
// picks it).
#include "umax/view/view_state.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <tuple>

#include "umax/hash_table.h"
#include "umax/notation.h"
#include "umax/position.h"
#include "umax/types.h"
#include "umax/view/narration.h"

namespace umax::trace {
namespace {

int asChar(int value) { return static_cast<int8_t>(value); }

/// The square a best-move byte names, or -1 when it names none on the board. X and Y are
/// signed chars in the search; a hash entry's X carries bound bits (a frame's copy may hold
/// them sign-extended), so only the low 7 bits' square counts.
int bestSquare(int byte) {
  const int square = bestMoveSquare(asChar(byte));
  return isOnBoard(square) ? square : -1;
}

std::string bestToText(int bestTo) {
  std::string text = squareName(bestMoveSquare(asChar(bestTo)));
  if (bestTo & kNotCastlingBit) text += "+nc";
  if (bestTo & kSneakBit) text += "+sn";
  return text;
}

}  // namespace

// The chunks up to the one of the last event applied, no further.
HashCounters hashCountersAt(const TraceReader& reader, uint64_t applied) {
  HashCounters counters;
  std::vector<Event> events;
  reader.forEachEvent(
      [&](const Event& event, uint64_t index, std::size_t) {
        if (index < applied) counters.count(event);
      },
      events, 0, applied == 0 ? 0 : reader.chunkOf(applied - 1) + 1);
  return counters;
}

HashCounters hashCountersAt(const Replay& replay, uint64_t applied, const TimelineIndex& index) {
  applied = std::min(applied, replay.eventCount());
  if (applied == 0) return {};
  // The bucket of the last event applied: a cursor at the end of a trace whose length is a
  // multiple of the bucket size lies past the last bucket the events reached.
  const uint64_t bucket = std::min<uint64_t>((applied - 1) / index.eventsPerBucket(),
                                             static_cast<uint64_t>(TimelineIndex::kBuckets - 1));
  HashCounters counters = index.countersBeforeBucket(static_cast<std::size_t>(bucket));
  for (uint64_t event = bucket * index.eventsPerBucket(); event < applied; ++event)
    counters.count(replay.eventAt(event));
  return counters;
}

std::string scoreName(int value) { return score(value); }

namespace {

/// Fills a ViewState part by part from the state after the event just applied.
struct ViewBuilder {
  ViewBuilder(const Replay& replay, const Event* event, ViewState& view)
      : replay(replay), event(event), view(view) {}
  const Replay& replay;
  const Event* event;  // the event just applied; null at cursor 0
  ViewState& view;
  const SearchState& state = replay.state();
  const TraceHeader& header = replay.reader().header();
  const std::vector<Frame>& stack = state.stack();
  const Frame* top = stack.empty() ? nullptr : &stack.back();
  std::string caption;  // the caption's parts so far, joined by "; "

  bool is(EventKind kind) const { return event && event->kind == kind; }
  /// The event before the one just applied (the cursor must be at least 2).
  Event before() const { return replay.eventAt(view.cursor - 2); }

  /// m is set when an iteration starts (Step 4): not yet for a call answered by the hash table,
  /// nor just after N++ (the frame's best is then a placeholder, not the call's m).
  bool hasBest(const Frame& frame) const {
    return frame.nodeNumber != 0 && !(&frame == top && is(EventKind::kNodeCounted));
  }

  /// The board: the side to move is the current call's, or its opponent while its move is on it.
  void board() {
    int toMove = header.root.side;
    int epSquare = kNoSquare;
    if (top) {
      toMove = top->moveOnBoard ? opponentOf(top->call.side) : top->call.side;
      // E is an e.p. square only when a pawn made the last move (to z); after a castling it is not.
      const int lastTo = top->call.lastTo, ep = top->call.epSquare;
      const int lastMoved = isOnBoard(lastTo) ? state.board()[static_cast<std::size_t>(lastTo)] : 0;
      if (top->moveOnBoard) {
        if (isDoubleStep(top->move)) epSquare = top->move.passedSquare;
      } else if (isOnBoard(ep) && ep >= 0 && lastMoved != 0 && typeOf(lastMoved) <= kDownwardPawn) {
        epSquare = ep;
      }
    } else if (!state.finished()) {
      epSquare = header.position.epSquare;
    }
    view.fen = toFen(state.board(), toMove, epSquare);
    view.sideToMove = side(toMove);
  }

  /// The current call's window, the node type once it returned, and the Source panel's site.
  void window() {
    const NodeCall& call = top ? top->call : header.root;
    view.inCall = top != nullptr;
    view.alpha = call.alpha;
    view.beta = call.beta;
    view.searchAlpha = top && hasBest(*top) && top->best > call.alpha ? top->best : call.alpha;
    // The Lab without alpha-beta searches every reply with the full window.
    if (header.variant.lacks(Idea::kAlphaBeta)) view.searchAlpha = -kInfinity;
    if (!event) return;
    // At a return the event's ply is the call that returned: its window, not its parent's.
    if (is(EventKind::kReturn)) {
      if (top) std::tie(view.alpha, view.beta) = childWindow(*top, header.variant);
      view.nodeType = nodeType(view.alpha, view.beta, event->best);
    }
    // A return straight after a probe that settled the node is the probe's `return v` (Step 2),
    // not the loop's end.
    view.site = static_cast<int>(siteOf(event->kind, is(EventKind::kProbe) && event->probe.endsNode));
    if (is(EventKind::kReturn) && view.cursor >= 2) {
      const Event previous = before();
      if (previous.kind == EventKind::kProbe && previous.probe.endsNode)
        view.site = static_cast<int>(SearchSite::kHashCutoff);
    }
    view.innerReturn = is(EventKind::kReturn) && top;
  }

  /// The king capture at the cursor: the event itself, or the one before the cutoff it causes.
  std::optional<Event> kingCaptureHere() const {
    if (is(EventKind::kKingCapture)) return *event;
    if (is(EventKind::kCutoff) && view.cursor >= 2)
      if (const Event previous = before(); previous.kind == EventKind::kKingCapture) return previous;
    return std::nullopt;
  }

  /// The move the original's x, y, u, t and H hold: the last one made in `f`, or at a king capture
  /// of the current call, the capturing move, which is scanned (lines 60-69) but never made, so the
  /// frame's last made move is an older one. G and F are reset at each ray (line 64); h keeps the
  /// last made move's (line 73 has not run).
  struct ScannedMove {
    MoveRecord move;
    bool set = false;   // a move was made in the call, or is scanned at the cursor
    bool made = false;  // made (line 75), so a promotion's bonus is in i (line 80)
  };
  ScannedMove variablesMove(const Frame& f) const {
    const std::optional<Event> capture = &f == top ? kingCaptureHere() : std::nullopt;
    if (!capture || !isOnBoard(capture->move.from) || !isOnBoard(capture->move.to))
      return {f.move, f.movesMade > 0, true};
    const auto at = [&](int square) { return int{state.board()[static_cast<std::size_t>(square)]}; };
    MoveRecord move;
    move.from = capture->move.from;
    move.to = capture->move.to;
    move.piece = at(move.from);
    // A pawn onto E takes the pawn behind it (line 67): with a castling's E that is b[y^16].
    move.captureSquare = typeOf(move.piece) <= kDownwardPawn && move.to == f.call.epSquare
                             ? enPassantVictimSquare(move.to)
                             : move.to;
    move.victim = at(move.captureSquare);
    return {move, true, false};
  }

  /// The variables of the current call `f` (not null).
  std::vector<VariableView> variables(const Frame& f) const {
    const ScannedMove scanned = variablesMove(f);
    const MoveRecord& mv = scanned.move;
    const bool moved = scanned.set;
    const bool scored = f.movesMade > (f.moveOnBoard ? 1 : 0);
    // "-" for a square not set (or off the board: H, G, F of a plain move), as for every other value.
    auto sq = [moved](int s) { return moved && isOnBoard(s) && s >= 0 ? squareName(s) : std::string("-"); };
    auto num = [moved](int n) { return moved ? std::to_string(n) : std::string("-"); };
    // v: the last move's score; before one was scored, a hit's stored score (micro-Max: v=a->V).
    std::string v = "-";
    if (scored)
      v = score(f.lastScore);
    else if (f.probed && f.probe.outcome == ProbeOutcome::kHit)
      v = score(f.probeEntry.score);
    // i: the move's material gain (Step 8), with the promotion bonus makeMove adds (Step 11).
    const int gain = materialGain(mv.victim, scanned.made && promotesBySquares(mv.piece, mv.from, mv.to));
    // At the move itself v holds its positional gain (line 74): the reply's eval is -e-v-i (Step 12),
    // read from the reply's call, the next event.
    const bool movedNow = is(EventKind::kMoveMade) && f.moveOnBoard;
    if (movedNow) {
      v = "-";
      if (view.cursor < replay.eventCount()) {
        const Event reply = replay.eventAt(view.cursor);
        if (reply.kind == EventKind::kCall)
          v = std::to_string(
              wrappingDifference(wrappingNegation(reply.call.eval), wrappingSum(f.call.eval, gain)));
      }
    }
    const int x = bestSquare(f.bestFrom);
    // X == Y (both a8 = 0 in a new call): no best move yet, not the move a8a8.
    const bool noBest = x < 0 || bestMoveSquare(f.bestFrom) == bestMoveSquare(f.bestTo);
    const int ep = f.call.epSquare, lastTo = f.call.lastTo;
    return {
        {"k", "side", side(f.call.side)},
        {"q", "alpha", score(f.call.alpha)},
        {"l", "beta", score(f.call.beta)},
        {"e", "eval", std::to_string(f.call.eval)},
        {"n", "depth", std::to_string(f.call.depth)},
        {"d", "draft", std::to_string(f.draft)},
        {"m", "best", hasBest(f) ? score(f.best) : "-"},
        {"v", movedNow ? "positional" : "score", v},
        {"i", "gain", num(gain)},
        {"X", "bestFrom", noBest ? "-" : squareName(x)},
        // A stored score that ends the node returns before the original reads Y (lines 47-49).
        {"Y", "bestTo", noBest || (f.probed && f.probe.endsNode) ? "-" : bestToText(f.bestTo)},
        {"x", "from", sq(mv.from)},
        {"y", "to", sq(mv.to)},
        {"u", "piece", num(mv.piece)},
        {"t", "victim", num(mv.victim)},
        {"h", "remaining", f.movesMade > 0 ? std::to_string(f.move.remaining) : "-"},
        {"H", "captureSquare", sq(mv.captureSquare)},
        {"G", "rookFrom", sq(mv.rookFrom)},
        {"F", "move.passedSquare", sq(mv.passedSquare)},
        {"E", "epSquare", isOnBoard(ep) && ep > 0 ? squareName(ep) : "-"},
        // z off the board is a marker (the root's 8 or 9), not a square: its number.
        {"z", "lastTo", isOnBoard(lastTo) && lastTo >= 0 ? squareName(lastTo) : std::to_string(lastTo)},
    };
  }

  FrameView row(const Frame& frame) const {
    return {frame.ply,
            (frame.moveOnBoard ? moveName(frame.move.from, frame.move.to) : "-") +
                (frame.mateProbe ? " (mate probe)" : ""),
            frame.call.alpha,
            frame.call.beta,
            frame.call.depth,
            frame.draft,
            hasBest(frame) ? score(frame.best) : "-",
            frame.nodeNumber};
  }

  void add(const std::string& part) { caption += (caption.empty() ? "" : "; ") + part; }

  /// A king capture is never made on the board (the node scores +I at once): at it and at the
  /// cutoff it causes, a red arrow shows the move that would take the king.
  void kingCaptureArrow() {
    const std::optional<Event> capture = kingCaptureHere();
    if (!capture || !isOnBoard(capture->move.from) || !isOnBoard(capture->move.to)) return;
    const std::string name = moveName(capture->move.from, capture->move.to);
    const std::string what =
        capture->badCastling ? " reaches the square the castling king passed" : " takes the king";
    view.arrows.push_back(
        {"king capture", capture->move.from, capture->move.to,
         std::string(side(top->call.side)) + "'s " + name + what + ": never played, the node scores +I"});
    if (is(EventKind::kCutoff)) add("red arrow: " + name + what);
  }

  /// The arrows on the board, each with its reason, and the caption under it.
  void arrowsAndCaption() {
    const auto moving =
        std::find_if(stack.rbegin(), stack.rend(), [](const Frame& f) { return f.moveOnBoard; });
    const Frame* mover = moving == stack.rend() ? nullptr : &*moving;  // the deepest call with its move on
    // The caption says the event first where the board alone does not show it (a cutoff, a probe,
    // an iteration, a store, a return, the mate probe); a move or a call shows on the board.
    if (event && !is(EventKind::kMoveMade) && !is(EventKind::kCall) && !is(EventKind::kNodeCounted) &&
        !is(EventKind::kMoveScored) && !is(EventKind::kBestMove))
      add(narrate(replay, *event, state));
    if (mover) {
      const MoveRecord& move = mover->move;
      view.arrows.push_back({"searched", move.from, move.to,
                             std::string(side(mover->call.side)) + "'s move being searched at ply " +
                                 std::to_string(mover->ply) + " (it is on the board)"});
      if ((move.flags & kMoveCastling) && isOnBoard(move.rookFrom) && isOnBoard(move.passedSquare))
        view.arrows.push_back(
            {"rook", move.rookFrom, move.passedSquare, "the castling rook's part of that move"});
      if (!is(EventKind::kCutoff))
        add(std::string(side(mover->call.side)) + " tries " + describeMove(move) + " at ply " +
            std::to_string(mover->ply));
    }
    if (top && view.cursor >= 1) kingCaptureArrow();
    // E at a call, when it names a square: 0 (O's start value) and -128 (the root's) name none.
    if (top && is(EventKind::kCall) && isOnBoard(top->call.epSquare) && top->call.epSquare > 0)
      add("E = " + squareName(top->call.epSquare) + " (the square the last move passed: e.p. or castling)");
    // The move just scored: taken back, its score compared with the best so far.
    if (top && !top->moveOnBoard && top->movesMade > 0 &&
        (is(EventKind::kMoveScored) || is(EventKind::kBestMove)) && isOnBoard(top->move.from) &&
        isOnBoard(top->move.to)) {
      view.arrows.push_back({"scored", top->move.from, top->move.to,
                             "the move just scored and taken back: v = " + score(top->lastScore)});
      add(moveName(top->move.from, top->move.to) + " scored v = " + score(top->lastScore) +
          ", best m = " + score(top->best));
    }
    if (top && top != mover && (!hasBest(*top) || top->best > -kInfinity)) {
      const int from = bestSquare(top->bestFrom), to = bestSquare(top->bestTo);
      // Before its first iteration a call's X, Y are the hash entry's move and m is not set yet.
      if (from >= 0 && to >= 0 && from != to)
        view.arrows.push_back({"best", from, to,
                               hasBest(*top) ? "the call's best move so far (X, Y): m = " + score(top->best) +
                                                   (top->movesMade == 0 ? ", from the hash entry" : "")
                                             : "the move stored in the hash entry (X, Y); m is not set yet"});
    }
    const TraceReader& reader = replay.reader();
    if (state.finished() && reader.hasResult() && isOnBoard(reader.result().from) &&
        isOnBoard(reader.result().to)) {
      const TraceResult& result = reader.result();
      const std::string figures =
          " (score " + score(result.score) + ", " + std::to_string(result.nodes) + " nodes)";
      if (result.from == result.to) {
        // X == Y (a8a8): no move was kept, the side to move has none that keeps its king.
        caption = std::string("no legal move: ") + (result.score < 0 ? "mated" : "stalemated") + figures;
      } else {
        view.arrows.push_back({"chosen", result.from, result.to, "the move the search chose"});
        caption = "the search chose " + moveName(result.from, result.to) + figures;
      }
    }
    view.caption = caption.empty() ? "no move on the board" : caption;
  }
};

}  // namespace

ViewState viewState(const Replay& replay, const HashCounters& hash) {
  ViewState view;
  view.cursor = replay.cursor();
  view.eventCount = replay.eventCount();
  const SearchVariant& variant = replay.reader().header().variant;
  if (!variant.isDefault()) view.search = "the Lab, " + variant.description();
  view.event = eventAtCursor(view.cursor);
  view.hash = hash;
  view.nodes = replay.state().nodes();
  view.calls = replay.state().calls();
  // A copy: the pointer lastEvent() gives points into the replay's decoded chunk, which
  // eventAt() replaces when it reads another chunk (the narration reads the event before).
  std::optional<Event> lastEvent;
  if (const Event* applied = replay.lastEvent()) lastEvent = *applied;
  ViewBuilder parts(replay, lastEvent ? &*lastEvent : nullptr, view);
  const Frame* top = parts.top;
  view.kind = lastEvent ? std::string(kindName(lastEvent->kind)) : "start";
  // The ply of the call the event belongs to: a return's is the call that returned.
  view.ply = parts.is(EventKind::kReturn) ? static_cast<int>(parts.stack.size()) : top ? top->ply : 0;
  parts.board();
  parts.window();
  if (top) view.variables = parts.variables(*top);
  for (const Frame& frame : parts.stack) view.stack.push_back(parts.row(frame));
  parts.arrowsAndCaption();
  view.narration = lastEvent ? narrate(replay, *lastEvent, parts.state)
                             : "before the first event: the root call comes next, " +
                                   std::string(side(parts.header.root.side)) + " to move";
  return view;
}

// The JSON of a stack row, of the hash counters and of the view's plain fields: each under its
// own name (nlohmann::json sorts the keys).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(FrameView, ply, trying, alpha, beta, depth, draft, best, node)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(HashCounters, probes, hits, misses, fullWindows, hashCutoffs,
                                   storesWritten, storesRefused, storesNew, storesUpdated, storesReplaced)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ViewState, cursor, eventCount, kind, ply, fen, sideToMove, inCall, alpha,
                                   beta, searchAlpha, nodes, calls, nodeType, site, innerReturn, narration,
                                   caption, stack, hash)

std::string toJson(const ViewState& view, int indent) {
  using nlohmann::json;
  json out = view;
  out["event"] = view.event ? json(*view.event) : json(nullptr);
  if (!view.search.empty()) out["search"] = view.search;  // a think of the Lab names its variant
  out["variables"] = json::object();
  out["variableNames"] = json::object();
  for (const VariableView& variable : view.variables) {
    out["variables"][variable.name] = variable.value;
    out["variableNames"][variable.name] = variable.readable;
  }
  out["arrows"] = json::array();
  for (const ArrowView& arrow : view.arrows)
    out["arrows"].push_back({{"what", arrow.what},
                             {"from", squareName(arrow.from)},
                             {"to", squareName(arrow.to)},
                             {"why", arrow.why}});
  return out.dump(indent);
}

}  // namespace umax::trace
