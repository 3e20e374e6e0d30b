// json_sink.h - JSON text for the exporters (jsonl, chrome): collected in a buffer and handed to
// the stream in 64 KB pieces, with numbers, escaped strings and `,"key":value` fields.
#pragma once

#include <charconv>
#include <concepts>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "umax/engine.h"
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
  /// A kind without a layout of its own (fields.h): its row's fields, named as its hook's parameters.
  JsonSink& values(const Event& event) {
    const FieldList& list = kKindFields[event.kind];
    for (int index = 0; index < list.count && list.numbers && !hasOwnLayout(event.kind); ++index) {
      const Field& one = list.fields[static_cast<std::size_t>(index)];
      const int64_t value = event.values[static_cast<std::size_t>(index)];
      if (one.type == FieldType::kBool)
        field(one.name, value != 0);
      else
        field(one.name, value);
    }
    return *this;
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

}  // namespace umax::trace
