// call_tree.cpp - the tree of a trace's calls, built in one pass over the events (call_tree.h).
#include "umax/view/call_tree.h"

#include <algorithm>

#include "umax/trace/replay.h"

namespace umax::trace {

CallTree::CallTree(const TraceReader& reader, const std::function<void(double)>& progress) {
  CallTreeBuilder builder(reader);
  while (!builder.done()) {
    builder.step(kChunksPerStep);
    if (progress) progress(builder.share());
  }
  nodes_ = std::move(builder.nodes_);
}

CallTreeBuilder::CallTreeBuilder(const TraceReader& reader) : reader_(reader), pass_(reader) {
  // A call takes 9-10 events in the searches measured (kCall, kProbe, kNodeCounted, kIteration,
  // kMoveMade, kMoveScored, kStore, kReturn, ...), so eventCount / 8 is room for all of them: no
  // reallocation, which would hold the old and the new array at once (gigabytes for a 700M-event
  // trace). Reserved pages cost no memory until used.
  nodes_.reserve(static_cast<std::size_t>(std::min<uint64_t>(reader.eventCount() / 8 + 16, UINT32_MAX)));
}

std::unique_ptr<CallTree> CallTreeBuilder::take() {
  std::unique_ptr<CallTree> tree(new CallTree());
  tree->nodes_ = std::move(nodes_);
  return tree;
}

bool CallTreeBuilder::step(std::size_t chunks) {
  pass_.step(
      [&](const Event& event, uint64_t index) {
        if (event.kind != EventKind::kCall) requireOpenCall(event, index, open_.size());
        cause_.see(event);
        switch (event.kind) {
          case EventKind::kCall: {
            if (nodes_.size() >= UINT32_MAX - 1) throw TraceError("trace has too many calls for the tree", 0);
            TreeNode node;
            const auto self = static_cast<uint32_t>(nodes_.size());
            node.callEvent = index;
            node.returnEvent = reader_.eventCount();
            node.parent = open_.empty() ? self : open_.back();
            node.alpha = event.call.alpha;
            node.beta = event.call.beta;
            node.ply = static_cast<uint8_t>(std::min<std::size_t>(open_.size(), 255));
            node.depth = static_cast<uint8_t>(event.call.depth);
            node.iteration = iteration_;
            if (cause_.moveMade) {
              node.from = static_cast<uint8_t>(cause_.move.from);
              node.to = static_cast<uint8_t>(cause_.move.to);
              if (cause_.move.flags & kMoveSneaked) node.flags |= kTreeBestFirst;
            }
            if (cause_.mateProbe) node.flags |= kTreeMateProbe;
            if (!open_.empty()) {
              uint32_t& last = lastChild_[open_.size() - 1];
              if (last == 0)
                nodes_[open_.back()].firstChild = self;
              else
                nodes_[last].nextSibling = self;
              last = self;
            }
            nodes_.push_back(node);
            open_.push_back(self);
            lastChild_.push_back(0);
            cause_.clear();
            break;
          }
          case EventKind::kProbe:
            if (event.probe.outcome == ProbeOutcome::kHit) nodes_[open_.back()].flags |= kTreeHashHit;
            if (event.probe.endsNode) nodes_[open_.back()].flags |= kTreeHashCut;
            break;
          case EventKind::kNodeCounted:
            nodes_[open_.back()].flags |= kTreeCounted;
            break;
          case EventKind::kIteration:
            if (open_.size() == 1) iteration_ = static_cast<uint16_t>(event.value);
            nodes_[open_.back()].flags &= static_cast<uint8_t>(~kTreeCutoff);
            break;
          case EventKind::kCutoff:
            nodes_[open_.back()].flags |= kTreeCutoff;
            break;
          case EventKind::kReturn: {
            TreeNode& node = nodes_[open_.back()];
            node.returnEvent = index;
            node.score = event.best;
            node.draft = static_cast<uint8_t>(event.draft);
            open_.pop_back();
            lastChild_.pop_back();
            break;
          }
          default:
            break;
        }
      },
      chunks);
  return !done();
}

std::optional<uint32_t> CallTree::findByCallEvent(uint64_t callEvent) const {
  const auto it =
      std::lower_bound(nodes_.begin(), nodes_.end(), callEvent,
                       [](const TreeNode& node, uint64_t event) { return node.callEvent < event; });
  if (it == nodes_.end() || it->callEvent != callEvent) return std::nullopt;
  return static_cast<uint32_t>(it - nodes_.begin());
}

uint32_t CallTree::callAt(uint64_t index) const {
  if (nodes_.empty()) return 0;
  const auto it =
      std::upper_bound(nodes_.begin(), nodes_.end(), index,
                       [](uint64_t event, const TreeNode& node) { return event < node.callEvent; });
  uint32_t call = it == nodes_.begin() ? 0 : static_cast<uint32_t>(it - nodes_.begin() - 1);
  while (call != 0 && nodes_[call].returnEvent < index) call = nodes_[call].parent;
  return call;
}

}  // namespace umax::trace
