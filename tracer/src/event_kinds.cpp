// event_kinds.cpp - what the tracer does with each kind of event, one kind
// after the other in the order of UMAX_SEARCH_EVENTS (search_observer.h).
//
// For each kind: its transition, what the event does to the open call's
// variables, as the statements of Engine::search() that produce it do (the
// step numbers are those of readable/src/search.cpp); the SearchState
// member that replays it (checks that the event can follow the state, a
// trace that contradicts itself is refused, then applies the transition);
// and the Recorder's override of the search's hook, which writes the
// event's record in the layout of compact.h (what the state predicts is
// left out, unless the search did something else) and applies the same
// transition, without the checks (the engine cannot contradict itself), so
// that the recorder and the reader cannot disagree. The replay and the
// recorder's hook are named after the hook (SearchState::onMateProbe,
// Recorder::onMateProbe); the board is the replay's own, the recorder's
// is the engine's. The sentence the viewers show for each kind is the view
// model's (viewmodel/src/narration.cpp).
//
// So adding a kind touches three files: its row and hook in
// readable/include/umax/search_observer.h, the hook's call at its step in
// readable/src/search.cpp, and a section here. A kind added after the
// twelve of format 6 writes its values with writeFieldValues (fields.h):
// the reader decodes them, the exports print them and the narration tells
// them by its row's parameter names, with no code of their own. The
// recording page, docs/pages/27-recording.md, says the rest.
#include <stdexcept>
#include <string>

#include "umax/notation.h"
#include "umax/search_rules.h"
#include "umax/trace/compact.h"
#include "umax/trace/records.h"
#include "umax/trace/state.h"
#include "umax/trace/writer.h"

namespace umax::trace {

// ---- all kinds --------------------------------------------------------------------

// Recorder's first virtual member, its destructor, is defined here, beside the
// hooks: the class's vtable is emitted with it, in the file that also holds the
// inline onReturn it points to (with writer.cpp compiled on its own, as the web
// edition does, the vtable there named an onReturn no file emitted).
Recorder::~Recorder() { writer_.returnCursor(); }

// Ends the record written up to `end` (`events` records in one go); a full
// chunk is flushed with the checkpoint of the state after it.
inline void Recorder::endRecord(uint8_t* end, uint32_t events) {
  if (cursor_.commit(end, events)) [[unlikely]]
    flushChunk();
}

// ---- kCall: D() is entered --------------------------------------------------------

/// kCall: `frame` becomes the new call's, its kCall being event `event`. Field by field (a
/// recorder reuses its frames: `frame = Frame{}` compiles to a slow `rep stos`); its probe
/// follows at once (takeProbe sets d, X, Y); with no move made, a checkpoint has none (movesMade 0).
[[gnu::always_inline]] static inline void openCall(Frame& frame, const NodeCall& call, uint64_t event) {
  frame.call = call;
  frame.callEvent = event;
  frame.nodeNumber = 0;
  frame.probed = false;
  frame.best = 0;
  frame.moveOnBoard = false;
  frame.lastScore = frame.movesMade = 0;
  frame.cutoff = frame.mateProbe = false;
  frame.childScore = 0;
}

// D() is called: a new frame on the stack (the root's, or a reply to the
// move on the board, or the mate probe after a null move).
void SearchState::onCall(const Event& event, uint64_t offset) {
  if (stack_.empty()) {
    if (events_ != 0) inconsistent(event, offset, "a second root call");
  } else {
    const Frame& parent = stack_.back();
    if (!parent.moveOnBoard && !parent.mateProbe) inconsistent(event, offset, "a call without a move");
    if (event.call.side != opponentOf(parent.call.side)) inconsistent(event, offset, "wrong side to move");
    if (stack_.size() >= kMaxStack) inconsistent(event, offset, "the stack is too deep");
  }
  const int ply = static_cast<int>(stack_.size());
  openCall(stack_.emplace_back(), event.call, events_);
  stack_.back().ply = ply;
  ++calls_;
}

// A call past kMaxStack open calls is refused: out of line, so that the hooks
// hold no cleanup of the throw's (no invoke wrapper in the web edition).
[[noreturn, gnu::noinline, gnu::cold]] static void tooDeep() {
  throw std::runtime_error("the search is too deep to record");
}

// The call's record (its eval alone when its parent's move predicts it, then with the
// `usualEntry` folded in: true if it was), and the call counted: refused past kMaxStack open
// calls. A reply's key and lock are not checked: the reader computes them with the engine's
// own hashChange from the same move (compact.h, predictChild).
[[gnu::always_inline]] inline bool Recorder::recordCall(RecordWriter& write, const NodeCall& call,
                                                        bool usualEntry) {
  NodeCall predicted;
  if (depth_ == kMaxStack) [[unlikely]]
    tooDeep();
  ++calls_;
  if (depth_ == 0 || !predictChild<false>(*top_, predicted, variant_) || !sameCall<false>(call, predicted))
      [[unlikely]] {
    write.at = writeUnpredictedCall(write.at, call);
    return false;
  }
  write.u8(recordTag(EventKind::kCall, usualEntry ? kUsualEntry : 0));
  write.zigzag(wrappingDifference(call.eval, predicted.eval));
  return usualEntry;
}

// The root's call (the header's, once) or a call no parent predicts.
uint8_t* Recorder::writeUnpredictedCall(uint8_t* at, const NodeCall& call) {
  RecordWriter write{at};
  if (depth_ == 0 && cursor_.events == 0 && sameCall(call, writer_.root())) {
    write.u8(recordTag(EventKind::kCall, 0));
    write.zigzag(wrappingDifference(call.eval, writer_.root().eval));
    return write.at;
  }
  write.u8(recordTag(EventKind::kCall, kExplicitValues | (call.side == kBlack ? kExplicitCallBlack : 0)));
  callArguments(write, call);
  return write.at;
}

// The call becomes the innermost open one.
[[gnu::always_inline]] inline void Recorder::pushFrame(const NodeCall& call) {
  Frame& frame = frames_[depth_];
  openCall(frame, call, cursor_.events);
  top_ = &frame;
  ++depth_;
}

// The recorder hears a call's first three events through onEnter alone (at
// the end of this file): one path for a node's entry.
void Recorder::onCall(const NodeCall&) { failed("told a call apart from onEnter"); }

// ---- kProbe: Steps 1 and 2, the hash probe ----------------------------------------

/// kProbe (Steps 1 and 2): what the probe found; on a hit `entry` is the
/// slot's (its lock is the call's Z, which a probe record leaves out). A
/// node the probe does not end starts deepening from the draft firstDraft
/// gives (Step 4: the Lab without deepening starts at its depth).
[[gnu::always_inline]] static inline void takeProbe(Frame& frame, const ProbeReport& report,
                                                    const HashEntry& entry, const SearchVariant& variant) {
  frame.probed = true;
  frame.probe = report;
  if (report.outcome == ProbeOutcome::kHit) {
    frame.probeEntry = entry;
    frame.probeEntry.lock = 0;
    frame.draft = report.endsNode ? entry.draft : hitStartDraft(entry.draft, frame.call.depth);
    frame.bestFrom = withoutBoundBits(entry.from);
    frame.bestTo = asSignedChar(hitStartBestTo(frame.draft, entry.to));
    frame.slotEntry = entry;
    frame.slotEntry.lock = static_cast<int32_t>(frame.call.hashLock);
  } else {  // a miss leaves draft, X and Y at 0 and keeps the empty entry (probeEntry is a hit's only)
    frame.slotEntry = HashEntry{};
    frame.draft = frame.bestFrom = frame.bestTo = 0;
  }
  if (variant.without && !report.endsNode) [[unlikely]]
    frame.draft = firstDraft(variant, frame.draft, frame.call.depth, frame.call.lastTo);
}

void SearchState::onProbe(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (frame.probed) inconsistent(event, offset, "a second probe in one call");
  if (event.probe.outcome != ProbeOutcome::kHit && event.probe.endsNode)
    inconsistent(event, offset, "a miss cannot end the node");
  takeProbe(frame, event.probe, event.entry, variant_);
}

[[gnu::always_inline]] inline void Recorder::writeProbeRecord(RecordWriter& write, const ProbeReport& report,
                                                              const HashEntry& entry) {
  const bool usualCount = report.slotsProbed == (report.outcome == ProbeOutcome::kFull ? kProbeSlots : 1);
  write.u8(recordTag(EventKind::kProbe, probeBits(report) | (usualCount ? kUsualSlotCount : 0)));
  if (!usualCount) write.u8(report.slotsProbed);
  if (report.outcome == ProbeOutcome::kHit) entryContents(write, entry);
}

void Recorder::onProbe(const ProbeReport&, const HashEntry&) { failed("told a probe apart from onEnter"); }

// ---- kNodeCounted: Step 3, N++ ----------------------------------------------------

void SearchState::onNodeCounted(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (!frame.probed || frame.nodeNumber != 0 || frame.probe.endsNode)
    inconsistent(event, offset, "a node counted twice or before its probe");
  frame.nodeNumber = ++nodes_;
}

// The probe's record and the node's, after the frame took them (none if the call's `folded` them).
[[gnu::always_inline]] inline void Recorder::recordNode(RecordWriter& write, const ProbeReport& report,
                                                        const HashEntry& entry, bool folded) {
  top_->nodeNumber = ++nodes_;
  if (folded) return;
  writeProbeRecord(write, report, entry);
  write.u8(recordTag(EventKind::kNodeCounted, 0));
}

// After a counted node's record: the progress display every 65,536 nodes,
// and a trim the last chunk asked for (trimPending_).
[[gnu::always_inline]] inline void Recorder::afterNodeCounted() {
  if (nodes_ % 65536 == 0 && progress_) progress_(nodes_, rootDraft_);
  if (trimPending_) [[unlikely]]
    trim();
}

void Recorder::onNodeCounted(int) { failed("told a counted node apart from onEnter"); }

// ---- kIteration: Step 4, an iteration starts --------------------------------------

/// kIteration (Step 4): the iteration to `draft` starts; the last best
/// move gets its sneak bit (not in the Lab without best-first).
[[gnu::always_inline]] static inline void startIteration(Frame& frame, int draft,
                                                         const SearchVariant& variant) {
  frame.draft = draft;
  frame.bestTo = asSignedChar(iterationBestTo(variant, frame.bestTo));
  frame.best = iterationStartBest(draft, frame.call.eval);
  frame.cutoff = false;
}

void SearchState::onIteration(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (frame.nodeNumber == 0 || frame.moveOnBoard || frame.mateProbe)
    inconsistent(event, offset, "an iteration outside a counted node");
  if (event.value != frame.draft + 1) inconsistent(event, offset, "the draft does not go up by one");
  startIteration(frame, event.value, variant_);
}

[[gnu::always_inline]] inline void Recorder::onIteration(int draft) {  // Step 4
  if (depth_ == 1) [[unlikely]] {
    rootDraft_ = draft;
    if (byteLimit_) atRootIteration();
  }
  RecordWriter write{cursor_.at};
  write.u8(recordTag(EventKind::kIteration, 0));  // the draft goes up by one: no field
  if (draft != top_->draft + 1) [[unlikely]]
    failed("an iteration's draft does not go up by one");
  startIteration(*top_, draft, variant_);
  endRecord(write.at);
}

// ---- kKingCapture: Step 8 ---------------------------------------------------------

/// kKingCapture (Step 8): the node is won.
[[gnu::always_inline]] static inline void takeKingCapture(Frame& frame) { frame.best = kInfinity; }

void SearchState::onKingCapture(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (frame.moveOnBoard) inconsistent(event, offset, "a king capture during a move");
  takeKingCapture(frame);
}

void Recorder::onKingCapture(int from, int to, bool badCastling) {  // Step 8
  RecordWriter write{cursor_.at};
  write.u8(recordTag(EventKind::kKingCapture, badCastling ? 1 : 0));
  write.u8(from);
  write.u8(to);
  takeKingCapture(*top_);
  endRecord(write.at);
}

// ---- kCutoff: Step 9, fail high ---------------------------------------------------

/// kCutoff (Step 9): the iteration failed high.
[[gnu::always_inline]] static inline void takeCutoff(Frame& frame) { frame.cutoff = true; }

void SearchState::onCutoff(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (frame.moveOnBoard || event.value != frame.best)
    inconsistent(event, offset, "a cutoff with another score");
  takeCutoff(frame);
}

void Recorder::onCutoff(int best) {  // Step 9
  RecordWriter write{cursor_.at};
  write.u8(recordTag(EventKind::kCutoff, 0));  // the score is the node's best: no field
  if (best != top_->best) [[unlikely]]
    failed("a cutoff with another score than the node's best");
  takeCutoff(*top_);
  endRecord(write.at);
}

// ---- kMoveMade: Step 11, a move is made -------------------------------------------

/// kMoveMade (Step 11): the move in frame.move is on the board.
[[gnu::always_inline]] static inline void takeMoveMade(Frame& frame) {
  frame.moveOnBoard = true;
  ++frame.movesMade;
}

void SearchState::onMoveMade(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  const MoveRecord& move = event.move;
  if (frame.nodeNumber == 0 || frame.moveOnBoard || frame.cutoff)
    inconsistent(event, offset, "a move outside a counted node's scan");
  if (board_[move.from] != move.piece || !(move.piece & frame.call.side) ||
      board_[move.captureSquare] != move.victim)
    inconsistent(event, offset, "the move does not match the board");
  makeMove(board_, move, frame.call.side);
  frame.move = move;
  takeMoveMade(frame);
}

/// Fills `record` from a move the search made.
[[gnu::always_inline]] static inline void fillRecord(MoveRecord& record, const Move& move, int remaining,
                                                     bool sneaked) {
  record.from = move.from;
  record.to = move.to;
  record.piece = move.piece;
  record.victim = move.victim;
  record.captureSquare = move.captureSquare;
  record.rookFrom = move.rookFrom;
  record.passedSquare = move.passedSquare;
  record.remaining = remaining;
  record.flags = 0;
  if (sneaked) record.flags |= kMoveSneaked;
  if (move.captureSquare != move.to) record.flags |= kMoveEnPassant;
  if (isOnBoard(move.rookFrom)) record.flags |= kMoveCastling;
  if (move.passedSquare != kNoSquare) record.flags |= kMoveHasF;
  // search.cpp Step 11: a pawn whose next step would leave the board promotes.
  if (promotes(move.type, move.to, move.step)) record.flags |= kMovePromotion;
}

MoveRecord recordOf(const Move& move, int remaining, bool sneaked) {
  MoveRecord record;
  fillRecord(record, move, remaining, sneaked);
  return record;
}

[[gnu::always_inline]] inline void Recorder::onMoveMade(const Move& move, int remaining, bool sneaked) {
  const Frame& frame = *top_;
  // Step 11. Most moves are plain: no special square, no promotion, the usual depth.
  // They are told apart in a few comparisons; the rest take the general way.
  const bool promoted = promotes(move.type, move.to, move.step);
  const bool usual = move.captureSquare == move.to && move.rookFrom == kNoSquare && !promoted &&
                     remaining == remainingDepth(variant_, frame.draft, move.to, frame.call.lastTo);
  if (!usual || move.passedSquare != kNoSquare) [[unlikely]]
    return recordShapedMove(move, remaining, sneaked, usual);
  recordUsualMove<kPlainMove>(move, remaining, sneaked);
}

// A plain move or a pawn's double step (F is then the skipped square): no
// e.p. capture, no castling rook, no promotion, the usual depth. Its record
// is the shape and the two squares.
template <int kShape>
[[gnu::always_inline]] inline void Recorder::recordUsualMove(const Move& move, int remaining, bool sneaked) {
  static_assert(kShape == kPlainMove || kShape == kDoubleStepMove);
  Frame& frame = *top_;
  MoveRecord& record = frame.move;
  record.flags =
      static_cast<uint8_t>((kShape == kDoubleStepMove ? kMoveHasF : 0) | (sneaked ? kMoveSneaked : 0));
  record.from = move.from;
  record.to = record.captureSquare = move.to;
  record.piece = move.piece;
  record.victim = move.victim;
  record.rookFrom = kNoSquare;
  record.passedSquare = kShape == kDoubleStepMove ? move.passedSquare : kNoSquare;
  record.remaining = remaining;
  writeMoveMade(kShape, sneaked, move);
}

// The record of a move whose shape and squares say it all, and the frame's
// count of moves made.
[[gnu::always_inline]] inline void Recorder::writeMoveMade(int shape, bool sneaked, const Move& move) {
  takeMoveMade(*top_);
  RecordWriter write{cursor_.at};
  write.u8(recordTag(EventKind::kMoveMade, (shape << 1) | (sneaked ? 1 : 0)));
  write.u8(move.from);
  write.u8(move.to);
  endRecord(write.at);
}

// A move of another shape than a plain one, or an unusual one. Most of
// them are a pawn's double step (F is the square between x and y): those
// are told apart first, in a few comparisons (onMoveMade has ruled out an
// e.p. capture, a castling and a promotion when only F was off).
void Recorder::recordShapedMove(const Move& move, int remaining, bool sneaked, bool onlyF) {
  if (onlyF && move.passedSquare == skippedSquare(move.from, move.to)) [[likely]]
    return recordUsualMove<kDoubleStepMove>(move, remaining, sneaked);
  Frame& frame = *top_;
  fillRecord(frame.move, move, remaining, sneaked);
  const int shape = shapeOf(frame.move);
  if (shape != kExplicitMove && isShapedMove(frame.move, shape, frame, variant_)) [[likely]]
    return writeMoveMade(shape, sneaked, move);
  takeMoveMade(frame);
  RecordWriter write{cursor_.at};
  write.u8(recordTag(EventKind::kMoveMade, kExplicitMove << 1));
  writeMove(write, frame.move);
  endRecord(write.at);
}

// ---- kMoveScored: Step 14, the move is taken back ---------------------------------

/// kMoveScored (Step 14): the move is taken back with `score`; a sneaked-in
/// move's score is the iteration's first best, its sneak bit cleared (Step 15).
[[gnu::always_inline]] static inline void takeMoveScored(Frame& frame, int score) {
  frame.moveOnBoard = false;
  frame.lastScore = score;
  if (frame.move.flags & kMoveSneaked) {
    frame.best = score;
    frame.bestTo = asSignedChar(frame.bestTo & ~kSneakBit);
  }
}

void SearchState::onMoveScored(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (!frame.moveOnBoard) inconsistent(event, offset, "a score without a move");
  unmakeMove(board_, frame.move, frame.call.side);
  takeMoveScored(frame, event.value);
}

[[gnu::always_inline]] inline void Recorder::onMoveScored(int score) {  // Step 14
  RecordWriter write{cursor_.at};
  Frame& frame = *top_;
  if (score == predictedScore(frame, variant_)) [[likely]] {
    write.u8(recordTag(EventKind::kMoveScored, 0));
  } else {
    write.u8(recordTag(EventKind::kMoveScored, kExplicitValues));
    write.zigzag(score);
  }
  takeMoveScored(frame, score);
  endRecord(write.at);
}

// ---- kBestMove: Step 16 -----------------------------------------------------------

/// kBestMove (Step 16): a new best score and move.
[[gnu::always_inline]] static inline void takeBestMove(Frame& frame, int best, int from, int to) {
  frame.best = best;
  frame.bestFrom = from;
  frame.bestTo = asSignedChar(to);
}

void SearchState::onBestMove(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (frame.moveOnBoard) inconsistent(event, offset, "a best move during a move");
  takeBestMove(frame, event.best, event.bestFrom, event.bestTo);
}

[[gnu::always_inline]] inline void Recorder::onBestMove(int best, int from, int to) {  // Step 16
  RecordWriter write{cursor_.at};
  Frame& frame = *top_;
  writeBestValues(write, EventKind::kBestMove, {best, asSignedChar(from), asSignedChar(to), 0},
                  predictedBestMove(frame));
  takeBestMove(frame, best, from, to);
  endRecord(write.at);
}

// ---- kMateProbe: Step 17, the mate probe ------------------------------------------

/// kMateProbe (Step 17): the mate probe starts.
[[gnu::always_inline]] static inline void startMateProbe(Frame& frame) {
  frame.draft = kMateDraft;
  frame.mateProbe = true;
}

void SearchState::onMateProbe(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (frame.best != -kInfinity || frame.moveOnBoard) inconsistent(event, offset, "a mate probe with a move");
  startMateProbe(frame);
}

void Recorder::onMateProbe() {  // Step 17
  RecordWriter write{cursor_.at};
  write.u8(recordTag(EventKind::kMateProbe, 0));
  startMateProbe(*top_);
  endRecord(write.at);
}

// ---- kStore: Step 18, the hash store ----------------------------------------------

/// kStore (Step 18): the draft becomes the stored one, and the call's slot
/// holds `entry` (the new entry if written, else the one it kept).
[[gnu::always_inline]] static inline void takeStore(Frame& frame, const HashEntry& entry) {
  frame.draft = storedDraft(frame);
  frame.slotEntry = entry;
}

void SearchState::onStore(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (frame.moveOnBoard || frame.mateProbe || frame.nodeNumber == 0)
    inconsistent(event, offset, "a store in the middle of a scan");
  if (event.slot != frame.probe.slot) inconsistent(event, offset, "a store to another slot than the probe's");
  takeStore(frame, event.after);
  if (event.written && (event.after.score != frame.best || event.after.draft != asSignedChar(frame.draft)))
    inconsistent(event, offset, "the stored entry does not hold the node's score and draft");
}

[[gnu::always_inline]] inline void Recorder::onStore(uint32_t slot, const HashEntry& before,
                                                     const HashEntry& after, bool written) {
  Frame& frame = *top_;  // Step 18
  if (slot != frame.probe.slot) [[unlikely]]
    failed("a store to another slot than the probe's");
  const int beforeKind = isEmptyEntry(before)                 ? kBeforeEmpty
                         : sameEntry(before, frame.slotEntry) ? kBeforeKnown
                                                              : kBeforeFollows;
  const HashEntry predicted = predictedStore(frame);  // field by field: no packing of the words
  const bool afterFollows =
      written && (after.score != predicted.score || after.draft != predicted.draft ||
                  after.to != predicted.to || after.from != predicted.from || after.lock != predicted.lock);
  takeStore(frame, written ? after : before);
  if (beforeKind == kBeforeFollows || afterFollows) [[unlikely]] {
    recordStoreWithEntries(before, after, written, beforeKind, afterFollows);
  } else {
    RecordWriter write{cursor_.at};
    write.u8(recordTag(EventKind::kStore, (written ? 1 : 0) | beforeKind << 1));
    endRecord(write.at);
  }
}

// A store whose previous entry or new entry the reader cannot know.
void Recorder::recordStoreWithEntries(const HashEntry& before, const HashEntry& after, bool written,
                                      int beforeKind, bool afterFollows) {
  RecordWriter write{cursor_.at};
  write.u8(recordTag(EventKind::kStore,
                     (written ? 1 : 0) | beforeKind << 1 | (afterFollows ? kStoreAfterFollows : 0)));
  if (beforeKind == kBeforeFollows) writeEntry(write, before);
  if (afterFollows) writeEntry(write, after);
  endRecord(write.at);
}

// ---- kReturn: Step 19, D() returns ------------------------------------------------

/// kReturn (Step 19), seen from `parent`: the call below returned `score`,
/// which also answers a mate probe (a damaged trace's INT_MIN wraps).
[[gnu::always_inline]] static inline void takeChildScore(Frame& parent, int score) {
  parent.childScore = score;
  if (parent.mateProbe) {
    parent.best = mateProbeBest(score);
    parent.mateProbe = false;
  }
}

// D() returns: its frame leaves the stack, and the parent takes the score.
void SearchState::onReturn(const Event& event, uint64_t offset) {
  const Frame& frame = top(event, offset);
  if (!frame.probed || frame.moveOnBoard || frame.mateProbe)
    inconsistent(event, offset, "a return in the middle of a scan");
  if (!frame.probe.endsNode && event.best != frame.best)
    inconsistent(event, offset, "the return value is not the best score");
  stack_.pop_back();
  if (stack_.empty()) {
    finished_ = true;
    rootScore_ = event.best;
  } else {
    takeChildScore(stack_.back(), event.best);
  }
}

// The call returned `score`: the frame below becomes the top.
[[gnu::always_inline]] inline void Recorder::popFrame(int score) {
  --depth_;
  top_ = depth_ ? top_ - 1 : nullptr;  // the frames lie in one vector
  if (top_) takeChildScore(*top_, score);
}

// Step 19 (a hash cutoff's return comes in onEnter): the tag alone if predictedReturn holds, else
// the values (out of line). Inline in the search compiled for the recorder: a call cost more.
[[gnu::always_inline]] inline void Recorder::onReturn(int score, int bestFrom, int bestTo, int draft) {
  const Frame& frame = *top_;
  RecordWriter write{cursor_.at};
  if (score != frame.best || bestFrom != frame.bestFrom || bestTo != frame.bestTo || draft != frame.draft + 1)
      [[unlikely]]
    write.at = writeExplicitReturn(write.at, score, bestFrom, bestTo, draft);
  else
    write.u8(recordTag(EventKind::kReturn, 0));
  popFrame(score);
  endRecord(write.at);
}

uint8_t* Recorder::writeExplicitReturn(uint8_t* at, int score, int bestFrom, int bestTo, int draft) {
  RecordWriter write{at};
  writeBestValues(write, EventKind::kReturn,
                  {score, asSignedChar(bestFrom), asSignedChar(bestTo), asSignedChar(draft)},
                  predictedReturn(*top_));
  return write.at;
}

// ---- kCall, kProbe, kNodeCounted or kReturn in one hook ---------------------------

// One call through the interface for a call's first three records, written
// in one go. A probe that ends the node (Step 2) returns the entry's values,
// as SearchObserver::onEnter passes them on, which is what the reader
// predicts (predictedReturn): the kReturn record is its tag alone, and the
// call gets no frame (it would be popped before a chunk could end, so no
// checkpoint could hold it); its parent, if any, takes its score.
[[gnu::always_inline]] inline void Recorder::onEnter(const NodeCall& call, const ProbeReport& report,
                                                     const HashEntry& entry, int) {
  RecordWriter write{cursor_.at};
  const bool folded =
      recordCall(write, call, report.outcome == ProbeOutcome::kMiss && report.slotsProbed == 1);
  if (report.endsNode) [[unlikely]] {
    writeProbeRecord(write, report, entry);
    write.u8(recordTag(EventKind::kReturn, 0));
    if (top_) takeChildScore(*top_, entry.score);
    return endRecord(write.at, 3);
  }
  pushFrame(call);  // the frame first, the bytes after (a byte's store may alias the frame)
  takeProbe(*top_, report, entry, variant_);
  recordNode(write, report, entry, folded);
  endRecord(write.at, 3);
  afterNodeCounted();
}

}  // namespace umax::trace

// ---- the search the recorder watches ----------------------------------------------

// The search compiled for the recorder (Engine::compiledSearch<Recorder>,
// which recordThink passes to Engine::think): it calls the hooks above
// directly, not through SearchObserver's table, and the compiler sees them
// here, those of every node inlined (9.2M fewer instructions than calls in kiwipete's 100,000
// nodes). umax-trace-bench measures what that saves (the recorder through the table, to /dev/null).
#define UMAX_SEARCH_DEFINITIONS_ONLY
#include "../../readable/src/search.cpp"

namespace umax {
template int Engine::search<trace::Recorder, false>(int, int, int, int, uint32_t, uint32_t, int, int, int);
}  // namespace umax
