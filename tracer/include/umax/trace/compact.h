/// \file compact.h
/// \brief The event records: each leaves out what the search's state already says.
///
/// Most of what an event holds follows from the events before it (a
/// reply's window from its parent's move, a move's pieces from the board, a
/// stored entry from the node's variables); a record keeps the rest. The
/// recorder checks each prediction below against what the search did and
/// writes the value, with a flag, whenever they differ (not a reply's key
/// and lock: the engine's own hashChange computes them from the same move).
/// A RecordDecoder reads a chunk from its checkpoint with the same predictions.
///
/// \section compact_records The records (tag byte: kind | flags << 4)
/// \verbatim
///   kCall         flags 0: zz (e - predicted e); the rest from the parent's move
///                 (or the mate probe, or the header's root call); flags 4: the
///                 same, and the usual entry follows without records of its own:
///                 a probe that missed at its first slot, the node counted
///                 flags 1 (| 2 if black): q l e J Z E z n (callArguments)
///   kProbe        flags: bits 0-1 outcome, bit 2 ends the node, bit 3 the usual
///                 slot count (1, or 9 for a full window); else u8 slots probed;
///                 on a hit: zz V, u8 X, u8 Y, u8 D of the entry found
///   kNodeCounted and the other kinds without fields (UMAX_SEARCH_EVENTS): no fields
///   kIteration    no fields: the draft goes up by one
///   kCutoff       no fields: the node's best
///   kKingCapture  flags bit 0 bad castling; u8 x, u8 y
///   kMoveMade     flags bit 0 sneaked, bits 1-3 MoveShape; u8 x, u8 y;
///                 shape 7: the whole move instead (writeMove)
///   kMoveScored   flags 0: no fields (predictedScore); 1: zz v
///   kBestMove     flags 0: no fields (predictedBestMove); 1: zz m, u8 X, u8 Y
///   kStore        flags bit 0 written, bits 1-2 StoreBefore, bit 3 the new entry
///                 follows; then the previous entry if kBeforeFollows, the new
///                 one if bit 3 (each u32 K, zz V, u8 X, u8 Y, u8 D)
///   kReturn       flags 0: no fields (predictedReturn); 1: zz m, u8 X, u8 Y, u8 d
/// \endverbatim
#pragma once

#include <algorithm>
#include <cstdint>

#include "umax/engine.h"
#include "umax/search_rules.h"
#include "umax/trace/format.h"
#include "umax/trace/records.h"
#include "umax/trace/state.h"

namespace umax::trace {

// ---- tag flags (a tag's high 4 bits) ---------------------------------------

/// kCall, kMoveScored, kBestMove, kReturn: the values follow (the
/// prediction was wrong, or there was none).
inline constexpr int kExplicitValues = 1;
/// An explicit kCall: black to move.
inline constexpr int kExplicitCallBlack = 2;
/// A predicted kCall: a probe that missed at its first slot and the node counted follow, unrecorded.
inline constexpr int kUsualEntry = 4;
/// kProbe: the usual number of slots was probed (1, or 9 for a full window): no count byte.
inline constexpr int kUsualSlotCount = 8;
/// kStore: the new entry follows (it is not the one the node's variables give).
inline constexpr int kStoreAfterFollows = 8;

/// A kMoveMade record's flags: bit 0 sneaked, bits 1-3 its shape.
enum MoveShape : int {
  kPlainMove = 0,       ///< no special square
  kEnPassantMove = 1,   ///< a pawn captures e.p.: the victim stands at to ^ 16
  kCastlingMove = 2,    ///< a king castles: the rook goes from its corner to the passed square
  kDoubleStepMove = 3,  ///< a pawn's double step: F is the skipped square
  kPromotionMove = 4,   ///< a pawn promotes
  kExplicitMove = 7,    ///< none of these: the whole move follows (writeMove)
};

/// A kStore record's previous entry (flag bits 1-2).
enum StoreBefore : int {
  kBeforeEmpty = 0,    ///< the slot was empty (all zero)
  kBeforeKnown = 1,    ///< it held the call's slotEntry
  kBeforeFollows = 2,  ///< it held something else, which follows
};

// ---- predictions ------------------------------------------------------------

/// The call the search makes below `parent`, with its eval before the
/// move's gain: the reply to the move on the board (search.cpp, Step 12) or
/// the mate probe (Step 17). False if `parent` is doing neither. The
/// key and lock are left out unless `withKeys`: they are the engine's own
/// hashChange of the same move, so the recorder need not check them.
/// `variant`: the Lab's switches of the think (its reply window).
template <bool withKeys = true>
[[gnu::always_inline]] inline bool predictChild(const Frame& parent, NodeCall& call,
                                                const SearchVariant& variant) {
  const NodeCall& node = parent.call;
  call.side = opponentOf(node.side);
  if (parent.mateProbe) {  // kMateProbeCall: -D(24-k,-I,I,0,J,Z,S,S,1)
    call = {call.side,     kMateProbeCall.alpha,    kMateProbeCall.beta,   kMateProbeCall.eval, node.hashKey,
            node.hashLock, kMateProbeCall.epSquare, kMateProbeCall.lastTo, kMateProbeCall.depth};
    return true;
  }
  if (!parent.moveOnBoard) return false;
  const MoveRecord& move = parent.move;
  const Window window = replyWindow(variant, node.alpha, node.beta, node.eval, parent.best);
  call.alpha = window.alpha;
  call.beta = window.beta;
  call.eval = wrappingNegation(node.eval);  // the record holds the rest: minus the move's gain
  call.epSquare = move.passedSquare;
  call.lastTo = move.to;
  call.depth = move.remaining;
  if constexpr (!withKeys) return true;
  const std::array<int8_t, kKeyTableSize>& keys = standardKeyTable();
  const int arriving = arrivingPiece(move.piece, (move.flags & kMovePromotion) != 0);
  const auto change = [&](int salt) {
    return hashChange(keys, salt, move.from, move.to, move.captureSquare, move.piece, move.victim, arriving);
  };
  call.hashKey = node.hashKey + change(kKeySalt);
  call.hashLock = node.hashLock + change(kLockSalt) + castlingLockTerm(move.rookFrom);
  return true;
}

/// True if `call` is `predicted` in everything but the eval (and the key
/// and lock unless `withKeys`).
template <bool withKeys = true>
[[gnu::always_inline]] inline bool sameCall(const NodeCall& call, const NodeCall& predicted) {
  return call.side == predicted.side && call.alpha == predicted.alpha && call.beta == predicted.beta &&
         (!withKeys || (call.hashKey == predicted.hashKey && call.hashLock == predicted.hashLock)) &&
         call.epSquare == predicted.epSquare && call.lastTo == predicted.lastTo &&
         call.depth == predicted.depth;
}

/// The flags (but kMoveSneaked) of each MoveShape up to kPromotionMove.
inline constexpr uint8_t kShapeFlags[] = {0, kMoveEnPassant, kMoveCastling | kMoveHasF, kMoveHasF,
                                          kMovePromotion};

/// The shape of a move (MoveShape), kExplicitMove for flags of no usual shape.
inline int shapeOf(const MoveRecord& move) {
  const auto* shape = std::find(std::begin(kShapeFlags), std::end(kShapeFlags), move.flags & ~kMoveSneaked);
  return shape == std::end(kShapeFlags) ? kExplicitMove : static_cast<int>(shape - kShapeFlags);
}

/// The move of `shape` from `from` to `to` in the call `frame`, but its
/// piece and victim (the board's): flags, H (Step 6), G and F (Step 7), h
/// (Step 10, by the rule of the think's `variant`).
[[gnu::always_inline]] inline MoveRecord shapedMove(int shape, bool sneaked, int from, int to,
                                                    const Frame& frame, const SearchVariant& variant) {
  MoveRecord move;
  move.flags = static_cast<uint8_t>(kShapeFlags[shape] | (sneaked ? kMoveSneaked : 0));
  move.from = from;
  move.to = to;
  move.captureSquare = shape == kEnPassantMove ? enPassantVictimSquare(to) : to;
  move.rookFrom = shape == kCastlingMove ? castlingCorner(from, to > from ? 1 : -1) : kNoSquare;
  move.passedSquare =
      (shape == kCastlingMove || shape == kDoubleStepMove) ? skippedSquare(from, to) : kNoSquare;
  move.remaining = remainingDepth(variant, frame.draft, to, frame.call.lastTo);
  return move;
}

/// True if `move` is what shapedMove predicts for its shape and squares.
[[gnu::always_inline]] inline bool isShapedMove(const MoveRecord& move, int shape, const Frame& frame,
                                                const SearchVariant& variant) {
  const MoveRecord predicted =
      shapedMove(shape, (move.flags & kMoveSneaked) != 0, move.from, move.to, frame, variant);
  return move.captureSquare == predicted.captureSquare && move.rookFrom == predicted.rookFrom &&
         move.passedSquare == predicted.passedSquare && move.remaining == predicted.remaining;
}

/// A move's score after its reply returned: the reply's score turned round,
/// less the delayed-gain penalty unless the think's `variant` goes without
/// it (search.cpp Step 12).
[[gnu::always_inline]] inline int predictedScore(const Frame& frame, const SearchVariant& variant) {
  return withDelayedGainPenalty(variant, wrappingNegation(frame.childScore), frame.call.eval);
}

/// The values of a kBestMove record (m, X, Y) or a kReturn record (m, X, Y,
/// d), X, Y and d as the signed chars the search keeps.
struct BestValues {
  int best = 0;   ///< m, or the stored score of a hash cutoff
  int from = 0;   ///< X
  int to = 0;     ///< Y (with its flag bits)
  int draft = 0;  ///< d, kReturn only (see completedDraft)
  /// The same values.
  bool operator==(const BestValues&) const = default;
};

/// The best move Step 16 records after the last move: its score and
/// squares, the to-square marked unless it castles.
[[gnu::always_inline]] inline BestValues predictedBestMove(const Frame& frame) {
  return {frame.lastScore, frame.move.from, asSignedChar(bestMoveTo(frame.move.to, frame.move.rookFrom)), 0};
}

/// What the call `frame` returns (Step 19): the hash entry's values if its
/// probe ended it, else its best score and move and the loop counter one
/// past its draft.
[[gnu::always_inline]] inline BestValues predictedReturn(const Frame& frame) {
  if (frame.probe.endsNode) {  // what SearchObserver::onEnter passes on (engine.cpp)
    const HashEntry& entry = frame.probeEntry;
    return {entry.score, asSignedChar(withoutBoundBits(entry.from)), entry.to, entry.draft};
  }
  return {frame.best, asSignedChar(frame.bestFrom), asSignedChar(frame.bestTo),
          asSignedChar(frame.draft + 1)};
}

/// The values an explicit kBestMove or kReturn record holds, written or
/// read by the one list: zz m, u8 X, u8 Y, and for kReturn u8 d.
template <class Code, class Values>
[[gnu::always_inline]] inline void bestValues(Code& code, Values& values, EventKind kind) {
  code.zigzag(values.best);
  code.i8(values.from);
  code.i8(values.to);
  if (kind == EventKind::kReturn) code.i8(values.draft);
}

/// Writes a kBestMove or kReturn record: its tag alone when the search's
/// values are the predicted ones, else the values (bestValues).
[[gnu::always_inline]] inline void writeBestValues(RecordWriter& write, EventKind kind,
                                                   const BestValues& told, const BestValues& predicted) {
  if (told == predicted) [[likely]] {
    write.u8(recordTag(kind, 0));
    return;
  }
  write.u8(recordTag(kind, kExplicitValues));
  bestValues(write, told, kind);
}

/// The entry Step 18 writes for the call `frame`: its lock, best score,
/// stored draft (storedDraft), best move with the bound bits. The dummy
/// slot 0 keeps its lock at 0.
[[gnu::always_inline]] inline HashEntry predictedStore(const Frame& frame) {
  HashEntry entry;
  entry.lock = frame.probe.slot == 0 ? 0 : static_cast<int32_t>(frame.call.hashLock);
  entry.score = frame.best;
  entry.draft = static_cast<int8_t>(storedDraft(frame));
  entry.from = static_cast<int8_t>(storedFrom(frame.bestFrom, frame.best, frame.call.alpha, frame.call.beta));
  entry.to = static_cast<int8_t>(frame.bestTo);
  return entry;
}

// ---- reading --------------------------------------------------------------

/// Decodes the records of a trace one after the other, applying each to the
/// search's state, so a record that does not fit the search is refused.
class RecordDecoder {
 public:
  /// The decoder at the start of the trace with this header.
  explicit RecordDecoder(const TraceHeader& header) : header_(header), state_(header) {}
  /// The decoder at `state` (TraceReader::stateAt) of the trace with this header.
  RecordDecoder(const TraceHeader& header, SearchState state) : header_(header), state_(std::move(state)) {}
  /// Starts from a checkpoint (as a chunk's in the footer).
  void restore(const uint8_t* checkpoint, std::size_t size, uint64_t offset) {
    state_.load(checkpoint, size, offset);
    folded_ = 0;
  }
  /// Decodes one record from [data, end) into `event` and applies it;
  /// returns the byte after it, or nullptr if the record is incomplete.
  /// After a kUsualEntry call, its probe and node come first (`data` returned).
  /// Throws TraceError (at `offset` plus the position) if it is malformed.
  const uint8_t* decode(const uint8_t* data, const uint8_t* end, Event& event, uint64_t offset);
  /// The state after the records decoded so far.
  const SearchState& state() const { return state_; }

 private:
  const TraceHeader& header_;
  SearchState state_;
  int folded_ = 0;  // events of a kUsualEntry call still to come (decode returns them, no bytes read)
};

}  // namespace umax::trace
