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
// What the recorder does besides the search's hooks: its checkpoints, the
// chunks it hands over, the byte limit. Each hook, which writes its event's
// record and applies its transition, is in event_kinds.cpp, beside the
// replay of the same kind.

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
