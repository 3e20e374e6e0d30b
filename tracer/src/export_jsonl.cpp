// export_jsonl.cpp - every event of a trace as one line of JSON (see export.h), streamed one chunk
// of events at a time; and one event as text, its fields named as jsonl names them (toString).
#include <sstream>
#include <type_traits>

#include "json_sink.h"
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
    eventFields(sink, event);
    if (event.kind == EventKind::kNodeCounted) sink.field("N", ++nodes);
    if (event.kind == EventKind::kReturn) {  // "draft": the D it stored; "dLoop": the search's d
      sink.field("draft", completedDraft(event.draft, answeredByHash)).field("dLoop", event.draft);
      sink.field("fromHash", answeredByHash);
    }
    sink << "}\n";
    answeredByHash = endsNode;
  });
  sink.flush();
}

namespace {

/// Prints `key=value` fields after a blank each (eventFields' `out`; bools as true / false).
struct TextFields {
  std::ostringstream& text;
  template <class Value>
  TextFields& field(std::string_view key, const Value& value) {
    if constexpr (std::is_same_v<Value, HashEntry>)
      text << " " << key << "={K=" << value.lock << " V=" << value.score << " X=" << int(value.from)
           << " Y=" << int(value.to) << " D=" << int(value.draft) << "}";
    else
      text << " " << key << "=" << value;
    return *this;
  }
};

}  // namespace

std::string toString(const Event& event) {
  std::ostringstream text;
  text << std::boolalpha << kindName(event.kind);
  TextFields fields{text};
  eventFields(fields, event);
  if (event.kind == EventKind::kReturn) fields.field("dLoop", event.draft);
  return text.str();
}

}  // namespace umax::trace
