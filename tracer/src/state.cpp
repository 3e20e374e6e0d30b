// state.cpp - the search's variables rebuilt event by event.
//
// apply() checks each event against the state and applies the transition
// of its kind (event_kinds.cpp), the one the Recorder applied while recording, so
// that a replayed frame shows the same k q l e ... d m X Y as the search had.
#include "umax/trace/state.h"

#include "umax/search_rules.h"
#include "umax/trace/records.h"

namespace umax::trace {
SearchState::SearchState(const TraceHeader& header) : board_(header.position.board) {}

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
  if (move.flags & kMoveCastling) board[move.rookTo] = static_cast<int8_t>(side + kRook);
}

// search.cpp Step 14: undo it, exactly as the search does.
void unmakeMove(Board& board, const MoveRecord& move, int side) {
  board[move.rookFrom] = static_cast<int8_t>(side + kRook + kVirgin);
  board[move.rookTo] = board[move.to] = 0;
  board[move.from] = static_cast<int8_t>(move.piece);
  board[move.captureSquare] = static_cast<int8_t>(move.victim);
}

// Each kind's replay member (named as its hook, defined in event_kinds.cpp)
// checks the event against the state and applies the transition the
// Recorder applied when it wrote it. One case per kind: an EventKind holds
// one of the kinds of UMAX_SEARCH_EVENTS (readTag refuses any other number),
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

void saveCheckpoint(const Board& board, const Frame* frames, std::size_t depth, uint64_t events,
                    uint64_t nodes, uint64_t calls, std::vector<uint8_t>& out) {
  ByteWriter write(out);
  write.bytes(board.data(), board.size());
  write.varint(events);
  write.varint(nodes);
  write.varint(calls);
  write.varint(depth);
  for (std::size_t index = 0; index < depth; ++index) {
    const Frame& frame = frames[index];
    writeCall(write, frame.call);
    write.varint(frame.callEvent);
    write.varint(frame.nodeNumber);
    write.u8(frame.probed);
    write.u8(probeBits(frame.probe));
    writeProbeWindow(write, frame.probe);
    writeEntry(write, frame.probeEntry);
    write.zigzag(frame.draft);
    write.zigzag(frame.best);
    write.zigzag(frame.bestFrom);
    write.zigzag(frame.bestTo);
    writeMove(write, frame.move, MoveLayout::kCheckpoint);
    write.u8((frame.moveOnBoard ? 1 : 0) | (frame.cutoff ? 2 : 0) | (frame.mateProbe ? 4 : 0));
    write.zigzag(frame.lastScore);
    write.varint(static_cast<uint64_t>(frame.movesMade));
    writeEntry(write, frame.slotEntry);
    write.zigzag(frame.childScore);
  }
}

void SearchState::save(std::vector<uint8_t>& out) const {
  saveCheckpoint(board_, stack_.data(), stack_.size(), events_, nodes_, calls_, out);
}

void SearchState::load(const uint8_t* data, std::size_t size, uint64_t offset) {
  ByteReader read(data, data + size, offset, "checkpoint");
  try {
    read.bytes(board_.data(), board_.size());
    events_ = read.varint();
    nodes_ = read.varint();
    calls_ = read.varint();
    const uint64_t depth = read.varint();
    if (depth > kMaxStack) read.fail("stack too deep");
    stack_.assign(static_cast<std::size_t>(depth), Frame{});
    for (std::size_t index = 0; index < stack_.size(); ++index) {
      Frame& frame = stack_[index];
      frame.call = readCall(read);
      frame.callEvent = read.varint();
      frame.nodeNumber = read.varint();
      frame.ply = static_cast<int>(index);
      frame.probed = read.u8() != 0;
      const int probeFlags = read.u8();
      frame.probe = readProbe(read, probeFlags, 0);  // a frame not yet probed has probed 0 slots
      frame.probeEntry = readEntry(read);
      frame.draft = read.int32();
      frame.best = read.int32();
      frame.bestFrom = read.int32();
      frame.bestTo = read.int32();
      frame.move = readMove(read, MoveLayout::kCheckpoint);
      const int flags = read.u8();
      frame.moveOnBoard = flags & 1;
      frame.cutoff = flags & 2;
      frame.mateProbe = flags & 4;
      frame.lastScore = read.int32();
      frame.movesMade = static_cast<int>(read.varint() & 0x7fffffff);
      frame.slotEntry = readEntry(read);
      frame.childScore = read.int32();
    }
  } catch (const TruncatedData& error) {
    throw TraceError(std::string("checkpoint: ") + "unexpected end of data", error.offset());
  }
  if (read.left() != 0) read.fail("trailing bytes");
  finished_ = false;
}

}  // namespace umax::trace
