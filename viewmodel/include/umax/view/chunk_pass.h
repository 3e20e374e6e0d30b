/// \file chunk_pass.h
/// \brief A pass over a trace's events a few chunks at a time, for the view model's builders.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "umax/trace/reader.h"

namespace umax::trace {

/// Chunks between two progress reports of a ChunkPass (4 MB of records: a few ms).
inline constexpr std::size_t kChunksPerStep = 64;

/// A pass over a trace's events a few chunks at a time, for the builders
/// that a caller interleaves with other work (the call tree and the
/// histories: the web edition's main loop, the visualizer's background
/// tasks). `reader` must outlive the pass.
class ChunkPass {
 public:
  /// Starts the pass over `reader`'s chunks (nothing read yet).
  explicit ChunkPass(const TraceReader& reader) : reader_(reader), count_(reader.chunks().size()) {}
  /// Calls `visit(const Event&, uint64_t index)` for each event of up to
  /// `chunks` more chunks, stopping at the end of a group of kChunksPerStep.
  template <class Visit>
  void step(Visit&& visit, std::size_t chunks) {
    const std::size_t first = next_;
    next_ = std::min({count_, first + chunks, (first / kChunksPerStep + 1) * kChunksPerStep});
    reader_.forEachEvent([&](const Event& event, uint64_t index, std::size_t) { visit(event, index); },
                         events_, first, next_);
  }
  /// True when every chunk has been read.
  bool done() const { return next_ == count_; }
  /// The share of the chunks read, 0..1.
  double share() const { return count_ == 0 ? 1.0 : double(next_) / double(count_); }

 private:
  const TraceReader& reader_;
  std::size_t count_;
  std::size_t next_ = 0;  // the next chunk to read
  std::vector<Event> events_;
};

}  // namespace umax::trace
