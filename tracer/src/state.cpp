// state.cpp - the search's variables rebuilt event by event.
//
// Each case of apply() mirrors the statements of Engine::search() that
// produced the event (the step numbers of readable/src/search.cpp are given;
// readable/src/moves.h holds Steps 5-7 and the make and undo), so that a
// replayed frame shows the same k q l e ... d m X Y as the search had.
#include "umax/trace/state.h"

#include "umax/search_rules.h"
#include "umax/trace/records.h"

namespace umax::trace {
namespace {

int asChar(int value) { return static_cast<int8_t>(value); }

}  // namespace

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

void SearchState::apply(const Event& event, uint64_t offset) {
  if (finished_) inconsistent(event, offset, "the root call has already returned");
  switch (event.kind) {
    case EventKind::kCall: {
      if (stack_.empty()) {
        if (events_ != 0) inconsistent(event, offset, "a second root call");
      } else {
        const Frame& parent = stack_.back();
        if (!parent.moveOnBoard && !parent.mateProbe) inconsistent(event, offset, "a call without a move");
        if (event.call.side != opponentOf(parent.call.side))
          inconsistent(event, offset, "wrong side to move");
        if (stack_.size() >= kMaxStack) inconsistent(event, offset, "the stack is too deep");
      }
      Frame frame;
      frame.call = event.call;
      frame.callEvent = events_;
      frame.ply = static_cast<int>(stack_.size());
      stack_.push_back(frame);
      ++calls_;
      break;
    }
    case EventKind::kProbe: {  // Steps 1 and 2
      Frame& frame = top(event, offset);
      if (frame.probed) inconsistent(event, offset, "a second probe in one call");
      frame.probed = true;
      frame.probe = event.probe;
      frame.probeEntry = event.entry;
      if (event.probe.outcome == ProbeOutcome::kHit) {
        frame.draft =
            event.probe.endsNode ? event.entry.draft : hitStartDraft(event.entry.draft, frame.call.depth);
        frame.bestFrom = event.entry.from & ~kOffBoard;
        frame.bestTo = frame.draft ? asChar(event.entry.to) : 0;
        frame.slotEntry = event.entry;
        frame.slotEntry.lock = static_cast<int32_t>(frame.call.hashLock);
      } else {
        if (event.probe.endsNode) inconsistent(event, offset, "a miss cannot end the node");
        frame.draft = frame.bestFrom = frame.bestTo = 0;
      }
      break;
    }
    case EventKind::kNodeCounted: {
      Frame& frame = top(event, offset);
      if (!frame.probed || frame.nodeNumber != 0 || frame.probe.endsNode)
        inconsistent(event, offset, "a node counted twice or before its probe");
      frame.nodeNumber = ++nodes_;
      break;
    }
    case EventKind::kIteration: {  // Step 4
      Frame& frame = top(event, offset);
      if (frame.nodeNumber == 0 || frame.moveOnBoard || frame.mateProbe)
        inconsistent(event, offset, "an iteration outside a counted node");
      if (event.value != frame.draft + 1) inconsistent(event, offset, "the draft does not go up by one");
      frame.draft = event.value;
      frame.bestTo = asChar(withSneakBit(frame.bestTo));
      frame.best = frame.draft > 1 ? -kInfinity : frame.call.eval;
      frame.cutoff = false;
      break;
    }
    case EventKind::kKingCapture:  // Step 8
      if (top(event, offset).moveOnBoard) inconsistent(event, offset, "a king capture during a move");
      stack_.back().best = kInfinity;
      break;
    case EventKind::kCutoff: {
      Frame& frame = top(event, offset);
      if (frame.moveOnBoard || event.value != frame.best)
        inconsistent(event, offset, "a cutoff with another score");
      frame.cutoff = true;
      break;
    }
    case EventKind::kMoveMade: {  // Step 11
      Frame& frame = top(event, offset);
      const MoveRecord& move = event.move;
      if (frame.nodeNumber == 0 || frame.moveOnBoard || frame.cutoff)
        inconsistent(event, offset, "a move outside a counted node's scan");
      if (board_[move.from] != move.piece || !(move.piece & frame.call.side) ||
          board_[move.captureSquare] != move.victim)
        inconsistent(event, offset, "the move does not match the board");
      makeMove(board_, move, frame.call.side);
      frame.move = move;
      frame.moveOnBoard = true;
      ++frame.movesMade;
      break;
    }
    case EventKind::kMoveScored: {  // Steps 9, 11, 12
      Frame& frame = top(event, offset);
      if (!frame.moveOnBoard) inconsistent(event, offset, "a score without a move");
      unmakeMove(board_, frame.move, frame.call.side);
      frame.moveOnBoard = false;
      frame.lastScore = event.value;
      if (frame.move.flags & kMoveSneaked) {
        frame.best = event.value;
        frame.bestTo = asChar(frame.bestTo & ~kSneakBit);
      }
      break;
    }
    case EventKind::kBestMove: {  // Step 16
      Frame& frame = top(event, offset);
      if (frame.moveOnBoard) inconsistent(event, offset, "a best move during a move");
      frame.best = event.best;
      frame.bestFrom = event.bestFrom;
      frame.bestTo = asChar(event.bestTo);
      break;
    }
    case EventKind::kMateProbe: {  // Step 17
      Frame& frame = top(event, offset);
      if (frame.best != -kInfinity || frame.moveOnBoard)
        inconsistent(event, offset, "a mate probe with a move");
      frame.draft = kMateDraft;
      frame.mateProbe = true;
      break;
    }
    case EventKind::kStore: {  // Step 18
      Frame& frame = top(event, offset);
      if (frame.moveOnBoard || frame.mateProbe || frame.nodeNumber == 0)
        inconsistent(event, offset, "a store in the middle of a scan");
      if (event.slot != frame.probe.slot)
        inconsistent(event, offset, "a store to another slot than the probe's");
      if (isMateScore(frame.best)) frame.draft = kMateDraft;
      if (event.written && (event.after.score != frame.best || event.after.draft != asChar(frame.draft)))
        inconsistent(event, offset, "the stored entry does not hold the node's score and draft");
      frame.slotEntry = event.after;
      break;
    }
    case EventKind::kReturn: {  // Step 19
      Frame& frame = top(event, offset);
      if (!frame.probed || frame.moveOnBoard || frame.mateProbe)
        inconsistent(event, offset, "a return in the middle of a scan");
      if (!frame.probe.endsNode && event.best != frame.best)
        inconsistent(event, offset, "the return value is not the best score");
      stack_.pop_back();
      if (stack_.empty()) {
        finished_ = true;
        rootScore_ = event.best;
        break;
      }
      stack_.back().childScore = event.best;
      if (stack_.back().mateProbe) {
        stack_.back().best = wrappingNegation(event.best) / 2;  // (a damaged trace's INT_MIN wraps)
        stack_.back().mateProbe = false;
      }
      break;
    }
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
