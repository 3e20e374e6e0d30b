// The stop flag and the root's iteration reports (Engine::setStopFlag,
// Engine::setIterationListener): what a front end with a clock relies on.
// The reference for "what a think ending at iteration k returns" is the
// original itself, given the node budget that ends its think there.
#include <atomic>
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "support.h"
#include "umax/engine.h"
#include "umax/position.h"
#include "umax/search_observer.h"
#include "umax/session.h"

using namespace umax;
using namespace umax::test;

namespace {

/// Positions from opening to endgame; the budget gives each think several iterations.
const char* const kFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
    "8/5pk1/6p1/8/3R4/6P1/r4PK1/8 w - - 0 40",
};
constexpr long kBudget = 40000;

/// The first slot where two tables differ, or -1 if they are equal.
long firstDifference(std::span<const HashEntry> a, std::span<const HashEntry> b) {
  if (a.size() != b.size()) return 0;
  for (size_t slot = 0; slot < a.size(); ++slot) {
    const HashEntry& x = a[slot];
    const HashEntry& y = b[slot];
    if (x.lock != y.lock || x.score != y.score || x.from != y.from || x.to != y.to || x.draft != y.draft)
      return static_cast<long>(slot);
  }
  return -1;
}

/// A think with the report of each of its iterations (at least three).
struct ReportedThink {
  std::unique_ptr<Engine> engine;
  ThinkResult result;
  std::vector<IterationReport> reports;
};

/// A think of kBudget nodes from `fen` on a new engine's empty table.
ReportedThink reportedThink(const std::string& fen) {
  ReportedThink think{std::make_unique<Engine>(), {}, {}};
  think.engine->setPosition(parseFen(fen));
  think.engine->setIterationListener([&](const IterationReport& report) { think.reports.push_back(report); });
  think.result = think.engine->think(kBudget);
  think.engine->setIterationListener(nullptr);
  REQUIRE(think.reports.size() >= 3);
  return think;
}

/// Checks that `result` is the think's answer after the iteration of `report`.
void checkResultOf(const ThinkResult& result, const IterationReport& report) {
  CHECK(result.completedIterations == report.iteration);
  CHECK(result.depth == report.draft);
  CHECK(result.from == report.from);
  CHECK(result.to == report.to);
  CHECK(result.score == report.score);
}

/// Raises a flag when the node counter reaches a given value: a stop that
/// arrives deep inside an iteration, at a place the test chooses.
class RaiseAtNode final : public SearchObserver {
 public:
  RaiseAtNode(std::atomic<bool>& flag, int node) : flag_(flag), node_(node) {}
  void onNodeCounted(int nodeCount) override {
    if (nodeCount == node_) flag_ = true;
  }

 private:
  std::atomic<bool>& flag_;
  int node_;
};

}  // namespace

TEST_CASE("each iteration report is what the original returns with that iteration's node count as budget",
          "[engine-stop]") {
  const std::string fen = GENERATE(from_range(std::begin(kFens), std::end(kFens)));
  CAPTURE(fen);
  const auto [engine, result, reports] = reportedThink(fen);

  SECTION("the reports count the iterations, and the last one is the think's result") {
    for (size_t index = 0; index < reports.size(); ++index) {
      CAPTURE(index);
      CHECK(reports[index].iteration == static_cast<int>(index) + 1);
      if (index > 0) CHECK(reports[index].nodes >= reports[index - 1].nodes);
    }
    const IterationReport& last = reports.back();
    CHECK_FALSE(result.aborted);
    checkResultOf(result, last);
    CHECK(result.nodes == last.nodes);
  }

  SECTION("the original, given each report's node count as budget, stops there with the same result") {
    // The original runs in its own process (umax-probe): the suite holds its
    // in-process copy elsewhere, and only one may exist at a time.
    // The root's first iteration looks at no move (draft 1 at the root only
    // checks for king captures): it counts no node beyond the root's own.
    CHECK(reports[0].nodes == 1);
    CHECK(reports[0].from == 0);
    CHECK(reports[0].to == 0);
    // So a budget ends a think after iteration k only if k counted a node:
    // iteration k starts while fewer than `budget` nodes are counted.
    for (size_t index = 1; index < reports.size(); ++index) {
      const IterationReport& report = reports[index];
      REQUIRE(report.nodes > reports[index - 1].nodes);
      CAPTURE(report.iteration, report.draft, report.nodes);
      int status = -1;
      const std::string original = runCommand("'" + binPath("umax-probe") + "' --engine minimal --fen '" +
                                                  fen + "' --nodes " + std::to_string(report.nodes),
                                              &status);
      CHECK(status == 0);
      CHECK(original == formatThink(report.from, report.to, report.score, report.nodes) + "\n");
      engine->clearHashTable();
      engine->setPosition(parseFen(fen));
      const ThinkResult actual = engine->think(report.nodes);
      CHECK(actual.completedIterations == report.iteration);
      CHECK(actual.depth == report.draft);
      CHECK_FALSE(actual.aborted);
    }
  }
}

TEST_CASE("a stop raised by the listener after iteration k returns iteration k and its table",
          "[engine-stop]") {
  const std::string fen = GENERATE(from_range(std::begin(kFens), std::end(kFens)));
  CAPTURE(fen);
  const auto [engine, full, reports] = reportedThink(fen);
  auto reference = std::make_unique<Engine>();

  // Every iteration but the last: after the last one the budget ends the think anyway.
  for (size_t stopAfter = 1; stopAfter < reports.size(); ++stopAfter) {
    const IterationReport& report = reports[stopAfter - 1];
    CAPTURE(stopAfter);
    std::atomic<bool> stop{false};
    engine->clearHashTable();
    engine->setPosition(parseFen(fen));
    const Position before = engine->position();
    engine->setStopFlag(&stop);
    engine->setIterationListener([&](const IterationReport& heard) {
      if (heard.iteration == static_cast<int>(stopAfter)) stop = true;
    });
    const ThinkResult stopped = engine->think(kBudget);
    engine->setStopFlag(nullptr);
    engine->setIterationListener(nullptr);

    CHECK(stopped.aborted);
    checkResultOf(stopped, report);
    CHECK(engine->bestFrom() == report.from);
    CHECK(engine->bestTo() == report.to);
    // The first node counted after the raise is the one that stops.
    CHECK(stopped.nodes == report.nodes + 1);
    CHECK(engine->position().board == before.board);

    // Nothing was stored on the way out: the table is the one a think
    // that ended at this iteration by its budget leaves. (No budget ends a
    // think after iteration 1, which counts no node; see the case above.)
    if (stopAfter == 1) continue;
    reference->clearHashTable();
    reference->setPosition(parseFen(fen));
    const ThinkResult ended = reference->think(report.nodes);
    CHECK(ended.from == stopped.from);
    CHECK(ended.to == stopped.to);
    CHECK(ended.score == stopped.score);
    CHECK(firstDifference(engine->hashTable(), reference->hashTable()) == -1);
  }
}

TEST_CASE("a stop deep inside an iteration puts the board back and returns the last completed iteration",
          "[engine-stop]") {
  const std::string fen = GENERATE(from_range(std::begin(kFens), std::end(kFens)));
  CAPTURE(fen);
  const auto [engine, full, reports] = reportedThink(fen);
  // Halfway through the last iteration, many plies below the root.
  const IterationReport& previous = reports[reports.size() - 2];
  const long stopNode = (previous.nodes + reports.back().nodes) / 2;
  REQUIRE(stopNode > previous.nodes);

  std::atomic<bool> stop{false};
  engine->clearHashTable();
  engine->setPosition(parseFen(fen));
  const Position before = engine->position();
  engine->setStopFlag(&stop);
  RaiseAtNode observer(stop, kNodeLimit - static_cast<int>(kBudget) + static_cast<int>(stopNode));
  const ThinkResult stopped = engine->think(kBudget, observer);
  engine->setStopFlag(nullptr);

  CHECK(stopped.aborted);
  CHECK(stopped.nodes == stopNode);
  checkResultOf(stopped, previous);
  const Position after = engine->position();
  CHECK(after.board == before.board);
  CHECK(after.side == before.side);
  CHECK(after.epSquare == before.epSquare);
  CHECK(after.eval == before.eval);

  SECTION("the next think, with the flag lowered, runs to its budget") {
    stop = false;
    engine->setStopFlag(&stop);
    engine->clearHashTable();
    const ThinkResult again = engine->think(kBudget);
    CHECK_FALSE(again.aborted);
    CHECK(again.from == full.from);
    CHECK(again.to == full.to);
    CHECK(again.nodes == full.nodes);
  }
}

TEST_CASE("a stop raised before the think returns no move and leaves the table empty", "[engine-stop]") {
  auto engine = std::make_unique<Engine>();
  engine->setPosition(parseFen(kFens[0]));
  const std::atomic<bool> stop{true};
  engine->setStopFlag(&stop);
  const ThinkResult result = engine->think(kBudget);
  CHECK(result.aborted);
  CHECK(result.completedIterations == 0);
  CHECK_FALSE(result.hasMove());
  CHECK(result.nodes == 1);  // the root itself
  auto untouched = std::make_unique<Engine>();
  CHECK(firstDifference(engine->hashTable(), untouched->hashTable()) == -1);

  SECTION("the legality check does not read the flag") {
    CHECK(engine->playMove(makeSquare(4, 2), makeSquare(4, 4)));  // e2e4
  }
}

TEST_CASE("a stop flag that stays down and a listener change nothing", "[engine-stop]") {
  const std::string fen = GENERATE(from_range(std::begin(kFens), std::end(kFens)));
  CAPTURE(fen);
  auto plain = std::make_unique<Engine>();
  plain->setPosition(parseFen(fen));
  const ThinkResult expected = plain->think(kBudget);

  auto watched = std::make_unique<Engine>();
  const std::atomic<bool> stop{false};
  int heard = 0;
  watched->setStopFlag(&stop);
  watched->setIterationListener([&](const IterationReport&) { ++heard; });
  watched->setPosition(parseFen(fen));
  const ThinkResult actual = watched->think(kBudget);

  CHECK(heard == actual.completedIterations);
  CHECK_FALSE(actual.aborted);
  CHECK(actual.from == expected.from);
  CHECK(actual.to == expected.to);
  CHECK(actual.score == expected.score);
  CHECK(actual.nodes == expected.nodes);
  CHECK(firstDifference(watched->hashTable(), plain->hashTable()) == -1);
}
