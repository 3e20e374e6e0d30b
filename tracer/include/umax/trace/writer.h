/// \file writer.h
/// \brief Recording a think of the readable build into a trace file.
#pragma once

#include <condition_variable>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "umax/engine.h"
#include "umax/search_observer.h"
#include "umax/trace/format.h"
#include "umax/trace/framing.h"
#include "umax/trace/state.h"

namespace umax::trace {

/// Streams events into a trace file: header first, then chunks of records
/// (each flushed to the file as soon as it is full), then at finish() the
/// footer and trailer. By default everything happens on the calling
/// thread; with Threads::kWriterThread the search thread only copies each
/// event into a batch and a writer thread encodes the batches, keeps the
/// search state that checkpoints are made of, checksums and writes (faster
/// when a core is free). A crash loses the events not yet written (the chunk
/// being filled, and with a writer thread up to two batches); what was
/// written stays readable.
class TraceWriter {
 public:
  /// How the work is shared between threads.
  enum class Threads {
    kSameThread,    ///< everything on the calling thread (the default: the faster one on a busy machine)
    kWriterThread,  ///< the search thread only copies events; a writer thread encodes and writes
  };
  /// Creates `path` and writes the header. Throws std::runtime_error if the
  /// file cannot be written.
  TraceWriter(const std::string& path, const TraceHeader& header, Threads threads = Threads::kSameThread);
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  /// Appends one event (and keeps the state that checkpoints are made of).
  void add(const Event& event);
  /// Flushes the last chunk and writes the footer with `result`.
  void finish(const TraceResult& result);

  /// Events added so far.
  uint64_t events() const { return added_; }

 private:
  void handOff();
  void work();
  void consume(const Event& event);
  void flushChunk();
  void writeBytes(const uint8_t* bytes, std::size_t size);

  std::FILE* file_ = nullptr;
  std::string path_;
  SearchState state_;
  std::vector<uint8_t> chunk_;  // sized once; records fill [0, chunkUsed_)
  std::size_t chunkUsed_ = 0;
  uint32_t chunkEvents_ = 0;
  uint64_t chunkFirstEvent_ = 0;
  uint64_t chunkFirstNodes_ = 0;
  std::vector<uint8_t> chunkCheckpoint_;
  std::vector<ChunkIndexEntry> index_;
  std::vector<uint8_t> checkpoints_;  // all checkpoints, concatenated
  std::vector<uint64_t> checkpointSizes_;
  uint64_t written_ = 0;
  bool finished_ = false;

  // The hand-off between the search thread and the writer thread.
  static constexpr std::size_t kBatchEvents = 8192;
  std::vector<Event> filling_;  // the search thread appends here
  std::vector<Event> pending_;  // the writer thread works through this
  bool pendingReady_ = false;
  bool stop_ = false;
  std::exception_ptr error_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::thread worker_;
  uint64_t added_ = 0;
  bool threaded_ = false;
};

/// Progress of a recording: counted nodes so far and the root's iteration.
using ProgressCallback = std::function<void(uint64_t nodes, int rootDraft)>;

/// The record of a move the search made (onMoveMade's arguments): its
/// squares and pieces, and the flags that say which optional squares count.
MoveRecord recordOf(const Move& move, int remaining, bool sneaked);

/// The observer that turns the search's hooks into trace events.
class Recorder final : public SearchObserver {
 public:
  /// Records into `writer`; `progress` (may be empty) is called every 65,536 nodes.
  explicit Recorder(TraceWriter& writer, ProgressCallback progress = {});

  void onCall(const NodeCall& call) override;
  void onProbe(const ProbeReport& report, const HashEntry& entry) override;
  void onNodeCounted(int nodeCount) override;
  void onIteration(int draft) override;
  void onKingCapture(const Move& move, bool badCastling) override;
  void onCutoff(int best) override;
  void onMoveMade(const Move& move, int remaining, bool sneaked) override;
  void onMoveScored(int score) override;
  void onBestMove(int best, int from, int to) override;
  void onMateProbe() override;
  void onStore(uint32_t slot, const HashEntry& before, const HashEntry& after, bool written) override;
  void onReturn(int score, int bestFrom, int bestTo, int draft) override;

 private:
  TraceWriter& writer_;
  ProgressCallback progress_;
  Event event_;
  uint64_t nodes_ = 0;
  int depth_ = 0;  // open calls
  int rootDraft_ = 0;
};

/// The header of a trace of a think from the engine's current state.
/// `fen` and `moves` are what the user gave, kept for display.
TraceHeader makeHeader(const Engine& engine, long budget, const std::string& fen, const std::string& moves);

/// Records one think of `engine` (from its current state and table) into
/// `path`. Returns the search's result; the file is complete when it returns.
ThinkResult recordThink(Engine& engine, long budget, const std::string& path, const std::string& fen,
                        const std::string& moves, ProgressCallback progress = {},
                        TraceWriter::Threads threads = TraceWriter::Threads::kSameThread);

}  // namespace umax::trace
