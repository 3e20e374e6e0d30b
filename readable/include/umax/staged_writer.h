/// \file staged_writer.h
/// \brief A file written front to back through a stage in memory: the caller puts its bytes
/// straight into the stage, and they go to the file in runs of whole 4 KiB blocks, up to 1 MiB
/// at a time (fewer, larger writes, each ending at a page boundary, cost the kernel less).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace umax {

/// Writes an open file from offset 0 on, in order, on the caller's thread. The caller writes up
/// to `room` bytes at end() and makes them the file's next with advance(); once enough are
/// staged (64 KiB first, twice as many each run up to `longestRun`), their whole blocks are
/// written and the rest stays staged. flush() writes every staged byte (they stay staged: the
/// next run writes them again, so that it starts at a block). A failed write is noted, not
/// thrown: nothing after it is written, and error() says why. A process that dies loses what is
/// staged (less than `longestRun`). `longestRun` 0: no runs, each advance() is written at once.
class StagedWriter {
 public:
  /// The longest run: 1 MiB.
  static constexpr std::size_t kLongestRun = 1 << 20;
  /// Writes to `fd` (kept open: the caller closes it after the writer is gone).
  StagedWriter(int fd, std::size_t room, std::size_t longestRun = kLongestRun);
  /// flush().
  ~StagedWriter() { flush(); }
  /// Not copied: one file.
  StagedWriter(const StagedWriter&) = delete;
  /// Not copied: one file.
  StagedWriter& operator=(const StagedWriter&) = delete;

  /// Where the next bytes go: room for `room` bytes.
  uint8_t* end() const { return stage_.get() + staged_; }
  /// The `size` bytes at end() are the file's next.
  void advance(std::size_t size) {
    staged_ += size;
    if (staged_ >= runBytes_) writeRun();
  }
  /// Copies `size` bytes to the end of the file, through the stage.
  void append(const uint8_t* bytes, std::size_t size);
  /// Writes every byte so far to the file.
  void flush();
  /// errno of the first write that failed (0: none).
  int error() const { return error_; }
  /// Bytes in the file so far (up to where a failed write broke off).
  uint64_t written() const { return written_; }

 private:
  void writeRun();
  void writeAt(const uint8_t* bytes, std::size_t size, uint64_t offset);

  int fd_;
  std::size_t room_, longestRun_;
  std::unique_ptr<uint8_t[]> stage_;  // the file's bytes from stageOffset_ (a block's start) on
  std::size_t staged_ = 0;
  std::size_t runBytes_;  // staged bytes that make a run: 64 KiB, doubling up to longestRun_
  uint64_t stageOffset_ = 0;
  uint64_t flushedEnd_ = 0;  // the file's bytes up to here are written (flush())
  int error_ = 0;
  uint64_t written_ = 0;
};

}  // namespace umax
