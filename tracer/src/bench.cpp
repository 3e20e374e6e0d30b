// umax-trace-bench: what tracing costs, measured in one run.
//  1. The same searches untraced and traced (to a file): time ratio, node
//     counts asserted equal, bytes and events per node.
//  2. One big trace: file size, open time, replay set-up, random seeks
//     (mean and max), the call tree's build time.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <vector>

#include "umax/bench_positions.h"
#include "umax/engine.h"
#include "umax/session.h"
#include "umax/trace/reader.h"
#include "umax/trace/replay.h"
#include "umax/trace/writer.h"

namespace {

using namespace umax;
using namespace umax::trace;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"umax-trace-bench - the cost of tracing, measured in one run"};
  long budget = 100000;
  long bigBudget = 1000000;
  int rounds = 3;
  std::string directory = std::filesystem::temp_directory_path().string();
  app.add_option("--nodes", budget, "node budget of each compared search (default 100000)")
      ->check(CLI::Range(1000L, 10000000L));
  app.add_option("--big-nodes", bigBudget,
                 "budget of the big trace after 1. e4 (default 1000000: 9.2M nodes; 0 = skip)")
      ->check(CLI::Range(0L, 10000000L));
  app.add_option("--rounds", rounds, "each search timed this many times; the fastest counts")
      ->check(CLI::Range(1, 10));
  app.add_option("--dir", directory, "where the trace files go (removed afterwards)");
  CLI11_PARSE(app, argc, argv);

  const std::string path = directory + "/umax-trace-bench-" + std::to_string(::getpid()) + ".trc";
  auto engine = std::make_unique<Engine>();

  std::printf("1. traced vs untraced (budget %ld, fastest of %d)\n", budget, rounds);
  std::printf("%-13s %9s %10s %9s %7s %9s %7s %11s %11s\n", "search", "nodes", "untraced s", "2-thread s",
              "ratio", "1-thread s", "ratio", "events/node", "bytes/event");
  std::vector<double> ratios;
  std::vector<double> sameThreadRatios;
  uint64_t allEvents = 0;
  uint64_t allBytes = 0;
  for (const BenchPosition& search : kBenchPositions) {
    if (!search.traced) continue;
    const Position position = parseFen(search.fen);
    double plain = 1e9;
    double traced = 1e9;
    double sameThread = 1e9;
    ThinkResult plainResult;
    ThinkResult tracedResult;
    uint64_t events = 0;
    uint64_t bytes = 0;
    for (int round = 0; round < rounds; ++round) {
      engine->clearHashTable();
      engine->setPosition(position);
      auto start = Clock::now();
      plainResult = engine->think(budget);
      plain = std::min(plain, since(start));

      engine->clearHashTable();
      engine->setPosition(position);
      start = Clock::now();
      tracedResult =
          recordThink(*engine, budget, path, search.fen, "", {}, TraceWriter::Threads::kWriterThread);
      traced = std::min(traced, since(start));

      engine->clearHashTable();
      engine->setPosition(position);
      start = Clock::now();
      const ThinkResult oneThread =
          recordThink(*engine, budget, path, search.fen, "", {}, TraceWriter::Threads::kSameThread);
      sameThread = std::min(sameThread, since(start));
      if (oneThread.nodes != tracedResult.nodes) {
        std::fprintf(stderr, "umax-trace-bench: the two writers disagree on '%s'\n", search.name);
        return 1;
      }
      const TraceReader reader(path);
      events = reader.eventCount();
      bytes = reader.fileSize();
    }
    if (plainResult.nodes != tracedResult.nodes || plainResult.score != tracedResult.score ||
        plainResult.from != tracedResult.from || plainResult.to != tracedResult.to) {
      std::fprintf(stderr, "umax-trace-bench: the traced search differs on '%s'\n", search.name);
      return 1;
    }
    ratios.push_back(traced / plain);
    sameThreadRatios.push_back(sameThread / plain);
    allEvents += events;
    allBytes += bytes;
    std::printf("%-13s %9ld %10.3f %9.3f %6.2fx %9.3f %6.2fx %11.2f %11.2f\n", search.name, plainResult.nodes,
                plain, traced, traced / plain, sameThread, sameThread / plain,
                double(events) / double(plainResult.nodes), double(bytes) / double(events));
  }
  std::sort(ratios.begin(), ratios.end());
  std::sort(sameThreadRatios.begin(), sameThreadRatios.end());
  std::printf(
      "median traced/untraced time: %.2fx with the writer thread, %.2fx on one thread; bytes per event: "
      "%.2f\n",
      (ratios[2] + ratios[3]) / 2, (sameThreadRatios[2] + sameThreadRatios[3]) / 2,
      double(allBytes) / double(allEvents));

  if (bigBudget > 0) {
    std::printf("\n2. a big trace: 1. e4, budget %ld\n", bigBudget);
    engine = std::make_unique<Engine>();
    playMoves(*engine, "e2e4");
    auto start = Clock::now();
    const ThinkResult result = recordThink(*engine, bigBudget, path, "", "e2e4");
    const double recordSeconds = since(start);
    engine.reset();
    start = Clock::now();
    const TraceReader reader(path, ChunkChecks::kAtOpen);  // every CRC, as the line below says
    const double openSeconds = since(start);
    start = Clock::now();
    Replay replay(reader);
    const double replaySeconds = since(start);
    std::mt19937_64 random(42);
    std::uniform_int_distribution<uint64_t> anywhere(0, reader.eventCount());
    double total = 0;
    double worst = 0;
    const int seeks = 2000;
    for (int index = 0; index < seeks; ++index) {
      const uint64_t target = anywhere(random);
      start = Clock::now();
      replay.seek(target);
      const double seconds = since(start);
      total += seconds;
      worst = std::max(worst, seconds);
    }
    start = Clock::now();
    const CallTree tree(reader);
    const double treeSeconds = since(start);
    std::printf("nodes %ld, events %llu, bytes %llu (%.2f bytes/event), recorded in %.1f s\n", result.nodes,
                static_cast<unsigned long long>(reader.eventCount()),
                static_cast<unsigned long long>(reader.fileSize()),
                double(reader.fileSize()) / double(reader.eventCount()), recordSeconds);
    std::printf("open (map + check every CRC) %.3f s, replay set-up %.6f s\n", openSeconds, replaySeconds);
    std::printf("random seek: mean %.3f ms, max %.3f ms over %d seeks\n", 1e3 * total / seeks, 1e3 * worst,
                seeks);
    std::printf("call tree: %zu calls built in %.2f s\n", tree.nodes().size(), treeSeconds);
  }
  std::filesystem::remove(path);
  return 0;
}
