// export_chrome.cpp - a trace as Chrome trace-event JSON (Perfetto,
// chrome://tracing): every call a slice nested in its parent's, the hash
// hits, cutoffs and root iterations as instant marks, timed by event index.
//
// Streams: one chunk of events, the names of the open calls and a small
// output buffer at a time.
#include <string>
#include <vector>

#include "json_sink.h"
#include "umax/notation.h"
#include "umax/trace/export.h"
#include "umax/trace/replay.h"

namespace umax::trace {
namespace {

/// Writes the slices and marks while it walks the events.
class ChromeWriter {
 public:
  explicit ChromeWriter(JsonSink& sink) : sink_(sink) {}

  void add(const Event& event, uint64_t index) {
    if (event.kind != EventKind::kCall) requireOpenCall(event, index, open_.size());
    cause_.see(event);
    switch (event.kind) {
      case EventKind::kCall:
        return beginCall(event.call, index);
      case EventKind::kProbe:
        return markProbe(event, index);
      case EventKind::kIteration:
        return markIteration(event.value, index);
      case EventKind::kCutoff:
        begin("i", index, "beta cutoff");
        sink_ << ",\"s\":\"t\",\"cat\":\"cutoff\",\"args\":{\"m\":";
        sink_.number(event.value);
        sink_ << "}}";
        return;
      case EventKind::kReturn:
        return endCall(event, index);
      default:
        return;
    }
  }

  /// Closes the calls a truncated trace leaves open, at its end.
  void closeOpenCalls(uint64_t end) {
    while (!open_.empty()) {
      begin("E", end, open_.back().name);
      sink_ << ",\"args\":{\"unfinished\":true}}";
      open_.pop_back();
    }
  }

 private:
  /// One open call: the name it was opened with (repeated on its "E" for
  /// readers) and whether the table answered it.
  struct OpenCall {
    std::string name;
    bool answeredByHash = false;
  };

  void begin(std::string_view ph, uint64_t ts, std::string_view name) {
    sink_ << ",\n{\"ph\":\"" << ph << "\",\"pid\":1,\"tid\":1,\"ts\":";
    sink_.number(ts);
    sink_.field("name", name);
  }

  void beginCall(const NodeCall& c, uint64_t index) {
    std::string name = open_.empty()      ? std::string("root")
                       : cause_.mateProbe ? std::string("null move")
                       : cause_.moveMade  ? moveName(cause_.move.from, cause_.move.to)
                                          : std::string("call");
    begin("B", index, name);
    sink_ << ",\"cat\":\"call\",\"args\":{\"ply\":";
    sink_.number(open_.size());
    sink_.field("q", int64_t{c.alpha}).field("l", int64_t{c.beta}).field("e", int64_t{c.eval});
    sink_.field("n", int64_t{c.depth}).field("k", std::string_view(c.side == kWhite ? "white" : "black"));
    if (cause_.moveMade && (cause_.move.flags & kMoveSneaked)) sink_.field("bestFirst", true);
    sink_ << "}}";
    open_.push_back({std::move(name), false});
    cause_.clear();
  }

  void markProbe(const Event& event, uint64_t index) {
    const ProbeReport& p = event.probe;
    if (p.outcome == ProbeOutcome::kMiss) return;
    open_.back().answeredByHash = p.endsNode;
    begin("i", index,
          p.endsNode                        ? "hash cutoff"
          : p.outcome == ProbeOutcome::kHit ? "hash hit"
                                            : "hash full");
    sink_ << ",\"s\":\"t\",\"cat\":\"hash\",\"args\":{\"slot\":";
    sink_.number(p.slot);
    if (p.outcome == ProbeOutcome::kHit) {
      sink_.field("V", int64_t{event.entry.score}).field("D", int64_t{event.entry.draft});
      sink_.field("X", int64_t{event.entry.from}).field("Y", int64_t{event.entry.to});
    }
    sink_ << "}}";
  }

  /// The root's iterations only: every call deepens, that would drown the rest.
  void markIteration(int draft, uint64_t index) {
    if (open_.size() != 1) return;
    begin("i", index, "root iteration " + std::to_string(draft));
    sink_ << ",\"s\":\"t\",\"cat\":\"iteration\",\"args\":{\"d\":";
    sink_.number(draft);
    sink_ << "}}";
  }

  /// The end of a call with its score, the draft it completed (the D it
  /// stored) and its best move.
  void endCall(const Event& event, uint64_t index) {
    begin("E", index, open_.back().name);
    sink_ << ",\"args\":{\"score\":";
    sink_.number(event.best);
    sink_.field("draft", int64_t{completedDraft(event.draft, open_.back().answeredByHash)});
    if (event.bestFrom != bestMoveSquare(event.bestTo))
      sink_.field("best", std::string_view(bestMoveName(event.bestFrom, event.bestTo)));
    sink_ << "}}";
    open_.pop_back();
  }

  JsonSink& sink_;
  std::vector<OpenCall> open_;
  CallCause cause_;  // what the next call is searched for
};

void writeChromeHead(const TraceReader& reader, JsonSink& sink) {
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
}

}  // namespace

void writeChromeTrace(const TraceReader& reader, std::ostream& out) {
  JsonSink sink(out);
  writeChromeHead(reader, sink);
  ChromeWriter writer(sink);
  reader.forEach([&](const Event& event, uint64_t index) { writer.add(event, index); });
  writer.closeOpenCalls(reader.eventCount());
  sink << "\n]}\n";
  sink.flush();
}

}  // namespace umax::trace
