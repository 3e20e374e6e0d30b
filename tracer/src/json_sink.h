// json_sink.h - buffered JSON text for the exporters (jsonl, chrome): the
// output collected in a string and handed to the stream in 64 KB pieces, with
// numbers, escaped strings and `,"key":value` fields.
#pragma once

#include <charconv>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "umax/engine.h"

namespace umax::trace {

/// JSON text collected in a buffer and written to a stream in large pieces.
class JsonSink {
 public:
  /// Writes to `out`; what is left is flushed when the sink goes.
  explicit JsonSink(std::ostream& out);
  ~JsonSink();
  JsonSink(const JsonSink&) = delete;
  JsonSink& operator=(const JsonSink&) = delete;

  /// Raw text (punctuation, keys already quoted).
  JsonSink& operator<<(std::string_view text);
  /// One raw character.
  JsonSink& operator<<(char c);
  /// An integer.
  template <class Integer>
  JsonSink& number(Integer value) {
    char digits[24];
    buffer_.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
    return *this;
  }
  /// A JSON string literal: quotes added, quotes, backslashes and control characters escaped.
  JsonSink& string(std::string_view text);
  /// `,"key":value` for an integer.
  JsonSink& field(std::string_view key, int64_t value);
  /// `,"key":true` or false.
  JsonSink& field(std::string_view key, bool value);
  /// `,"key":"text"`.
  JsonSink& field(std::string_view key, std::string_view text);
  /// `,"key":{"K":..,"V":..,"X":..,"Y":..,"D":..}`: a hash entry with the original's field names.
  JsonSink& field(std::string_view key, const HashEntry& entry);
  /// Hands the buffer to the stream; throws std::runtime_error if it fails.
  void flush();

 private:
  static constexpr std::size_t kFlushAt = 64 * 1024;
  std::ostream& out_;
  std::string buffer_;
};

}  // namespace umax::trace
