/// \file bytes.h
/// \brief Little-endian, LEB128 and zigzag primitives of the trace format
/// (the records built from them are in records.h).
#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "umax/trace/format.h"

namespace umax::trace {

/// Writes the primitives of the format through `at`, the one place that
/// knows their byte layout: a raw pointer (RecordWriter, the hot path of
/// recording, where a vector's bookkeeping per byte would cost more than the
/// rest) or an iterator that appends to a vector (ByteWriter).
template <class Out>
struct BasicWriter {
  Out at;  ///< where the next byte goes
  /// One byte.
  void u8(int value) { *at++ = static_cast<uint8_t>(value); }
  /// One byte of a signed char (read back signed, ByteReader::i8).
  void i8(int value) { u8(value); }
  /// Four bytes, little-endian.
  void u32(uint32_t value) {
    for (int shift = 0; shift < 32; shift += 8) u8(static_cast<int>(value >> shift));
  }
  /// Eight bytes, little-endian.
  void u64(uint64_t value) {
    u32(static_cast<uint32_t>(value));
    u32(static_cast<uint32_t>(value >> 32));
  }
  /// LEB128: seven bits a byte, low bits first, bit 7 = more follows.
  [[gnu::always_inline]] void varint(uint64_t value) {
    if (value < 0x80) [[likely]] {  // most fields of a record fit in one byte
      u8(static_cast<int>(value));
      return;
    }
    for (; value >= 0x80; value >>= 7) u8(static_cast<int>(value | 0x80));
    u8(static_cast<int>(value));
  }
  /// A signed value as a zigzag varint (0,-1,1,-2,... -> 0,1,2,3,...).
  [[gnu::always_inline]] void zigzag(int64_t value) {
    varint((static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63));
  }
};

/// Writes records into a chunk's bytes (room for kMaxRecordBytes at `at`).
using RecordWriter = BasicWriter<uint8_t*>;

/// Appends the primitives, raw bytes and strings to a byte vector.
struct ByteWriter : BasicWriter<std::back_insert_iterator<std::vector<uint8_t>>> {
  /// Writes at the end of `out`.
  explicit ByteWriter(std::vector<uint8_t>& out) : BasicWriter{std::back_inserter(out)}, out(out) {}
  /// Raw bytes.
  void bytes(const void* data, std::size_t size) {
    const auto* begin = static_cast<const uint8_t*>(data);
    out.insert(out.end(), begin, begin + size);
  }
  /// A length-prefixed string.
  void string(std::string_view text) {
    varint(text.size());
    bytes(text.data(), text.size());
  }
  std::vector<uint8_t>& out;  ///< the bytes written
};

/// Four bytes, little-endian, at `at` (the caller knows they are there).
inline uint32_t loadU32(const uint8_t* at) {
  uint32_t value = 0;
  for (int index = 3; index >= 0; --index) value = (value << 8) | at[index];
  return value;
}

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
  /// Reads [begin, end); `base` is the file offset of `begin` and `what` (a string literal: it is
  /// kept, not copied, since a reader is made per event record) names the data, for messages.
  ByteReader(const uint8_t* begin, const uint8_t* end, uint64_t base, const char* what)
      : begin_(begin), at_(begin), end_(end), base_(base), what_(what) {}

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
    at_ += 4;
    return loadU32(at_ - 4);
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
  /// Reads a value into `field`: the forms that let one list of a layout's
  /// fields both write it (BasicWriter's) and read it (records.h).
  template <class T>
  void u8(T& field) {
    field = static_cast<T>(u8());
  }
  /// As i8(), into `field`.
  template <class T>
  void i8(T& field) {
    field = static_cast<T>(i8());
  }
  /// As u32(), into `field`.
  template <class T>
  void u32(T& field) {
    field = static_cast<T>(u32());
  }
  /// As int32(), into `field`.
  void zigzag(int& field) { field = int32(); }
  /// As varint(), into `field`.
  template <class T>
  void varint(T& field) {
    field = static_cast<T>(varint());
  }
  /// Throws TraceError: "<what>: <message>" at the current offset.
  [[noreturn]] void fail(const std::string& message) const {
    throw TraceError(std::string(what_) + ": " + message, offset());
  }

 private:
  void need(std::size_t size) const {
    if (left() < size) throw TruncatedData(std::string(what_) + ": unexpected end of data", offset());
  }
  const uint8_t* begin_;
  const uint8_t* at_;
  const uint8_t* end_;
  uint64_t base_;
  const char* what_;
};

}  // namespace umax::trace
