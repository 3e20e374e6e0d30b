// umax-bench: the readable build against the original on the same searches.
// Each search runs in both builds from an empty table with the same budget;
// the node counts must agree, and the speed ratio is measured in this run.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "engines.h"
#include "umax/bench_positions.h"
#include "umax/cli_limits.h"
#include "umax/tool_output.h"

namespace {

double secondsFor(umax::AnyEngine& engine, const umax::Position& position, long budget,
                  umax::ThinkResult& result) {
  engine.setPosition(position);  // clears the table: not timed
  const auto start = std::chrono::steady_clock::now();
  result = engine.think(budget);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"umax-bench - nodes per second of the readable build against the original, in one run"};
  long budget = 1000000;
  int rounds = 1;
  app.add_option("--nodes", budget, "node budget per search")->check(umax::cli::nodeBudget(1000, 100000000L));
  app.add_option("--rounds", rounds, "times each search is repeated (the fastest counts)")
      ->check(umax::cli::whole(1, 20));
  CLI11_PARSE(app, argc, argv);

  auto minimal = umax::makeEngine("minimal");
  auto readable = umax::makeEngine("readable");
  std::vector<double> ratios;
  std::printf("%-13s %12s %12s %12s %9s\n", "search", "nodes", "minimal n/s", "readable n/s", "ratio");
  for (const umax::BenchPosition& search : umax::kBenchPositions) {
    const umax::Position position = umax::parseFen(search.fen);
    double minimalTime = 1e9;
    double readableTime = 1e9;
    umax::ThinkResult expected;
    umax::ThinkResult actual;
    for (int round = 0; round < rounds; ++round) {
      // Alternate the order so that neither build always runs on a warm cache.
      if (round % 2 == 0) {
        minimalTime = std::min(minimalTime, secondsFor(*minimal, position, budget, expected));
        readableTime = std::min(readableTime, secondsFor(*readable, position, budget, actual));
      } else {
        readableTime = std::min(readableTime, secondsFor(*readable, position, budget, actual));
        minimalTime = std::min(minimalTime, secondsFor(*minimal, position, budget, expected));
      }
    }
    if (actual.nodes != expected.nodes || actual.from != expected.from || actual.to != expected.to ||
        actual.score != expected.score) {
      std::fprintf(stderr, "umax-bench: the builds disagree on '%s'\n", search.name);
      return 1;
    }
    const double ratio = minimalTime / readableTime;  // > 1: readable is faster
    ratios.push_back(ratio);
    std::printf("%-13s %12ld %12.0f %12.0f %8.3fx\n", search.name, expected.nodes,
                expected.nodes / minimalTime, expected.nodes / readableTime, ratio);
  }
  std::sort(ratios.begin(), ratios.end());
  const double median = (ratios[4] + ratios[5]) / 2;
  std::printf("median speed ratio readable/minimal (nodes per second): %.3fx\n", median);
  return umax::finishOutput("umax-bench");
}
