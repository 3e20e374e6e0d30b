// export.cpp - a trace written out for other tools: a Graphviz picture of
// one iteration's call tree, every event as a line of JSON, and a Chrome
// trace-event file in which every call is a slice nested in its parent's.
//
// All three stream: the JSON writers hold one chunk of events and a small
// output buffer at a time; the DOT writer holds the call tree (about 40
// bytes per call) and writes only the calls it draws.
#include "umax/trace/export.h"

#include <algorithm>
#include <charconv>
#include <deque>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "umax/position.h"
#include "umax/trace/replay.h"
#include "umax/trace/state.h"

namespace umax::trace {
namespace {

// ---- output -----------------------------------------------------------

/// Text collected in a buffer and handed to the stream in 64 KB pieces.
class Sink {
 public:
  explicit Sink(std::ostream& out) : out_(out) { buffer_.reserve(kFlushAt + 4096); }
  ~Sink() { flush(); }
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;

  Sink& operator<<(std::string_view text) {
    buffer_.append(text);
    if (buffer_.size() >= kFlushAt) flush();
    return *this;
  }
  Sink& operator<<(char c) {
    buffer_.push_back(c);
    return *this;
  }
  Sink& number(int64_t value) {
    char digits[24];
    const auto result = std::to_chars(digits, digits + sizeof digits, value);
    buffer_.append(digits, result.ptr);
    return *this;
  }
  Sink& unsignedNumber(uint64_t value) {
    char digits[24];
    const auto result = std::to_chars(digits, digits + sizeof digits, value);
    buffer_.append(digits, result.ptr);
    return *this;
  }
  /// A JSON string literal (quotes added, specials escaped).
  Sink& jsonString(std::string_view text) {
    buffer_.push_back('"');
    for (const char c : text) {
      const auto byte = static_cast<unsigned char>(c);
      if (c == '"' || c == '\\') {
        buffer_.push_back('\\');
        buffer_.push_back(c);
      } else if (byte < 0x20) {
        static constexpr char kHex[] = "0123456789abcdef";
        buffer_.append("\\u00");
        buffer_.push_back(kHex[byte >> 4]);
        buffer_.push_back(kHex[byte & 15]);
      } else {
        buffer_.push_back(c);
      }
    }
    buffer_.push_back('"');
    return *this;
  }
  /// `,"key":value` for an integer field.
  Sink& field(std::string_view key, int64_t value) {
    *this << ",\"" << key << "\":";
    return number(value);
  }
  Sink& field(std::string_view key, bool value) {
    return *this << ",\"" << key << "\":" << (value ? "true" : "false");
  }
  Sink& field(std::string_view key, std::string_view text) {
    *this << ",\"" << key << "\":";
    return jsonString(text);
  }
  void flush() {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
    if (!out_) throw std::runtime_error("cannot write the output");
  }

 private:
  static constexpr std::size_t kFlushAt = 64 * 1024;
  std::ostream& out_;
  std::string buffer_;
};

/// A coordinate move, "e2e4".
std::string moveName(int from, int to) { return squareName(from & 0x77) + squareName(to & 0x77); }

/// The name of the call a move (or the mate probe) opened.
std::string callName(const TreeNode& node, bool root) {
  if (root) return "root";
  if (node.flags & kTreeMateProbe) return "null move";
  return moveName(node.from, node.to);
}

const char* outcomeName(ProbeOutcome outcome) {
  switch (outcome) {
    case ProbeOutcome::kMiss:
      return "miss";
    case ProbeOutcome::kHit:
      return "hit";
    case ProbeOutcome::kFull:
      return "full";
  }
  return "?";
}

/// A hash entry as a JSON object with the original's field names.
void writeEntry(Sink& sink, const HashEntry& entry) {
  sink << "{\"K\":";
  sink.number(entry.lock);
  sink.field("V", int64_t{entry.score}).field("X", int64_t{entry.from}).field("Y", int64_t{entry.to});
  sink.field("D", int64_t{entry.draft}) << '}';
}

// ---- DOT --------------------------------------------------------------

/// A DOT string literal body: quotes and backslashes escaped, newlines as \n.
std::string dotEscape(std::string_view text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '"' || c == '\\') escaped.push_back('\\');
    if (c == '\n') {
      escaped += "\\n";
      continue;
    }
    escaped.push_back(c);
  }
  return escaped;
}

/// What the root did in one iteration: its score and best move at the end.
struct RootIteration {
  int draft = 0;
  int score = 0;
  int from = 0;
  int to = 0;
  bool finished = false;
};

/// One pass with the search state: the root's iterations with the score and
/// move each ended with (taken at the root's hash store, the end of an
/// iteration). Also checks the trace is consistent.
std::vector<RootIteration> rootIterations(const TraceReader& reader) {
  std::vector<RootIteration> iterations;
  SearchState state(reader.header());
  reader.forEach([&](const Event& event, uint64_t) {
    const bool atRoot = state.stack().size() == 1;
    state.apply(event);
    if (!atRoot) return;
    if (event.kind == EventKind::kIteration) {
      RootIteration iteration;
      iteration.draft = event.value;
      iterations.push_back(iteration);
    } else if (event.kind == EventKind::kStore && !iterations.empty()) {
      const Frame& root = state.stack().front();
      RootIteration& iteration = iterations.back();
      iteration.score = root.best;
      iteration.from = root.bestFrom;
      iteration.to = root.bestTo;
      iteration.finished = true;
    }
  });
  return iterations;
}

/// Calls in the subtree of `index` (itself excluded).
uint64_t descendants(const std::vector<TreeNode>& nodes, uint32_t index) {
  const TreeNode& node = nodes[index];
  const auto end =
      std::lower_bound(nodes.begin() + index + 1, nodes.end(), node.returnEvent,
                       [](const TreeNode& other, uint64_t value) { return other.callEvent < value; });
  return static_cast<uint64_t>(end - (nodes.begin() + index + 1));
}

}  // namespace

void writeDot(const TraceReader& reader, const DotOptions& options, std::ostream& out) {
  const std::vector<RootIteration> iterations = rootIterations(reader);
  const CallTree tree(reader);
  const std::vector<TreeNode>& nodes = tree.nodes();
  if (nodes.empty()) throw std::runtime_error("the trace holds no call of the search");
  if (iterations.empty())
    throw std::runtime_error("the root never started an iteration (the trace is cut too early)");

  const int lastDraft = iterations.back().draft;
  const int draft = options.iteration == 0 ? lastDraft : options.iteration;
  const auto chosen = std::find_if(iterations.begin(), iterations.end(),
                                   [&](const RootIteration& iteration) { return iteration.draft == draft; });
  if (chosen == iterations.end())
    throw std::runtime_error("the root has no iteration " + std::to_string(draft) +
                             " (it searched iterations " + std::to_string(iterations.front().draft) + " to " +
                             std::to_string(lastDraft) + ")");

  const TraceHeader& header = reader.header();
  Sink sink(out);
  sink << "// micro-Max call tree, drawn by umax-trace dot. Render: dot -Tsvg tree.dot -o tree.svg\n";
  sink << "digraph search {\n";
  sink << "  graph [rankdir=LR, ordering=out, fontname=\"Helvetica\", fontsize=12, labelloc=t, nodesep=0.08, "
          "ranksep=0.5];\n";
  sink << "  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\", "
          "fontsize=10];\n";
  sink << "  edge [arrowsize=0.6, color=\"#555555\"];\n";

  // The title: what was searched, which part is drawn.
  std::string title =
      "micro-Max search of " + (header.fen.empty() ? std::string("the start position") : header.fen);
  if (!header.moves.empty()) title += " after " + header.moves;
  title += "\nroot iteration " + std::to_string(draft) + " of " + std::to_string(iterations.size());
  if (chosen->finished)
    title += ": score " + std::to_string(chosen->score) +
             (chosen->from != (chosen->to & 0x77) ? ", best move " + moveName(chosen->from, chosen->to) : "");
  else
    title += " (not finished in this trace)";
  title += "\nplies 0 to " + std::to_string(options.maxPly) + "; calls in move order, top to bottom";
  if (reader.truncated()) title += "\nthe trace file is truncated: calls without a return are marked";
  sink << "  label=\"" << dotEscape(title) << "\";\n";

  // The calls: breadth first from the root, so a cut by maxNodes keeps the
  // shallow plies whole.
  const auto label = [&](uint32_t index) {
    const TreeNode& node = nodes[index];
    const bool finished = node.returnEvent < reader.eventCount();
    std::string text = callName(node, index == 0);
    text += "\n[" + std::to_string(node.alpha) + ", " + std::to_string(node.beta) +
            "]  n=" + std::to_string(node.depth);
    if (index == 0) {
      // The root's own return closes the last iteration only.
      if (chosen->finished)
        text += "\nscore " + std::to_string(chosen->score) + "  d=" + std::to_string(draft);
    } else if (finished) {
      text += "\nscore " + std::to_string(node.score) + "  d=" + std::to_string(node.draft);
    } else {
      text += "\nno return (trace cut)";
    }
    std::string tags;
    const auto tag = [&](const char* name) { tags += (tags.empty() ? "\n" : ", ") + std::string(name); };
    if (node.flags & kTreeHashCut)
      tag("hash cutoff");
    else if (node.flags & kTreeHashHit)
      tag("hash hit");
    if ((node.flags & kTreeCutoff) && index != 0) tag("beta cutoff");
    return text + tags;
  };
  const auto style = [&](uint32_t index) {
    const TreeNode& node = nodes[index];
    std::string attributes;
    if (index == 0) attributes += ", penwidth=2, fillcolor=\"#eeeeee\"";
    if (node.flags & kTreeHashCut)
      attributes += ", fillcolor=\"#ffd866\", style=\"rounded,filled,dashed\"";
    else if (node.flags & kTreeHashHit)
      attributes += ", fillcolor=\"#bcd8ff\"";
    if ((node.flags & kTreeCutoff) && index != 0) attributes += ", color=\"#d11f1f\", penwidth=2.5";
    if (node.returnEvent >= reader.eventCount()) attributes += ", fontcolor=\"#888888\"";
    return attributes;
  };

  // The full label of a drawn call: at the deepest ply drawn, how many
  // calls its subtree hides.
  const auto fullLabel = [&](uint32_t index) {
    std::string text = label(index);
    const TreeNode& node = nodes[index];
    if (index != 0 && node.ply == options.maxPly && node.firstChild != 0) {
      const uint64_t below = descendants(nodes, index);
      text += "\n(+" + std::to_string(below) + (below == 1 ? " call" : " calls") + " deeper)";
    }
    return text;
  };

  uint64_t drawn = 1;
  uint64_t selected = 1;  // calls of the iteration within maxPly, drawn or not
  bool cut = false;
  std::vector<std::pair<uint32_t, uint64_t>> partlyDrawn;  // drawn calls with children left out
  std::deque<std::pair<uint32_t, bool>> queue;             // (call, drawn)
  sink << "  n0 [label=\"" << dotEscape(fullLabel(0)) << "\"" << style(0) << "];\n";
  queue.emplace_back(0, true);
  while (!queue.empty()) {
    const auto [parent, parentDrawn] = queue.front();
    queue.pop_front();
    uint64_t leftOut = 0;
    for (uint32_t child = nodes[parent].firstChild; child != 0; child = nodes[child].nextSibling) {
      const TreeNode& node = nodes[child];
      if (parent == 0 && node.iteration != draft) continue;
      if (node.ply > options.maxPly) break;
      ++selected;
      const bool draw = parentDrawn && drawn < options.maxNodes;
      if (node.ply < options.maxPly) queue.emplace_back(child, draw);
      if (!draw) {
        cut = true;
        ++leftOut;
        continue;
      }
      ++drawn;
      sink << "  n" << std::to_string(child) << " [label=\"" << dotEscape(fullLabel(child)) << "\""
           << style(child) << "];\n";
      sink << "  n" << std::to_string(parent) << " -> n" << std::to_string(child);
      if (node.flags & kTreeBestFirst)
        sink << " [color=\"#1a7f37\", penwidth=3]";
      else if (node.flags & kTreeMateProbe)
        sink << " [style=dashed]";
      sink << ";\n";
    }
    if (parentDrawn && leftOut > 0) partlyDrawn.emplace_back(parent, leftOut);
  }
  // Calls whose children were only partly drawn say so (a later attribute
  // statement replaces the label).
  for (const auto& [index, leftOut] : partlyDrawn)
    sink << "  n" << std::to_string(index) << " [label=\""
         << dotEscape(fullLabel(index) + "\n(" + std::to_string(leftOut) + " more " +
                      (leftOut == 1 ? "call" : "calls") + " below not drawn)")
         << "\"];\n";
  if (drawn == 1) {
    std::string why = "The root made no calls in iteration " + std::to_string(draft) + ".";
    if (draft == 1) why += "\nAt draft 1 only a recapture on the square\njust moved to is searched further.";
    sink << "  empty [shape=note, style=filled, fillcolor=\"#fff3c4\", label=\"" << dotEscape(why)
         << "\"];\n";
  }
  if (cut) {
    sink << "  truncated [shape=note, style=filled, fillcolor=\"#fff3c4\", label=\""
         << dotEscape("Drawing stopped at " + std::to_string(drawn) + " of " + std::to_string(selected) +
                      " calls\n(iteration " + std::to_string(draft) + ", plies 0 to " +
                      std::to_string(options.maxPly) + ").\nRaise --max-nodes or lower --max-ply.")
         << "\"];\n";
  }

  // The legend: one sample of each mark.
  sink
      << "  subgraph cluster_legend {\n"
         "    label=\"legend\"; fontsize=11; style=rounded; color=\"#999999\";\n"
         "    node [fontsize=9];\n"
         "    legend_node [label=\"move that led to the call\\n[q, l] window  n=requested depth\\n"
         "score for the side to move  d=draft reached\"];\n"
         "    legend_cutoff [label=\"beta cutoff:\\na move scored >= l\", color=\"#d11f1f\", penwidth=2.5];\n"
         "    legend_hit [label=\"hash hit: stored draft\\nand best move reused\", fillcolor=\"#bcd8ff\"];\n"
         "    legend_hashcut [label=\"hash cutoff: answered\\nfrom the table, not searched\", "
         "fillcolor=\"#ffd866\", style=\"rounded,filled,dashed\"];\n"
         "    legend_a [label=\"parent\"]; legend_b [label=\"previous iteration's\\nbest move, tried "
         "first\"];\n"
         "    legend_c [label=\"parent\"]; legend_d [label=\"null move: the\\nmate / stalemate probe\"];\n"
         "    legend_a -> legend_b [color=\"#1a7f37\", penwidth=3];\n"
         "    legend_c -> legend_d [style=dashed];\n"
         "    legend_node -> legend_cutoff -> legend_hit -> legend_hashcut [style=invis];\n"
         "  }\n";
  sink << "}\n";
}

void writeJsonLines(const TraceReader& reader, std::ostream& out) {
  Sink sink(out);
  uint64_t open = 0;   // calls open before the event
  uint64_t nodes = 0;  // counted nodes so far
  reader.forEach([&](const Event& event, uint64_t index) {
    uint64_t ply = open == 0 ? 0 : open - 1;
    if (event.kind == EventKind::kCall) {
      ply = open++;
    } else if (open == 0) {
      throw TraceError("corrupt trace: event " + std::to_string(index) + " (" +
                           std::string(kindName(event.kind)) + ") outside any call",
                       0);
    } else if (event.kind == EventKind::kReturn) {
      --open;
    }
    const bool endsNode = event.kind == EventKind::kProbe && event.probe.endsNode;
    sink << "{\"i\":";
    sink.unsignedNumber(index);
    sink.field("kind", kindName(event.kind));
    sink << ",\"ply\":";
    sink.unsignedNumber(ply);
    sink.field("site", int64_t{static_cast<int>(siteOf(event.kind, endsNode))});
    switch (event.kind) {
      case EventKind::kCall: {
        const NodeCall& c = event.call;
        sink.field("k", int64_t{c.side}).field("q", int64_t{c.alpha}).field("l", int64_t{c.beta});
        sink.field("e", int64_t{c.eval}).field("J", int64_t{c.hashKey}).field("Z", int64_t{c.hashLock});
        sink.field("E", int64_t{c.epSquare}).field("z", int64_t{c.lastTo}).field("n", int64_t{c.depth});
        break;
      }
      case EventKind::kProbe: {
        const ProbeReport& p = event.probe;
        sink.field("outcome", std::string_view(outcomeName(p.outcome)));
        sink.field("j", int64_t{p.firstSlot})
            .field("probed", int64_t{p.slotsProbed})
            .field("a", int64_t{p.slot});
        sink.field("endsNode", p.endsNode);
        if (p.outcome == ProbeOutcome::kHit) {
          sink.field("V", int64_t{event.entry.score}).field("X", int64_t{event.entry.from});
          sink.field("Y", int64_t{event.entry.to}).field("D", int64_t{event.entry.draft});
        }
        break;
      }
      case EventKind::kNodeCounted:
        sink << ",\"N\":";
        sink.unsignedNumber(++nodes);
        break;
      case EventKind::kIteration:
        sink.field("d", int64_t{event.value});
        break;
      case EventKind::kKingCapture:
        sink.field("x", int64_t{event.move.from}).field("y", int64_t{event.move.to});
        sink.field("badCastling", event.badCastling);
        break;
      case EventKind::kCutoff:
        sink.field("m", int64_t{event.value});
        break;
      case EventKind::kMoveMade: {
        const MoveRecord& m = event.move;
        sink.field("move", std::string_view(moveName(m.from, m.to)));
        sink.field("x", int64_t{m.from}).field("y", int64_t{m.to}).field("u", int64_t{m.piece});
        sink.field("t", int64_t{m.victim})
            .field("H", int64_t{m.captureSquare})
            .field("G", int64_t{m.rookFrom});
        sink.field("F", int64_t{m.rookTo}).field("h", int64_t{m.remaining});
        sink.field("bestFirst", (m.flags & kMoveSneaked) != 0)
            .field("enPassant", (m.flags & kMoveEnPassant) != 0);
        sink.field("castling", (m.flags & kMoveCastling) != 0)
            .field("promotion", (m.flags & kMovePromotion) != 0);
        break;
      }
      case EventKind::kMoveScored:
        sink.field("v", int64_t{event.value});
        break;
      case EventKind::kBestMove:
        sink.field("m", int64_t{event.best})
            .field("X", int64_t{event.bestFrom})
            .field("Y", int64_t{event.bestTo});
        break;
      case EventKind::kMateProbe:
        break;
      case EventKind::kStore:
        sink.field("a", int64_t{event.slot}).field("written", event.written);
        sink << ",\"before\":";
        writeEntry(sink, event.before);
        sink << ",\"after\":";
        writeEntry(sink, event.after);
        break;
      case EventKind::kReturn:
        sink.field("m", int64_t{event.best})
            .field("X", int64_t{event.bestFrom})
            .field("Y", int64_t{event.bestTo});
        sink.field("d", int64_t{event.draft});
        break;
    }
    sink << "}\n";
  });
}

void writeChromeTrace(const TraceReader& reader, std::ostream& out) {
  Sink sink(out);
  const TraceHeader& header = reader.header();
  sink << "{\"otherData\":{";
  sink << "\"tool\":\"umax-trace chrome\",\"timing\":\"1 us = 1 event of the search\"";
  sink.field("fen", header.fen.empty() ? std::string_view("start position") : std::string_view(header.fen));
  sink.field("moves", std::string_view(header.moves)).field("budget", int64_t{header.budget});
  sink.field("truncated", reader.truncated());
  sink << "},\n\"traceEvents\":[\n";
  sink << "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"micro-Max "
          "search\"}},\n";
  sink << "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"D() calls\"}}";

  // Per open call: the name it was opened with (repeated on its "E" for readers).
  std::vector<std::string> open;
  MoveRecord pendingMove;
  bool movePending = false;
  bool matePending = false;
  const auto begin = [&](std::string_view ph, uint64_t ts, std::string_view name) {
    sink << ",\n{\"ph\":\"" << ph << "\",\"pid\":1,\"tid\":1,\"ts\":";
    sink.unsignedNumber(ts);
    sink.field("name", name);
  };
  reader.forEach([&](const Event& event, uint64_t index) {
    if (event.kind != EventKind::kCall && open.empty())
      throw TraceError("corrupt trace: event " + std::to_string(index) + " (" +
                           std::string(kindName(event.kind)) + ") outside any call",
                       0);
    switch (event.kind) {
      case EventKind::kCall: {
        std::string name = open.empty()  ? std::string("root")
                           : matePending ? std::string("null move")
                           : movePending ? moveName(pendingMove.from, pendingMove.to)
                                         : std::string("call");
        begin("B", index, name);
        const NodeCall& c = event.call;
        sink << ",\"cat\":\"call\",\"args\":{\"ply\":";
        sink.unsignedNumber(open.size());
        sink.field("q", int64_t{c.alpha}).field("l", int64_t{c.beta}).field("e", int64_t{c.eval});
        sink.field("n", int64_t{c.depth}).field("k", std::string_view(c.side == kWhite ? "white" : "black"));
        if (movePending && (pendingMove.flags & kMoveSneaked)) sink.field("bestFirst", true);
        sink << "}}";
        open.push_back(std::move(name));
        movePending = matePending = false;
        break;
      }
      case EventKind::kProbe: {
        const ProbeReport& p = event.probe;
        if (p.outcome == ProbeOutcome::kMiss) break;
        begin("i", index,
              p.endsNode                        ? "hash cutoff"
              : p.outcome == ProbeOutcome::kHit ? "hash hit"
                                                : "hash full");
        sink << ",\"s\":\"t\",\"cat\":\"hash\",\"args\":{\"slot\":";
        sink.unsignedNumber(p.slot);
        if (p.outcome == ProbeOutcome::kHit) {
          sink.field("V", int64_t{event.entry.score}).field("D", int64_t{event.entry.draft});
          sink.field("X", int64_t{event.entry.from}).field("Y", int64_t{event.entry.to});
        }
        sink << "}}";
        break;
      }
      case EventKind::kIteration:  // the root's only: every call deepens, that would drown the rest
        if (open.size() != 1) break;
        begin("i", index, "root iteration " + std::to_string(event.value));
        sink << ",\"s\":\"t\",\"cat\":\"iteration\",\"args\":{\"d\":";
        sink.number(event.value);
        sink << "}}";
        break;
      case EventKind::kCutoff:
        begin("i", index, "beta cutoff");
        sink << ",\"s\":\"t\",\"cat\":\"cutoff\",\"args\":{\"m\":";
        sink.number(event.value);
        sink << "}}";
        break;
      case EventKind::kMoveMade:
        pendingMove = event.move;
        movePending = true;
        break;
      case EventKind::kMoveScored:
        movePending = false;
        break;
      case EventKind::kMateProbe:
        matePending = true;
        break;
      case EventKind::kReturn:
        begin("E", index, open.back());
        sink << ",\"args\":{\"score\":";
        sink.number(event.best);
        sink.field("d", int64_t{event.draft});
        if (event.bestFrom != (event.bestTo & 0x77))
          sink.field("best", std::string_view(moveName(event.bestFrom, event.bestTo)));
        sink << "}}";
        open.pop_back();
        break;
      default:
        break;
    }
  });
  // A truncated trace leaves calls open: close them at its end.
  while (!open.empty()) {
    begin("E", reader.eventCount(), open.back());
    sink << ",\"args\":{\"unfinished\":true}}";
    open.pop_back();
  }
  sink << "\n]}\n";
}

}  // namespace umax::trace
