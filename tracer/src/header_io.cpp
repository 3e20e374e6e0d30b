// header_io.cpp - the trace header: magic, version, search parameters, position.
#include "umax/trace/header_io.h"

#include <cstring>

#include "umax/trace/bytes.h"

namespace umax::trace {

void writeHeader(const TraceHeader& header, std::vector<uint8_t>& out) {
  std::vector<uint8_t> body;
  ByteWriter write(body);
  write.u32(header.lineMapVersion);
  write.u64(static_cast<uint64_t>(header.budget));
  write.u32(header.startNodes);
  const NodeCall& root = header.root;
  write.u8(root.side);
  write.zigzag(root.alpha);
  write.zigzag(root.beta);
  write.zigzag(root.eval);
  write.u32(root.hashKey);
  write.u32(root.hashLock);
  write.zigzag(root.epSquare);
  write.zigzag(root.lastTo);
  write.zigzag(root.depth);
  write.bytes(header.position.board.data(), header.position.board.size());
  write.zigzag(header.position.epSquare);
  write.zigzag(header.position.eval);
  write.string(header.fen);
  write.string(header.moves);
  write.varint(header.initialEntries.size());
  for (const auto& [slot, entry] : header.initialEntries) {
    write.u32(slot);
    write.entry(entry);
  }

  ByteWriter head(out);
  head.bytes(kMagic, sizeof kMagic);
  head.u32(header.version);
  head.u32(static_cast<uint32_t>(body.size()));
  head.bytes(body.data(), body.size());
  head.u32(crc32Of(body.data(), body.size()));
}

uint64_t readHeader(const uint8_t* data, std::size_t size, TraceHeader& header) {
  if (size < sizeof kMagic || std::memcmp(data, kMagic, sizeof kMagic) != 0)
    throw TraceError("not a umax trace file (wrong magic)", 0);
  ByteReader prefix(data + sizeof kMagic, data + size, sizeof kMagic, "header");
  uint32_t version = 0;
  uint32_t length = 0;
  try {
    version = prefix.u32();
    if (version != kFormatVersion)
      throw TraceError("unsupported trace format version " + std::to_string(version) +
                           " (this build reads version " + std::to_string(kFormatVersion) + ")",
                       sizeof kMagic);
    length = prefix.u32();
  } catch (const TruncatedData& error) {
    throw TraceError("truncated header", error.offset());
  }
  if (length > prefix.left() || prefix.left() - length < 4) throw TraceError("truncated header", size);
  const uint64_t start = prefix.offset();
  {
    ByteReader crc(prefix.here() + length, prefix.here() + length + 4, start + length, "header");
    if (crc.u32() != crc32Of(prefix.here(), length))
      throw TraceError("corrupt trace: header checksum mismatch", start + length);
  }
  ByteReader read(prefix.here(), prefix.here() + length, start, "header");
  try {
    header.version = version;
    header.lineMapVersion = read.u32();
    header.budget = static_cast<int64_t>(read.u64());
    header.startNodes = read.u32();
    NodeCall& root = header.root;
    root.side = read.u8();
    if (root.side != kWhite && root.side != kBlack) read.fail("bad side to move");
    root.alpha = read.int32();
    root.beta = read.int32();
    root.eval = read.int32();
    root.hashKey = read.u32();
    root.hashLock = read.u32();
    root.epSquare = read.int32();
    root.lastTo = read.int32();
    root.depth = read.int32();
    read.bytes(header.position.board.data(), header.position.board.size());
    header.position.side = root.side;
    header.position.epSquare = read.int32();
    header.position.eval = read.int32();
    header.fen = read.string(kMaxHeaderString);
    header.moves = read.string(kMaxHeaderString);
    const uint64_t count = read.varint();
    if (count > static_cast<uint64_t>(kHashEntries)) read.fail("too many initial hash entries");
    header.initialEntries.clear();
    for (uint64_t index = 0; index < count; ++index) {
      const uint32_t slot = read.u32();
      if (slot >= static_cast<uint32_t>(kHashEntries)) read.fail("initial hash slot out of range");
      header.initialEntries.emplace_back(slot, read.entry());
    }
  } catch (const TruncatedData& error) {
    throw TraceError("malformed header: fields run past its length", error.offset());
  }
  if (read.left() != 0) read.fail("trailing bytes in the header");
  return start + length + 4;
}

}  // namespace umax::trace
