// json_sink.h - JSON text for the exporters (jsonl, chrome): collected in a buffer and handed to
// the stream in 64 KB pieces, with numbers, escaped strings and `,"key":value` fields; and the
// fields an event holds, named as jsonl names them (eventFields), which toString prints too.
#pragma once

#include <charconv>
#include <concepts>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "umax/engine.h"
#include "umax/notation.h"
#include "umax/trace/fields.h"

namespace umax::trace {

/// JSON text collected in a buffer and written to a stream in large pieces.
class JsonSink {
 public:
  explicit JsonSink(std::ostream& out) : out_(out) { buffer_.reserve(kFlushAt + 4096); }
  /// Writes what is left; a failed last write shows in the stream's state (no throw here).
  ~JsonSink() { out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size())); }

  /// Raw text (punctuation, keys already quoted).
  JsonSink& operator<<(std::string_view text) {
    buffer_.append(text);
    if (buffer_.size() >= kFlushAt) flush();
    return *this;
  }
  template <std::integral Integer>
  JsonSink& number(Integer value) {
    char digits[24];
    buffer_.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
    return *this;
  }
  /// A JSON string literal: quotes, backslashes and control characters escaped.
  JsonSink& string(std::string_view text) {
    buffer_.push_back('"');
    for (const char c : text) {
      const auto byte = static_cast<unsigned char>(c);
      if (c == '"' || c == '\\') buffer_.push_back('\\');
      if (byte < 0x20) {
        buffer_ += "\\u00";
        buffer_.push_back("0123456789abcdef"[byte >> 4]);
        buffer_.push_back("0123456789abcdef"[byte & 15]);
      } else {
        buffer_.push_back(c);
      }
    }
    return *this << "\"";
  }
  /// `,"key":` and the value: an integer, true / false, a string.
  template <std::integral Integer>
  JsonSink& field(std::string_view key, Integer value) {
    return (*this << ",\"" << key << "\":").number(value);
  }
  JsonSink& field(std::string_view key, bool value) {
    return *this << ",\"" << key << "\":" << (value ? "true" : "false");
  }
  JsonSink& field(std::string_view key, std::string_view text) {
    return (*this << ",\"" << key << "\":").string(text);
  }
  /// `,"key":{"K":..,"V":..,"X":..,"Y":..,"D":..}`: a hash entry with the original's field names.
  JsonSink& field(std::string_view key, const HashEntry& entry) {
    (*this << ",\"" << key << "\":{\"K\":").number(entry.lock);
    return field("V", entry.score).field("X", entry.from).field("Y", entry.to).field("D", entry.draft) << "}";
  }
  /// Hands the buffer to the stream; throws std::runtime_error if it fails.
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

/// The fields `event` holds itself, in jsonl's order and names, each handed to `out.field(key,
/// value)` (an integer, a bool, a string or a HashEntry): the original's variables (k q l e J Z E z
/// n for a call, x y u t H G F h for a move...), and a kind without a layout of its own its row's
/// fields, named as its hook's parameters. What depends on the events before it is the caller's:
/// a counted node's N, a return's draft, dLoop and fromHash.
template <class Out>
void eventFields(Out& out, const Event& event) {
  const MoveRecord& m = event.move;
  const auto flag = [&m](int bit) { return (m.flags & bit) != 0; };  // a MoveFlag of the move
  switch (event.kind) {
    case EventKind::kCall: {
      const NodeCall& c = event.call;
      out.field("k", c.side).field("q", c.alpha).field("l", c.beta).field("e", c.eval);
      out.field("J", c.hashKey).field("Z", c.hashLock).field("E", c.epSquare).field("z", c.lastTo);
      out.field("n", c.depth);
      break;
    }
    case EventKind::kProbe: {
      const ProbeReport& p = event.probe;
      out.field("outcome", outcomeName(p.outcome)).field("j", p.firstSlot).field("probed", p.slotsProbed);
      out.field("a", p.slot).field("endsNode", p.endsNode);
      const HashEntry& e = event.entry;  // the entry found, on a hit
      if (p.outcome == ProbeOutcome::kHit)
        out.field("V", e.score).field("X", e.from).field("Y", e.to).field("D", e.draft);
      break;
    }
    case EventKind::kIteration:
      out.field("d", event.value);
      break;
    case EventKind::kKingCapture:
      out.field("x", m.from).field("y", m.to).field("badCastling", event.badCastling);
      break;
    case EventKind::kCutoff:
      out.field("m", event.value);
      break;
    case EventKind::kMoveMade:
      out.field("move", std::string_view(moveName(m.from, m.to))).field("x", m.from).field("y", m.to);
      out.field("u", m.piece).field("t", m.victim).field("H", m.captureSquare).field("G", m.rookFrom);
      out.field("F", m.passedSquare).field("h", m.remaining).field("bestFirst", flag(kMoveSneaked));
      out.field("enPassant", flag(kMoveEnPassant)).field("castling", flag(kMoveCastling));
      out.field("promotion", flag(kMovePromotion));
      break;
    case EventKind::kMoveScored:
      out.field("v", event.value);
      break;
    case EventKind::kBestMove:
    case EventKind::kReturn:
      out.field("m", event.best).field("X", event.bestFrom).field("Y", event.bestTo);
      break;
    case EventKind::kStore:
      out.field("a", event.slot).field("written", event.written);
      out.field("before", event.before).field("after", event.after);
      break;
    default: {  // the kinds without fields, and a kind without a layout of its own: its row's fields
      const FieldList& list = kKindFields[event.kind];
      for (int index = 0; index < list.count && list.numbers && !hasOwnLayout(event.kind); ++index) {
        const Field& one = list.fields[static_cast<std::size_t>(index)];
        const int64_t value = event.values[static_cast<std::size_t>(index)];
        if (one.type == FieldType::kBool)
          out.field(one.name, value != 0);
        else
          out.field(one.name, value);
      }
      break;
    }
  }
}

}  // namespace umax::trace
