/// \file header_io.h
/// \brief Writing and reading the header of a trace file.
#pragma once

#include <cstdint>
#include <vector>

#include "umax/trace/format.h"

namespace umax::trace {

/// The version of readable/line_map.json whose "sites" the events refer to.
inline constexpr uint32_t kLineMapVersion = 2;
/// The longest FEN or move list a header may carry.
inline constexpr std::size_t kMaxHeaderString = 1 << 16;

/// Appends magic, version, length and the header fields (see format.h).
void writeHeader(const TraceHeader& header, std::vector<uint8_t>& out);

/// Reads the header from the start of a file image; returns the offset of
/// the first chunk. Throws TraceError for a wrong magic, an unknown version
/// or a malformed header.
uint64_t readHeader(const uint8_t* data, std::size_t size, TraceHeader& header);

}  // namespace umax::trace
