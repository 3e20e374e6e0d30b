// replacing_file.cpp - files written whole or not at all (temporary + rename), and the partial
// file a long write claims for one writer.
#include "umax/replacing_file.h"

#include <fcntl.h>
#include <sys/file.h>
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
#ifndef __EMSCRIPTEN__  // the web keeps 0600: emscripten's umask() leaves a mode its FS.readFile refuses
  // mkostemp makes the file 0600; give it what a new file gets (0666 less the umask).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
#endif
  return std::string(buffer.data());
}

void renameOver(const std::string& temporary, const std::string& target) {
  if (std::rename(temporary.c_str(), target.c_str()) != 0) {
    const int error = errno;
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write '" + target + "': " + reasonOf(error));
  }
}

std::string partialPath(const std::string& target) {
  const std::size_t slash = target.rfind('/');
  const std::size_t name = slash == std::string::npos ? 0 : slash + 1;
  return target.substr(0, name) + "." + target.substr(name) + ".partial";
}

namespace {

/// Does the file open as `fd` start with `signature` (or is it empty, if `emptyToo`)?
bool startsWith(int fd, std::string_view signature, bool emptyToo) {
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return false;
  if (info.st_size == 0) return emptyToo;
  std::string start(signature.size(), '\0');
  return ::read(fd, start.data(), start.size()) == static_cast<ssize_t>(start.size()) && start == signature;
}

std::string notRegular(const std::string& target, const std::string& what) {
  return "cannot write a " + what + " to '" + target + "': not a regular file (a folder, FIFO or device)";
}

/// Puts `temporary` (locked) in place as `partial`: linked there if no such file exists, put
/// over a partial file no writer holds (a killed write's), refused while a writer holds one.
void claim(const std::string& target, const std::string& partial, const std::string& temporary,
           std::string_view signature, const std::string& what) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    const int linkError = ::link(temporary.c_str(), partial.c_str()) == 0 ? 0 : errno;
    if (linkError == 0) return;
    // A filesystem without hard links: the partial file is renamed into place instead, if there
    // is none (a race with another writer is then not excluded).
    const bool noLinks =
        linkError == EPERM || linkError == ENOSYS || linkError == EOPNOTSUPP || linkError == EMLINK;
    if (linkError != EEXIST && !noLinks)
      throw std::runtime_error("cannot create '" + partial + "' for '" + target +
                               "': " + reasonOf(linkError));
    const int old = ::open(partial.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
    if (old < 0) {
      if (errno == ENOENT && noLinks) {
        if (::rename(temporary.c_str(), partial.c_str()) == 0) return;
        throw std::runtime_error("cannot create '" + partial + "' for '" + target + "': " + reasonOf(errno));
      }
      if (errno == ENOENT) continue;  // gone meanwhile: link again
      throw std::runtime_error("'" + partial + "' exists and is not a partial " + what +
                               ": not overwritten (" + reasonOf(errno) + ")");
    }
    // One writer per file: a partial file being written is held locked by its writer.
    if (::flock(old, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      ::close(old);
      if (error == EWOULDBLOCK)
        throw std::runtime_error("cannot write '" + target +
                                 "': another process is recording into it (one writer per file): its "
                                 "events so far are in '" +
                                 partial + "'");
      throw std::runtime_error("cannot lock '" + partial + "': " + reasonOf(error));
    }
    if (!startsWith(old, signature, true)) {  // held, but none of ours
      ::close(old);
      throw std::runtime_error("'" + partial + "' exists and is not a partial " + what + ": not overwritten");
    }
    // A killed write's partial file, held now: replaced, if it is still the one named.
    struct stat held {};
    struct stat named {};
    const bool same = ::fstat(old, &held) == 0 && ::lstat(partial.c_str(), &named) == 0 &&
                      named.st_dev == held.st_dev && named.st_ino == held.st_ino;
    const bool replaced = same && ::rename(temporary.c_str(), partial.c_str()) == 0;
    const int error = errno;
    ::close(old);
    if (replaced) return;
    if (same) throw std::runtime_error("cannot replace '" + partial + "': " + reasonOf(error));
  }
  throw std::runtime_error("cannot create '" + partial + "': other writers keep replacing it");
}

}  // namespace

void checkReplaceable(const std::string& target, bool force, std::string_view signature,
                      const std::string& what) {
  struct stat info {};
  if (::lstat(target.c_str(), &info) != 0) return;  // a new file
  if (S_ISLNK(info.st_mode)) {
    if (force) return;
    throw std::runtime_error(
        "'" + target + "' is a symbolic link: not followed, not overwritten (--force replaces the link)");
  }
  if (!S_ISREG(info.st_mode)) throw std::runtime_error(notRegular(target, what));
  if (force || info.st_size == 0) return;
  const int fd = ::open(target.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
  const bool ours = fd >= 0 && startsWith(fd, signature, false);
  if (fd >= 0) ::close(fd);
  if (!ours)
    throw std::runtime_error("'" + target + "' exists and is not a " + what +
                             ": not overwritten (--force overwrites it)");
}

int claimPartialFile(const std::string& target, std::string_view signature, const std::string& what) {
  struct stat info {};
  if (::lstat(target.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISLNK(info.st_mode))
    throw std::runtime_error(notRegular(target, what));
  int fd = -1;
  const std::string temporary = createTemporaryBeside(target, fd);
  try {
    ::flock(fd, LOCK_EX | LOCK_NB);  // held until closed: one writer per file (claim)
    claim(target, partialPath(target), temporary, signature, what);
  } catch (...) {
    ::close(fd);
    std::remove(temporary.c_str());
    throw;
  }
  std::remove(temporary.c_str());  // linked as the partial file (or renamed there already)
  return fd;
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
