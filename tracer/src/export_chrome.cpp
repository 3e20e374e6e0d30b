// export_chrome.cpp - a trace as Chrome trace-event JSON: calls as nested slices, hash hits, cutoffs
// and root iterations as instant marks. Streams: one chunk of events and the open calls' names.
#include <string>
#include <vector>

#include "json_sink.h"
#include "umax/trace/export.h"
#include "umax/trace/replay.h"

namespace umax::trace {

void writeChromeTrace(const TraceReader& reader, std::ostream& out) {
  JsonSink sink(out);
  const TraceHeader& header = reader.header();
  sink << "{\"otherData\":{\"tool\":\"umax-trace chrome\",\"timing\":\"1 us = 1 event of the search\"";
  sink.field("fen", header.fen.empty() ? std::string_view("start position") : std::string_view(header.fen));
  sink.field("moves", std::string_view(header.moves)).field("budget", header.budget);
  sink.field("truncated", reader.truncated()) << "},\n\"traceEvents\":[\n";
  sink << "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"micro-Max "
          "search\"}},\n";
  sink << "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"D() calls\"}}";

  // One slice or mark: its phase, time and name; the caller adds the rest and the closing "}".
  const auto begin = [&](std::string_view ph, uint64_t ts, std::string_view name) -> JsonSink& {
    (sink << ",\n{\"ph\":\"" << ph << "\",\"pid\":1,\"tid\":1,\"ts\":").number(ts);
    return sink.field("name", name);
  };
  struct OpenCall {
    std::string name;  // repeated on its "E" for readers
    bool answeredByHash = false;
  };
  std::vector<OpenCall> open;
  CallCause cause;  // what the next call is searched for
  reader.forEach([&](const Event& event, uint64_t index) {
    if (event.kind != EventKind::kCall) requireOpenCall(event, index, open.size());
    cause.see(event);
    switch (event.kind) {
      case EventKind::kCall: {
        const NodeCall& c = event.call;
        std::string name = open.empty()      ? std::string("root")
                           : cause.mateProbe ? std::string("null move")
                           : cause.moveMade  ? moveName(cause.move.from, cause.move.to)
                                             : std::string("call");
        begin("B", index, name) << ",\"cat\":\"call\",\"args\":{\"ply\":";
        sink.number(open.size());
        sink.field("q", c.alpha).field("l", c.beta).field("e", c.eval).field("n", c.depth);
        sink.field("k", std::string_view(c.side == kWhite ? "white" : "black"));
        if (cause.moveMade && (cause.move.flags & kMoveSneaked)) sink.field("bestFirst", true);
        sink << "}}";
        open.push_back({std::move(name), false});
        cause.clear();
        return;
      }
      case EventKind::kProbe: {
        const ProbeReport& p = event.probe;
        if (p.outcome == ProbeOutcome::kMiss) return;
        open.back().answeredByHash = p.endsNode;
        begin("i", index,
              p.endsNode                        ? "hash cutoff"
              : p.outcome == ProbeOutcome::kHit ? "hash hit"
                                                : "hash full")
            << ",\"s\":\"t\",\"cat\":\"hash\",\"args\":{\"slot\":";
        sink.number(p.slot);
        const HashEntry& e = event.entry;  // the entry found, on a hit
        if (p.outcome == ProbeOutcome::kHit)
          sink.field("V", e.score).field("D", e.draft).field("X", e.from).field("Y", e.to);
        sink << "}}";
        return;
      }
      case EventKind::kIteration:  // the root's only: every call deepens, that would drown the rest
        if (open.size() != 1) return;
        begin("i", index, "root iteration " + std::to_string(event.value))
            << ",\"s\":\"t\",\"cat\":\"iteration\",\"args\":{\"d\":";
        sink.number(event.value) << "}}";
        return;
      case EventKind::kCutoff:
        begin("i", index, "beta cutoff") << ",\"s\":\"t\",\"cat\":\"cutoff\",\"args\":{\"m\":";
        sink.number(event.value) << "}}";
        return;
      case EventKind::kReturn:  // its score, the draft it completed (the D it stored), its best move
        begin("E", index, open.back().name) << ",\"args\":{\"score\":";
        sink.number(event.best).field("draft", completedDraft(event.draft, open.back().answeredByHash));
        if (event.bestFrom != bestMoveSquare(event.bestTo))
          sink.field("best", std::string_view(bestMoveName(event.bestFrom, event.bestTo)));
        sink << "}}";
        open.pop_back();
        return;
      default:  // a kind without a layout of its own (fields.h): a mark with its fields
        if (hasOwnLayout(event.kind)) return;
        begin("i", index, kindName(event.kind)) << ",\"s\":\"t\",\"cat\":\"event\",\"args\":{\"ply\":";
        sink.number(open.size() - 1);
        eventFields(sink, event);
        sink << "}}";
        return;
    }
  });
  for (; !open.empty(); open.pop_back())  // the calls a truncated trace leaves open, closed at its end
    begin("E", reader.eventCount(), open.back().name) << ",\"args\":{\"unfinished\":true}}";
  sink << "\n]}\n";
  sink.flush();
}

}  // namespace umax::trace
