// reader.cpp - maps a trace file and checks every byte of its structure.
#include "umax/trace/reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "umax/trace/compact.h"
#include "umax/trace/framing.h"

namespace umax::trace {
TraceReader::TraceReader(const std::string& path, ChunkChecks checks) {
  // O_NONBLOCK: a FIFO opens at once (a plain open waits for a writer for
  // ever) and is then refused by the regular-file check below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw TraceError("cannot open '" + path + "': " + std::strerror(errno));
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw TraceError("'" + path + "' is not a regular file");
  }
  size_ = static_cast<uint64_t>(info.st_size);
  if (size_ == 0) {
    ::close(fd);
    throw TraceError("'" + path + "' is empty");
  }
  void* map = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
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
    // Chunks walked by scanChunks() had their CRC checked on the way; readChunkIndex() counts the
    // chunks it left unchecked.
    checked_ = std::make_unique<std::atomic<uint8_t>[]>(chunks_.size());
    const uint8_t walked = uncheckedChunks_.load() == 0 ? 1 : 0;
    for (std::size_t chunk = 0; chunk < chunks_.size(); ++chunk) checked_[chunk].store(walked);
  } catch (...) {
    ::munmap(const_cast<uint8_t*>(data_), size_);
    throw;
  }
}

TraceReader::~TraceReader() { ::munmap(const_cast<uint8_t*>(data_), size_); }

// Walks the chunk frames from `start` to chunksEnd_. In a complete file every
// chunk must be whole with a matching CRC. In a truncated one the walk stops
// at the first frame that runs past the end, and keeps its complete records.
// A truncated file has no footer to give the state at each
// chunk's start, which its records need: the walk decodes every chunk and
// keeps that state as the chunk's checkpoint.
void TraceReader::scanChunks(uint64_t start) {
  uint64_t at = start;
  uint64_t events = 0;
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
        break;
      }
      throw TraceError("corrupt trace: expected a chunk marker", at);
    }
    const uint32_t payload = head.payloadBytes;
    const uint32_t count = head.events;
    if (payload > kMaxChunkPayload || count > payload)
      throw TraceError("corrupt trace: bad chunk size", at + 4);
    ChunkInfo chunk;
    chunk.offset = at;
    chunk.payloadOffset = at + kChunkHeadBytes;
    chunk.firstEvent = events;
    if (chunksEnd_ - chunk.payloadOffset < payload) {
      if (!truncated_) throw TraceError("chunk runs into the footer", at);
      // A cut chunk: keep the records that are whole.
      const uint8_t* end = data_ + chunksEnd_;
      const uint8_t* record = data_ + chunk.payloadOffset;
      Event event;
      uint32_t whole = 0;
      std::vector<uint8_t> checkpoint;
      decoder.state().save(checkpoint);
      while (whole < count) {
        const uint8_t* next = decoder.decode(record, end, event, static_cast<uint64_t>(record - data_));
        if (!next) break;
        record = next;
        ++whole;
      }
      chunk.payloadBytes = static_cast<uint32_t>(record - (data_ + chunk.payloadOffset));
      chunk.events = whole;
      if (whole > 0) {
        chunks_.push_back(chunk);
        rebuiltCheckpoints_.push_back(std::move(checkpoint));
      }
      events += whole;
      truncationNote_ = "the file ends inside a chunk; " + std::to_string(whole) + " of its " +
                        std::to_string(count) + " records are complete";
      break;
    }
    if (chunkCrc(count, data_ + chunk.payloadOffset, payload) != head.crc)
      throw TraceError("corrupt trace: chunk checksum mismatch", at);
    chunk.payloadBytes = payload;
    chunk.events = count;
    chunks_.push_back(chunk);
    if (truncated_) {
      decoder.state().save(rebuiltCheckpoints_.emplace_back());
      decodeRecords(chunks_.size() - 1, decoder, decoded);
    }
    events += count;
    at = chunk.payloadOffset + payload;
  }
  if (truncated_ && truncationNote_.empty())
    truncationNote_ = "the file ends after a chunk, without its footer";
  eventCount_ = events;
}

// Takes the chunks from the footer's index without reading them: each
// chunk's place, size and event count follow from where it and the next one
// start (the last one ends at the footer), so opening reads the footer only.
// The index must describe chunks that tile the file from the first to the
// footer. Each chunk's frame (magic, the sizes the index implies, CRC) is
// checked when the chunk is first decoded: reading 16 bytes every 64 KB at
// open would cost seconds on a cold disk (measured: 3.9 s for 5 GB).
void TraceReader::readChunkIndex(uint64_t start, uint64_t footerOffset) {
  result_ = readFooter(data_, size_, footerOffset, chunks_, true);
  for (std::size_t index = 0; index < chunks_.size(); ++index) {
    ChunkInfo& chunk = chunks_[index];
    const bool last = index + 1 == chunks_.size();
    const uint64_t end = last ? footerOffset : chunks_[index + 1].offset;
    const uint64_t nextFirst = last ? result_.events : chunks_[index + 1].firstEvent;
    const uint64_t expectedStart =
        index == 0 ? start : chunks_[index - 1].payloadOffset + chunks_[index - 1].payloadBytes;
    const uint64_t expectedFirst = index == 0 ? 0 : chunks_[index - 1].firstEvent + chunks_[index - 1].events;
    if (chunk.offset != expectedStart || chunk.firstEvent != expectedFirst ||
        end < chunk.offset + kChunkHeadBytes || end - chunk.offset - kChunkHeadBytes > kMaxChunkPayload ||
        nextFirst < chunk.firstEvent || nextFirst - chunk.firstEvent > end - chunk.offset - kChunkHeadBytes)
      throw TraceError("corrupt trace: the footer's chunk index does not describe the chunks", chunk.offset);
    chunk.payloadOffset = chunk.offset + kChunkHeadBytes;
    chunk.payloadBytes = static_cast<uint32_t>(end - chunk.payloadOffset);
    chunk.events = static_cast<uint32_t>(nextFirst - chunk.firstEvent);
  }
  if (chunks_.empty() && (footerOffset != start || result_.events != 0))
    throw TraceError("corrupt trace: the footer's chunk index does not describe the chunks", start);
  eventCount_ = result_.events;
  uncheckedChunks_ = chunks_.size();
}

void TraceReader::checkChunk(std::size_t chunk) const {
  if (checked_[chunk].load(std::memory_order_acquire)) return;
  const ChunkInfo& info = chunks_[chunk];
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

void TraceReader::releaseChunks(std::size_t first, std::size_t last) const {
  last = std::min(last, chunks_.size());
  if (first >= last) return;
  static const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  // madvise takes whole pages: those inside the range (a page shared with a neighbour stays).
  const uint64_t begin = (chunks_[first].offset + page - 1) / page * page;
  const uint64_t end = (chunks_[last - 1].payloadOffset + chunks_[last - 1].payloadBytes) / page * page;
  if (begin < end) ::madvise(const_cast<uint8_t*>(data_) + begin, end - begin, MADV_DONTNEED);
}

std::size_t TraceReader::chunkOf(uint64_t index) const {
  auto after =
      std::upper_bound(chunks_.begin(), chunks_.end(), index,
                       [](uint64_t value, const ChunkInfo& chunk) { return value < chunk.firstEvent; });
  return after == chunks_.begin() ? 0 : static_cast<std::size_t>(after - chunks_.begin() - 1);
}

void TraceReader::decodeChunk(std::size_t chunk, std::vector<Event>& out) const {
  const ChunkInfo& info = chunks_.at(chunk);
  checkChunk(chunk);
  RecordDecoder decoder(header_);
  // From the state at the chunk's start.
  std::size_t size = 0;
  const uint8_t* bytes = checkpoint(chunk, size);
  if (!bytes) throw TraceError("trace has no checkpoint for chunk " + std::to_string(chunk), info.offset);
  decoder.restore(bytes, size, info.checkpointOffset);
  if (decoder.state().events() != info.firstEvent)
    throw TraceError("corrupt trace: checkpoint of chunk " + std::to_string(chunk) + " is for another event",
                     info.checkpointOffset);
  decodeRecords(chunk, decoder, out);
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
