/// \file framing.h
/// \brief The parts of a trace file around its records: header, chunk frames, footer and trailer.
///
/// Each part is written and read here, side by side, so that the writer
/// and the reader cannot drift apart (the layout is in format.h).
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

// ---- header -------------------------------------------------------------------

/// Appends magic, version, length and the header fields (see format.h).
void writeHeader(const TraceHeader& header, std::vector<uint8_t>& out);

/// Reads the header from the start of a file image; returns the offset of
/// the first chunk. Throws TraceError for a wrong magic, any version but
/// kFormatVersion (naming it), a checksum mismatch or a malformed header.
uint64_t readHeader(const uint8_t* data, std::size_t size, TraceHeader& header);

// ---- chunk frames -----------------------------------------------------------

/// The fields of a chunk frame before its records.
struct ChunkHead {
  uint32_t payloadBytes = 0;  ///< P: bytes of records
  uint32_t events = 0;        ///< E: records in it
  uint32_t crc = 0;           ///< checksum of E and the payload (chunkCrc)
};

/// Appends the frame head of a chunk holding `events` records in `payload`.
void writeChunkHead(uint32_t events, const uint8_t* payload, std::size_t size, std::vector<uint8_t>& out);

/// Reads a frame head at `at` (kChunkHeadBytes available); false if it does
/// not start with "CHNK".
bool readChunkHead(const uint8_t* at, ChunkHead& head);

// ---- footer and trailer -------------------------------------------------------

/// One chunk as the footer lists it.
struct ChunkIndexEntry {
  uint64_t offset = 0;              ///< file offset of its "CHNK"
  uint64_t firstEvent = 0;          ///< index of its first event
  uint64_t nodesBefore = 0;         ///< counted nodes before it
  std::vector<uint8_t> checkpoint;  ///< the state before its first event (state.h)
};

/// Appends the footer and the trailer: the chunk index, the result, each
/// chunk's checkpoint. `footerOffset` is the file offset the footer starts
/// at (the trailer points there).
void writeFooter(const std::vector<ChunkIndexEntry>& index, const TraceResult& result, uint64_t footerOffset,
                 std::vector<uint8_t>& out);

/// Reads the trailer at the end of a complete file image: the offset of the
/// footer, which must lie between `chunksStart` and the trailer. Throws
/// TraceError if it does not.
uint64_t readTrailer(const uint8_t* data, uint64_t size, uint64_t chunksStart);

/// Reads the footer at `footerOffset` of a file image and returns the
/// search's result. Without `fromIndex` it checks the footer's chunk index
/// against the chunks found in the file (`chunks`, `eventCount`) and fills
/// in each chunk's nodes before it and the place of its checkpoint; with
/// `fromIndex` it takes the chunks from the index instead (their offset,
/// first event, nodes before and checkpoint; the caller checks the frames),
/// so that a reader opens a large file without walking its chunks first.
/// Throws TraceError for a footer that is damaged or does not match the chunks.
TraceResult readFooter(const uint8_t* data, uint64_t size, uint64_t footerOffset,
                       std::vector<ChunkInfo>& chunks, bool fromIndex, uint64_t eventCount = 0);

}  // namespace umax::trace
