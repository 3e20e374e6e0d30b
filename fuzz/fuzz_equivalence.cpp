// fuzz_equivalence: the differential fuzzer. Each input is a short game
// (a seed position, random legal moves, one to eight thinks with small node
// budgets, each followed by a move) played in the minimal build and in the
// readable build, untraced and traced; any difference in move, score, node
// count, game state or a touched hash slot aborts with a message naming the
// position, the budget and the fields (see harness/differential.h).
// At exit it prints how many searches it compared.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>

#include "differential.h"

namespace {

std::unique_ptr<umax::DifferentialChecker> checker;

void reportSearches() {
  if (checker)
    std::fprintf(stderr, "fuzz_equivalence: %ld searches compared in %ld inputs, no difference\n",
                 checker->searchesCompared(), checker->inputsRun());
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_equivalence: %s\n", what.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  try {
    checker = std::make_unique<umax::DifferentialChecker>(
        umax::readSeedFens(UMAX_SOURCE_DIR "/tests/data/positions.tsv"));
  } catch (const std::exception& error) {
    fail(std::string("cannot start: ") + error.what());
  }
  // The tables must start empty: only touched slots are cleared later.
  if (const std::string dirty = checker->findDirtySlot(); !dirty.empty()) fail(dirty);
  std::atexit(reportSearches);
  return 0;
}

/// Inputs between two progress lines on stderr (a long run can be watched).
constexpr long kProgressInterval = 10000;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (const std::string difference = checker->run(data, size); !difference.empty()) fail(difference);
  if (checker->inputsRun() % kProgressInterval == 0)
    std::fprintf(stderr, "fuzz_equivalence: %ld searches compared so far\n", checker->searchesCompared());
  return 0;
}
