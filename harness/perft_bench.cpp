// umax-perft-bench: the perft rows too deep for the test suite, counted by the
// readable build's generator and compared with the oracle, timed in this run.
//
// Rows come from tests/data/perft.tsv (../shared/perft, queen-only oracle) and
// tests/data/perft-extra.tsv (make-perft-data.mjs: queen-only oracle plus the
// count under micro-Max's castling rule). By default every row with more than
// 2 million leaves (the suite runs the rest) and at most --max-leaves.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "perft_data.h"
#include "umax/cli_limits.h"
#include "umax/engine.h"
#include "umax/position.h"
#include "umax/tool_output.h"

namespace {

// Differences from FIDE already proved and pinned by the tests, for the
// shared table (which has no micro-Max column): Kiwipete perft 4 counts 61
// more because micro-Max lets the king castle out of a pawn's check
// (tests/test_perft.cpp, "kiwipete perft 4 differs ...").
struct KnownDifference {
  const char* id;
  int depth;
  long extra;
};
constexpr KnownDifference kKnown[] = {{"cpw2_kiwipete", 4, 61}};

// The count micro-Max should give for the row.
long expectedCount(const umax::PerftRow& row) {
  if (row.umax >= 0) return row.umax;
  for (const KnownDifference& known : kKnown)
    if (row.id == known.id && row.depth == known.depth) return row.queenOnly + known.extra;
  return row.queenOnly;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"umax-perft-bench - deep perft rows against the oracle, with leaves per second"};
  std::string dataDir = UMAX_SOURCE_DIR "/tests/data";
  long minLeaves = 2000001;
  long maxLeaves = 200000000;
  app.add_option("--data", dataDir, "folder with perft.tsv and perft-extra.tsv")
      ->check(CLI::ExistingDirectory);
  app.add_option("--min-leaves", minLeaves, "skip rows with fewer leaves (the suite runs them)")
      ->check(umax::cli::whole(0, 10000000000LL, "leaves"));
  app.add_option("--max-leaves", maxLeaves, "skip rows with more leaves")
      ->check(umax::cli::whole(1, 10000000000LL, "leaves"));
  CLI11_PARSE(app, argc, argv);

  std::vector<umax::PerftRow> rows;
  try {
    for (const char* name : {"perft.tsv", "perft-extra.tsv"}) {
      const std::vector<umax::PerftRow> table = umax::readPerftRows(dataDir + "/" + name);
      rows.insert(rows.end(), table.begin(), table.end());
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "umax-perft-bench: %s\n", error.what());
    return 2;
  }

  umax::Engine engine;  // one engine: its 16M-slot table is not used by perft
  long totalLeaves = 0;
  double totalSeconds = 0;
  int compared = 0;
  int failures = 0;
  std::printf("%-32s %5s %12s %12s %-28s %8s %12s\n", "id", "depth", "count", "oracle", "verdict", "seconds",
              "leaves/s");
  for (const umax::PerftRow& row : rows) {
    const long expected = expectedCount(row);
    if (expected < minLeaves || expected > maxLeaves) continue;
    engine.setPosition(umax::parseFen(row.fen));
    const auto start = std::chrono::steady_clock::now();
    const long count = engine.perft(row.depth);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string verdict;
    if (count == row.queenOnly) {
      verdict = "agree";
    } else if (count == expected) {
      verdict = "differ: micro-Max +" + std::to_string(count - row.queenOnly);
    } else {
      verdict = "WRONG by " + std::to_string(count - expected);
      ++failures;
    }
    std::printf("%-32s %5d %12ld %12ld %-28s %8.2f %12.0f\n", row.id.c_str(), row.depth, count, row.queenOnly,
                verdict.c_str(), seconds, count / seconds);
    std::fflush(stdout);
    totalLeaves += count;
    totalSeconds += seconds;
    ++compared;
  }
  std::printf("%d rows, %ld leaves in %.1f s: %.0f leaves/s; %d not as expected\n", compared, totalLeaves,
              totalSeconds, totalSeconds > 0 ? totalLeaves / totalSeconds : 0.0, failures);
  std::printf(
      "(oracle: queen-only FIDE count; \"differ: micro-Max +n\" rows equal the count under micro-Max's\n"
      " castling rule, which lets a king castle past or out of a pawn's attack)\n");
  return umax::finishOutput("umax-perft-bench", failures == 0 ? 0 : 1);
}
