// trace_walk.cpp - records a think with umax-trace and indexes its calls.
#include "trace_walk.h"

#include <cstdlib>

#include "umax/position.h"
#include "umax/trace/reader.h"
#include "umax/trace/replay.h"

namespace umax::docs {

namespace {

std::string quoted(const std::string& text) { return "\"" + text + "\""; }

std::string baseName(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string moveText(int from, int to) { return squareName(from) + squareName(to); }

TraceWalk::TraceWalk(const std::string& umaxTrace, const std::string& file, const std::string& fen,
                     const std::string& moves, int nodes, int hashBits)
    : file_(file) {
  // What a reader would type (from the repository's top folder, writing where the docs build keeps
  // the trace, never into the sources), and what is run.
  std::string options;
  if (!fen.empty()) options += " --fen " + quoted(fen);
  if (!moves.empty()) options += " --moves " + quoted(moves);
  options += " --nodes " + std::to_string(nodes);
  if (hashBits != 0) options += " --hash-bits " + std::to_string(hashBits);
  command_ = "build/bin/umax-trace record" + options + " -o build/docs/examples/" + baseName(file);
  const std::string run = quoted(umaxTrace) + " record" + options + " -q -o " + quoted(file) + " > /dev/null";
  if (std::system(run.c_str()) != 0) throw std::runtime_error("recording failed: " + run);

  const trace::TraceReader reader(file);
  reader.forEach([&](const trace::Event& event, uint64_t) { events_.push_back(event); });
  std::vector<int> stack;
  callOf_.resize(events_.size(), -1);
  for (std::size_t index = 0; index < events_.size(); ++index) {
    const trace::Event& event = events_[index];
    if (event.kind == trace::EventKind::kCall) {
      Call call;
      call.callEvent = index;
      call.args = event.call;
      if (!stack.empty()) {
        call.parent = stack.back();
        call.ply = calls_[call.parent].ply + 1;
        if (index > 0 && events_[index - 1].kind == trace::EventKind::kMoveMade)
          call.moveEvent = static_cast<int>(index - 1);
        calls_[call.parent].children.push_back(static_cast<int>(calls_.size()));
      }
      stack.push_back(static_cast<int>(calls_.size()));
      calls_.push_back(call);
    }
    if (stack.empty()) throw std::runtime_error(file + ": an event outside any call");
    const int current = stack.back();
    callOf_[index] = current;
    calls_[current].own.push_back(index);
    if (event.kind == trace::EventKind::kReturn) {
      calls_[current].returnEvent = index;
      stack.pop_back();
    }
    if (event.kind == trace::EventKind::kMoveScored && !calls_[current].children.empty()) {
      Call& child = calls_[calls_[current].children.back()];
      if (child.scoreEvent < 0 && child.moveEvent >= 0) child.scoreEvent = static_cast<int>(index);
    }
  }
  if (!stack.empty()) throw std::runtime_error(file + ": the trace ends inside a call");
}

std::string TraceWalk::moveName(int call) const {
  const Call& node = calls_[call];
  if (node.parent < 0) return "(root)";
  if (node.moveEvent < 0) return "(null move)";
  const trace::MoveRecord& move = events_[node.moveEvent].move;
  return moveText(move.from, move.to);
}

std::vector<int> TraceWalk::boardAfter(std::size_t index) const {
  const trace::TraceReader reader(file_);
  trace::Replay replay(reader);
  replay.seek(index + 1);
  const auto& board = replay.state().board();
  return std::vector<int>(board.begin(), board.end());
}

std::vector<std::size_t> TraceWalk::ownOfKind(int call, trace::EventKind kind) const {
  std::vector<std::size_t> found;
  for (std::size_t index : calls_[call].own)
    if (events_[index].kind == kind) found.push_back(index);
  return found;
}

std::vector<int> TraceWalk::storedDrafts(int call) const {
  std::vector<int> drafts;
  for (std::size_t index : ownOfKind(call, trace::EventKind::kStore))
    drafts.push_back(events_[index].after.draft);
  return drafts;
}

}  // namespace umax::docs
