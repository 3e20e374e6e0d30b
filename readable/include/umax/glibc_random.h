/// \file glibc_random.h
/// \brief glibc's random(), reimplemented so the hash keys are portable.
///
/// micro-Max fills its hash-key table with `random()>>9` and never seeds, so
/// its keys are whatever glibc's generator gives from seed 1. glibc's
/// random() (the default TYPE_3 state of 31 words) is an additive lagged
/// Fibonacci generator, r[i] = r[i-3] + r[i-31] (mod 2^32), output r[i] >> 1:
///  1. the 31 state words start from the seed through the "minimal standard"
///     generator 16807 * x mod (2^31 - 1) (Schrage's method, no overflow);
///  2. the first 310 outputs are thrown away to mix the state;
///  3. every later call adds the word 31 places back into the word 3 places
///     back and returns it shifted right by one (31 random bits).
/// The same numbers come out on any platform and any C library.
#pragma once

#include <array>
#include <cstdint>

namespace umax {

/// glibc's random() with its default 31-word state.
class GlibcRandom {
 public:
  /// Seeds as srandom(seed) does; glibc's unseeded generator uses seed 1.
  explicit GlibcRandom(uint32_t seed = 1) {
    int32_t word = seed == 0 ? 1 : static_cast<int32_t>(seed);
    state_[0] = static_cast<uint32_t>(word);
    for (int index = 1; index < kDegree; ++index) {
      const int32_t high = word / 127773;
      const int32_t low = word % 127773;
      word = 16807 * low - 2836 * high;
      if (word < 0) word += 2147483647;
      state_[index] = static_cast<uint32_t>(word);
    }
    front_ = kSeparation;
    rear_ = 0;
    for (int discard = 0; discard < 10 * kDegree; ++discard) next();
  }

  // [random-next]
  /// The next number, 0 .. 2^31 - 1, as random() returns it.
  int32_t next() {
    state_[front_] += state_[rear_];
    const int32_t result = static_cast<int32_t>(state_[front_] >> 1);
    front_ = (front_ + 1) % kDegree;
    rear_ = (rear_ + 1) % kDegree;
    return result;
  }
  // [random-next]

 private:
  static constexpr int kDegree = 31;     ///< glibc TYPE_3: x^31 + x^3 + 1
  static constexpr int kSeparation = 3;  ///< the lag between the two taps
  std::array<uint32_t, kDegree> state_{};
  int front_ = 0;
  int rear_ = 0;
};

}  // namespace umax
