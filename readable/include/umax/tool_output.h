/// \file tool_output.h
/// \brief Output errors are errors: every tool ends by flushing its standard
/// output and, when a write to it failed (a full disk, an I/O error), says
/// why on stderr and exits non-zero instead of 0.
#pragma once

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace umax {

/// A stream buffer writing to a file descriptor that keeps the reason of
/// its first failed write (errno), where std::ofstream and std::cout keep
/// only a flag. After a failed write it writes nothing more.
class DescriptorBuffer : public std::streambuf {
 public:
  /// A buffer writing to `fd` (-1: none yet; open() gives it one).
  explicit DescriptorBuffer(int fd = -1) : fd_(fd) { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
  /// Not copied: the bytes buffered belong to one descriptor.
  DescriptorBuffer(const DescriptorBuffer&) = delete;
  /// Not copied: the bytes buffered belong to one descriptor.
  DescriptorBuffer& operator=(const DescriptorBuffer&) = delete;

  /// Starts writing to `fd`.
  void open(int fd) {
    fd_ = fd;
    error_ = 0;
    failed_ = false;
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }
  /// Writes what is buffered; false (error() says why) if a write failed.
  bool drain() {
    const char* data = pbase();
    std::size_t left = static_cast<std::size_t>(pptr() - pbase());
    while (left > 0 && !failed_) {
      const ssize_t written = ::write(fd_, data, left);
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) {
        failed_ = true;
        error_ = written < 0 ? errno : ENOSPC;
        break;
      }
      data += written;
      left -= static_cast<std::size_t>(written);
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return !failed_;
  }
  /// True while every write succeeded.
  bool good() const { return !failed_; }
  /// errno of the first failed write, 0 if none failed.
  int error() const { return error_; }
  /// The descriptor written to.
  int fd() const { return fd_; }

 protected:
  /// The buffer is full: writes it out, then keeps `c`.
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  /// A flush: writes the buffer out (-1 if a write failed).
  int sync() override { return drain() ? 0 : -1; }

 private:
  int fd_;
  int error_ = 0;
  bool failed_ = false;
  std::array<char, 1 << 16> buffer_{};
};

/// std::cout's buffer once checkStandardOutput() installed it (never
/// destroyed: the library flushes std::cout after main returns).
inline DescriptorBuffer*& checkedStandardOutput() {
  static DescriptorBuffer* buffer = nullptr;
  return buffer;
}

/// Makes std::cout write to descriptor 1 through a DescriptorBuffer, so
/// that finishOutput() can tell why a write failed. Call it first in main,
/// before anything is written; from then on std::cout and C's stdout are no
/// longer interleaved in order (a tool writes through one of them).
inline void checkStandardOutput() {
  if (checkedStandardOutput()) return;
  std::cout.flush();
  checkedStandardOutput() = new DescriptorBuffer(STDOUT_FILENO);
  std::cout.rdbuf(checkedStandardOutput());
}

/// errno of the first failed write through checkedStandardOutputFile(), 0 if none failed.
inline int& standardOutputFileError() {
  static int error = 0;
  return error;
}

/// A C stream on descriptor 1 that keeps the reason of its first failed
/// write (for code that writes to a FILE*, like the classic interface);
/// finishOutput() reports it. Created once, never closed.
inline std::FILE* checkedStandardOutputFile() {
  static std::FILE* file = [] {
    cookie_io_functions_t functions{};
    functions.write = [](void*, const char* data, std::size_t size) -> ssize_t {
      std::size_t done = 0;
      while (done < size) {
        const ssize_t written = ::write(STDOUT_FILENO, data + done, size - done);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) {
          if (standardOutputFileError() == 0) standardOutputFileError() = written < 0 ? errno : ENOSPC;
          return -1;
        }
        done += static_cast<std::size_t>(written);
      }
      return static_cast<ssize_t>(size);
    };
    std::FILE* opened = fopencookie(nullptr, "w", functions);
    if (!opened) return stdout;
    if (isatty(STDOUT_FILENO)) std::setvbuf(opened, nullptr, _IOLBF, BUFSIZ);  // as stdout on a terminal
    return opened;
  }();
  return file;
}

/// Flushes std::cout and C's stdout; "" when every byte written to them
/// went out, otherwise why not ("cannot write to standard output: No space
/// left on device").
inline std::string standardOutputError() {
  int error = 0;
  bool written = true;
  if (DescriptorBuffer* buffer = checkedStandardOutput()) {
    buffer->drain();
    written = buffer->good();
    error = buffer->error();
  }
  errno = 0;
  std::cout.flush();
  if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout.good()) {
    written = false;
    if (error == 0) error = errno;
  }
  if (std::fflush(checkedStandardOutputFile()) != 0 || std::ferror(checkedStandardOutputFile())) {
    written = false;
    if (error == 0) error = standardOutputFileError();
  }
  if (written) return "";
  return std::string("cannot write to standard output: ") +
         (error != 0 ? std::strerror(error) : "a write failed");
}

/// A tool's exit status once its output is written: `status` when standard
/// output took everything; otherwise the reason on stderr ("umax-trace:
/// cannot write to standard output: No space left on device") and 1 (or
/// `status` if that already says failure).
inline int finishOutput(std::string_view tool, int status = 0) {
  const std::string error = standardOutputError();
  if (error.empty()) return status;
  std::cerr << tool << ": " << error << "\n";
  return status != 0 ? status : 1;
}

}  // namespace umax
