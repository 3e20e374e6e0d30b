/// \file hash_table.h
/// \brief The hash table's slot layout and its memory (huge pages, prefetch).
///
/// What a slot holds is the search's business (search.cpp, Steps 1, 2 and
/// 18); how the 200 MB of slots are mapped and brought into the cache is
/// this file's. Neither the mapping nor the prefetch changes what the
/// search reads or stores, only when memory is read (see the walkthrough's
/// performance page).
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <string>

namespace umax {

/// One slot of the hash table, laid out as the original's `struct _`.
struct HashEntry {
  int32_t lock = 0;   ///< hash lock Z of the position; 0 = empty // micro-Max: K
  int32_t score = 0;  ///< score found // micro-Max: V
  int8_t from = 0;    ///< best from-square | bound bits (see kLowerBoundBit) // micro-Max: X
  int8_t to = 0;      ///< best to-square | kNotCastlingBit // micro-Max: Y
  int8_t draft = 0;   ///< depth the score was searched to // micro-Max: D
  /// The same five fields.
  bool operator==(const HashEntry&) const = default;
};

/// Bit of HashEntry::from: the score was above alpha, so it is a lower bound.
inline constexpr int kLowerBoundBit = 8;
/// Bit of HashEntry::from: the score was below beta, so it is an upper bound.
inline constexpr int kUpperBoundBit = 128;
/// Both bound bits of a stored from-byte: an exact score. // micro-Max: M in (a->X&M)!=M
inline constexpr int kExactBits = kLowerBoundBit | kUpperBoundBit;

/// Number of slots: 16M + 8. // micro-Max: U
inline constexpr int32_t kHashEntries = 16777224;
/// Mask that picks the first slot of a probe window. // micro-Max: U-9
inline constexpr int32_t kHashSlotMask = kHashEntries - 9;
/// Slots examined per probe. The original's comment says 8, but its loop
/// (`i=9; while(... && --i)`) examines up to 9.
inline constexpr int kProbeSlots = 9;
/// log2 of the original's probe-window starts: 2^24 = kHashSlotMask + 1.
inline constexpr int kHashSlotBits = 24;
/// The smallest table offered (2^12 window starts, 48 KB): a think fills
/// it in a few thousand nodes, so positions meet in its slots (the course's
/// replacement example). Not less: the mask must keep bits 10 and 11 of
/// k*E, so that a position and its mate probe (the same lock, the
/// other side to move, E = 128) look in different windows, as in the
/// original. The protocols' smallest Hash, 1 MB, gets 2^16.
inline constexpr int kMinHashSlotBits = 12;
static_assert(kHashSlotMask + 1 == (int32_t{1} << kHashSlotBits));

/// The hash table's dummy slot, used when a probe window is full; it is
/// emptied after every store so that it always looks free. // micro-Max: A[0]
inline constexpr int kDummySlot = 0;

/// The hash table's memory could not be mapped: a std::bad_alloc that says
/// what was asked for ("cannot allocate the hash table: 201 MB of address
/// space for 2^24 + 9 slots: Cannot allocate memory").
class HashTableAllocationError : public std::bad_alloc {
 public:
  /// `bytes` of address space for 2^`slotBits` + 9 slots could not be mapped (errno `error`).
  HashTableAllocationError(std::size_t bytes, int slotBits, int error);
  /// The message above.
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

/// The memory of the hash table: kHashEntries + 1 zeroed slots (the extra
/// one stands in for what the original's last probe window reads past its
/// array). Anonymous pages start zeroed, as the original's global A[] does,
/// and are only touched when first used. Where the system offers
/// transparent huge pages, the slots lie on 2 MB pages: a probe lands on a
/// random slot of a 200 MB table, and with 4 KB pages nearly every probe
/// also misses the TLB. The slots are the same either way.
///
/// A smaller table (a GUI's hash-size option, `--hash-bits`) has 2^bits + 9
/// slots in use and a probe window starts at (k*E ^ J) & (2^bits - 1): no
/// longer the original's search. It maps only its own slots, not the
/// original's address range: readers index it with its
/// own mask (Engine::firstProbeSlot), and view() holds its slots only.
class HashTableMemory {
 public:
  /// Maps the zeroed slots (std::bad_alloc if the system has no room):
  /// 2^slotBits window starts (kHashSlotBits: the original's table).
  explicit HashTableMemory(int slotBits = kHashSlotBits);
  /// Releases the whole mapping.
  ~HashTableMemory();
  /// Not copied: 200 MB.
  HashTableMemory(const HashTableMemory&) = delete;
  /// Not copied: 200 MB.
  HashTableMemory& operator=(const HashTableMemory&) = delete;
  /// Takes over the other's mapping; the other is left without one.
  HashTableMemory(HashTableMemory&& other) noexcept;
  /// Swaps the mappings: the other releases this one's.
  HashTableMemory& operator=(HashTableMemory&& other) noexcept;

  /// The first slot.
  HashEntry* data() { return slots_; }
  /// The first slot, read-only.
  const HashEntry* data() const { return slots_; }
  /// One slot.
  HashEntry& operator[](std::size_t slot) { return slots_[slot]; }
  /// Number of slots in use (kHashEntries + 1 for the original's table).
  std::size_t size() const { return size_; }
  /// Mask of a probe window's start: kHashSlotMask for the original's table.
  uint32_t slotMask() const { return slotMask_; }
  /// The slots in use as a read-only range (the original's kHashEntries + 1
  /// for its table).
  std::span<const HashEntry> view() const { return {slots_, size_}; }

  /// Asks the memory system to bring `slot` into the cache: a hint, no
  /// fault and no effect on what is read. A 12-byte slot can straddle two
  /// 64-byte cache lines (1 slot in 8), so its last byte is asked for too.
  [[gnu::always_inline]] void prefetch(std::size_t slot) const {
    prefetchLine(&slots_[slot]);
    prefetchLine(reinterpret_cast<const char*>(&slots_[slot + 1]) - 1);
  }

 private:
  /// On x86 an asm statement: GCC may delete a loop whose only effect is
  /// __builtin_prefetch, as if it did nothing. Elsewhere the builtin.
  [[gnu::always_inline]] static void prefetchLine(const void* address) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(address)));
#else
    __builtin_prefetch(address);
#endif
  }

  std::size_t size_ = 0;
  uint32_t slotMask_ = 0;
  HashEntry* slots_ = nullptr;  // inside the mapping, on a 2 MB boundary where possible
  void* mapping_ = nullptr;     // the whole mapping, released whole
  std::size_t mapBytes_ = 0;    // its length
};

}  // namespace umax
