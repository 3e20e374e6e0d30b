// compare.cpp - two searches side by side (compare.h): their root iterations, and the first event
// and the first move at which they part.
#include "umax/view/compare.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <tuple>

#include "umax/notation.h"
#include "umax/search_rules.h"
#include "umax/session.h"
#include "umax/trace/state.h"

namespace umax::trace {

namespace {

/// A trace's events one at a time, each applied to the search's state after it is handed out.
class EventStream {
 public:
  explicit EventStream(const TraceReader& reader) : reader_(reader), state_(reader.header()) {}
  /// The next event (the state is the one before it), or null at the end.
  const Event* peek() {
    while (at_ == buffer_.size()) {
      if (chunk_ >= reader_.chunks().size()) return nullptr;
      reader_.decodeChunk(chunk_++, buffer_);
      at_ = 0;
    }
    return &buffer_[at_];
  }
  /// Applies the event peek() gave.
  void advance() {
    state_.apply(buffer_[at_++]);
    ++index_;
  }
  /// The number of the event peek() gives.
  uint64_t index() const { return index_; }
  const SearchState& state() const { return state_; }

 private:
  const TraceReader& reader_;
  SearchState state_;
  std::vector<Event> buffer_;
  std::size_t at_ = 0;
  std::size_t chunk_ = 0;
  uint64_t index_ = 0;
};

/// The moves from the root to the innermost open call (each frame's move on the board).
std::vector<std::string> pathOf(const SearchState& state) {
  std::vector<std::string> path;
  for (const Frame& frame : state.stack())
    if (frame.moveOnBoard) path.push_back(moveName(frame.move.from, frame.move.to));
  return path;
}

/// The ply the next event belongs to: a call's is one below the open calls.
int plyOf(const SearchState& state, const Event* event) {
  const int open = static_cast<int>(state.stack().size());
  return event && event->kind == EventKind::kCall ? open : std::max(open - 1, 0);
}

std::optional<std::string> whatOf(const Event* event, const SearchVariant& variant) {
  if (!event) return std::nullopt;
  return eventWhat(*event, variant);
}

Divergence divergenceAt(EventStream& a, EventStream& b, const Event* eventA, const Event* eventB) {
  Divergence divergence;
  divergence.eventA = a.index();
  divergence.eventB = b.index();
  divergence.ply = plyOf(a.state(), eventA);
  divergence.path = pathOf(a.state());
  divergence.whatA = whatOf(eventA, a.state().variant());
  divergence.whatB = whatOf(eventB, b.state().variant());
  return divergence;
}

/// The first event whose eventWhat differs (the two traces read in step).
std::optional<Divergence> firstEventDifference(const TraceReader& ra, const TraceReader& rb) {
  EventStream a(ra), b(rb);
  for (;;) {
    const Event* eventA = a.peek();
    const Event* eventB = b.peek();
    if (!eventA && !eventB) return std::nullopt;
    if (!eventA || !eventB ||
        eventWhat(*eventA, a.state().variant()) != eventWhat(*eventB, b.state().variant()))
      return divergenceAt(a, b, eventA, eventB);
    a.advance();
    b.advance();
  }
}

/// Advances `stream` to its next move made (or the end); true if there is one.
const Event* nextMove(EventStream& stream) {
  for (const Event* event = stream.peek(); event; event = stream.peek()) {
    if (event->kind == EventKind::kMoveMade) return event;
    stream.advance();
  }
  return nullptr;
}

/// The first move made that differs: its squares, its reply's depth or its ply (the order in
/// which the two searches walk their trees).
std::optional<Divergence> firstMoveDifference(const TraceReader& ra, const TraceReader& rb) {
  EventStream a(ra), b(rb);
  for (;;) {
    const Event* moveA = nextMove(a);
    const Event* moveB = nextMove(b);
    if (!moveA && !moveB) return std::nullopt;
    if (!moveA || !moveB || plyOf(a.state(), moveA) != plyOf(b.state(), moveB) ||
        eventWhat(*moveA, a.state().variant()) != eventWhat(*moveB, b.state().variant())) {
      Divergence divergence = divergenceAt(a, b, moveA, moveB);
      if (moveA && moveB && pathOf(a.state()) != pathOf(b.state()))
        divergence.whatB = *divergence.whatB + " (B's path: " +
                           [&] {
                             std::string text;
                             for (const std::string& move : pathOf(b.state()))
                               text += (text.empty() ? "" : " ") + move;
                             return text.empty() ? std::string("the root") : text;
                           }() +
                           ", ply " + std::to_string(plyOf(b.state(), moveB)) + ")";
      return divergence;
    }
    a.advance();
    b.advance();
  }
}

std::string printed(const char* pattern, auto... values) {
  char line[256];
  std::snprintf(line, sizeof line, pattern, values...);
  return line;
}

std::string bestName(const IterationStats& iteration) {
  if (!iteration.completed) return "(cut)";
  return iteration.bestFrom == iteration.bestTo ? "none" : moveName(iteration.bestFrom, iteration.bestTo);
}

/// One side's columns of a root iteration: nodes, calls, branching, best move, score.
std::string columns(const IterationStats* iteration) {
  if (!iteration) return printed("%10s %10s %9s %6s %7s", "-", "-", "-", "-", "-");
  const std::string branching = iteration->branching > 0 ? printed("%.2f", iteration->branching) : "-";
  const std::string score = iteration->completed ? std::to_string(iteration->best) : "-";
  return printed("%10llu %10llu %9s %6s %7s", static_cast<unsigned long long>(iteration->nodes),
                 static_cast<unsigned long long>(iteration->calls), branching.c_str(),
                 bestName(*iteration).c_str(), score.c_str());
}

const IterationStats* iterationOf(const TraceStats& stats, int draft) {
  for (const IterationStats& iteration : stats.iterations)
    if (iteration.draft == draft) return &iteration;
  return nullptr;
}

std::string positionName(const TraceHeader& header) {
  std::string text = header.fen.empty() ? "start position" : header.fen;
  if (!header.moves.empty()) text += " + " + header.moves;
  return text;
}

// The budget; a --depth think has none (its search's name says the depth).
std::string limitName(const TraceHeader& header) {
  return header.variant.depth ? "" : "; budget " + std::to_string(header.budget);
}

void writeDivergence(const char* title, const std::optional<Divergence>& divergence, std::ostream& out) {
  if (!divergence) {
    out << title << ": none (the two searches are the same)\n";
    return;
  }
  std::string path;
  for (const std::string& move : divergence->path) path += (path.empty() ? "" : " ") + move;
  out << title << ": event " << divergence->eventA << " of A, event " << divergence->eventB << " of B, ply "
      << divergence->ply << ", path from the root: " << (path.empty() ? "(the root)" : path) << "\n";
  out << "  A: " << divergence->whatA.value_or("(A's trace ends here)") << "\n";
  out << "  B: " << divergence->whatB.value_or("(B's trace ends here)") << "\n";
}

}  // namespace

std::string eventWhat(const Event& event, const SearchVariant& variant) {
  std::ostringstream text;
  text << kindName(event.kind);
  switch (event.kind) {
    case EventKind::kCall: {
      const NodeCall& c = event.call;
      text << " window [" << c.alpha << ", " << c.beta << "] n=" << c.depth << " e=" << c.eval;
      break;
    }
    case EventKind::kProbe:
      if (!usesHashTable(variant)) {
        text << ": no table";  // the dummy slot 0, which always looks empty: searched from scratch
        break;
      }
      text << " " << outcomeName(event.probe.outcome);
      if (event.probe.outcome == ProbeOutcome::kHit)
        text << " V=" << event.entry.score << " D=" << int(event.entry.draft) << " "
             << bestMoveName(event.entry.from, event.entry.to);
      if (event.probe.endsNode) text << " ends the node";
      break;
    case EventKind::kIteration:
      text << " d=" << event.value;
      break;
    case EventKind::kKingCapture:
      text << " " << moveName(event.move.from, event.move.to) << (event.badCastling ? " (castling)" : "");
      break;
    case EventKind::kCutoff:
    case EventKind::kMoveScored:
      text << " " << event.value;
      break;
    case EventKind::kMoveMade:
      text << " " << moveName(event.move.from, event.move.to) << " h=" << event.move.remaining
           << ((event.move.flags & kMoveSneaked) ? " best-first" : "");
      break;
    case EventKind::kBestMove:
      text << " m=" << event.best << " " << bestMoveName(event.bestFrom, event.bestTo)
           << " X=" << event.bestFrom << " Y=" << event.bestTo;
      break;
    case EventKind::kStore:
      if (event.written)
        text << " V=" << event.after.score << " D=" << int(event.after.draft)
             << " X=" << int(event.after.from) << " Y=" << int(event.after.to);
      else
        text << " refused";
      break;
    case EventKind::kReturn:
      text << " " << event.best << " X=" << event.bestFrom << " Y=" << event.bestTo << " d=" << event.draft;
      break;
    default:
      break;
  }
  return text.str();
}

std::string searchName(const TraceHeader& header) {
  return header.variant.isDefault() ? "micro-Max's own" : "the Lab, " + header.variant.description();
}

TraceComparison compareTraces(const TraceReader& a, const TraceReader& b) {
  TraceComparison comparison;
  comparison.statsA = computeStats(a);
  comparison.statsB = computeStats(b);
  comparison.firstEvent = firstEventDifference(a, b);
  comparison.firstMove = firstMoveDifference(a, b);
  return comparison;
}

void writeComparison(const TraceReader& a, const std::string& nameA, const TraceReader& b,
                     const std::string& nameB, const TraceComparison& comparison, std::ostream& out) {
  for (const auto& [letter, reader, name] : {std::tuple{"A", &a, &nameA}, std::tuple{"B", &b, &nameB}}) {
    const TraceHeader& header = reader->header();
    out << letter << "  " << *name << ": " << searchName(header) << "; " << positionName(header)
        << limitName(header) << "\n";
  }
  if (a.header().position.board != b.header().position.board || a.header().root.side != b.header().root.side)
    out << "note: the two traces search different positions\n";
  out << "\nroot iterations" << printed("%46s", "A") << printed("%46s", "B") << "\n";
  out << printed("%5s", "draft");
  for (int side = 0; side < 2; ++side)
    out << " |" << printed("%10s %10s %9s %6s %7s", "nodes", "calls", "branching", "best", "score");
  out << "\n";
  int lastDraft = 0;
  for (const TraceStats* stats : {&comparison.statsA, &comparison.statsB})
    for (const IterationStats& iteration : stats->iterations)
      lastDraft = std::max(lastDraft, iteration.draft);
  for (int draft = 1; draft <= lastDraft; ++draft) {
    const IterationStats* iterationA = iterationOf(comparison.statsA, draft);
    const IterationStats* iterationB = iterationOf(comparison.statsB, draft);
    if (!iterationA && !iterationB) continue;
    out << printed("%5d", draft) << " |" << columns(iterationA) << " |" << columns(iterationB) << "\n";
  }
  for (const auto& [letter, reader, stats] :
       {std::tuple{"A", &a, &comparison.statsA}, std::tuple{"B", &b, &comparison.statsB}}) {
    out << "result " << letter << "  ";
    if (reader->hasResult()) {
      const TraceResult& result = reader->result();
      out << formatThink(result.from, result.to, result.score, static_cast<long>(result.nodes));
    } else {
      out << "none (the trace is truncated)";
    }
    out << "; " << stats->nodes << " nodes, " << stats->events << " events in the trace\n";
  }
  if (comparison.statsA.nodes > 0)
    out << "nodes B/A " << printed("%.3f", double(comparison.statsB.nodes) / double(comparison.statsA.nodes))
        << "\n";
  out << "\n";
  writeDivergence("first difference", comparison.firstEvent, out);
  writeDivergence("first different move", comparison.firstMove, out);
}

}  // namespace umax::trace
