// writer.cpp - the trace writer and the recorder that feeds it.
#include "umax/trace/writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "umax/trace/compact.h"
#include "umax/trace/framing.h"
#include "umax/trace/records.h"

namespace umax::trace {

// ---- TraceWriter -----------------------------------------------------------

namespace {

// A path that names something other than a regular file is refused before
// anything is written: open() of a FIFO would wait for a reader for ever,
// and /dev/null or a device would take a whole recording and keep nothing.
// The file is opened without waiting (O_NONBLOCK) and checked again once
// open, so a FIFO put there in between is refused too. One device is let
// through: /dev/null, named as such, where umax-trace-bench measures the
// recorder without a file (the tools' command lines refuse it before a
// search, umax-trace record -o among them).
bool isWritable(const std::string& path, const struct stat& status) {
  return S_ISREG(status.st_mode) || (S_ISCHR(status.st_mode) && path == "/dev/null");
}

int openTraceFile(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0 && !isWritable(path, status))
    throw std::runtime_error("cannot write a trace to '" + path +
                             "': not a regular file (a folder, FIFO or device)");
  const int file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0666);
  if (file < 0) throw std::runtime_error("cannot create '" + path + "': " + std::strerror(errno));
  if (::fstat(file, &status) != 0 || !isWritable(path, status)) {
    ::close(file);
    throw std::runtime_error("cannot write a trace to '" + path + "': not a regular file");
  }
  ::fcntl(file, F_SETFL, ::fcntl(file, F_GETFL) & ~O_NONBLOCK);
  return file;
}

}  // namespace

TraceWriter::TraceWriter(const std::string& path, const TraceHeader& header)
    : path_(path), root_(header.root) {
  if (header.version != kFormatVersion)
    throw std::logic_error("the trace writer writes format version " + std::to_string(kFormatVersion) +
                           " only");
  // What the reader could not read back is not written (kMaxHeaderString).
  for (const auto& [name, text] : {std::pair{"the FEN", &header.fen}, {"the moves", &header.moves}})
    if (text->size() > kMaxHeaderString)
      throw std::runtime_error("cannot record a trace: " + std::string(name) + " is " +
                               std::to_string(text->size()) + " characters long, a trace holds at most " +
                               std::to_string(kMaxHeaderString));
  file_ = openTraceFile(path);
  std::vector<uint8_t> bytes;
  writeHeader(header, bytes);
  writeOut(bytes.data(), bytes.size());
  if (writeFailed_) {  // a header that cannot be written (a full disk) leaves no file
    ::close(file_);
    file_ = -1;
    std::remove(path.c_str());
    throw std::runtime_error("cannot write '" + path + "': " + std::strerror(writeErrno_));
  }
  issued_ = bytes.size();
  batchOffset_ = issued_;
  batch_.resize(kPageBytes + kChunksPerWrite * (kChunkHeadBytes + kMaxChunkPayload) + kMaxRecordBytes);
  restartChunk();
  SearchState(header).save(chunk_.checkpoint);  // the state before the first event
}

TraceWriter::~TraceWriter() {
  if (file_ < 0) return;
  writeOut(batch_.data(), batchEnd_);  // an unfinished trace keeps its full chunks
  releaseReserve();
  ::close(file_);
}

// Disk space is reserved ahead of the writes in large steps, beyond the
// end of the file (its size stays what was written, so a cut file still
// ends after its last whole chunk): the file system does its work for new
// blocks once per step instead of once per page (measured on the
// performance page). A file system that cannot reserve simply does without.
void TraceWriter::reserveAhead(uint64_t end) {
#if defined(__linux__)
  if (end <= reserved_) return;
  const uint64_t from = reserved_;
  reserved_ = (end / kReserveStep + 1) * kReserveStep;
  ::fallocate(file_, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(from), static_cast<off_t>(reserved_ - from));
#else
  (void)end;
#endif
}

// Gives back the space reserved beyond the end of the file (on ext4,
// truncating to the file's own size frees the blocks past it).
void TraceWriter::releaseReserve() {
  if (reserved_ == 0) return;
  const off_t size = ::lseek(file_, 0, SEEK_END);
  if (size >= 0 && ::ftruncate(file_, size) == 0) reserved_ = 0;
}

// Writes `size` bytes to the file; a crash after this keeps them. A failed
// write is noted, not thrown: the search goes on as if untraced, the file
// ends where the write broke off and nothing more is written.
void TraceWriter::writeOut(const uint8_t* bytes, std::size_t size) {
  while (size > 0 && !writeFailed_) {
    const ssize_t written = ::write(file_, bytes, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      writeErrno_ = written < 0 ? errno : ENOSPC;
      writeFailed_ = true;
      return;
    }
    written_ += static_cast<uint64_t>(written);
    bytes += written;
    size -= static_cast<std::size_t>(written);
  }
}

// The batch goes to the file: up to the last page boundary it reaches, or `whole`. What is left of the last
// page begins the next batch.
void TraceWriter::writeBatch(bool whole) {
  reserveAhead(issued_);
  const std::size_t size =
      whole ? batchEnd_
            : static_cast<std::size_t>((batchOffset_ + batchEnd_) / kPageBytes * kPageBytes - batchOffset_);
  const std::size_t left = batchEnd_ - size;
  writeOut(batch_.data(), size);
  std::memmove(batch_.data(), batch_.data() + size, left);
  batchEnd_ = left;
  batchOffset_ += size;
  batchedChunks_ = 0;
}

void TraceWriter::flushChunk(std::vector<uint8_t> checkpoint, uint64_t events, uint64_t nodes) {
  if (sealed_) {  // a trimmed trace: the records after the seal are dropped
    restartChunk();
    return;
  }
  if (cursor_->events != events) throw std::logic_error("trace writer: the event count does not add up");
  if (events != chunk_.firstEvent) {
    uint8_t* frame = batch_.data() + batchEnd_;
    const auto bytes = static_cast<std::size_t>(cursor_->at - (frame + kChunkHeadBytes));
    std::vector<uint8_t> head;
    writeChunkHead(static_cast<uint32_t>(events - chunk_.firstEvent), frame + kChunkHeadBytes, bytes, head);
    std::memcpy(frame, head.data(), kChunkHeadBytes);
    chunk_.offset = issued_;
    index_.push_back(std::move(chunk_));
    batchEnd_ += kChunkHeadBytes + bytes;
    issued_ += kChunkHeadBytes + bytes;
    if (++batchedChunks_ == kChunksPerWrite) writeBatch(false);
  }
  chunk_ = {0, events, nodes, std::move(checkpoint)};
  restartChunk();
}

// The next chunk's records start after its head, past the full chunks.
void TraceWriter::restartChunk() {
  cursor_->at = batch_.data() + batchEnd_ + kChunkHeadBytes;
  cursor_->full = cursor_->at + kChunkBytes;
}

void TraceWriter::seal() {
  if (sealed_ || finished_) return;
  if (cursor_->events != chunk_.firstEvent)
    throw std::logic_error("trace writer: seal() needs a flushChunk() first");
  sealedEvents_ = chunk_.firstEvent;
  writeBatch(true);
  sealed_ = true;
}

void TraceWriter::finish(const TraceResult& told) {
  if (finished_) return;
  TraceResult result = told;
  if (sealed_) {
    result.events = sealedEvents_;  // the events in the file; nodes and move stay the think's
  } else {
    flushChunk({}, events(), 0);
  }
  writeBatch(true);
  if (!writeFailed_) {  // a cut file gets no footer: readers see where it ends
    std::vector<uint8_t> footer;
    writeFooter(index_, result, issued_, footer);
    writeOut(footer.data(), footer.size());
  }
  releaseReserve();
  if (::close(file_) != 0 && !writeFailed_) {
    writeErrno_ = errno;
    writeFailed_ = true;
  }
  file_ = -1;
  finished_ = true;
}

void TraceWriter::lendCursor(ChunkCursor& cursor) {
  if (cursor_ != &ownCursor_) throw std::logic_error("trace writer: the cursor is lent already");
  cursor = ownCursor_;
  cursor_ = &cursor;
}

void TraceWriter::returnCursor() {
  ownCursor_ = *cursor_;
  cursor_ = &ownCursor_;
}

std::string TraceWriter::failure() const {
  if (!writeFailed_) return "";
  return "cannot write '" + path_ + "' after " + std::to_string(written_) +
         " bytes: " + std::strerror(writeErrno_) +
         " (the file keeps the events before, to its last whole chunk)";
}

// ---- Recorder --------------------------------------------------------------
//
// Each hook writes its record in the layout of compact.h (what the state
// predicts is left out, unless the search did something else) and applies
// its event's transition to the open calls (state.h), as SearchState::apply
// does when the record is read back.

namespace {

/// Fills `record` from a move the search made.
[[gnu::always_inline]] inline void fillRecord(MoveRecord& record, const Move& move, int remaining,
                                              bool sneaked) {
  record.from = move.from;
  record.to = move.to;
  record.piece = move.piece;
  record.victim = move.victim;
  record.captureSquare = move.captureSquare;
  record.rookFrom = move.rookFrom;
  record.rookTo = move.passedSquare;
  record.remaining = remaining;
  record.flags = 0;
  if (sneaked) record.flags |= kMoveSneaked;
  if (move.captureSquare != move.to) record.flags |= kMoveEnPassant;
  if (isOnBoard(move.rookFrom)) record.flags |= kMoveCastling;
  if (move.passedSquare != kNoSquare) record.flags |= kMoveHasF;
  // search.cpp Step 11: a pawn whose next step would leave the board promotes.
  if (promotes(move.type, move.to, move.step)) record.flags |= kMovePromotion;
}

}  // namespace

MoveRecord recordOf(const Move& move, int remaining, bool sneaked) {
  MoveRecord record;
  fillRecord(record, move, remaining, sneaked);
  return record;
}

Recorder::Recorder(TraceWriter& writer, const Engine& engine, ProgressCallback progress)
    : writer_(writer), engine_(engine), progress_(std::move(progress)), frames_(kMaxStack) {
  writer_.lendCursor(cursor_);
}

Recorder::~Recorder() { writer_.returnCursor(); }

std::vector<uint8_t> Recorder::checkpoint() const {
  // A frame that has made no move still holds the last move of an earlier
  // call at its depth (pushFrame leaves it): the checkpoint has none.
  std::vector<Frame> frames(frames_.begin(), frames_.begin() + static_cast<std::ptrdiff_t>(depth_));
  for (Frame& frame : frames)
    if (frame.movesMade == 0) frame.move = MoveRecord{};
  std::vector<uint8_t> bytes;
  saveCheckpoint(engine_.position().board, frames.data(), depth_, cursor_.events, nodes_, calls_, bytes);
  return bytes;
}

void Recorder::flushChunk() {
  writer_.flushChunk(checkpoint(), cursor_.events, nodes_);
  if (byteLimit_ && !writer_.sealed() && writer_.bytesIssued() >= byteLimit_) trimPending_ = true;
}

// The trace ends here: the chunk being filled is written with the
// checkpoint of this state, and the writer drops the rest.
void Recorder::trim() {
  trimPending_ = false;
  if (writer_.sealed()) return;
  flushChunk();
  trimPending_ = false;
  writer_.seal();
}

// A root iteration begins: trim before it if it would pass the limit
// (three times the last iteration's bytes is the guess).
void Recorder::atRootIteration() {
  const uint64_t now = writer_.bytesIssued();
  const uint64_t last = now - iterationStartBytes_;
  iterationStartBytes_ = now;
  if (!writer_.sealed() && now > 0 && now + 3 * last > byteLimit_) trim();
}

inline void Recorder::endRecord(uint8_t* end, uint32_t events) {
  if (cursor_.commit(end, events)) [[unlikely]]
    flushChunk();
}

[[gnu::always_inline]] inline void Recorder::writeCallRecord(RecordWriter& write, const NodeCall& call) {
  // A reply's key and lock are not checked: the reader computes them with the
  // engine's own hashChange from the same move (compact.h, predictChild).
  NodeCall predicted;
  if (depth_ == 0 || !predictChild<false>(*top_, predicted) || !sameCall<false>(call, predicted))
      [[unlikely]] {
    write.at = writeUnpredictedCall(write.at, call);
    return;
  }
  write.u8(recordTag(EventKind::kCall, 0));
  write.zigzag(wrappingDifference(call.eval, predicted.eval));
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
  if (depth_ == kMaxStack) [[unlikely]]
    throw std::runtime_error("the search is too deep to record");
  Frame& frame = frames_[depth_];
  openCall(frame, call, cursor_.events, static_cast<int>(depth_));
  top_ = &frame;
  ++depth_;
  ++calls_;
}

[[gnu::always_inline]] inline void Recorder::writeProbeRecord(RecordWriter& write, const ProbeReport& report,
                                                              const HashEntry& entry) {
  const bool usualCount = report.slotsProbed == (report.outcome == ProbeOutcome::kFull ? kProbeSlots : 1);
  write.u8(recordTag(EventKind::kProbe, probeBits(report) | (usualCount ? kUsualSlotCount : 0)));
  if (!usualCount) write.u8(report.slotsProbed);
  if (report.outcome == ProbeOutcome::kHit) entryContents(write, entry);
}

[[gnu::always_inline]] inline void Recorder::recordProbe(RecordWriter& write, const ProbeReport& report,
                                                         const HashEntry& entry) {
  writeProbeRecord(write, report, entry);
  takeProbe(*top_, report, entry);
}

[[gnu::always_inline]] inline void Recorder::recordNode(RecordWriter& write) {
  write.u8(recordTag(EventKind::kNodeCounted, 0));
  top_->nodeNumber = ++nodes_;
}

// The call returned `score`: the frame below becomes the top.
[[gnu::always_inline]] inline void Recorder::popFrame(int score) {
  --depth_;
  top_ = depth_ ? top_ - 1 : nullptr;  // the frames lie in one vector
  if (top_) takeChildScore(*top_, score);
}

// Step 19: the call returns.
void Recorder::onReturn(int score, int bestFrom, int bestTo, int draft) {
  if (!(top_ && top_->probe.endsNode)) [[unlikely]]
    failed("told a return it works out itself (wantsReturns() is false)");
  RecordWriter write{cursor_.at};
  writeBestValues(write, EventKind::kReturn,
                  {score, asSignedChar(bestFrom), asSignedChar(bestTo), asSignedChar(draft)},
                  predictedReturn(*top_));
  popFrame(score);
  endRecord(write.at);
}

// A call's kCall and kProbe are never the last records of a chunk: onEnter
// writes them with the record after them in one go, and the hooks one at a
// time leave the chunk as it does (a full chunk is flushed after that third
// record), so the two ways write the same file.
void Recorder::onCall(const NodeCall& call) {
  RecordWriter write{cursor_.at};
  writeCallRecord(write, call);
  pushFrame(call);
  cursor_.commit(write.at);
}

void Recorder::onProbe(const ProbeReport& report, const HashEntry& entry) {
  RecordWriter write{cursor_.at};
  recordProbe(write, report, entry);
  cursor_.commit(write.at);
}

void Recorder::onNodeCounted(int) {
  RecordWriter write{cursor_.at};
  recordNode(write);
  endRecord(write.at);
  if (nodes_ % 65536 == 0 && progress_) progress_(nodes_, rootDraft_);
  if (trimPending_) [[unlikely]]
    trim();
}

// One call through the interface for a call's first three records, written
// in one go. A probe that ends the node returns the entry's values, as
// SearchObserver::onEnter passes them on, which is what the reader predicts
// (predictedReturn): the kReturn record is its tag alone.
void Recorder::onEnter(const NodeCall& call, const ProbeReport& report, const HashEntry& entry, int) {
  if (report.endsNode && depth_ != 0) return recordHashCutoff(call, report, entry);
  RecordWriter write{cursor_.at};
  writeCallRecord(write, call);
  pushFrame(call);
  recordProbe(write, report, entry);
  if (report.endsNode) {  // at the root
    write.u8(recordTag(EventKind::kReturn, 0));
    popFrame(entry.score);
    endRecord(write.at, 3);
    return;
  }
  recordNode(write);
  endRecord(write.at, 3);
  if (nodes_ % 65536 == 0 && progress_) progress_(nodes_, rootDraft_);
  if (trimPending_) [[unlikely]]
    trim();
}

// A call that the hash probe ends at once (Step 2) leaves no open frame:
// its three records are written without one, and the parent gets its score
// as popFrame gives it. (The frame would be pushed and popped again before
// a chunk could end, so no checkpoint ever holds it.)
void Recorder::recordHashCutoff(const NodeCall& call, const ProbeReport& report, const HashEntry& entry) {
  RecordWriter write{cursor_.at};
  writeCallRecord(write, call);
  if (depth_ == kMaxStack) [[unlikely]]
    throw std::runtime_error("the search is too deep to record");
  ++calls_;
  writeProbeRecord(write, report, entry);
  write.u8(recordTag(EventKind::kReturn, 0));  // the entry's values: predictedReturn
  takeChildScore(*top_, entry.score);
  endRecord(write.at, 3);
}

void Recorder::onIteration(int draft) {  // Step 4
  if (depth_ == 1 && byteLimit_) [[unlikely]]
    atRootIteration();
  RecordWriter write{cursor_.at};
  write.u8(recordTag(EventKind::kIteration, 0));  // the draft goes up by one: no field
  if (depth_ == 1) rootDraft_ = draft;
  if (draft != top_->draft + 1) [[unlikely]]
    failed("an iteration's draft does not go up by one");
  startIteration(*top_, draft);
  endRecord(write.at);
}

void Recorder::onKingCapture(int from, int to, bool badCastling) {  // Step 8
  RecordWriter write{cursor_.at};
  write.u8(recordTag(EventKind::kKingCapture, badCastling ? 1 : 0));
  write.u8(from);
  write.u8(to);
  takeKingCapture(*top_);
  endRecord(write.at);
}

void Recorder::onCutoff(int best) {  // Step 9
  RecordWriter write{cursor_.at};
  write.u8(recordTag(EventKind::kCutoff, 0));  // the score is the node's best: no field
  if (best != top_->best) [[unlikely]]
    failed("a cutoff with another score than the node's best");
  takeCutoff(*top_);
  endRecord(write.at);
}

void Recorder::onMoveMade(const Move& move, int remaining, bool sneaked) {  // Step 11
  const Frame& frame = *top_;
  // Most moves are plain: no special square, no promotion, the usual depth.
  // They are told apart in a few comparisons; the rest take the general way.
  const bool promoted = promotes(move.type, move.to, move.step);
  const bool usual = move.captureSquare == move.to && move.rookFrom == kNoSquare && !promoted &&
                     remaining == remainingDepth(frame.draft, move.to, frame.call.lastTo);
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
  record.rookTo = kShape == kDoubleStepMove ? move.passedSquare : kNoSquare;
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
  if (shape != kExplicitMove && isShapedMove(frame.move, shape, frame)) [[likely]]
    return writeMoveMade(shape, sneaked, move);
  takeMoveMade(frame);
  RecordWriter write{cursor_.at};
  write.u8(recordTag(EventKind::kMoveMade, kExplicitMove << 1));
  writeMove(write, frame.move, MoveLayout::kEvent);
  endRecord(write.at);
}

void Recorder::onMoveScored(int score) {  // Steps 12-15
  RecordWriter write{cursor_.at};
  Frame& frame = *top_;
  if (score == predictedScore(frame)) [[likely]] {
    write.u8(recordTag(EventKind::kMoveScored, 0));
  } else {
    write.u8(recordTag(EventKind::kMoveScored, kExplicitValues));
    write.zigzag(score);
  }
  takeMoveScored(frame, score);
  endRecord(write.at);
}

void Recorder::onBestMove(int best, int from, int to) {  // Step 16
  RecordWriter write{cursor_.at};
  Frame& frame = *top_;
  writeBestValues(write, EventKind::kBestMove, {best, asSignedChar(from), asSignedChar(to), 0},
                  predictedBestMove(frame));
  takeBestMove(frame, best, from, to);
  endRecord(write.at);
}

void Recorder::onMateProbe() {  // Step 17
  RecordWriter write{cursor_.at};
  write.u8(recordTag(EventKind::kMateProbe, 0));
  startMateProbe(*top_);
  endRecord(write.at);
}

void Recorder::onStore(uint32_t slot, const HashEntry& before, const HashEntry& after, bool written) {
  Frame& frame = *top_;  // Step 18
  if (slot != frame.probe.slot) [[unlikely]]
    failed("a store to another slot than the probe's");
  const int beforeKind = isEmptyEntry(before)                 ? kBeforeEmpty
                         : sameEntry(before, frame.slotEntry) ? kBeforeKnown
                                                              : kBeforeFollows;
  const bool afterFollows = written && !sameEntry(after, predictedStore(frame));
  takeStore(frame, written ? after : before);
  if (beforeKind == kBeforeFollows || afterFollows) [[unlikely]] {
    recordStoreWithEntries(before, after, written, beforeKind, afterFollows);
  } else {
    RecordWriter write{cursor_.at};
    write.u8(recordTag(EventKind::kStore, (written ? 1 : 0) | beforeKind << 1));
    endRecord(write.at);
  }
  if (!iterationFollows(frame)) recordDerivedReturn(frame);
}

// Step 4's loop condition (deepensAgain) after the iteration to frame.draft.
[[gnu::always_inline]] inline bool Recorder::iterationFollows(const Frame& frame) const {
  return deepensAgain(frame.draft, frame.call.depth, frame.call.lastTo, engine_.nodeCount());
}

// Step 19 after the last store: the call returns its best score and move
// and the loop counter one past its draft, just what predictedReturn gives,
// so the record is its tag alone. Its own record after the store's, as the
// search's onReturn would write it: a chunk ends at the same place.
[[gnu::always_inline]] inline void Recorder::recordDerivedReturn(const Frame& frame) {
  RecordWriter write{cursor_.at};
  write.u8(recordTag(EventKind::kReturn, 0));
  popFrame(frame.best);
  endRecord(write.at);
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

void Recorder::failed(const char* what) { throw std::logic_error(std::string("trace recorder: ") + what); }

// ---- recording a think -----------------------------------------------------

TraceHeader makeHeader(const Engine& engine, long budget, const std::string& fen, const std::string& moves) {
  TraceHeader header;
  header.lineMapVersion = kLineMapVersion;
  header.budget = budget;
  header.startNodes = static_cast<uint32_t>(kNodeLimit - budget);
  header.position = engine.position();
  header.root = {header.position.side,     -kInfinity,   kInfinity, header.position.eval, 1, 1,
                 header.position.epSquare, kThinkMarker, 0};
  header.fen = fen;
  header.moves = moves;
  header.hashSlotBits = engine.hashSlotBits();
  if (engine.hashTableUnused()) return header;  // an unused table holds no entry: no scan
  const std::span<const HashEntry> table = engine.hashTable();
  const HashEntry* entries = table.data();
  const auto slots = static_cast<uint32_t>(table.size());
  for (uint32_t slot = 0; slot < slots; ++slot)
    if (entries[slot].lock != 0) [[unlikely]]
      header.initialEntries.emplace_back(slot, entries[slot]);
  return header;
}

namespace {

/// The think itself: an exception that still unwinds it (the recorder's own
/// checks, memory) leaves the engine as before the think: its board, e.p.
/// and castling state and eval put back, the dummy slot emptied as every
/// store leaves it. (A stop ends the think inside Engine::think, which puts
/// the board back itself; a failed write does not unwind it at all.)
ThinkResult thinkRestoring(Engine& engine, long budget, SearchObserver& observer) {
  const Position before = engine.position();
  try {
    return engine.think(budget, observer);
  } catch (...) {
    engine.setPosition(before);
    engine.clearHashSlot(0);
    throw;
  }
}

}  // namespace

RecordedThink recordThinkReporting(Engine& engine, long budget, const std::string& path,
                                   const std::string& fen, const std::string& moves,
                                   ProgressCallback progress, uint64_t byteLimit) {
  RecordedThink recorded;
  std::optional<TraceWriter> writer;
  try {
    writer.emplace(path, makeHeader(engine, budget, fen, moves));
  } catch (const std::runtime_error& error) {
    recorded.traceFailure = error.what();
    recorded.result = engine.think(budget);
    return recorded;
  }
  {
    Recorder recorder(*writer, engine, std::move(progress));
    recorder.setByteLimit(byteLimit);
    recorded.result = thinkRestoring(engine, budget, recorder);
    recorded.trimmed = recorder.trimmed();
  }
  const ThinkResult& result = recorded.result;
  writer->finish(
      {result.score, result.from, result.to, static_cast<uint64_t>(result.nodes), writer->events()});
  recorded.traceFailure = writer->failure();
  return recorded;
}

ThinkResult recordThink(Engine& engine, long budget, const std::string& path, const std::string& fen,
                        const std::string& moves, ProgressCallback progress) {
  TraceWriter writer(path, makeHeader(engine, budget, fen, moves));
  ThinkResult result;
  {
    Recorder recorder(writer, engine, std::move(progress));
    result = thinkRestoring(engine, budget, recorder);
  }
  writer.finish({result.score, result.from, result.to, static_cast<uint64_t>(result.nodes), writer.events()});
  if (!writer.failure().empty()) throw std::runtime_error(writer.failure());
  return result;
}

}  // namespace umax::trace
