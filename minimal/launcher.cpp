// The launcher of a program that holds the original's hash table.
//
// micro-max.c declares its hash table as a global, A[16M+8] of 12-byte
// entries: 201 MB of zero-filled memory that the system maps when it loads
// the program, before any of its code runs. Under an address-space limit
// that leaves no room for it (ulimit -v 150000), loading fails past the
// point of no return and the process dies with SIGSEGV (rc 139) without a
// word. The original is not ours to change, so every program that links it
// (umax-minimal, umax-probe, umax-replay, umax-bench) is built as an image in
// libexec/umax/ and started by this launcher of the same name in bin/. It
// asks for the address space the image will need beyond its own, as one
// mapping (never touched: nothing is allocated for real), and when the limit
// refuses it, it says so in one line and exits 2; otherwise it hands over to
// the image with execv (same arguments, standard streams, signals and exit
// status). UMAX_LAUNCHED_IMAGE names the image (set by minimal/CMakeLists.txt).
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "minimal_api.h"

namespace {

constexpr const char* kImage = UMAX_LAUNCHED_IMAGE;
/// The original's table: U = 16777224 entries of struct _ {int K,V;char X,Y,D;} (micro-max.c, lines 19-20).
constexpr std::uint64_t kTableBytes = 16777224ull * sizeof(umaxm_hash_entry);
/// What the image needs beyond its segments and the launcher's own mappings
/// (shared libraries, stack): its first heap and stack growth before main's work.
constexpr std::uint64_t kStartSlack = 16ull << 20;

/// Whole megabytes (10^6 bytes) rounded up, as the readable table's message counts them.
std::uint64_t megabytes(std::uint64_t bytes) { return (bytes + 999999) / 1000000; }

/// The bytes an ELF program's loadable segments span once mapped (0 if it cannot be read).
std::uint64_t loadSpan(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  Elf64_Ehdr header{};
  std::uint64_t low = UINT64_MAX;
  std::uint64_t high = 0;
  if (::pread(fd, &header, sizeof header, 0) == static_cast<ssize_t>(sizeof header) &&
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 && header.e_ident[EI_CLASS] == ELFCLASS64 &&
      header.e_phentsize == sizeof(Elf64_Phdr)) {
    for (int index = 0; index < header.e_phnum; ++index) {
      Elf64_Phdr segment{};
      if (::pread(fd, &segment, sizeof segment,
                  static_cast<off_t>(header.e_phoff + index * sizeof segment)) !=
          static_cast<ssize_t>(sizeof segment))
        break;
      if (segment.p_type != PT_LOAD) continue;
      low = std::min<std::uint64_t>(low, segment.p_vaddr);
      high = std::max<std::uint64_t>(high, segment.p_vaddr + segment.p_memsz);
    }
  }
  ::close(fd);
  return high > low ? high - low : 0;
}

/// The folder of this launcher (bin/), from /proc/self/exe.
std::string ownFolder() {
  char path[4096];
  const ssize_t length = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) return ".";
  const std::string self(path, static_cast<std::size_t>(length));
  const std::size_t slash = self.rfind('/');
  return slash == std::string::npos ? "." : self.substr(0, slash);
}

}  // namespace

int main(int argc, char** argv) {
  (void)argc;
  const std::string image = ownFolder() + "/../libexec/umax/" + kImage;
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    const std::uint64_t imageSpan = loadSpan(image);
    const std::uint64_t ownSpan = loadSpan("/proc/self/exe");
    const std::uint64_t extra = (imageSpan > ownSpan ? imageSpan - ownSpan : 0) + kStartSlack;
    void* trial = ::mmap(nullptr, extra, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (trial == MAP_FAILED) {
      const int error = errno;
      std::fprintf(
          stderr,
          "%s: out of memory: cannot allocate the original's hash table A[] (%llu MB, a global of the "
          "program, which needs %llu MB of address space in all): %s (the address space is limited to "
          "%llu MB, ulimit -v %llu)\n",
          kImage, static_cast<unsigned long long>(megabytes(kTableBytes)),
          static_cast<unsigned long long>(megabytes(imageSpan)), std::strerror(error),
          static_cast<unsigned long long>(megabytes(limit.rlim_cur)),
          static_cast<unsigned long long>(limit.rlim_cur / 1024));
      return 2;
    }
    ::munmap(trial, extra);
  }
  ::execv(image.c_str(), argv);
  std::fprintf(stderr, "%s: cannot start '%s': %s\n", kImage, image.c_str(), std::strerror(errno));
  return 2;
}
