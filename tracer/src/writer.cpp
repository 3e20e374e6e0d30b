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

std::FILE* openTraceFile(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0 && !isWritable(path, status))
    throw std::runtime_error("cannot write a trace to '" + path +
                             "': not a regular file (a folder, FIFO or device)");
  const int descriptor = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0666);
  if (descriptor < 0) throw std::runtime_error("cannot create '" + path + "': " + std::strerror(errno));
  if (::fstat(descriptor, &status) != 0 || !isWritable(path, status)) {
    ::close(descriptor);
    throw std::runtime_error("cannot write a trace to '" + path + "': not a regular file");
  }
  ::fcntl(descriptor, F_SETFL, ::fcntl(descriptor, F_GETFL) & ~O_NONBLOCK);
  std::FILE* file = ::fdopen(descriptor, "wb");
  if (!file) {
    ::close(descriptor);
    throw std::runtime_error("cannot create '" + path + "': " + std::strerror(errno));
  }
  return file;
}

}  // namespace

TraceWriter::TraceWriter(const std::string& path, const TraceHeader& header)
    : path_(path), root_(header.root), version_(header.version) {
  // What the reader could not read back is not written (kMaxHeaderString).
  for (const auto& [name, text] : {std::pair{"the FEN", &header.fen}, {"the moves", &header.moves}})
    if (text->size() > kMaxHeaderString)
      throw std::runtime_error("cannot record a trace: " + std::string(name) + " is " +
                               std::to_string(text->size()) + " characters long, a trace holds at most " +
                               std::to_string(kMaxHeaderString));
  file_ = openTraceFile(path);
  std::vector<uint8_t> bytes;
  writeHeader(header, bytes);
  // The batches are written past the stream's buffer: the header is flushed
  // first. A header that cannot be written (a full disk) leaves no file.
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size() || std::fflush(file_) != 0) {
    const std::string why = std::strerror(errno);
    std::fclose(file_);
    file_ = nullptr;
    std::remove(path.c_str());
    throw std::runtime_error("cannot write '" + path + "': " + why);
  }
  issued_ = bytes.size();
  written_ = issued_;
  batchOffset_ = issued_;
  batch_.bytes.resize(kPageBytes + kChunksPerWrite * (kChunkHeadBytes + kMaxChunkPayload) + kMaxRecordBytes);
  restartChunk();
  SearchState(header).save(chunkCheckpoint_);  // the state before the first event
}

TraceWriter::~TraceWriter() {
  // An unfinished trace stays readable up to its last full chunk.
  if (file_) {
    if (!writeFailed_) {
      try {
        writeOut(batch_.bytes.data(), batch_.end);
      } catch (const std::exception&) {  // a destructor does not throw: the file ends earlier
      }
    }
    releaseReserve();
    std::fclose(file_);
  }
}

// Disk space is reserved ahead of the writes in large steps, beyond the
// end of the file (its size stays what was written, so a cut file still
// ends after its last whole chunk). The file system then does its work
// for new blocks once per step instead of once per page written: measured
// on ext4, about 0.03x to 0.07x less CPU for a traced think. A file
// system that cannot reserve (or /dev/null) simply does without.
void TraceWriter::reserveAhead(uint64_t end) {
#if defined(__linux__)
  if (end <= reserved_) return;
  const uint64_t from = reserved_;
  reserved_ = (end / kReserveStep + 1) * kReserveStep;
  ::fallocate(::fileno(file_), FALLOC_FL_KEEP_SIZE, static_cast<off_t>(from),
              static_cast<off_t>(reserved_ - from));
#else
  (void)end;
#endif
}

// Gives back the space reserved beyond the end of the file (on ext4,
// truncating to the file's own size frees the blocks past it).
void TraceWriter::releaseReserve() {
  if (reserved_ == 0 || std::fflush(file_) != 0) return;
  const off_t size = ::lseek(::fileno(file_), 0, SEEK_END);
  if (size >= 0 && ::ftruncate(::fileno(file_), size) == 0) reserved_ = 0;
}

// The footer through the stream: a failure is noted as the batches' are.
void TraceWriter::writeBytes(const uint8_t* bytes, std::size_t size) {
  if (size == 0 || writeFailed_) return;
  if (std::fwrite(bytes, 1, size, file_) != size || std::fflush(file_) != 0) {
    writeErrno_ = errno;
    writeFailed_ = true;
    return;
  }
  written_ += size;
}

// Writes `size` bytes straight to the file (the stream's buffer is empty:
// only the header went through it, and the footer follows the last batch).
// A crash after this keeps them.
void TraceWriter::writeOut(const uint8_t* bytes, std::size_t size) {
  if (writeFailed_) return;  // the file ends where the failed write broke off
  while (size > 0) {
    const ssize_t written = ::write(::fileno(file_), bytes, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      // Noted, not thrown: the search goes on as if untraced, and the file
      // keeps what was written (readable to its last whole chunk).
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
      whole ? batch_.end
            : static_cast<std::size_t>((batchOffset_ + batch_.end) / kPageBytes * kPageBytes - batchOffset_);
  const std::size_t left = batch_.end - size;
  writeOut(batch_.bytes.data(), size);
  std::memmove(batch_.bytes.data(), batch_.bytes.data() + size, left);
  batch_.end = left;
  batchOffset_ += size;
  batchedChunks_ = 0;
}

void TraceWriter::flushChunk(std::vector<uint8_t> checkpoint, uint64_t events, uint64_t nodes) {
  if (sealed_) {  // a trimmed trace: the records after the seal are dropped
    restartChunk();
    return;
  }
  if (cursor_->events != events) throw std::logic_error("trace writer: the event count does not add up");
  if (events != chunkFirstEvent_) {
    index_.push_back({issued_, chunkFirstEvent_, chunkFirstNodes_});
    checkpoints_.insert(checkpoints_.end(), chunkCheckpoint_.begin(), chunkCheckpoint_.end());
    checkpointSizes_.push_back(chunkCheckpoint_.size());
    uint8_t* frame = batch_.bytes.data() + batch_.end;
    const auto bytes = static_cast<std::size_t>(cursor_->at - (frame + kChunkHeadBytes));
    std::vector<uint8_t> head;
    writeChunkHead(static_cast<uint32_t>(events - chunkFirstEvent_), frame + kChunkHeadBytes, bytes, head);
    std::memcpy(frame, head.data(), kChunkHeadBytes);
    batch_.end += kChunkHeadBytes + bytes;
    issued_ += kChunkHeadBytes + bytes;
    if (++batchedChunks_ == kChunksPerWrite) writeBatch(false);
  }
  chunkFirstEvent_ = events;
  chunkFirstNodes_ = nodes;
  chunkCheckpoint_ = std::move(checkpoint);
  restartChunk();
}

// The next chunk's records start after its head, past the full chunks.
void TraceWriter::restartChunk() {
  cursor_->at = batch_.bytes.data() + batch_.end + kChunkHeadBytes;
  cursor_->full = cursor_->at + kChunkBytes;
}

void TraceWriter::seal() {
  if (sealed_ || finished_) return;
  if (cursor_->events != chunkFirstEvent_)
    throw std::logic_error("trace writer: seal() needs a flushChunk() first");
  sealedEvents_ = chunkFirstEvent_;
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
    writeFooter(index_, result, checkpoints_, checkpointSizes_, issued_, footer);
    writeBytes(footer.data(), footer.size());
  }
  releaseReserve();
  if (std::fclose(file_) != 0 && !writeFailed_) {
    writeErrno_ = errno;
    writeFailed_ = true;
  }
  file_ = nullptr;
  finished_ = true;
}

std::string TraceWriter::failure() const {
  if (!writeFailed_) return "";
  return "cannot write '" + path_ + "' after " + std::to_string(written_) +
         " bytes: " + std::strerror(writeErrno_) +
         " (the file keeps the events before, to its last whole chunk)";
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

// ---- Recorder --------------------------------------------------------------
//
// What the recorder does besides the search's hooks: its checkpoints, the
// chunks it hands over, the byte limit. Each hook, which writes its event's
// record and applies its transition, is in event_kinds.cpp, beside the
// replay of the same kind.

Recorder::Recorder(TraceWriter& writer, const Engine& engine, ProgressCallback progress)
    : writer_(writer), engine_(engine), progress_(std::move(progress)), frames_(kMaxStack) {
  if (writer.version() != kFormatVersion)
    throw std::logic_error("the recorder writes format version " + std::to_string(kFormatVersion) + " only");
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
