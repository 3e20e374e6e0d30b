/// \file framing.h
/// \brief The parts of a trace file around its records (layout: format.h),
/// each written and read side by side: header, chunk frames, footer, trailer.
#pragma once

#include <cstdint>
#include <vector>

#include "umax/trace/format.h"
#include "umax/trace/reader.h"

namespace umax::trace {

/// The version of readable/line_map.json whose "sites" the events refer to.
inline constexpr uint32_t kLineMapVersion = 2;
/// The longest FEN or move list a header may carry.
inline constexpr std::size_t kMaxHeaderString = 1 << 16;
/// Bytes of a chunk frame before its records: "CHNK", payload bytes, events, CRC.
inline constexpr uint64_t kChunkHeadBytes = 16;
/// Bytes of the trailer: the footer's offset, "UMAXEND\0".
inline constexpr uint64_t kTrailerBytes = 16;

/// Appends magic, version, length and the header fields (see format.h).
void writeHeader(const TraceHeader& header, std::vector<uint8_t>& out);

/// Reads the header at the start of a file image; returns the first chunk's
/// offset. Throws TraceError (for another version, naming it).
uint64_t readHeader(const uint8_t* data, std::size_t size, TraceHeader& header);

/// The fields of a chunk frame before its records.
struct ChunkHead {
  uint32_t payloadBytes = 0;  ///< P: bytes of records
  uint32_t events = 0;        ///< E: records in it
  uint32_t crc = 0;           ///< checksum of E and the payload (chunkCrc)
};

/// Appends the frame head of a chunk holding `events` records in `payload`.
void writeChunkHead(uint32_t events, const uint8_t* payload, std::size_t size, std::vector<uint8_t>& out);

/// Reads a frame head at `at` (kChunkHeadBytes there); false without "CHNK".
bool readChunkHead(const uint8_t* at, ChunkHead& head);

/// One chunk as the footer lists it.
struct ChunkIndexEntry {
  uint64_t offset = 0;              ///< file offset of its "CHNK"
  uint64_t firstEvent = 0;          ///< index of its first event
  uint64_t nodesBefore = 0;         ///< counted nodes before it
  std::vector<uint8_t> checkpoint;  ///< the state before its first event (state.h)
};

/// Appends the footer (chunk index, result, checkpoints) and the trailer,
/// which points at `footerOffset`, where the footer starts.
void writeFooter(const std::vector<ChunkIndexEntry>& index, const TraceResult& result, uint64_t footerOffset,
                 std::vector<uint8_t>& out);

/// Reads the trailer of a complete file image: the footer's offset, which
/// must lie between `chunksStart` and the trailer (else TraceError).
uint64_t readTrailer(const uint8_t* data, uint64_t size, uint64_t chunksStart);

/// Reads the footer at `footerOffset` and returns the search's result. It
/// checks the index against `chunks` and `eventCount` (the chunks walked),
/// or with `fromIndex` takes `chunks` from it; either way it fills in their
/// nodes before and checkpoints. Throws TraceError for a damaged footer.
TraceResult readFooter(const uint8_t* data, uint64_t size, uint64_t footerOffset,
                       std::vector<ChunkInfo>& chunks, bool fromIndex, uint64_t eventCount = 0);

}  // namespace umax::trace
