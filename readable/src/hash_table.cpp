// hash_table.cpp - the hash table's memory: one anonymous mapping.
#include "umax/hash_table.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <string>
#include <utility>

namespace umax {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

std::size_t wholeHugePages(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

}  // namespace

HashTableAllocationError::HashTableAllocationError(std::size_t bytes, int slotBits, int error)
    : message_("cannot allocate the hash table: " + std::to_string((bytes + 999999) / 1000000) +
               " MB of address space for 2^" + std::to_string(slotBits) +
               " + 9 slots: " + std::strerror(error)) {}

// The slots are rounded up to whole 2 MB pages, and one huge page more is
// mapped so that they can start on a 2 MB boundary; they are handed to the
// kernel's transparent huge pages before any slot is touched (where the
// kernel offers them only on request, as Debian's does by default). The
// mapping is kept and released whole: no partial munmap, which some
// systems (emscripten) refuse, so that nothing is leaked there.
// A smaller table reserves the same range (view() covers it) and hands only
// its own slots to the huge pages.
HashTableMemory::HashTableMemory(int slotBits)
    : size_((std::size_t{1} << slotBits) + kProbeSlots), slotMask_((uint32_t{1} << slotBits) - 1) {
  const std::size_t bytes = wholeHugePages(size_ * sizeof(HashEntry));
  // The slots on whole huge pages, plus one huge page of room to align them: a smaller table
  // maps only its own size.
  mapBytes_ = bytes + kHugePage;
  mapping_ = mmap(nullptr, mapBytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping_ == MAP_FAILED) throw HashTableAllocationError(mapBytes_, slotBits, errno);
  const auto start = reinterpret_cast<uintptr_t>(mapping_);
  slots_ = reinterpret_cast<HashEntry*>((start + kHugePage - 1) & ~(kHugePage - 1));
#ifdef MADV_HUGEPAGE
  madvise(slots_, bytes, MADV_HUGEPAGE);  // a hint: without huge pages the table works the same
#endif
}

HashTableMemory::~HashTableMemory() {
  if (mapping_) munmap(mapping_, mapBytes_);
}

HashTableMemory::HashTableMemory(HashTableMemory&& other) noexcept
    : size_(std::exchange(other.size_, 0)),
      slotMask_(std::exchange(other.slotMask_, 0)),
      slots_(std::exchange(other.slots_, nullptr)),
      mapping_(std::exchange(other.mapping_, nullptr)),
      mapBytes_(std::exchange(other.mapBytes_, 0)) {}

HashTableMemory& HashTableMemory::operator=(HashTableMemory&& other) noexcept {
  std::swap(size_, other.size_);
  std::swap(slotMask_, other.slotMask_);
  std::swap(slots_, other.slots_);
  std::swap(mapping_, other.mapping_);
  std::swap(mapBytes_, other.mapBytes_);
  return *this;
}

}  // namespace umax
