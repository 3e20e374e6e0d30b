// state.cpp - the search's variables rebuilt event by event, and their checkpoints.
#include "umax/trace/state.h"

#include <span>

#include "umax/trace/records.h"

namespace umax::trace {
SearchState::SearchState(const TraceHeader& header)
    : board_(header.position.board), variant_(header.variant) {}

void SearchState::inconsistent(const Event& event, uint64_t offset, const char* why) const {
  throw TraceError("event " + std::to_string(events_) + " (" + std::string(kindName(event.kind)) +
                       ") does not fit the search: " + why,
                   offset);
}

Frame& SearchState::top(const Event& event, uint64_t offset) {
  if (stack_.empty()) inconsistent(event, offset, "no call is open");
  return stack_.back();
}

// search.cpp Step 11: do the move (G and F may be the dummy square 128).
void makeMove(Board& board, const MoveRecord& move, int side) {
  board[move.rookFrom] = board[move.captureSquare] = board[move.from] = 0;
  board[move.to] = static_cast<int8_t>(arrivingPiece(move.piece, (move.flags & kMovePromotion) != 0));
  if (move.flags & kMoveCastling) board[move.passedSquare] = static_cast<int8_t>(side + kRook);
}

// search.cpp Step 14: undo it, exactly as the search does.
void unmakeMove(Board& board, const MoveRecord& move, int side) {
  board[move.rookFrom] = static_cast<int8_t>(side + kRook + kVirgin);
  board[move.passedSquare] = board[move.to] = 0;
  board[move.from] = static_cast<int8_t>(move.piece);
  board[move.captureSquare] = static_cast<int8_t>(move.victim);
}

// Each kind's replay member (named as its hook, defined in event_kinds.cpp)
// checks the event against the state and applies the transition the
// Recorder applied when it wrote it. One case per kind: an EventKind holds
// one of the kinds of UMAX_SEARCH_EVENTS (RecordDecoder::decode refuses any other number),
// so the switch made from the same rows covers them all (-Wswitch). After
// the root's return each member refuses the event: a call as a second root
// call, the others as having no call open.
void SearchState::apply(const Event& event, uint64_t offset) {
  switch (event.kind) {
#define UMAX_TRACE_KIND_REPLAY(kind, site, record, name, hook, parameters) \
  case EventKind::kind:                                                    \
    hook(event, offset);                                                   \
    break;
    UMAX_SEARCH_EVENTS(UMAX_TRACE_KIND_REPLAY)
#undef UMAX_TRACE_KIND_REPLAY
  }
  ++events_;
}

// ---- checkpoints -----------------------------------------------------------

namespace {

/// A checkpoint frame's fields, written (ByteWriter) or read (ByteReader)
/// by the one list; `probe` and `flags` stand for the bytes that pack the
/// probe's outcome (probeBits) and the frame's three flags.
template <class Code, class F>
void frameFields(Code& code, F& frame, int& probe, int& flags) {
  code.u8(frame.call.side);
  callArguments(code, frame.call);
  code.varint(frame.callEvent);
  code.varint(frame.nodeNumber);
  code.u8(frame.probed);
  code.u8(probe);
  code.varint(frame.probe.firstSlot);
  code.u8(frame.probe.slotsProbed);
  code.u32(frame.probeEntry.lock);
  entryContents(code, frame.probeEntry);
  code.zigzag(frame.draft);
  code.zigzag(frame.best);
  code.zigzag(frame.bestFrom);
  code.zigzag(frame.bestTo);
  code.u8(frame.move.flags);
  code.u8(frame.move.from);
  code.u8(frame.move.to);
  code.i8(frame.move.piece);
  code.i8(frame.move.victim);
  code.u8(frame.move.captureSquare);
  code.u8(frame.move.rookFrom);
  code.u8(frame.move.passedSquare);
  code.u8(frame.move.remaining);
  code.u8(flags);
  code.zigzag(frame.lastScore);
  code.varint(frame.movesMade);
  code.u32(frame.slotEntry.lock);
  entryContents(code, frame.slotEntry);
  code.zigzag(frame.childScore);
}

}  // namespace

void saveCheckpoint(const Board& board, const Frame* frames, std::size_t depth, uint64_t events,
                    uint64_t nodes, uint64_t calls, std::vector<uint8_t>& out) {
  ByteWriter write(out);
  write.bytes(board.data(), board.size());
  for (const uint64_t count : {events, nodes, calls, uint64_t{depth}}) write.varint(count);
  for (Frame frame : std::span(frames, depth)) {
    // A Recorder's frame that has made no move still holds an earlier call's (pushFrame leaves it).
    if (frame.movesMade == 0) frame.move = MoveRecord{};
    if (frame.probe.outcome != ProbeOutcome::kHit) frame.probeEntry = HashEntry{};  // a miss keeps none
    int probe = probeBits(frame.probe);
    int flags = (frame.moveOnBoard ? 1 : 0) | (frame.cutoff ? 2 : 0) | (frame.mateProbe ? 4 : 0);
    frameFields(write, frame, probe, flags);
  }
}

void SearchState::save(std::vector<uint8_t>& out) const {
  saveCheckpoint(board_, stack_.data(), stack_.size(), events_, nodes_, calls_, out);
}

void SearchState::load(const uint8_t* data, std::size_t size, uint64_t offset) {
  ByteReader read(data, data + size, offset, "checkpoint");
  read.bytes(board_.data(), board_.size());
  for (uint64_t* count : {&events_, &nodes_, &calls_}) *count = read.varint();
  const uint64_t depth = read.varint();
  if (depth > kMaxStack) read.fail("stack too deep");
  stack_.assign(static_cast<std::size_t>(depth), Frame{});
  for (Frame& frame : stack_) {
    int probe = 0;
    int flags = 0;
    frameFields(read, frame, probe, flags);
    frame.ply = static_cast<int>(&frame - stack_.data());
    checkCall(read, frame.call);
    if ((probe & 3) > 2 || probe > 7) read.fail("bad probe flags");
    if (frame.probe.firstSlot > static_cast<uint32_t>(kHashSlotMask)) read.fail("probe slot out of range");
    if (frame.probe.slotsProbed > kProbeSlots) read.fail("bad number of slots probed");
    checkMoveSquares(read, frame.move);
    frame.probe.outcome = static_cast<ProbeOutcome>(probe & 3);
    frame.probe.endsNode = (probe & 4) != 0;
    frame.probe.slot =
        frame.probe.outcome == ProbeOutcome::kFull ? 0 : frame.probe.firstSlot + frame.probe.slotsProbed;
    frame.moveOnBoard = flags & 1;
    frame.cutoff = flags & 2;
    frame.mateProbe = flags & 4;
  }
  if (read.left() != 0) read.fail("trailing bytes");
  finished_ = false;
}

}  // namespace umax::trace
