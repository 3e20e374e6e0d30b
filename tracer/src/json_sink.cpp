// json_sink.cpp - buffered JSON text for the exporters.
#include "json_sink.h"

#include <stdexcept>

namespace umax::trace {

JsonSink::JsonSink(std::ostream& out) : out_(out) { buffer_.reserve(kFlushAt + 4096); }

JsonSink::~JsonSink() {
  // A destructor must not throw: a failed last write is reported by the
  // caller's own flush() or the stream's state.
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
}

JsonSink& JsonSink::operator<<(std::string_view text) {
  buffer_.append(text);
  if (buffer_.size() >= kFlushAt) flush();
  return *this;
}

JsonSink& JsonSink::operator<<(char c) {
  buffer_.push_back(c);
  return *this;
}

JsonSink& JsonSink::string(std::string_view text) {
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

JsonSink& JsonSink::field(std::string_view key, int64_t value) {
  *this << ",\"" << key << "\":";
  return number(value);
}

JsonSink& JsonSink::field(std::string_view key, bool value) {
  return *this << ",\"" << key << "\":" << (value ? "true" : "false");
}

JsonSink& JsonSink::field(std::string_view key, std::string_view text) {
  *this << ",\"" << key << "\":";
  return string(text);
}

JsonSink& JsonSink::field(std::string_view key, const HashEntry& entry) {
  *this << ",\"" << key << "\":{\"K\":";
  number(entry.lock);
  field("V", int64_t{entry.score}).field("X", int64_t{entry.from}).field("Y", int64_t{entry.to});
  return field("D", int64_t{entry.draft}) << '}';
}

void JsonSink::flush() {
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
  if (!out_) throw std::runtime_error("cannot write the output");
}

}  // namespace umax::trace
