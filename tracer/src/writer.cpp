// writer.cpp - the trace writer and the recorder that feeds it.
#include "umax/trace/writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "umax/replacing_file.h"
#include "umax/trace/compact.h"
#include "umax/trace/framing.h"
#include "umax/trace/records.h"

namespace umax::trace {

// ---- TraceWriter -----------------------------------------------------------

void checkTraceTarget(const std::string& path, bool force) {
  checkReplaceable(path, force, {kMagic, sizeof kMagic}, "trace");
}

std::string partialTracePath(const std::string& path) { return partialPath(path); }

TraceWriter::TraceWriter(const std::string& path, const TraceHeader& header, std::size_t longestRun)
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
  // Only a regular file is written (or a symbolic link replaced: never followed); /dev/null is
  // let through, written as it is, for umax-trace-bench (the tools refuse it). A FIFO would wait
  // for a reader for ever, a device would take a whole recording and keep nothing.
  if (path == "/dev/null") {
    file_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (file_ < 0) throw std::runtime_error("cannot open '" + path + "': " + std::strerror(errno));
  } else {
    // The trace is written to `.NAME.partial` beside it and renamed over NAME when complete
    // (finish()): a reader's open trace is never changed under it (truncating a mapped file
    // raised SIGBUS in the reader), and a killed recording leaves NAME as it was and its events so
    // far in the partial trace, which the tools read as a trace cut short. One writer per file:
    // the partial trace is held locked (claimPartialFile).
    file_ = claimPartialFile(path, {kMagic, sizeof kMagic}, "trace");
    partial_ = partialTracePath(path);
  }
  std::vector<uint8_t> bytes;
  writeHeader(header, bytes);
  out_.emplace(file_, kChunkHeadBytes + kMaxChunkPayload + kMaxRecordBytes, longestRun);
  out_->append(bytes.data(), bytes.size());
  out_->flush();
  if (const int error = out_->error()) {  // a header that cannot be written (a full disk) leaves no file
    out_.reset();
    ::close(file_);
    file_ = -1;
    if (!partial_.empty()) std::remove(partial_.c_str());
    throw std::runtime_error("cannot write '" + path + "': " + std::strerror(error));
  }
  issued_ = bytes.size();
  std::vector<uint8_t> checkpoint;
  SearchState(header).save(checkpoint);  // the state before the first event
  flushChunk(std::move(checkpoint), 0);
}

TraceWriter::~TraceWriter() {
  if (file_ < 0) return;
  out_.reset();  // an unfinished trace keeps its full chunks
  ::close(file_);
}

void TraceWriter::flushChunk(std::vector<uint8_t> checkpoint, uint64_t nodes) {
  if (!sealed_) {  // a trimmed trace drops the records after the seal
    const uint64_t events = cursor_->events;
    if (events != chunk_.firstEvent) {
      uint8_t* frame = out_->end();
      const auto bytes = static_cast<std::size_t>(cursor_->at - (frame + kChunkHeadBytes));
      std::vector<uint8_t> head;
      writeChunkHead(static_cast<uint32_t>(events - chunk_.firstEvent), frame + kChunkHeadBytes, bytes, head);
      std::memcpy(frame, head.data(), kChunkHeadBytes);
      chunk_.offset = issued_;
      index_.push_back(std::move(chunk_));
      issued_ += kChunkHeadBytes + bytes;
      out_->advance(kChunkHeadBytes + bytes);
    }
    chunk_ = {0, events, nodes, std::move(checkpoint)};
  }
  cursor_->at = out_->end() + kChunkHeadBytes;  // after the next chunk's head
  cursor_->full = cursor_->at + kChunkBytes;
}

void TraceWriter::seal() {
  if (file_ >= 0) sealed_ = true;
}

void TraceWriter::finish(const TraceResult& told) {
  if (file_ < 0) return;
  TraceResult result = told;
  if (sealed_)
    result.events = chunk_.firstEvent;  // the events in the file; nodes and move stay the think's
  else
    flushChunk({}, 0);
  out_->flush();
  if (out_->error() == 0) {  // a cut file gets no footer: readers see where it ends
    std::vector<uint8_t> footer;
    writeFooter(index_, result, issued_, footer);
    out_->append(footer.data(), footer.size());
    out_->flush();
  }
  writeErrno_ = out_->error();
  written_ = out_->written();
  out_.reset();
  // Complete: renamed over the target while still locked (a second writer is refused until the
  // name is free). A cut one stays the partial trace, the target as it was.
  if (writeErrno_ == 0 && !partial_.empty() && ::rename(partial_.c_str(), path_.c_str()) != 0) {
    writeErrno_ = errno;
    renameFailed_ = true;
  }
  if (::close(file_) != 0 && writeErrno_ == 0) writeErrno_ = errno;
  file_ = -1;
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
  if (writeErrno_ == 0) return "";
  if (renameFailed_)
    return "cannot put the complete trace '" + partial_ + "' in place of '" + path_ +
           "': " + std::strerror(writeErrno_) + " (the partial trace holds the whole think)";
  return "cannot write '" + path_ + "' after " + std::to_string(written_) +
         " bytes: " + std::strerror(writeErrno_) +
         (partial_.empty() ? std::string(" (the file keeps the events before, to its last whole chunk)")
                           : " ('" + path_ + "' is left as it was; '" + partial_ +
                                 "' keeps the events before, to its last whole chunk)");
}

// ---- Recorder (its hooks are in event_kinds.cpp) -------------------------------

Recorder::Recorder(TraceWriter& writer, const Engine& engine, ProgressCallback progress)
    : writer_(writer),
      engine_(engine),
      progress_(std::move(progress)),
      frames_(kMaxStack),
      variant_(engine.variant()) {
  writer_.lendCursor(cursor_);
}

std::vector<uint8_t> Recorder::checkpoint() const {
  std::vector<uint8_t> bytes;
  saveCheckpoint(engine_.position().board, frames_.data(), depth_, cursor_.events, nodes_, calls_, bytes);
  return bytes;
}

void Recorder::flushChunk() {
  writer_.flushChunk(checkpoint(), nodes_);
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
  header.variant = engine.variant();
  // A think to --depth D has no budget: its count starts at 0 (Engine::searchRoot).
  if (header.variant.depth) header.startNodes = 0;
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

// The think, recorded into `writer`, which it finishes. An exception that
// unwinds it (the recorder's checks, memory; not a stop or a failed write)
// leaves the engine as before, its dummy slot emptied as every store leaves it.
RecordedThink recordInto(TraceWriter& writer, Engine& engine, long budget, ProgressCallback progress,
                         uint64_t byteLimit, const std::function<std::string()>& notPlayed = {}) {
  RecordedThink recorded;
  const Position before = engine.position();
  try {
    Recorder recorder(writer, engine, std::move(progress));
    recorder.setByteLimit(byteLimit);
    recorded.result = engine.think(budget, recorder, Engine::compiledSearch<Recorder>());
    recorded.trimmed = recorder.trimmed();
  } catch (...) {
    engine.setPosition(before);
    engine.clearHashSlot(0);
    throw;
  }
  const ThinkResult& result = recorded.result;
  writer.finish({result.score, result.from, result.to, static_cast<uint64_t>(result.nodes), writer.events(),
                 notPlayed ? notPlayed() : std::string()});
  recorded.traceFailure = writer.failure();
  return recorded;
}

}  // namespace

RecordedThink recordThinkReporting(Engine& engine, long budget, const std::string& path,
                                   const std::string& fen, const std::string& moves,
                                   ProgressCallback progress, uint64_t byteLimit,
                                   const std::function<std::string()>& notPlayed) {
  std::optional<TraceWriter> writer;
  try {
    writer.emplace(path, makeHeader(engine, budget, fen, moves));
  } catch (const std::runtime_error& error) {
    return {engine.think(budget), error.what()};
  }
  return recordInto(*writer, engine, budget, std::move(progress), byteLimit, notPlayed);
}

ThinkResult recordThink(Engine& engine, long budget, const std::string& path, const std::string& fen,
                        const std::string& moves, ProgressCallback progress) {
  TraceWriter writer(path, makeHeader(engine, budget, fen, moves));
  const RecordedThink recorded = recordInto(writer, engine, budget, std::move(progress), 0);
  if (!recorded.traceFailure.empty()) throw std::runtime_error(recorded.traceFailure);
  return recorded.result;
}

}  // namespace umax::trace
