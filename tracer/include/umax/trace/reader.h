/// \file reader.h
/// \brief Reading a trace file: memory-mapped, validated, chunk by chunk.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "umax/trace/format.h"

namespace umax::trace {

class RecordDecoder;
class SearchState;

/// Where one chunk of records is and what it starts with.
struct ChunkInfo {
  uint64_t offset = 0;            ///< file offset of the chunk's "CHNK"
  uint64_t payloadOffset = 0;     ///< file offset of its first record
  uint32_t payloadBytes = 0;      ///< bytes of records (complete ones, for a cut last chunk)
  uint32_t events = 0;            ///< records in it
  uint64_t firstEvent = 0;        ///< index of its first event in the whole trace
  uint64_t nodesBefore = 0;       ///< counted nodes before its first event
  uint64_t checkpointOffset = 0;  ///< file offset of its checkpoint in the footer (0: none)
  uint64_t checkpointBytes = 0;   ///< size of that checkpoint
};

/// When a reader checks the CRC-32 of each chunk's records.
enum class ChunkChecks {
  kBySize,         ///< at open up to kCheckAtOpenBytes of chunks, else on first decoding (the default)
  kAtOpen,         ///< every chunk at open, whatever the size
  kOnFirstDecode,  ///< each chunk when it is first decoded
};

/// Files of at most this many bytes of chunks are checked whole at open by
/// default (well under 0.1 s).
inline constexpr uint64_t kCheckAtOpenBytes = 256ull << 20;

/// An open trace file, mapped and checked: magic, version, header, chunk
/// frames, footer, and each chunk's CRC-32 (see ChunkChecks). Damage is
/// refused with a TraceError saying what and at which byte (from the
/// constructor or the first decodeChunk() of a damaged chunk). A file cut
/// short is read to its last complete record and flagged truncated(). A
/// large complete file is opened from its footer's index alone, so opening
/// 5 GB costs what 300 MB does. decodeChunk() may be called from several threads.
class TraceReader {
 public:
  /// Opens and validates `path`. Throws TraceError.
  explicit TraceReader(const std::string& path, ChunkChecks checks = ChunkChecks::kBySize);
  ~TraceReader();
  TraceReader(const TraceReader&) = delete;
  TraceReader& operator=(const TraceReader&) = delete;

  /// The file's header.
  const TraceHeader& header() const { return header_; }
  /// True if the file ends before its footer.
  bool truncated() const { return truncated_; }
  /// What was missing, for a truncated file.
  const std::string& truncationNote() const { return truncationNote_; }
  /// Bytes after a whole trace (header, chunks, footer and trailer, followed by
  /// something else): 0 when none. Such a file is read like a truncated one
  /// (its chunks, no footer) and the note says where the trace ends.
  uint64_t trailingBytes() const { return trailingBytes_; }
  /// The result from the footer (absent for a truncated file).
  bool hasResult() const { return !truncated_; }
  /// The search's result (valid if hasResult()).
  const TraceResult& result() const { return result_; }
  /// Events readable in the file.
  uint64_t eventCount() const { return eventCount_; }
  /// Size of the file in bytes.
  uint64_t fileSize() const { return size_; }
  /// The chunks, in file order.
  const std::vector<ChunkInfo>& chunks() const { return chunks_; }
  /// The chunk that holds event `index` (index < eventCount()).
  std::size_t chunkOf(uint64_t index) const;

  /// Decodes all records of chunk `chunk` into `out` (replacing its content),
  /// checking its CRC-32 first if that was not done yet.
  void decodeChunk(std::size_t chunk, std::vector<Event>& out) const;
  /// The search's state at the start of chunk `chunk`, from its checkpoint.
  SearchState stateAt(std::size_t chunk) const;
  /// True once every chunk's CRC-32 has been checked.
  bool allChunksChecked() const { return uncheckedChunks_.load(std::memory_order_acquire) == 0; }
  /// The raw bytes of a chunk's checkpoint: the footer's, or for a truncated
  /// file the state the reader rebuilt at open.
  const uint8_t* checkpoint(std::size_t chunk, std::size_t& size) const;
  /// The file image.
  const uint8_t* data() const { return data_; }

  /// The one decode-each-chunk loop: calls `visit(const Event&, uint64_t
  /// index, std::size_t chunk)` for each event of chunks [first, last),
  /// decoded into `buffer`; a visit that returns true stops it (and this
  /// returns true).
  template <class Visit>
  bool forEachEvent(Visit&& visit, std::vector<Event>& buffer, std::size_t first = 0,
                    std::size_t last = static_cast<std::size_t>(-1)) const {
    last = std::min(last, chunks_.size());
    for (std::size_t chunk = first; chunk < last; ++chunk) {
      decodeChunk(chunk, buffer);
      uint64_t index = chunks_[chunk].firstEvent;
      for (const Event& event : buffer) {
        if constexpr (std::is_same_v<decltype(visit(event, index, chunk)), bool>) {
          if (visit(event, index, chunk)) return true;
        } else {
          visit(event, index, chunk);
        }
        ++index;
      }
    }
    return false;
  }
  /// Calls `visit(const Event&, uint64_t index)` for every event in order (forEachEvent).
  template <class Visit>
  void forEach(Visit&& visit) const {
    std::vector<Event> events;
    forEachEvent([&](const Event& event, uint64_t index, std::size_t) { visit(event, index); }, events);
  }

 private:
  void checkChunk(std::size_t chunk) const;
  void scanChunks(uint64_t start);
  void readChunkIndex(uint64_t start, uint64_t footerOffset);
  void decodeRecords(std::size_t chunk, RecordDecoder& decoder, std::vector<Event>& out) const;

  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  TraceHeader header_;
  bool truncated_ = false;
  std::string truncationNote_;
  uint64_t trailingBytes_ = 0;
  TraceResult result_;
  uint64_t eventCount_ = 0;
  uint64_t chunksEnd_ = 0;
  std::vector<ChunkInfo> chunks_;
  std::vector<std::vector<uint8_t>> rebuiltCheckpoints_;  // a truncated file's, one per chunk
  // Per chunk: 1 once its CRC-32 matched (all are when uncheckedChunks_ is 0).
  std::unique_ptr<std::atomic<uint8_t>[]> checked_;
  mutable std::atomic<std::size_t> uncheckedChunks_{0};
};

}  // namespace umax::trace
