// trace_walk.h - a recorded search as the worked examples read it: every
// event in order, and every call of D() with its parent, its children, the
// move that led to it, its store and its return.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "umax/trace/format.h"

namespace umax::docs {

/// One call of the search in a recorded trace.
struct Call {
  int parent = -1;               ///< index of the calling call, -1 for the root
  std::size_t callEvent = 0;     ///< index of its kCall event
  std::size_t returnEvent = 0;   ///< index of its kReturn event
  int moveEvent = -1;            ///< the parent's kMoveMade that led here (-1: root or mate probe)
  int scoreEvent = -1;           ///< the parent's kMoveScored for that move (-1 if none)
  int ply = 0;                   ///< 0 at the root
  umax::NodeCall args;           ///< k, q, l, e, J, Z, E, z, n
  std::vector<int> children;     ///< calls it made, in order
  std::vector<std::size_t> own;  ///< indices of its own events (not its children's)
};

/// A recorded search: the command that made it, its events and its calls.
class TraceWalk {
 public:
  /// Records a think with `umaxTrace record` into `file` and reads it back;
  /// `hashBits` other than 0 records it with a table of 2^hashBits + 9 slots.
  /// Throws std::runtime_error if the recording fails.
  TraceWalk(const std::string& umaxTrace, const std::string& file, const std::string& fen,
            const std::string& moves, int nodes, int hashBits = 0);

  const std::vector<trace::Event>& events() const { return events_; }
  const std::vector<Call>& calls() const { return calls_; }
  /// The call an event belongs to.
  int callOf(std::size_t event) const { return callOf_[event]; }
  /// The umax-trace command line, as a reader would type it.
  const std::string& command() const { return command_; }
  const std::string& file() const { return file_; }
  /// The move that led to `call` ("e2e4"), or "(root)" / "(null move)".
  std::string moveName(int call) const;
  /// The board as it was just after event `index` was applied.
  std::vector<int> boardAfter(std::size_t index) const;
  /// The events of `call` of one kind, in order.
  std::vector<std::size_t> ownOfKind(int call, trace::EventKind kind) const;
  /// The call's store events' new drafts (D), in order.
  std::vector<int> storedDrafts(int call) const;

 private:
  std::string command_;
  std::string file_;
  std::vector<trace::Event> events_;
  std::vector<Call> calls_;
  std::vector<int> callOf_;
};

/// "e2e4" from two 0x88 squares.
std::string moveText(int from, int to);

/// Stops the docs build: the example no longer shows what its page claims.
[[noreturn]] inline void claimFails(const std::string& example, const std::string& what) {
  throw std::runtime_error("example '" + example + "': " + what +
                           " (the position no longer shows the mechanism its page explains; choose another)");
}

}  // namespace umax::docs
