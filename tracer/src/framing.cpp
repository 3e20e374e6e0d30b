// framing.cpp - the parts of a trace file around its records (framing.h).
#include "umax/trace/framing.h"

#include <cstring>

#include "umax/trace/records.h"

namespace umax::trace {

void writeHeader(const TraceHeader& header, std::vector<uint8_t>& out) {
  std::vector<uint8_t> body;
  ByteWriter write(body);
  write.u32(header.lineMapVersion);
  write.u64(static_cast<uint64_t>(header.budget));
  write.u32(header.startNodes);
  write.u8(header.root.side);
  callArguments(write, header.root);
  write.bytes(header.position.board.data(), header.position.board.size());
  write.zigzag(header.position.epSquare);
  write.zigzag(header.position.eval);
  write.string(header.fen);
  write.string(header.moves);
  write.u8(static_cast<uint8_t>(header.hashSlotBits));
  write.varint(header.initialEntries.size());
  for (const auto& [slot, entry] : header.initialEntries) {
    write.u32(slot);
    writeEntry(write, entry);
  }
  write.u8(static_cast<uint8_t>(header.variant.without));
  write.u8(static_cast<uint8_t>(header.variant.depth));

  // The checksum covers every byte after the magic.
  ByteWriter head(out);
  head.bytes(kMagic, sizeof kMagic);
  const std::size_t covered = out.size();
  head.u32(header.version);
  head.u32(static_cast<uint32_t>(body.size()));
  head.bytes(body.data(), body.size());
  head.u32(crc32c(out.data() + covered, out.size() - covered));
}

uint64_t readHeader(const uint8_t* data, std::size_t size, TraceHeader& header) {
  if (size < sizeof kMagic || std::memcmp(data, kMagic, sizeof kMagic) != 0)
    throw TraceError("not a umax trace file (wrong magic)", 0);
  if (size < 12) throw TraceError("truncated header", 8);
  const uint32_t version = loadU32(data + 8);
  if (version != kFormatVersion) {
    const char* why = (version & kOtherSchemaBit)
                          ? "; a build with other event kinds wrote it, or it is damaged)"
                      : version < kFormatVersion ? ": record the think again)"
                                                 : "; or the file is damaged)";
    throw TraceError("trace format version " + versionName(version) + " is not supported (this build reads " +
                         "version " + versionName(kFormatVersion) + " only" + why,
                     sizeof kMagic);
  }
  if (size < 16) throw TraceError("truncated header", 12);
  const uint32_t length = loadU32(data + 12);
  const uint64_t start = 16;  // the header fields, after magic, version and length
  if (length > size - start || size - start - length < 4) throw TraceError("truncated header", size);
  if (loadU32(data + start + length) != crc32c(data + sizeof kMagic, 8 + std::size_t{length}))
    throw TraceError("corrupt trace: header checksum mismatch", start + length);
  ByteReader read(data + start, data + start + length, start, "header");
  header.version = version;
  try {
    header.lineMapVersion = read.u32();
    header.budget = static_cast<int64_t>(read.u64());
    header.startNodes = read.u32();
    read.u8(header.root.side);
    callArguments(read, header.root);
    checkCall(read, header.root);
    read.bytes(header.position.board.data(), header.position.board.size());
    header.position.side = header.root.side;
    header.position.epSquare = read.int32();
    header.position.eval = read.int32();
    header.fen = read.string(kMaxHeaderString);
    header.moves = read.string(kMaxHeaderString);
    header.hashSlotBits = read.u8();
    if (header.hashSlotBits < kMinHashSlotBits || header.hashSlotBits > kHashSlotBits)
      read.fail("hash table of 2^" + std::to_string(header.hashSlotBits) + " + 9 slots: a table has 2^" +
                std::to_string(kMinHashSlotBits) + " to 2^" + std::to_string(kHashSlotBits));
    const uint64_t count = read.varint();
    if (count > header.hashSlots()) read.fail("too many initial hash entries");
    header.initialEntries.clear();
    for (uint64_t index = 0; index < count; ++index) {
      const uint32_t slot = read.u32();
      if (slot >= header.hashSlots()) read.fail("initial hash slot out of range");
      header.initialEntries.emplace_back(slot, readEntry(read));
    }
    header.variant.without = read.u8();
    if (header.variant.without >= (1u << kIdeas.size())) read.fail("unknown Lab idea switched off");
    header.variant.depth = read.u8();
    if (header.variant.depth >= kMaxIteration) read.fail("Lab depth out of range");
  } catch (const TruncatedData& error) {
    throw TraceError("malformed header: fields run past its length", error.offset());
  }
  if (read.left() != 0) read.fail("trailing bytes in the header");
  return start + length + 4;
}

void writeChunkHead(uint32_t events, const uint8_t* payload, std::size_t size, std::vector<uint8_t>& out) {
  ByteWriter write(out);
  write.bytes(kChunkMagic, sizeof kChunkMagic);
  write.u32(static_cast<uint32_t>(size));
  write.u32(events);
  write.u32(chunkCrc(events, payload, size));
}

bool readChunkHead(const uint8_t* at, ChunkHead& head) {
  if (std::memcmp(at, kChunkMagic, sizeof kChunkMagic) != 0) return false;
  head = {loadU32(at + 4), loadU32(at + 8), loadU32(at + 12)};
  return true;
}

namespace {

/// The footer's result, written or read by the one list: zz score, u8 from,
/// u8 to, varint nodes, varint events (then str not played, written and read beside).
template <class Code, class Result>
void resultFields(Code& code, Result& result) {
  code.zigzag(result.score);
  code.u8(result.from);
  code.u8(result.to);
  code.varint(result.nodes);
  code.varint(result.events);
}

}  // namespace

void writeFooter(const std::vector<ChunkIndexEntry>& index, const TraceResult& result, uint64_t footerOffset,
                 std::vector<uint8_t>& out) {
  std::vector<uint8_t> body;
  ByteWriter write(body);
  write.varint(index.size());
  for (const ChunkIndexEntry& chunk : index) {
    write.varint(chunk.offset);
    write.varint(chunk.firstEvent);
    write.varint(chunk.nodesBefore);
  }
  resultFields(write, result);
  write.string(result.notPlayed.substr(0, kMaxNotPlayedText));
  for (const ChunkIndexEntry& chunk : index) {
    write.varint(chunk.checkpoint.size());
    write.bytes(chunk.checkpoint.data(), chunk.checkpoint.size());
  }

  ByteWriter foot(out);
  foot.bytes(kFooterMagic, sizeof kFooterMagic);
  foot.u32(static_cast<uint32_t>(body.size()));
  foot.bytes(body.data(), body.size());
  foot.u32(crc32c(body.data(), body.size()));
  foot.u64(footerOffset);
  foot.bytes(kEndMagic, sizeof kEndMagic);
}

uint64_t readTrailer(const uint8_t* data, uint64_t size, uint64_t chunksStart) {
  const uint8_t* trailer = data + size - kTrailerBytes;
  const uint64_t footerOffset = loadU32(trailer) | uint64_t{loadU32(trailer + 4)} << 32;
  if (footerOffset < chunksStart || footerOffset > size - kTrailerBytes)
    throw TraceError("trailer points outside the file", size - kTrailerBytes);
  return footerOffset;
}

TraceResult readFooter(const uint8_t* data, uint64_t size, uint64_t footerOffset,
                       std::vector<ChunkInfo>& chunks, bool fromIndex, uint64_t eventCount) {
  if (size - kTrailerBytes - footerOffset < 12 ||
      std::memcmp(data + footerOffset, kFooterMagic, sizeof kFooterMagic) != 0)
    throw TraceError("corrupt trace: no footer where the trailer points", footerOffset);
  const uint64_t body = footerOffset + 8;
  const uint32_t length = loadU32(data + footerOffset + 4);
  if (body + length + 4 != size - kTrailerBytes)
    throw TraceError("corrupt trace: bad footer length", footerOffset + 4);
  if (crc32c(data + body, length) != loadU32(data + body + length))
    throw TraceError("corrupt trace: footer checksum mismatch", body + length);
  ByteReader read(data + body, data + body + length, body, "footer");
  TraceResult result;
  try {
    const uint64_t count = read.varint();
    if (fromIndex) {
      if (count > read.left()) read.fail("the index lists more chunks than the footer can hold");
      chunks.assign(static_cast<std::size_t>(count), ChunkInfo{});
    } else if (count != chunks.size()) {
      read.fail("the index lists another number of chunks than the file holds");
    }
    for (ChunkInfo& chunk : chunks) {
      const uint64_t offset = read.varint();
      const uint64_t first = read.varint();
      chunk.nodesBefore = read.varint();
      if (fromIndex) {
        chunk.offset = offset;
        chunk.firstEvent = first;
      } else if (offset != chunk.offset || first != chunk.firstEvent) {
        read.fail("the index does not match the chunks");
      }
    }
    resultFields(read, result);
    result.notPlayed = read.string(kMaxNotPlayedText);
    for (const char c : result.notPlayed)  // printed by the tools as it is: text only
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        read.fail("the not-played reason holds a control byte");
    if (!fromIndex && result.events != eventCount) read.fail("the event count does not match the chunks");
    for (ChunkInfo& chunk : chunks) {
      chunk.checkpointBytes = read.varint();
      if (chunk.checkpointBytes > read.left()) read.fail("checkpoint runs past the footer");
      chunk.checkpointOffset = read.offset();
      read.skip(static_cast<std::size_t>(chunk.checkpointBytes));
    }
  } catch (const TruncatedData& error) {
    throw TraceError("corrupt trace: footer fields run past its length", error.offset());
  }
  if (read.left() != 0) read.fail("trailing bytes");
  return result;
}

}  // namespace umax::trace
