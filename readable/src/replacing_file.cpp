// replacing_file.cpp - files written whole or not at all (temporary + rename).
#include "umax/replacing_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace umax {

std::string reasonOf(int error) { return error != 0 ? std::strerror(error) : "a write failed"; }

std::string createTemporaryBeside(const std::string& target, int& fd) {
  const std::size_t slash = target.rfind('/');
  const std::string folder = slash == std::string::npos ? "" : target.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? target : target.substr(slash + 1);
  std::string pattern = folder + "." + name + ".XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  fd = ::mkostemp(buffer.data(), O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    throw std::runtime_error("cannot write '" + target + "': cannot create a temporary file in " +
                             (folder.empty() ? std::string("the current folder") : "'" + folder + "'") +
                             ": " + reasonOf(error));
  }
  // mkostemp makes the file 0600; give it what a new file gets (0666 less the umask).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  return std::string(buffer.data());
}

void renameOver(const std::string& temporary, const std::string& target) {
  if (std::rename(temporary.c_str(), target.c_str()) != 0) {
    const int error = errno;
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write '" + target + "': " + reasonOf(error));
  }
}

ReplacingFile::ReplacingFile(std::string target) : target_(std::move(target)) {
  // A device or FIFO (-o /dev/stdout, a named pipe) is written as it is: nothing to replace.
  struct stat info {};
  if (::stat(target_.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    fd_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw std::runtime_error("cannot write '" + target_ + "': " + reasonOf(errno));
    buffer_.open(fd_);
    stream_.rdbuf(&buffer_);
    return;
  }
  temporary_ = createTemporaryBeside(target_, fd_);
  buffer_.open(fd_);
  stream_.rdbuf(&buffer_);
}

ReplacingFile::~ReplacingFile() {
  if (committed_) return;
  ::close(fd_);
  if (!temporary_.empty()) std::remove(temporary_.c_str());
}

std::string ReplacingFile::writeError() const {
  return buffer_.good() ? "" : "cannot write '" + target_ + "': " + reasonOf(buffer_.error());
}

void ReplacingFile::commit() {
  committed_ = true;
  const bool written = buffer_.drain() && stream_.good();
  int error = buffer_.error();
  if (::close(fd_) != 0 && error == 0) error = errno;
  if (!written || error != 0) {
    if (!temporary_.empty()) std::remove(temporary_.c_str());
    throw std::runtime_error("cannot write '" + target_ + "': " + reasonOf(error));
  }
  if (!temporary_.empty()) renameOver(temporary_, target_);
}

}  // namespace umax
