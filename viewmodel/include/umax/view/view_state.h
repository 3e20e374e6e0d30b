/// \file view_state.h
/// \brief What the visualizer shows at one event of a trace, and why: the view model.
///
/// viewState() gives, for the replay's cursor, every value the visualizer's panels draw (the
/// board as a FEN, the variables of the current call, its window, the stack of open calls, the
/// hash table's counters up to the cursor, the arrows on the board with the reason for each, the
/// board's caption) and a one-line narration of what the event did and why ("stand pat: eval 35
/// >= beta 20, the node returns without trying a move"). The panels draw from it; `umax-trace
/// state FILE --event N` prints it as JSON (toJson); the suite checks it against an independent
/// walk of the events at every event of several traces.
///
/// Events are numbered from 0, everywhere: event N is the (N+1)-th event of the trace, the
/// `"i":N` of `umax-trace jsonl`, the event whose record sits at index N. "At event N" means
/// just after event N was applied, which is the replay's cursor N + 1. The cursor 0 (before
/// the first event) has no event number.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "umax/trace/format.h"
#include "umax/trace/replay.h"
#include "umax/view/hash_history.h"
#include "umax/view/narration.h"  // nodeType, the narration's words the panels share

namespace umax::trace {

/// The event shown at a replay cursor (events applied): cursor - 1, or nothing at cursor 0.
constexpr std::optional<uint64_t> eventAtCursor(uint64_t cursor) {
  if (cursor == 0) return std::nullopt;
  return cursor - 1;
}
/// The replay cursor at which event `event` has just been applied.
constexpr uint64_t cursorAfterEvent(uint64_t event) { return event + 1; }

/// The counters after the first `applied` events, by reading them from the start (the chunks
/// that hold them, no further).
HashCounters hashCountersAt(const TraceReader& reader, uint64_t applied);
/// The same from the timeline index's counters at the start of the bucket that holds the cursor:
/// reads at most TimelineIndex::eventsPerBucket() events.
HashCounters hashCountersAt(const Replay& replay, uint64_t applied, const TimelineIndex& index);

/// A score as the panels write it: "+I" / "-I" for the infinite scores (+-80000), else the number.
std::string scoreName(int score);

/// One variable of the current call, as the Variables panel shows it.
struct VariableView {
  std::string name;      ///< the original's one-letter name (k q l ...)
  std::string readable;  ///< the readable build's name
  std::string value;     ///< as displayed ("-" when the variable holds nothing yet)
};

/// One open call, as the stack table shows it.
struct FrameView {
  int ply = 0;         ///< 0 at the root
  std::string trying;  ///< the move on the board ("-" if none; "(mate probe)" during it)
  int alpha = 0;       ///< q
  int beta = 0;        ///< l
  int depth = 0;       ///< n
  int draft = 0;       ///< d
  std::string best;    ///< m ("-I" before any move)
  uint64_t node = 0;   ///< its counted-node number, 0 if not counted
};

/// An arrow on the board and why it is there.
struct ArrowView {
  std::string what;  ///< "searched", "scored", "best", "rook", "chosen"
  int from = 0;      ///< where it starts: a 0x88 square on the board
  int to = 0;        ///< where it ends: a 0x88 square on the board
  std::string why;   ///< one sentence
};

/// Everything the panels show at one cursor.
struct ViewState {
  uint64_t cursor = 0;                  ///< events applied
  uint64_t eventCount = 0;              ///< events in the trace
  std::optional<uint64_t> event;        ///< the event just applied (0-based), none at cursor 0
  std::string kind;                     ///< its kind ("call", "probe", ...; "start" at cursor 0)
  int ply = 0;                          ///< the ply of the call the event belongs to (as jsonl's)
  std::string fen;                      ///< the board at the event
  std::string sideToMove;               ///< "white" / "black" on that board
  bool inCall = false;                  ///< a call is open (else the fields below are the root's)
  int alpha = 0;                        ///< q of the current call (the root's before / after; at a
                                        ///< return, of the call that returned, as `ply`)
  int beta = 0;                         ///< l
  int searchAlpha = 0;                  ///< the alpha the next move's reply is searched with: max(q, m)
  uint64_t nodes = 0;                   ///< counted nodes so far
  uint64_t calls = 0;                   ///< calls so far
  std::string nodeType;                 ///< the current call's type once known (its return), else ""
  int site = 0;                         ///< the search site (line-map id) whose lines the Source shows
  bool innerReturn = false;             ///< a return below the root: only `return m;` runs, not z&8's
  std::vector<VariableView> variables;  ///< the current call's, none outside a call
  std::vector<FrameView> stack;         ///< root first
  HashCounters hash;                    ///< up to the cursor
  bool hashCounted = true;              ///< false: `hash` is not known (a caller that could not count)
  std::vector<ArrowView> arrows;        ///< what the board draws, each with its reason
  std::string caption;                  ///< the line under the board
  std::string narration;                ///< what the event did and why
  std::string search;  ///< a think of the Lab: "the Lab, without hash" ("" for micro-Max's own)
};

/// The view at `replay`'s cursor; `hash` are the counters up to that cursor (hashCountersAt).
ViewState viewState(const Replay& replay, const HashCounters& hash);

/// The view as one JSON object (keys: event, cursor, kind, ply, fen, alpha, beta, narration, ...).
std::string toJson(const ViewState& view, int indent = -1);

}  // namespace umax::trace
