/// \file writer.h
/// \brief Recording a think of the readable build into a trace file.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "umax/engine.h"
#include "umax/search_observer.h"
#include "umax/staged_writer.h"
#include "umax/trace/bytes.h"
#include "umax/trace/format.h"
#include "umax/trace/framing.h"
#include "umax/trace/state.h"

namespace umax::trace {

/// Refuses, before a think, a trace file `path` that must not be written:
/// a folder, FIFO or device (/dev/null included: a search of seconds would
/// be lost), and, unless `force`, a symbolic link (never followed: --force
/// replaces the link itself) or a file that exists and is not a trace.
/// \throws std::runtime_error saying why (and that --force overrides it
/// where it does).
void checkTraceTarget(const std::string& path, bool force);

/// The partial trace of `path` ("dir/.NAME.partial" for "dir/NAME"): where a TraceWriter writes
/// until the trace is complete, then renames it to `path`. A recording cut short (a full disk)
/// leaves it with its events up to the failed write, a killed one up to its last run (losing at
/// most 1 MiB more than the chunk being filled): read by every tool as a trace cut short.
std::string partialTracePath(const std::string& path);

/// Streams a trace file: the header, chunks of records, and at finish() the
/// footer and trailer. The Recorder encodes each event straight into the
/// chunk being filled (through the writer's ChunkCursor, lendCursor()) and
/// hands over the next chunk's checkpoint when one is full (flushChunk()).
/// Full chunks are staged and go to the file in runs of whole 4 KiB blocks
/// (StagedWriter): 64 KiB first, twice as many each run up to 1 MiB, each
/// write ending at a page boundary. umax-trace-bench measures what the runs
/// save against each chunk written as it is full. (A writer thread saved no
/// CPU; nor did one writing with O_DIRECT: the performance page has the figures.)
///
/// The file is written as `.NAME.partial` beside NAME (partialTracePath) and
/// renamed over NAME by finish() when complete: a reader that has NAME open
/// keeps reading the file it opened, and NAME is always a whole trace (or
/// what it was before). One writer per file: while a writer holds the
/// partial trace (a lock), a second one for the same NAME is refused.
class TraceWriter {
 public:
  /// Creates the partial trace of `path` and writes the header. Throws
  /// std::runtime_error if the file cannot be written (leaving no file),
  /// `path` names a folder, FIFO or device, or another writer is writing
  /// `path`; std::logic_error for a header of another version. `longestRun`:
  /// the longest write (0: each chunk written as it is full, which
  /// umax-trace-bench compares).
  TraceWriter(const std::string& path, const TraceHeader& header,
              std::size_t longestRun = StagedWriter::kLongestRun);
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  /// Ends the chunk being filled (written with the next run) and starts the next, after `nodes`
  /// counted nodes, from `checkpoint` (the state after the last record).
  void flushChunk(std::vector<uint8_t> checkpoint, uint64_t nodes);
  /// Flushes the last chunk, writes the footer with `result` and renames the
  /// partial trace to the path given. A write that fails (a full disk)
  /// throws nothing, here or in flushChunk(): the writer stops, the partial
  /// trace keeps its whole chunks (the path given is left as it was), and
  /// failure() says why.
  void finish(const TraceResult& result);
  /// After finish(): why the file is cut short ("" if every write succeeded).
  std::string failure() const;
  /// Ends the file's events here, right after a flushChunk(): the chunks
  /// that follow are dropped and finish() writes the footer for these (a
  /// trimmed trace reads as a think stopped here).
  void seal();
  /// True once seal() was called.
  bool sealed() const { return sealed_; }
  /// Bytes of the header and full chunks so far.
  uint64_t bytesIssued() const { return issued_; }

  /// Where the records go, and how many there are so far.
  struct ChunkCursor {
    uint8_t* at = nullptr;    ///< where the next record goes: room for kMaxRecordBytes
    uint8_t* full = nullptr;  ///< a chunk that reaches here is full (kChunkBytes)
    uint64_t events = 0;      ///< events committed so far, in every chunk
    /// Ends the `count` records written from `at` up to `end` (at most 256
    /// bytes); true when the chunk is full: flushChunk() before the next record.
    bool commit(uint8_t* end, uint32_t count = 1) {
      at = end;
      events += count;
      return end >= full;
    }
  };
  /// Events committed so far.
  uint64_t events() const { return cursor_->events; }
  /// From now on the writer keeps its cursor in `cursor` (which takes the
  /// writer's current one), until returnCursor(); one borrower at a time (the
  /// Recorder: why, at its member cursor_).
  void lendCursor(ChunkCursor& cursor);
  /// The writer keeps its cursor itself again, where the borrower left it.
  void returnCursor();
  /// The root call of the think, from the header.
  const NodeCall& root() const { return root_; }

 private:
  int file_ = -1;
  std::string path_;
  NodeCall root_;
  // The file's bytes; the chunk being filled is at its end(): its head, then its records up to
  // cursor_->at. Gone (every byte written) after finish().
  std::optional<StagedWriter> out_;
  ChunkCursor ownCursor_;
  ChunkCursor* cursor_ = &ownCursor_;   // ownCursor_, or a borrower's (lendCursor)
  ChunkIndexEntry chunk_;               // the chunk being filled (its offset set when it is written)
  std::vector<ChunkIndexEntry> index_;  // the chunks written
  uint64_t issued_ = 0;                 // bytes of the file so far, full chunks included
  bool sealed_ = false;        // seal(): no more chunks go to the file (chunk_ holds the first dropped)
  int writeErrno_ = 0;         // a write failed (set by finish()): the file ends where it broke off
  uint64_t written_ = 0;       // bytes in the file (set by finish())
  std::string partial_;        // the partial trace written, renamed to path_ at finish() ("": /dev/null)
  bool renameFailed_ = false;  // the trace is complete, but could not be put in place
};

/// Progress of a recording: counted nodes so far and the root's iteration.
using ProgressCallback = std::function<void(uint64_t nodes, int rootDraft)>;

/// The record of a move the search made (onMoveMade's arguments): its
/// squares and pieces, and the flags that say which optional squares count.
MoveRecord recordOf(const Move& move, int remaining, bool sneaked);

/// The observer that turns the search's hooks into trace records: each hook
/// (event_kinds.cpp) encodes its record into the writer's chunk and applies
/// its event's transition to the open calls, as SearchState::apply does
/// without its checks. A checkpoint's board is the engine's own. One path
/// for a node's entry: a call's first three events come through onEnter
/// only (onCall, onProbe and onNodeCounted throw std::logic_error), a hash
/// cutoff's return with them; every other return through onReturn.
class Recorder final : public SearchObserver {
 public:
  /// Records the think of `engine` into `writer`; `progress` (may be empty)
  /// is called every 65,536 nodes.
  Recorder(TraceWriter& writer, const Engine& engine, ProgressCallback progress = {});
  ~Recorder() override;
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  void onEnter(const NodeCall& call, const ProbeReport& report, const HashEntry& entry,
               int nodeCount) override;
#define UMAX_TRACE_RECORDER_HOOK(kind, site, record, name, hook, parameters) void hook parameters override;
  UMAX_SEARCH_EVENTS(UMAX_TRACE_RECORDER_HOOK)
#undef UMAX_TRACE_RECORDER_HOOK

  /// The checkpoint of the state after the events so far.
  std::vector<uint8_t> checkpoint() const;
  /// Keeps the trace to about `bytes` (0: the whole think): it ends
  /// (TraceWriter::seal) at a root iteration that would pass the limit,
  /// guessed as three times the last one, or else at the first counted node
  /// after the chunk that passed it; the search goes on unrecorded.
  void setByteLimit(uint64_t bytes) { byteLimit_ = bytes; }
  /// True when the trace ended before the think (setByteLimit).
  bool trimmed() const { return writer_.sealed(); }

 private:
  bool recordCall(RecordWriter& write, const NodeCall& call, bool usualEntry);
  [[gnu::noinline]] uint8_t* writeUnpredictedCall(uint8_t* at, const NodeCall& call);
  void pushFrame(const NodeCall& call);
  void writeProbeRecord(RecordWriter& write, const ProbeReport& report, const HashEntry& entry);
  void recordNode(RecordWriter& write, const ProbeReport& report, const HashEntry& entry, bool folded);
  void afterNodeCounted();
  void popFrame(int score);
  [[gnu::noinline]] uint8_t* writeExplicitReturn(uint8_t* at, int score, int bestFrom, int bestTo, int draft);
  [[gnu::noinline]] void recordStoreWithEntries(const HashEntry& before, const HashEntry& after, bool written,
                                                int beforeKind, bool afterFollows);
  [[noreturn, gnu::noinline, gnu::cold]] static void failed(const char* what);
  [[gnu::noinline]] void recordShapedMove(const Move& move, int remaining, bool sneaked, bool onlyF);
  template <int kShape>
  void recordUsualMove(const Move& move, int remaining, bool sneaked);
  void writeMoveMade(int shape, bool sneaked, const Move& move);
  void endRecord(uint8_t* end, uint32_t events = 1);
  void flushChunk();
  [[gnu::noinline, gnu::cold]] void trim();
  [[gnu::noinline]] void atRootIteration();

  TraceWriter& writer_;
  // The writer's cursor, kept here while the recorder lives (lendCursor):
  // each record reaches it through `this`, not through writer_ (measured
  // with cachegrind: a traced think of kiwipete, 100,000 nodes, runs 0.7%
  // more instructions without it, 987.4M instead of 980.7M; untraced 767.2M).
  TraceWriter::ChunkCursor cursor_;
  const Engine& engine_;
  ProgressCallback progress_;
  std::vector<Frame> frames_;  // the open calls, root first: [0, depth_)
  Frame* top_ = nullptr;       // the innermost open call
  std::size_t depth_ = 0;
  uint64_t nodes_ = 0;
  uint64_t calls_ = 0;
  int rootDraft_ = 0;
  uint64_t byteLimit_ = 0;            // setByteLimit (0: none)
  bool trimPending_ = false;          // a chunk passed the limit: trim at the next counted node
  uint64_t iterationStartBytes_ = 0;  // bytesIssued() when the root's last iteration began
  SearchVariant variant_;             // the engine's Lab switches: the rules its records predict by
};

/// The header of a trace of a think from the engine's current state.
/// `fen` and `moves` are what the user gave, kept for display.
TraceHeader makeHeader(const Engine& engine, long budget, const std::string& fen, const std::string& moves);

/// Records one think of `engine` into `path` and returns its result. Throws
/// std::runtime_error if the file cannot be created (before the search) or a
/// write failed (after it); the engine is as before the think whatever unwinds it.
ThinkResult recordThink(Engine& engine, long budget, const std::string& path, const std::string& fen,
                        const std::string& moves, ProgressCallback progress = {});

/// A think and what became of its trace.
struct RecordedThink {
  ThinkResult result;        ///< the search's result, the same as untraced
  std::string traceFailure;  ///< why the trace is missing or cut short ("" if complete)
  bool trimmed = false;      ///< the trace ended before the think (byteLimit)
};

/// As recordThink, for a game: a trace that cannot be written never costs
/// the think, which runs untraced (no file) or unrecorded from a failed write
/// on (the file keeps a readable prefix); traceFailure says which. A
/// `byteLimit` trims the trace (Recorder::setByteLimit); its footer still
/// holds the think's result, so a game folder lists the move played.
/// `notPlayed`, asked once the search has ended, says why its move will not
/// be played ("quit", "end of input", ...; "" when it will): the footer
/// keeps it (TraceResult::notPlayed).
RecordedThink recordThinkReporting(Engine& engine, long budget, const std::string& path,
                                   const std::string& fen, const std::string& moves,
                                   ProgressCallback progress = {}, uint64_t byteLimit = 0,
                                   const std::function<std::string()>& notPlayed = {});

}  // namespace umax::trace
