/// \file bytes.h
/// \brief Little-endian, LEB128 and zigzag primitives of the trace format
/// (the records built from them are in records.h).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "umax/trace/format.h"

namespace umax::trace {

/// Writes record fields through a raw pointer: the hot path of recording,
/// where a vector's bounds bookkeeping per byte would cost more than the rest.
struct RecordWriter {
  uint8_t* at;  ///< where the next byte goes
  /// One byte.
  void u8(int value) { *at++ = static_cast<uint8_t>(value); }
  /// Four bytes, little-endian.
  void u32(uint32_t value) {
    at[0] = static_cast<uint8_t>(value);
    at[1] = static_cast<uint8_t>(value >> 8);
    at[2] = static_cast<uint8_t>(value >> 16);
    at[3] = static_cast<uint8_t>(value >> 24);
    at += 4;
  }
  /// LEB128: seven bits a byte, low bits first, bit 7 = more follows.
  [[gnu::always_inline]] void varint(uint64_t value) {
    if (value < 0x80) [[likely]] {  // most fields of a record fit in one byte
      *at++ = static_cast<uint8_t>(value);
      return;
    }
    while (value >= 0x80) {
      *at++ = static_cast<uint8_t>(value | 0x80);
      value >>= 7;
    }
    *at++ = static_cast<uint8_t>(value);
  }
  /// A signed value as a zigzag varint (0,-1,1,-2,... -> 0,1,2,3,...).
  [[gnu::always_inline]] void zigzag(int64_t value) {
    varint((static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63));
  }
};

/// Appends the primitives of the format to a byte vector, each encoded by
/// RecordWriter (the one place that knows their byte layout).
class ByteWriter {
 public:
  /// Writes into `out` (appending).
  explicit ByteWriter(std::vector<uint8_t>& out) : out_(out) {}
  /// One byte.
  void u8(int value) { out_.push_back(static_cast<uint8_t>(value)); }
  /// Four bytes, little-endian.
  void u32(uint32_t value) {
    put([&](RecordWriter& write) { write.u32(value); });
  }
  /// Eight bytes, little-endian.
  void u64(uint64_t value) {
    put([&](RecordWriter& write) {
      write.u32(static_cast<uint32_t>(value));
      write.u32(static_cast<uint32_t>(value >> 32));
    });
  }
  /// LEB128: seven bits a byte, low bits first, bit 7 = more follows.
  void varint(uint64_t value) {
    put([&](RecordWriter& write) { write.varint(value); });
  }
  /// A signed value as a zigzag varint.
  void zigzag(int64_t value) {
    put([&](RecordWriter& write) { write.zigzag(value); });
  }
  /// A length-prefixed string.
  void string(std::string_view text) {
    varint(text.size());
    out_.insert(out_.end(), text.begin(), text.end());
  }
  /// Raw bytes.
  void bytes(const void* data, std::size_t size) {
    const auto* begin = static_cast<const uint8_t*>(data);
    out_.insert(out_.end(), begin, begin + size);
  }

 private:
  /// Encodes one primitive (at most 32 bytes) and appends it.
  template <class Encode>
  void put(Encode&& encode) {
    uint8_t buffer[32];
    RecordWriter write{buffer};
    encode(write);
    out_.insert(out_.end(), buffer, write.at);
  }
  std::vector<uint8_t>& out_;
};

/// The data ended in the middle of a value.
class TruncatedData : public TraceError {
 public:
  /// The value that did not fit started before byte `offset`.
  TruncatedData(const std::string& what, uint64_t offset) : TraceError(what, offset) {}
};

/// Reads the primitives back from a byte range, checking every bound. A read
/// past the end throws TraceError naming `what` and the file offset.
class ByteReader {
 public:
  /// Reads [begin, end); `base` is the file offset of `begin` (for messages).
  ByteReader(const uint8_t* begin, const uint8_t* end, uint64_t base, std::string what)
      : begin_(begin), at_(begin), end_(end), base_(base), what_(std::move(what)) {}

  /// Bytes left.
  std::size_t left() const { return static_cast<std::size_t>(end_ - at_); }
  /// File offset of the next byte.
  uint64_t offset() const { return base_ + static_cast<uint64_t>(at_ - begin_); }
  /// Where the next byte is.
  const uint8_t* here() const { return at_; }

  /// One byte.
  uint8_t u8() {
    need(1);
    return *at_++;
  }
  /// One byte as a signed char (squares and hash bytes are chars in micro-Max).
  int8_t i8() { return static_cast<int8_t>(u8()); }
  /// Four bytes, little-endian.
  uint32_t u32() {
    need(4);
    uint32_t value = 0;
    for (int index = 3; index >= 0; --index) value = (value << 8) | at_[index];
    at_ += 4;
    return value;
  }
  /// Eight bytes, little-endian.
  uint64_t u64() {
    const uint64_t low = u32();
    return low | (static_cast<uint64_t>(u32()) << 32);
  }
  /// A LEB128 varint of at most 10 bytes.
  uint64_t varint() {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const uint8_t byte = u8();
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return value;
    }
    fail("varint longer than 10 bytes");
  }
  /// A zigzag varint.
  int64_t zigzag() {
    const uint64_t raw = varint();
    return static_cast<int64_t>(raw >> 1) ^ -static_cast<int64_t>(raw & 1);
  }
  /// A zigzag varint that must fit an int.
  int int32() {
    const int64_t value = zigzag();
    if (value < INT32_MIN || value > INT32_MAX) fail("value out of range");
    return static_cast<int>(value);
  }
  /// A length-prefixed string of at most `limit` bytes.
  std::string string(std::size_t limit) {
    const uint64_t size = varint();
    if (size > limit) fail("string too long");
    need(static_cast<std::size_t>(size));
    std::string text(reinterpret_cast<const char*>(at_), static_cast<std::size_t>(size));
    at_ += size;
    return text;
  }
  /// Raw bytes.
  void bytes(void* out, std::size_t size) {
    need(size);
    std::memcpy(out, at_, size);
    at_ += size;
  }
  /// Passes over `size` bytes.
  void skip(std::size_t size) {
    need(size);
    at_ += size;
  }
  /// Throws TraceError: "<what>: <message>" at the current offset.
  [[noreturn]] void fail(const std::string& message) const {
    throw TraceError(what_ + ": " + message, offset());
  }

 private:
  void need(std::size_t size) const {
    if (left() < size) throw TruncatedData(what_ + ": unexpected end of data", offset());
  }
  const uint8_t* begin_;
  const uint8_t* at_;
  const uint8_t* end_;
  uint64_t base_;
  std::string what_;
};

}  // namespace umax::trace
