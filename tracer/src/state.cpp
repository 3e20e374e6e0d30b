// state.cpp - the search's variables rebuilt event by event.
//
// apply() checks each event against the state and applies the transition
// of its kind (state.h), the one the Recorder applied while recording, so
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

// Each case checks that the event can follow the state, then applies the
// transition the Recorder applied when it wrote it (state.h).
void SearchState::apply(const Event& event, uint64_t offset) {
  if (finished_) inconsistent(event, offset, "the root call has already returned");
  const auto fail = [&](const char* why) { inconsistent(event, offset, why); };
  if (event.kind == EventKind::kCall) {
    if (stack_.empty()) {
      if (events_ != 0) fail("a second root call");
    } else {
      const Frame& parent = stack_.back();
      if (!parent.moveOnBoard && !parent.mateProbe) fail("a call without a move");
      if (event.call.side != opponentOf(parent.call.side)) fail("wrong side to move");
      if (stack_.size() >= kMaxStack) fail("the stack is too deep");
    }
    const int ply = static_cast<int>(stack_.size());
    openCall(stack_.emplace_back(), event.call, events_, ply);
    ++calls_;
    ++events_;
    return;
  }
  Frame& frame = top(event, offset);
  switch (event.kind) {
    case EventKind::kProbe:
      if (frame.probed) fail("a second probe in one call");
      if (event.probe.outcome != ProbeOutcome::kHit && event.probe.endsNode)
        fail("a miss cannot end the node");
      takeProbe(frame, event.probe, event.entry);
      break;
    case EventKind::kNodeCounted:
      if (!frame.probed || frame.nodeNumber != 0 || frame.probe.endsNode)
        fail("a node counted twice or before its probe");
      frame.nodeNumber = ++nodes_;
      break;
    case EventKind::kIteration:
      if (frame.nodeNumber == 0 || frame.moveOnBoard || frame.mateProbe)
        fail("an iteration outside a counted node");
      if (event.value != frame.draft + 1) fail("the draft does not go up by one");
      startIteration(frame, event.value);
      break;
    case EventKind::kKingCapture:
      if (frame.moveOnBoard) fail("a king capture during a move");
      takeKingCapture(frame);
      break;
    case EventKind::kCutoff:
      if (frame.moveOnBoard || event.value != frame.best) fail("a cutoff with another score");
      takeCutoff(frame);
      break;
    case EventKind::kMoveMade: {
      const MoveRecord& move = event.move;
      if (frame.nodeNumber == 0 || frame.moveOnBoard || frame.cutoff)
        fail("a move outside a counted node's scan");
      if (board_[move.from] != move.piece || !(move.piece & frame.call.side) ||
          board_[move.captureSquare] != move.victim)
        fail("the move does not match the board");
      makeMove(board_, move, frame.call.side);
      frame.move = move;
      takeMoveMade(frame);
      break;
    }
    case EventKind::kMoveScored:
      if (!frame.moveOnBoard) fail("a score without a move");
      unmakeMove(board_, frame.move, frame.call.side);
      takeMoveScored(frame, event.value);
      break;
    case EventKind::kBestMove:
      if (frame.moveOnBoard) fail("a best move during a move");
      takeBestMove(frame, event.best, event.bestFrom, event.bestTo);
      break;
    case EventKind::kMateProbe:
      if (frame.best != -kInfinity || frame.moveOnBoard) fail("a mate probe with a move");
      startMateProbe(frame);
      break;
    case EventKind::kStore:
      if (frame.moveOnBoard || frame.mateProbe || frame.nodeNumber == 0)
        fail("a store in the middle of a scan");
      if (event.slot != frame.probe.slot) fail("a store to another slot than the probe's");
      takeStore(frame, event.after);
      if (event.written &&
          (event.after.score != frame.best || event.after.draft != asSignedChar(frame.draft)))
        fail("the stored entry does not hold the node's score and draft");
      break;
    case EventKind::kReturn:
      if (!frame.probed || frame.moveOnBoard || frame.mateProbe) fail("a return in the middle of a scan");
      if (!frame.probe.endsNode && event.best != frame.best) fail("the return value is not the best score");
      stack_.pop_back();
      if (stack_.empty()) {
        finished_ = true;
        rootScore_ = event.best;
      } else {
        takeChildScore(stack_.back(), event.best);
      }
      break;
    default:
      break;
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
