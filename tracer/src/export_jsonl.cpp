// export_jsonl.cpp - every event of a trace as one line of JSON (see export.h). Streams: one chunk of
// events at a time.
#include "json_sink.h"
#include "umax/notation.h"
#include "umax/trace/export.h"
#include "umax/trace/replay.h"

namespace umax::trace {

void writeJsonLines(const TraceReader& reader, std::ostream& out) {
  JsonSink sink(out);
  uint64_t open = 0;            // calls open before the event
  uint64_t nodes = 0;           // counted nodes so far
  bool answeredByHash = false;  // the last event was a probe that ended its node
  // A think of the Lab (--without, --depth) first names its variant, in a line of its own (no
  // "i": it is not an event); a trace of micro-Max's own search starts with its first event.
  const SearchVariant& variant = reader.header().variant;
  if (!variant.isDefault()) {
    sink << "{\"header\":true";
    sink.field("search", "the Lab, " + variant.description()).field("without", variant.withoutList());
    sink.field("depth", variant.depth) << "}\n";
  }
  reader.forEach([&](const Event& event, uint64_t index) {
    uint64_t ply = open == 0 ? 0 : open - 1;
    if (event.kind == EventKind::kCall) {
      ply = open++;
    } else {
      requireOpenCall(event, index, open);
      if (event.kind == EventKind::kReturn) --open;
    }
    const bool endsNode = event.kind == EventKind::kProbe && event.probe.endsNode;
    (sink << "{\"i\":").number(index);
    sink.field("kind", kindName(event.kind)).field("ply", ply);
    sink.field("site", static_cast<int>(siteOf(event.kind, endsNode)));
    const MoveRecord& m = event.move;
    switch (event.kind) {
      case EventKind::kCall: {
        const NodeCall& c = event.call;
        sink.field("k", c.side).field("q", c.alpha).field("l", c.beta).field("e", c.eval);
        sink.field("J", c.hashKey).field("Z", c.hashLock).field("E", c.epSquare).field("z", c.lastTo);
        sink.field("n", c.depth);
        break;
      }
      case EventKind::kProbe: {
        const ProbeReport& p = event.probe;
        sink.field("outcome", outcomeName(p.outcome)).field("j", p.firstSlot).field("probed", p.slotsProbed);
        sink.field("a", p.slot).field("endsNode", p.endsNode);
        if (p.outcome == ProbeOutcome::kHit)
          sink.field("V", event.entry.score)
              .field("X", event.entry.from)
              .field("Y", event.entry.to)
              .field("D", event.entry.draft);
        break;
      }
      case EventKind::kNodeCounted:
        sink.field("N", ++nodes);
        break;
      case EventKind::kIteration:
        sink.field("d", event.value);
        break;
      case EventKind::kKingCapture:
        sink.field("x", m.from).field("y", m.to).field("badCastling", event.badCastling);
        break;
      case EventKind::kCutoff:
        sink.field("m", event.value);
        break;
      case EventKind::kMoveMade:
        sink.field("move", std::string_view(moveName(m.from, m.to))).field("x", m.from).field("y", m.to);
        sink.field("u", m.piece).field("t", m.victim).field("H", m.captureSquare).field("G", m.rookFrom);
        sink.field("F", m.passedSquare)
            .field("h", m.remaining)
            .field("bestFirst", (m.flags & kMoveSneaked) != 0);
        sink.field("enPassant", (m.flags & kMoveEnPassant) != 0)
            .field("castling", (m.flags & kMoveCastling) != 0);
        sink.field("promotion", (m.flags & kMovePromotion) != 0);
        break;
      case EventKind::kMoveScored:
        sink.field("v", event.value);
        break;
      case EventKind::kBestMove:
        sink.field("m", event.best).field("X", event.bestFrom).field("Y", event.bestTo);
        break;
      case EventKind::kStore:
        sink.field("a", event.slot).field("written", event.written);
        sink.field("before", event.before).field("after", event.after);
        break;
      case EventKind::kReturn:  // "draft": the D it stored; "dLoop": the search's d (completedDraft)
        sink.field("m", event.best).field("X", event.bestFrom).field("Y", event.bestTo);
        sink.field("draft", completedDraft(event.draft, answeredByHash)).field("dLoop", event.draft);
        sink.field("fromHash", answeredByHash);
        break;
      default:  // the kinds without fields, and any kind without a layout of its own (fields.h)
        sink.values(event);
        break;
    }
    sink << "}\n";
    answeredByHash = endsNode;
  });
  sink.flush();
}

}  // namespace umax::trace
