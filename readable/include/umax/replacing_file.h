/// \file replacing_file.h
/// \brief A file written whole or not at all: the bytes go to a temporary
/// file in the target's folder, which replaces the target (rename) only
/// once every byte is written and the file is closed without error.
///
/// A reader that has the old file open (mapped) keeps reading the old
/// bytes; a full disk or a kill leaves the old file as it was (and at worst
/// a temporary `.NAME.XXXXXX` beside it, which a later run does not read);
/// a symbolic link at the target is replaced, its target never written.
#pragma once

#include <iostream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "umax/tool_output.h"

namespace umax {

/// The temporary file for `target`: `.NAME.XXXXXX` in its folder, created
/// (mode 0666 less the umask, as a new file gets). Returns its path and
/// sets `fd` to it open for writing.
/// \throws std::runtime_error with the reason if it cannot be created.
std::string createTemporaryBeside(const std::string& target, int& fd);

/// Renames `temporary` over `target` (std::runtime_error with the reason
/// if it cannot; the temporary is then removed).
void renameOver(const std::string& temporary, const std::string& target);

/// The partial file of `target` ("dir/.NAME.partial" for "dir/NAME"): where a long write (a
/// trace recorded as the search runs) goes until it is complete, then is renamed to `target`. A
/// write killed or cut short (a full disk) leaves it, and `target` as it was.
std::string partialPath(const std::string& target);

/// Refuses, before a long write, a `target` that must not be written: a folder, FIFO or device,
/// and, unless `force`, a symbolic link (never followed: `force` replaces the link itself) or a
/// file that exists, is not empty and does not start with `signature` (not one of ours).
/// `what` names such a file in the messages ("trace").
/// \throws std::runtime_error saying why (and that --force overrides it where it does).
void checkReplaceable(const std::string& target, bool force, std::string_view signature,
                      const std::string& what);

/// Claims partialPath(`target`) for one writer and returns it open for writing, empty and locked
/// (flock) until closed. It is made under a temporary name (createTemporaryBeside), locked, then
/// linked into place, so that two writers never write one file: a partial file that another
/// writer holds locked is refused; one that no writer holds (a killed write's) is replaced if it
/// is empty or starts with `signature`, else refused. `target` itself is never touched (the
/// writer renames the partial file over it when complete). On a file system without hard links
/// (vfat, emscripten's MEMFS) the partial file is renamed into place if there is none.
/// \throws std::runtime_error saying why, leaving no file of its own.
int claimPartialFile(const std::string& target, std::string_view signature, const std::string& what);

/// `errno`'s reason as text ("No space left on device"), or "a write failed"
/// when errno is 0.
std::string reasonOf(int error);

/// An export written to a temporary file and renamed into place by
/// commit() (a device or FIFO, such as /dev/stdout, is written directly); destroyed without commit() (an
/// exception, an error), it removes the temporary and the target keeps what it held.
class ReplacingFile {
 public:
  /// Creates the temporary beside `target`.
  /// \throws std::runtime_error with the reason if it cannot.
  explicit ReplacingFile(std::string target);
  /// Removes the temporary unless committed.
  ~ReplacingFile();
  /// Not copied: one temporary, one target.
  ReplacingFile(const ReplacingFile&) = delete;
  /// Not copied: one temporary, one target.
  ReplacingFile& operator=(const ReplacingFile&) = delete;

  /// Where to write the bytes.
  std::ostream& stream() { return stream_; }
  /// "cannot write 'TARGET': REASON" once a write to the temporary failed, else "".
  std::string writeError() const;
  /// The temporary file's path.
  const std::string& temporaryPath() const { return temporary_; }
  /// Closes the temporary, checks that every byte was written, renames it
  /// over the target.
  /// \throws std::runtime_error "cannot write 'TARGET': REASON" if any write
  /// or the close failed (the temporary is removed, the target unchanged).
  void commit();

 private:
  std::string target_;
  std::string temporary_;
  int fd_ = -1;
  DescriptorBuffer buffer_;
  std::ostream stream_{nullptr};
  bool committed_ = false;
};

/// Runs `write(std::ostream&)` into `output`, or standard output when it is empty or "-", and
/// returns the tool's exit status (finishOutput). A file is written whole or not at all
/// (ReplacingFile): a full disk leaves no partial export and the old file as it was. When
/// `write` throws on a failed write (an exporter stops at one), the exception says why it
/// failed ("cannot write 'out.jsonl': No space left on device").
template <class Write>
int writeOutput(const std::string& output, std::string_view tool, Write&& write) {
  if (output.empty() || output == "-") {
    try {
      write(std::cout);
    } catch (const std::exception&) {
      if (const std::string why = standardOutputError(); !why.empty()) throw std::runtime_error(why);
      throw;
    }
    return finishOutput(tool);
  }
  ReplacingFile file(output);
  try {
    write(file.stream());
  } catch (const std::exception&) {
    if (const std::string why = file.writeError(); !why.empty()) throw std::runtime_error(why);
    throw;
  }
  file.commit();
  return 0;
}

}  // namespace umax
