// fuzz_classic: umax::runClassicInterface (umax-readable's default mode) on
// arbitrary stdin bytes. It must return 0 at end of input, never crash, hang
// or trip a sanitizer. Every engine holds a 16M-entry hash table (200 MB),
// so there is one engine per process, set back to main()'s start position
// with an empty table before each input (the same input always does the same).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "umax/classic.h"
#include "umax/engine.h"
#include "umax/position.h"

namespace {

/// A think's node budget: small, so that an empty line costs milliseconds
/// (the budget only stops new iterations, as in the original).
constexpr long kFuzzBudget = 2000;

umax::Engine& engine() {
  static const auto instance = std::make_unique<umax::Engine>();
  return *instance;
}

/// A new engine's game state (main()'s board, white to move, O = 0, Q = 0).
const umax::Position& freshState() {
  static const umax::Position state = engine().position();
  return state;
}

std::FILE* devNull() {
  static std::FILE* const sink = std::fopen("/dev/null", "wb");
  return sink;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const umax::Position& start = freshState();  // taken before the first input
  umax::Engine& game = engine();
  game.setPosition(start);
  game.clearHashTable();

  // fmemopen() refuses an empty buffer; an empty input is /dev/null.
  std::FILE* in =
      size == 0 ? std::fopen("/dev/null", "rb") : fmemopen(const_cast<uint8_t*>(data), size, "rb");
  std::FILE* sink = devNull();
  if (!in || !sink) {
    std::perror("fuzz_classic: cannot open the input or /dev/null");
    std::abort();
  }
  const int status = umax::runClassicInterface(game, in, sink, sink, kFuzzBudget);
  std::fclose(in);
  if (status != 0) {
    std::fprintf(stderr, "fuzz_classic: runClassicInterface returned %d, not 0\n", status);
    std::abort();
  }
  return 0;
}
