/// \file call_tree.h
/// \brief The tree of a trace's calls: what the viewers navigate (the navigator, the tree and
/// compare panels, `umax-trace dot`), built in one pass over the events.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "umax/trace/reader.h"
#include "umax/trace/state.h"
#include "umax/view/chunk_pass.h"

namespace umax::trace {

/// Bits of TreeNode::flags.
enum TreeFlag : uint8_t {
  kTreeCounted = 1,     ///< passed the probe and was counted (N++)
  kTreeHashCut = 2,     ///< answered from the hash table
  kTreeHashHit = 4,     ///< its probe hit
  kTreeCutoff = 8,      ///< its last iteration failed high
  kTreeMateProbe = 16,  ///< the mate probe (the call after a null move)
  kTreeBestFirst = 32,  ///< a sneaked-in move: the previous iteration's best, tried first
};

/// One call of the search in the tree.
struct TreeNode {
  uint64_t callEvent = 0;    ///< index of its kCall event
  uint64_t returnEvent = 0;  ///< index of its kReturn event (eventCount() if it never returned)
  uint32_t parent = 0;       ///< index of the parent call (itself for the root)
  uint32_t firstChild = 0;   ///< 0 = none (the root is never a child)
  uint32_t nextSibling = 0;  ///< 0 = none
  int32_t alpha = 0;         ///< q
  int32_t beta = 0;          ///< l
  int32_t score = 0;         ///< its return value
  uint8_t from = 0;          ///< the move that led here (x), 0 for the root and the mate probe
  uint8_t to = 0;            ///< (y)
  uint8_t ply = 0;           ///< 0 at the root
  uint8_t depth = 0;         ///< n, the requested depth
  uint8_t draft = 0;         ///< d at its return: the raw loop counter (see completedDraft())
  uint8_t flags = 0;         ///< TreeFlag bits
  uint16_t iteration = 0;    ///< the root's draft when this call was made

  /// The draft this call completed (see trace::completedDraft()).
  int completedDraft() const { return trace::completedDraft(draft, (flags & kTreeHashCut) != 0); }
};

/// The whole tree of calls of a trace, in call order (pre-order), built in
/// one pass over the events. 48 bytes per call (about 5.3 per event).
class CallTree {
 public:
  /// Builds the tree; `progress` (may be empty) gets the share done, 0..1.
  explicit CallTree(const TraceReader& reader, const std::function<void(double)>& progress = {});
  /// All calls; index 0 is the root.
  const std::vector<TreeNode>& nodes() const { return nodes_; }
  /// The index of the call whose kCall event is `callEvent`, if any.
  std::optional<uint32_t> findByCallEvent(uint64_t callEvent) const;
  /// The innermost call open at event `index` (the call that event belongs to).
  uint32_t callAt(uint64_t index) const;

 private:
  friend class CallTreeBuilder;
  CallTree() = default;
  std::vector<TreeNode> nodes_;
};

/// The pass that builds a CallTree, a few chunks at a time, for a caller that interleaves it with
/// other work (the web edition's main loop: a page has one thread); CallTree's constructor runs
/// it to its end. `reader` must outlive the builder.
class CallTreeBuilder {
 public:
  /// Starts the pass over `reader`'s events (nothing read yet).
  explicit CallTreeBuilder(const TraceReader& reader);
  /// Reads up to `chunks` more chunks of events, stopping at the end of each 64-chunk step (whose
  /// file pages it then releases). Returns true while chunks remain.
  bool step(std::size_t chunks);
  /// True when every chunk has been read.
  bool done() const { return pass_.done(); }
  /// The share of the chunks read, 0..1.
  double share() const { return pass_.share(); }
  /// The tree, once done(); the builder is spent.
  std::unique_ptr<CallTree> take();

 private:
  friend class CallTree;
  const TraceReader& reader_;
  ChunkPass pass_;
  std::vector<TreeNode> nodes_;      // the calls so far
  std::vector<uint32_t> open_;       // the stack of open calls
  std::vector<uint32_t> lastChild_;  // per open call: its last child so far (0 = none)
  CallCause cause_;                  // what the next call is searched for
  uint16_t iteration_ = 0;
};

}  // namespace umax::trace
