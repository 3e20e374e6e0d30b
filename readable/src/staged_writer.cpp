// staged_writer.cpp - a file written through a stage, in runs of whole blocks.
#include "umax/staged_writer.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace umax {

namespace {
constexpr std::size_t kBlock = 4096, kFirstRun = 64 << 10;
}  // namespace

StagedWriter::StagedWriter(int fd, std::size_t room, std::size_t longestRun)
    : fd_(fd),
      room_(room),
      longestRun_(longestRun),
      stage_(new uint8_t[longestRun_ + room]),
      runBytes_(std::min(kFirstRun, longestRun)) {}

void StagedWriter::writeAt(const uint8_t* bytes, std::size_t size, uint64_t offset) {
  while (size > 0 && error_ == 0) {
    const ssize_t written = ::pwrite(fd_, bytes, size, static_cast<off_t>(offset));
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      error_ = written < 0 ? errno : ENOSPC;
      return;
    }
    bytes += written;
    offset += static_cast<uint64_t>(written);
    size -= static_cast<std::size_t>(written);
    written_ = std::max(written_, offset);
  }
}

// The staged whole blocks go to the file (those a flush() wrote already, again); the rest moves
// to the stage's start.
void StagedWriter::writeRun() {
  const std::size_t run = longestRun_ ? staged_ / kBlock * kBlock : staged_;
  writeAt(stage_.get(), run, stageOffset_);
  std::memmove(stage_.get(), stage_.get() + run, staged_ - run);
  stageOffset_ += run;
  staged_ -= run;
  runBytes_ = std::min(2 * runBytes_, longestRun_);
}

void StagedWriter::append(const uint8_t* bytes, std::size_t size) {
  while (size > 0) {
    const std::size_t piece = std::min(size, room_);
    std::memcpy(end(), bytes, piece);
    advance(piece);
    bytes += piece;
    size -= piece;
  }
}

// The staged bytes not written yet; they stay staged (end() does not move), for the next run to
// write again from a block's start.
void StagedWriter::flush() {
  const uint64_t from = std::max(stageOffset_, flushedEnd_);
  if (from >= stageOffset_ + staged_) return;
  flushedEnd_ = stageOffset_ + staged_;
  writeAt(stage_.get() + (from - stageOffset_), flushedEnd_ - from, from);
}

}  // namespace umax
