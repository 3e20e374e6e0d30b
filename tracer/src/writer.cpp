// writer.cpp - the trace writer and the recorder that feeds it.
#include "umax/trace/writer.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "umax/trace/framing.h"

namespace umax::trace {

// ---- TraceWriter -----------------------------------------------------------

TraceWriter::TraceWriter(const std::string& path, const TraceHeader& header, Threads threads)
    : path_(path), state_(header), threaded_(threads == Threads::kWriterThread) {
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) throw std::runtime_error("cannot create '" + path + "': " + std::strerror(errno));
  std::vector<uint8_t> bytes;
  writeHeader(header, bytes);
  writeBytes(bytes.data(), bytes.size());
  chunk_.resize(kMaxChunkPayload + kMaxRecordBytes);
  state_.save(chunkCheckpoint_);
  if (threaded_) {
    filling_.reserve(kBatchEvents);
    pending_.reserve(kBatchEvents);
    worker_ = std::thread([this] { work(); });
  }
}

TraceWriter::~TraceWriter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  if (worker_.joinable()) worker_.join();
  if (file_) std::fclose(file_);  // an unfinished trace stays readable up to its last chunk
}

// The writer thread: waits for a batch, consumes it, says it is done.
void TraceWriter::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return pendingReady_ || stop_; });
    if (!pendingReady_) return;
    lock.unlock();
    try {
      if (!error_)
        for (const Event& event : pending_) consume(event);
    } catch (...) {
      error_ = std::current_exception();
    }
    pending_.clear();
    lock.lock();
    pendingReady_ = false;
    changed_.notify_all();
  }
}

// Gives the filled batch to the writer thread once it is free again.
void TraceWriter::handOff() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return !pendingReady_; });
  if (error_) std::rethrow_exception(error_);
  std::swap(filling_, pending_);
  pendingReady_ = true;
  lock.unlock();
  changed_.notify_all();
}

void TraceWriter::writeBytes(const uint8_t* bytes, std::size_t size) {
  if (size == 0) return;
  if (std::fwrite(bytes, 1, size, file_) != size)
    throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(errno));
  written_ += size;
}

void TraceWriter::add(const Event& event) {
  ++added_;
  if (!threaded_) return consume(event);
  filling_.push_back(event);
  if (filling_.size() == kBatchEvents) handOff();
}

void TraceWriter::consume(const Event& event) {
  chunkUsed_ = static_cast<std::size_t>(encodeEvent(event, chunk_.data() + chunkUsed_) - chunk_.data());
  state_.apply(event);
  ++chunkEvents_;
  if (chunkUsed_ >= kChunkBytes) flushChunk();
}

void TraceWriter::flushChunk() {
  if (chunkEvents_ == 0) return;
  index_.push_back({written_, chunkFirstEvent_, chunkFirstNodes_});
  checkpoints_.insert(checkpoints_.end(), chunkCheckpoint_.begin(), chunkCheckpoint_.end());
  checkpointSizes_.push_back(chunkCheckpoint_.size());

  std::vector<uint8_t> head;
  writeChunkHead(chunkEvents_, chunk_.data(), chunkUsed_, head);
  writeBytes(head.data(), head.size());
  writeBytes(chunk_.data(), chunkUsed_);
  std::fflush(file_);  // a crash after this point keeps the chunk

  chunkUsed_ = 0;
  chunkEvents_ = 0;
  chunkFirstEvent_ = state_.events();
  chunkFirstNodes_ = state_.nodes();
  chunkCheckpoint_.clear();
  state_.save(chunkCheckpoint_);
}

void TraceWriter::finish(const TraceResult& result) {
  if (finished_) return;
  if (threaded_) {
    if (!filling_.empty()) handOff();
    {  // wait for the writer thread to finish the last batch, then stop it
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [this] { return !pendingReady_; });
      stop_ = true;
    }
    changed_.notify_all();
    worker_.join();
    if (error_) std::rethrow_exception(error_);
  }
  flushChunk();
  std::vector<uint8_t> footer;
  writeFooter(index_, result, checkpoints_, checkpointSizes_, written_, footer);
  writeBytes(footer.data(), footer.size());
  if (std::fclose(file_) != 0) {
    file_ = nullptr;
    throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(errno));
  }
  file_ = nullptr;
  finished_ = true;
}

// ---- Recorder --------------------------------------------------------------

Recorder::Recorder(TraceWriter& writer, ProgressCallback progress)
    : writer_(writer), progress_(std::move(progress)) {}

void Recorder::onCall(const NodeCall& call) {
  event_.kind = EventKind::kCall;
  event_.call = call;
  writer_.add(event_);
  ++depth_;
}

void Recorder::onProbe(const ProbeReport& report, const HashEntry& entry) {
  event_.kind = EventKind::kProbe;
  event_.probe = report;
  event_.entry = entry;
  writer_.add(event_);
}

void Recorder::onNodeCounted(int) {
  event_.kind = EventKind::kNodeCounted;
  writer_.add(event_);
  if (++nodes_ % 65536 == 0 && progress_) progress_(nodes_, rootDraft_);
}

void Recorder::onIteration(int draft) {
  if (depth_ == 1) rootDraft_ = draft;
  event_.kind = EventKind::kIteration;
  event_.value = draft;
  writer_.add(event_);
}

void Recorder::onKingCapture(const Move& move, bool badCastling) {
  event_.kind = EventKind::kKingCapture;
  event_.move.from = move.from;
  event_.move.to = move.to;
  event_.badCastling = badCastling;
  writer_.add(event_);
}

void Recorder::onCutoff(int best) {
  event_.kind = EventKind::kCutoff;
  event_.value = best;
  writer_.add(event_);
}

namespace {

/// Fills `record` from a move the search made (the Recorder's hot path
/// reuses its event; recordOf starts from an empty record).
void fillRecord(MoveRecord& record, const Move& move, int remaining, bool sneaked) {
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
  // engine.cpp Step 11: a pawn whose next step would leave the board promotes.
  if (move.type <= kDownwardPawn && ((move.to + move.step + 1) & kNoSquare)) record.flags |= kMovePromotion;
}

}  // namespace

MoveRecord recordOf(const Move& move, int remaining, bool sneaked) {
  MoveRecord record;
  fillRecord(record, move, remaining, sneaked);
  return record;
}

void Recorder::onMoveMade(const Move& move, int remaining, bool sneaked) {
  fillRecord(event_.move, move, remaining, sneaked);
  event_.kind = EventKind::kMoveMade;
  writer_.add(event_);
}

void Recorder::onMoveScored(int score) {
  event_.kind = EventKind::kMoveScored;
  event_.value = score;
  writer_.add(event_);
}

void Recorder::onBestMove(int best, int from, int to) {
  event_.kind = EventKind::kBestMove;
  event_.best = best;
  event_.bestFrom = from;
  event_.bestTo = to;
  writer_.add(event_);
}

void Recorder::onMateProbe() {
  event_.kind = EventKind::kMateProbe;
  writer_.add(event_);
}

void Recorder::onStore(uint32_t slot, const HashEntry& before, const HashEntry& after, bool written) {
  event_.kind = EventKind::kStore;
  event_.slot = slot;
  event_.before = before;
  event_.after = after;
  event_.written = written;
  writer_.add(event_);
}

void Recorder::onReturn(int score, int bestFrom, int bestTo, int draft) {
  event_.kind = EventKind::kReturn;
  event_.best = score;
  event_.bestFrom = bestFrom;
  event_.bestTo = bestTo;
  event_.draft = draft;
  writer_.add(event_);
  --depth_;
}

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
  const std::span<const HashEntry> table = engine.hashTable();
  const HashEntry* entries = table.data();
  const auto slots = static_cast<uint32_t>(table.size());
  for (uint32_t slot = 0; slot < slots; ++slot)
    if (entries[slot].lock != 0) [[unlikely]]
      header.initialEntries.emplace_back(slot, entries[slot]);
  return header;
}

ThinkResult recordThink(Engine& engine, long budget, const std::string& path, const std::string& fen,
                        const std::string& moves, ProgressCallback progress, TraceWriter::Threads threads) {
  TraceWriter writer(path, makeHeader(engine, budget, fen, moves), threads);
  Recorder recorder(writer, std::move(progress));
  const ThinkResult result = engine.think(budget, recorder);
  writer.finish({result.score, result.from, result.to, static_cast<uint64_t>(result.nodes), writer.events()});
  return result;
}

}  // namespace umax::trace
