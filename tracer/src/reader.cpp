// reader.cpp - maps a trace file and checks every byte of its structure.
#include "umax/trace/reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "umax/trace/bytes.h"
#include "umax/trace/compact.h"
#include "umax/trace/framing.h"

namespace umax::trace {

TraceReader::TraceReader(const std::string& path, ChunkChecks checks) {
  // O_NONBLOCK: a FIFO opens at once (a plain open waits for a writer for
  // ever) and is then refused by the regular-file check below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw TraceError("cannot open '" + path + "': " + std::strerror(errno));
  struct stat info {};
  const bool regular = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
  size_ = regular ? static_cast<uint64_t>(info.st_size) : 0;
  void* map = size_ > 0 ? ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
  ::close(fd);
  if (!regular) throw TraceError("'" + path + "' is not a regular file");
  if (size_ == 0) throw TraceError("'" + path + "' is empty");
  if (map == MAP_FAILED) throw TraceError("cannot map '" + path + "': " + std::strerror(errno));
  data_ = static_cast<const uint8_t*>(map);
  try {
    const uint64_t start = readHeader(data_, size_, header_);
    // A complete file ends with the trailer that points at the footer.
    const bool complete =
        size_ >= start + kTrailerBytes && std::memcmp(data_ + size_ - 8, kEndMagic, sizeof kEndMagic) == 0;
    if (complete) {
      const uint64_t footerOffset = readTrailer(data_, size_, start);
      chunksEnd_ = footerOffset;
      const bool checkNow = checks == ChunkChecks::kAtOpen ||
                            (checks == ChunkChecks::kBySize && footerOffset - start <= kCheckAtOpenBytes);
      if (checkNow) {
        scanChunks(start);
        result_ = readFooter(data_, size_, footerOffset, chunks_, false, eventCount_);
      } else {
        readChunkIndex(start, footerOffset);
      }
    } else {
      chunksEnd_ = size_;
      truncated_ = true;
      scanChunks(start);
    }
    // Chunks walked by scanChunks() had their CRC checked on the way (uncheckedChunks_ stays 0).
    checked_ = std::make_unique<std::atomic<uint8_t>[]>(chunks_.size());
  } catch (...) {
    ::munmap(const_cast<uint8_t*>(data_), size_);
    throw;
  }
}

TraceReader::~TraceReader() { ::munmap(const_cast<uint8_t*>(data_), size_); }

// Walks the chunk frames from `start` to chunksEnd_. In a complete file every
// chunk must be whole with a matching CRC. A truncated one keeps the complete
// records of a cut chunk, and has no footer to give the state at each
// chunk's start: the walk decodes every chunk and keeps that state.
void TraceReader::scanChunks(uint64_t start) {
  uint64_t at = start;
  RecordDecoder decoder(header_);
  std::vector<Event> decoded;
  while (at < chunksEnd_) {
    if (chunksEnd_ - at < kChunkHeadBytes) {
      if (!truncated_) throw TraceError("chunk header runs into the footer", at);
      truncationNote_ = "the file ends inside a chunk header";
      break;
    }
    ChunkHead head;
    if (!readChunkHead(data_ + at, head)) {
      if (truncated_ && std::memcmp(data_ + at, kFooterMagic, sizeof kFooterMagic) == 0) {
        truncationNote_ = "the file ends inside the footer";
        // A whole footer and trailer, then more bytes: the trace is complete and something was
        // appended to it (a copy, a concatenation), which is not a truncation.
        if (chunksEnd_ - at >= 8) {
          const uint64_t end = at + 8 + uint64_t{loadU32(data_ + at + 4)} + 4 + kTrailerBytes;
          if (end < chunksEnd_ && std::memcmp(data_ + end - 8, kEndMagic, sizeof kEndMagic) == 0 &&
              (loadU32(data_ + end - kTrailerBytes) | uint64_t{loadU32(data_ + end - kTrailerBytes + 4)}
                                                          << 32) == at) {
            trailingBytes_ = chunksEnd_ - end;
            truncationNote_ = "the trace ends at byte " + std::to_string(end) + " and " +
                              std::to_string(trailingBytes_) +
                              " bytes that are not part of it follow (truncate -s " + std::to_string(end) +
                              " removes them)";
          }
        }
        break;
      }
      throw TraceError("corrupt trace: expected a chunk marker", at);
    }
    if (head.payloadBytes > kMaxChunkPayload || head.events > 2 * head.payloadBytes)  // kUsualEntry: 3 in 2
      throw TraceError("corrupt trace: bad chunk size", at + 4);
    ChunkInfo chunk{at, at + kChunkHeadBytes, head.payloadBytes, head.events, eventCount_};
    const bool cut = chunksEnd_ - chunk.payloadOffset < head.payloadBytes;
    if (cut && !truncated_) throw TraceError("chunk runs into the footer", at);
    if (!cut && chunkCrc(head.events, data_ + chunk.payloadOffset, head.payloadBytes) != head.crc)
      throw TraceError("corrupt trace: chunk checksum mismatch", at);
    if (truncated_) decoder.state().save(rebuiltCheckpoints_.emplace_back());
    if (cut) {  // keep the records that are whole
      const uint8_t* record = data_ + chunk.payloadOffset;
      Event event;
      for (chunk.events = 0; chunk.events < head.events; ++chunk.events) {
        record = decoder.decode(record, data_ + chunksEnd_, event, static_cast<uint64_t>(record - data_));
        if (!record) break;
        chunk.payloadBytes = static_cast<uint32_t>(record - (data_ + chunk.payloadOffset));
      }
      if (chunk.events == 0) rebuiltCheckpoints_.pop_back();
      truncationNote_ = "the file ends inside a chunk; " + std::to_string(chunk.events) + " of its " +
                        std::to_string(head.events) + " records are complete";
    }
    if (chunk.events > 0 || !cut) chunks_.push_back(chunk);
    eventCount_ += chunk.events;
    if (cut) break;
    if (truncated_) decodeRecords(chunks_.size() - 1, decoder, decoded);
    at = chunk.payloadOffset + chunk.payloadBytes;
  }
  if (truncated_ && truncationNote_.empty())
    truncationNote_ = "the file ends after a chunk, without its footer";
}

// Takes the chunks from the footer's index, which must tile the file from
// the header to the footer; each chunk's frame is checked when it is first
// decoded (reading 16 bytes every 64 KB at open costs seconds on a cold
// disk: 3.9 s for 5 GB).
void TraceReader::readChunkIndex(uint64_t start, uint64_t footerOffset) {
  result_ = readFooter(data_, size_, footerOffset, chunks_, true);
  uint64_t at = start;  // where the next chunk must start, and its first event
  uint64_t first = 0;
  for (std::size_t index = 0; index < chunks_.size(); ++index) {
    ChunkInfo& chunk = chunks_[index];
    const bool last = index + 1 == chunks_.size();
    const uint64_t end = last ? footerOffset : chunks_[index + 1].offset;
    const uint64_t next = last ? result_.events : chunks_[index + 1].firstEvent;
    if (chunk.offset != at || chunk.firstEvent != first || end < at + kChunkHeadBytes ||
        end - at - kChunkHeadBytes > kMaxChunkPayload || next < first ||
        next - first > end - at - kChunkHeadBytes)
      throw TraceError("corrupt trace: the footer's chunk index does not describe the chunks", chunk.offset);
    chunk.payloadOffset = at + kChunkHeadBytes;
    chunk.payloadBytes = static_cast<uint32_t>(end - chunk.payloadOffset);
    chunk.events = static_cast<uint32_t>(next - first);
    at = end;
    first = next;
  }
  if (at != footerOffset || first != result_.events)  // no chunks, yet a gap or events
    throw TraceError("corrupt trace: the footer's chunk index does not describe the chunks", start);
  eventCount_ = result_.events;
  uncheckedChunks_ = chunks_.size();
}

void TraceReader::checkChunk(std::size_t chunk) const {
  const ChunkInfo& info = chunks_.at(chunk);
  if (allChunksChecked() || checked_[chunk].load(std::memory_order_acquire)) return;
  ChunkHead head;
  if (!readChunkHead(data_ + info.offset, head))
    throw TraceError("corrupt trace: expected a chunk marker", info.offset);
  if (head.payloadBytes != info.payloadBytes || head.events != info.events)
    throw TraceError("corrupt trace: the chunk's size does not match the footer's index", info.offset + 4);
  if (chunkCrc(info.events, data_ + info.payloadOffset, info.payloadBytes) != head.crc)
    throw TraceError("corrupt trace: chunk checksum mismatch", info.offset);
  // Two threads may check the same chunk at once: only the first to mark it counts it.
  if (checked_[chunk].exchange(1, std::memory_order_acq_rel) == 0)
    uncheckedChunks_.fetch_sub(1, std::memory_order_acq_rel);
}

std::size_t TraceReader::chunkOf(uint64_t index) const {
  const auto after =
      std::upper_bound(chunks_.begin(), chunks_.end(), index,
                       [](uint64_t event, const ChunkInfo& chunk) { return event < chunk.firstEvent; });
  return after == chunks_.begin() ? 0 : static_cast<std::size_t>(after - chunks_.begin() - 1);
}

void TraceReader::decodeChunk(std::size_t chunk, std::vector<Event>& out) const {
  checkChunk(chunk);
  RecordDecoder decoder(header_, stateAt(chunk));
  decodeRecords(chunk, decoder, out);
}

SearchState TraceReader::stateAt(std::size_t chunk) const {
  const ChunkInfo& info = chunks_.at(chunk);
  std::size_t size = 0;
  const uint8_t* bytes = checkpoint(chunk, size);
  SearchState state(header_);
  state.load(bytes, size, info.checkpointOffset);
  if (state.events() != info.firstEvent)
    throw TraceError("corrupt trace: checkpoint of chunk " + std::to_string(chunk) + " is for another event",
                     info.checkpointOffset);
  return state;
}

// Decodes chunk `chunk`'s records with `decoder`, which holds the state at its start.
void TraceReader::decodeRecords(std::size_t chunk, RecordDecoder& decoder, std::vector<Event>& out) const {
  const ChunkInfo& info = chunks_[chunk];
  out.resize(info.events);
  const uint8_t* at = data_ + info.payloadOffset;
  const uint8_t* end = at + info.payloadBytes;
  for (uint32_t index = 0; index < info.events; ++index) {
    at = decoder.decode(at, end, out[index], static_cast<uint64_t>(at - data_));
    if (!at) throw TraceError("corrupt trace: a record runs past its chunk", info.offset);
  }
  if (at != end) throw TraceError("corrupt trace: bytes left after a chunk's last record", info.offset);
}

const uint8_t* TraceReader::checkpoint(std::size_t chunk, std::size_t& size) const {
  const ChunkInfo& info = chunks_.at(chunk);
  if (!rebuiltCheckpoints_.empty()) {
    size = rebuiltCheckpoints_.at(chunk).size();
    return rebuiltCheckpoints_[chunk].data();
  }
  size = static_cast<std::size_t>(info.checkpointBytes);
  return info.checkpointOffset ? data_ + info.checkpointOffset : nullptr;
}

}  // namespace umax::trace
