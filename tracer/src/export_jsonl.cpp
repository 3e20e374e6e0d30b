// export_jsonl.cpp - every event of a trace as one line of JSON, its fields
// named as the original names the variables they hold (k q l e ...).
//
// Streams: one chunk of events and a small output buffer at a time.
#include <string>

#include "json_sink.h"
#include "umax/notation.h"
#include "umax/trace/export.h"
#include "umax/trace/replay.h"

namespace umax::trace {
namespace {

void writeCallFields(JsonSink& sink, const NodeCall& c) {
  sink.field("k", int64_t{c.side}).field("q", int64_t{c.alpha}).field("l", int64_t{c.beta});
  sink.field("e", int64_t{c.eval}).field("J", int64_t{c.hashKey}).field("Z", int64_t{c.hashLock});
  sink.field("E", int64_t{c.epSquare}).field("z", int64_t{c.lastTo}).field("n", int64_t{c.depth});
}

void writeProbeFields(JsonSink& sink, const Event& event) {
  const ProbeReport& p = event.probe;
  sink.field("outcome", outcomeName(p.outcome));
  sink.field("j", int64_t{p.firstSlot}).field("probed", int64_t{p.slotsProbed}).field("a", int64_t{p.slot});
  sink.field("endsNode", p.endsNode);
  if (p.outcome != ProbeOutcome::kHit) return;
  sink.field("V", int64_t{event.entry.score}).field("X", int64_t{event.entry.from});
  sink.field("Y", int64_t{event.entry.to}).field("D", int64_t{event.entry.draft});
}

void writeMoveFields(JsonSink& sink, const MoveRecord& m) {
  sink.field("move", std::string_view(moveName(m.from, m.to)));
  sink.field("x", int64_t{m.from}).field("y", int64_t{m.to}).field("u", int64_t{m.piece});
  sink.field("t", int64_t{m.victim}).field("H", int64_t{m.captureSquare}).field("G", int64_t{m.rookFrom});
  sink.field("F", int64_t{m.rookTo}).field("h", int64_t{m.remaining});
  sink.field("bestFirst", (m.flags & kMoveSneaked) != 0).field("enPassant", (m.flags & kMoveEnPassant) != 0);
  sink.field("castling", (m.flags & kMoveCastling) != 0).field("promotion", (m.flags & kMovePromotion) != 0);
}

/// A return: its score and best move, the draft it completed ("draft", the
/// D it stored) and the search's raw loop counter ("dLoop", one more for a
/// searched call: see completedDraft).
void writeReturnFields(JsonSink& sink, const Event& event, bool answeredByHash) {
  sink.field("m", int64_t{event.best}).field("X", int64_t{event.bestFrom}).field("Y", int64_t{event.bestTo});
  sink.field("draft", int64_t{completedDraft(event.draft, answeredByHash)});
  sink.field("dLoop", int64_t{event.draft});
  sink.field("fromHash", answeredByHash);
}

/// The fields of one event after its index, kind, ply and site.
void writeEventFields(JsonSink& sink, const Event& event, uint64_t nodeNumber, bool answeredByHash) {
  switch (event.kind) {
    case EventKind::kCall:
      return writeCallFields(sink, event.call);
    case EventKind::kProbe:
      return writeProbeFields(sink, event);
    case EventKind::kNodeCounted:
      sink << ",\"N\":";
      sink.number(nodeNumber);
      return;
    case EventKind::kIteration:
      sink.field("d", int64_t{event.value});
      return;
    case EventKind::kKingCapture:
      sink.field("x", int64_t{event.move.from}).field("y", int64_t{event.move.to});
      sink.field("badCastling", event.badCastling);
      return;
    case EventKind::kCutoff:
      sink.field("m", int64_t{event.value});
      return;
    case EventKind::kMoveMade:
      return writeMoveFields(sink, event.move);
    case EventKind::kMoveScored:
      sink.field("v", int64_t{event.value});
      return;
    case EventKind::kBestMove:
      sink.field("m", int64_t{event.best})
          .field("X", int64_t{event.bestFrom})
          .field("Y", int64_t{event.bestTo});
      return;
    case EventKind::kStore:
      sink.field("a", int64_t{event.slot}).field("written", event.written);
      sink.field("before", event.before).field("after", event.after);
      return;
    case EventKind::kReturn:
      return writeReturnFields(sink, event, answeredByHash);
    default:  // the kinds without fields
      return;
  }
}

}  // namespace

void writeJsonLines(const TraceReader& reader, std::ostream& out) {
  JsonSink sink(out);
  uint64_t open = 0;            // calls open before the event
  uint64_t nodes = 0;           // counted nodes so far
  bool answeredByHash = false;  // the last event was a probe that ended its node
  reader.forEach([&](const Event& event, uint64_t index) {
    uint64_t ply = open == 0 ? 0 : open - 1;
    if (event.kind == EventKind::kCall) {
      ply = open++;
    } else {
      requireOpenCall(event, index, open);
      if (event.kind == EventKind::kReturn) --open;
    }
    const bool endsNode = event.kind == EventKind::kProbe && event.probe.endsNode;
    if (event.kind == EventKind::kNodeCounted) ++nodes;
    sink << "{\"i\":";
    sink.number(index);
    sink.field("kind", kindName(event.kind));
    sink << ",\"ply\":";
    sink.number(ply);
    sink.field("site", int64_t{static_cast<int>(siteOf(event.kind, endsNode))});
    writeEventFields(sink, event, nodes, answeredByHash);
    sink << "}\n";
    answeredByHash = endsNode;
  });
  sink.flush();
}

}  // namespace umax::trace
