/// \file search_observer.h
/// \brief The hook interface through which a search can be watched, event by event.
///
/// The readable engine knows nothing of trace files. It offers one thing: a
/// think that reports every step of the search to a SearchObserver. Which
/// search runs is decided at compile time (`Engine::search<Observer>`): in
/// the untraced instantiation (NoObserver) every hook is removed by `if constexpr`, so
/// an ordinary think does exactly the machine work it did before the hooks
/// existed. The tracer (tracer/) implements this interface and writes the
/// events to a file.
///
/// Each hook names the place in the search that calls it; SearchSite gives
/// those places stable numbers that the line map (readable/line_map.json,
/// "sites") turns into lines of both builds.
#pragma once

#include <cstdint>

namespace umax {

struct HashEntry;
struct Move;

/// The events of a search, described once. Each row is
/// X(enumerator, site, record, name, hook, parameters):
/// - `enumerator` names the event's place in the search (SearchSite) and
///   the event itself (the tracer's EventKind, tracer/.../format.h);
/// - `site` is its SearchSite number, the line map's key
///   (readable/line_map.json, "sites"); `record` the number a trace file
///   stores for it (the tag of its record). Both are part of the trace
///   format: never renumber them, whatever happens to the steps;
/// - `name` is what the tools print for it (`umax-trace jsonl`, the
///   visualizer);
/// - `hook` is the SearchObserver member that reports it (below, with its
///   doc comment: what the event says, at which step), `parameters` that
///   hook's parameter list. The tracer names its own member for the kind
///   after the hook too (what the recorder and a replay do *on* it), so
///   `grep onMateProbe` finds everything that handles a mate probe.
///
/// From the rows come SearchSite, the engine's seam that calls the hooks
/// (search_seam.h), EventKind and its names, and the trace recorder's
/// overrides (a row whose parameters differ from its hook's does not
/// compile). Adding an event kind touches three files: a row here with its
/// hook below, the hook's call at its step of search.cpp, and what the
/// tracer does with it, in one section of tracer/src/event_kinds.cpp (its
/// transition, replay, record and narration); its site's lines go into the
/// line map. What else a kind may need (a new trace format version, the
/// tests' own lists of kinds, the call tree if it causes a call) is on
/// the recording page, docs/pages/27-recording.md.
// clang-format off
#define UMAX_SEARCH_EVENTS(X)                                                                              \
  X(kCall,        1,  1,  "call",         onCall,        (const NodeCall& call))                           \
  X(kProbe,       2,  2,  "probe",        onProbe,       (const ProbeReport& report,                       \
                                                          const HashEntry& entry))                         \
  X(kNodeCounted, 4,  3,  "node",         onNodeCounted, (int nodeCount))                                  \
  X(kIteration,   5,  4,  "iteration",    onIteration,   (int draft))                                      \
  X(kKingCapture, 6,  5,  "king-capture", onKingCapture, (int from, int to, bool badCastling))             \
  X(kCutoff,      7,  6,  "cutoff",       onCutoff,      (int best))                                       \
  X(kMoveMade,    8,  7,  "move",         onMoveMade,    (const Move& move, int remaining, bool sneaked))  \
  X(kMoveScored,  9,  8,  "score",        onMoveScored,  (int score))                                      \
  X(kBestMove,    10, 9,  "best",         onBestMove,    (int best, int from, int to))                     \
  X(kMateProbe,   11, 10, "mate-probe",   onMateProbe,   ())                                               \
  X(kStore,       12, 11, "store",        onStore,       (uint32_t slot, const HashEntry& before,          \
                                                          const HashEntry& after, bool written))           \
  X(kReturn,      13, 12, "return",       onReturn,      (int score, int bestFrom, int bestTo, int draft))
// clang-format on

/// Makes a SearchSite enumerator from a row of UMAX_SEARCH_EVENTS.
#define UMAX_SEARCH_SITE(kind, site, record, name, hook, parameters) kind = site,

/// The places in the search that report events: one per row of
/// UMAX_SEARCH_EVENTS (the doc comment of each row's hook gives its step of
/// search.cpp), and kHashCutoff, where a probe's event comes from when the
/// stored score ends the node.
enum class SearchSite : uint8_t {
  UMAX_SEARCH_EVENTS(UMAX_SEARCH_SITE)  // kCall = 1, kProbe = 2, kNodeCounted = 4, ...
  /// Step 2: a stored score settles the window: the node returns at once.
  kHashCutoff = 3,
};

/// The nine arguments of one call of the search. // micro-Max: D(k,q,l,e,J,Z,E,z,n)
struct NodeCall {
  int side = 0;           ///< k
  int alpha = 0;          ///< q
  int beta = 0;           ///< l
  int eval = 0;           ///< e
  uint32_t hashKey = 0;   ///< J
  uint32_t hashLock = 0;  ///< Z
  int epSquare = 0;       ///< E
  int lastTo = 0;         ///< z
  int depth = 0;          ///< n
  /// The same nine arguments.
  bool operator==(const NodeCall&) const = default;
};

/// How a hash probe ended.
enum class ProbeOutcome : uint8_t {
  kMiss = 0,  ///< an empty slot was found in the window: the position is new
  kHit = 1,   ///< a slot holds this position's lock
  kFull = 2,  ///< all slots of the window hold other positions: the dummy slot 0 is used
};

/// What the hash probe of one call found.
struct ProbeReport {
  uint32_t firstSlot = 0;  ///< (k*E ^ J) & (U-9); the window starts one past it
  uint32_t slot = 0;       ///< the slot the node uses (0 = the dummy)
  int slotsProbed = 0;     ///< 1..9
  /// How the probe ended: hit, miss or full window.
  ProbeOutcome outcome = ProbeOutcome::kMiss;
  bool endsNode = false;  ///< the stored score was returned at once (Step 2)
  /// The same probe in every field.
  bool operator==(const ProbeReport&) const = default;
};

/// Receives the events of a traced think. Every hook is called from one
/// site of search.cpp's search (onCall, onProbe and onNodeCounted through
/// onEnter, at the start of each call); the comment of each names it. The board the
/// engine holds is in the state the hook describes (a move is on the board
/// from onMoveMade until onMoveScored).
class SearchObserver {
 public:
  // Every hook does nothing unless overridden: an observer overrides the events it wants.
  virtual ~SearchObserver() = default;
  /// The start of every call, in one hook: kCall, kProbe, then kReturn if
  /// the probe ended the node (Step 2), else kNodeCounted with the count
  /// Step 3 is about to reach (`nodeCount`). Nothing happens in between that
  /// an observer could see, so one call through the interface does for
  /// three. By default it calls those hooks in that order (engine.cpp);
  /// the trace recorder overrides it.
  virtual void onEnter(const NodeCall& call, const ProbeReport& report, const HashEntry& entry,
                       int nodeCount);
  /// kCall: D() is entered; `call` holds its nine arguments.
  virtual void onCall([[maybe_unused]] const NodeCall& call) {}
  /// kProbe (Step 1; kHashCutoff when the stored score settles the window
  /// and the node returns at once, Step 2): the hash probe's result and the entry it found
  /// (an empty entry on a miss).
  virtual void onProbe([[maybe_unused]] const ProbeReport& report, [[maybe_unused]] const HashEntry& entry) {}
  /// kNodeCounted (Step 3, N++): the call became a counted node, the
  /// counter was incremented to `nodeCount`.
  virtual void onNodeCounted([[maybe_unused]] int nodeCount) {}
  /// kIteration (Step 4): an iteration of the deepening loop to `draft`
  /// starts.
  virtual void onIteration([[maybe_unused]] int draft) {}
  /// kKingCapture (Step 8): the move `from` -> `to` captures the king, or lands on or
  /// next to the square a castling king passed (`badCastling`). Its squares
  /// only: a whole Move here made the traced search copy every move it looks
  /// at, since the copy for onMoveMade was shared with this rare one.
  virtual void onKingCapture([[maybe_unused]] int from, [[maybe_unused]] int to,
                             [[maybe_unused]] bool badCastling) {}
  /// kCutoff (Step 9): best >= beta, fail high: the scan stops.
  virtual void onCutoff([[maybe_unused]] int best) {}
  /// kMoveMade (Step 11): `move` is on the board; its reply is searched to `remaining`.
  /// `sneaked`: the move was sneaked in, the previous iteration's best move
  /// tried before the board scan (best move first, topic 11) because Step 4
  /// set the sneak bit of Y for it. The exports print this flag as
  /// `bestFirst`.
  virtual void onMoveMade([[maybe_unused]] const Move& move, [[maybe_unused]] int remaining,
                          [[maybe_unused]] bool sneaked) {}
  /// kMoveScored (Step 14): the move is taken back; `score`, its reply's
  /// score (Step 12), is its value for the mover. A sneaked-in move's score
  /// then becomes the first best (Step 15).
  virtual void onMoveScored([[maybe_unused]] int score) {}
  /// kBestMove (Step 16): a new best score with its move.
  virtual void onBestMove([[maybe_unused]] int best, [[maybe_unused]] int from, [[maybe_unused]] int to) {}
  /// kMateProbe (Step 17): no legal move kept the king: the mate probe
  /// follows, the search that tells mate from stalemate. It is a null move:
  /// the side to move passes and the opponent searches one ply; if it can
  /// take the king the side is mated, else it is stalemate.
  virtual void onMateProbe() {}
  /// kStore (Step 18): the hash store (or its refusal) at the end of an iteration. `before` is the slot
  /// as it was, `after` as it is now; `written` is false when the store was
  /// refused (an exact score of a deeper search is kept).
  virtual void onStore([[maybe_unused]] uint32_t slot, [[maybe_unused]] const HashEntry& before,
                       [[maybe_unused]] const HashEntry& after, [[maybe_unused]] bool written) {}
  /// kReturn (Step 19): the call returns `score`; the best move and draft it
  /// ends with. A hash cutoff's return (Step 2) comes through onEnter.
  virtual void onReturn([[maybe_unused]] int score, [[maybe_unused]] int bestFrom,
                        [[maybe_unused]] int bestTo, [[maybe_unused]] int draft) {}
};

}  // namespace umax
