// umax-trace-bench: what tracing costs, measured in one run (harness/, beside umax-bench).
//  1. The same searches untraced and traced to a file (node counts asserted equal): ratios of
//     process CPU time and of wall time, bytes per event, events per node; and where the cost
//     goes: the hooks alone (an observer that records nothing), the recorder to /dev/null; and
//     what the writer's runs of up to 1 MiB save against each chunk written as it is full.
//  2. One big trace: file size, open time, replay set-up, random seeks, the call tree's build.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <vector>

#include "umax/bench_positions.h"
#include "umax/cli_limits.h"
#include "umax/engine.h"
#include "umax/session.h"
#include "umax/staged_writer.h"
#include "umax/tool_output.h"
#include "umax/trace/reader.h"
#include "umax/trace/replay.h"
#include "umax/trace/writer.h"
#include "umax/view/call_tree.h"

namespace {

using namespace umax;
using namespace umax::trace;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// CPU time of the whole process so far (every thread, user and system), in seconds.
double processCpu() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& time) { return double(time.tv_sec) + 1e-6 * double(time.tv_usec); };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// What the cheapest run of a search cost: process CPU seconds and wall seconds.
struct Cost {
  double cpu = 1e9, wall = 1e9;
};

/// An observer that records nothing: what the hooks alone cost (the traced instantiation of the
/// search, its calls through the interface; one call for a call's first three events).
struct HooksOnly final : SearchObserver {
  void onEnter(const NodeCall&, const ProbeReport&, const HashEntry&, int) override {}
};

/// Drops `path`'s pages from the page cache, as if it were read a day after it was written.
void evictFromCache(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  ::fdatasync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

std::vector<uint8_t> bytesOf(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"umax-trace-bench - the cost of tracing, measured in one run"};
  long budget = 100000, bigBudget = 1000000;
  int rounds = 3;
  std::string directory = std::filesystem::temp_directory_path().string();
  app.add_option("--nodes", budget, "node budget of each compared search (default 100000)")
      ->check(umax::cli::nodeBudget(1000, 10000000L));
  app.add_option("--big-nodes", bigBudget,
                 "budget of the big trace after 1. e4 (default 1000000: 9.2M nodes; 0 = skip)")
      ->check(umax::cli::whole(0, 10000000L, "nodes"));
  app.add_option("--rounds", rounds, "each search timed this many times; the fastest counts")
      ->check(umax::cli::whole(1, 10));
  app.add_option("--dir", directory, "where the trace files go (removed afterwards)");
  CLI11_PARSE(app, argc, argv);

  const std::string path = directory + "/umax-trace-bench-" + std::to_string(::getpid()) + ".trc";
  auto engine = std::make_unique<Engine>();

  std::printf("1. traced vs untraced (budget %ld, fastest of %d; CPU = process CPU time, all threads)\n",
              budget, rounds);
  std::printf("%-13s %9s %9s %9s %9s %9s %9s %9s %7s %7s\n", "search", "nodes", "plain cpu", "traced",
              "hooks", "no file", "cpu ratio", "wall ratio", "ev/node", "B/event");
  std::vector<double> cpuRatios, wallRatios, hooksRatios, noFileRatios;
  // What each piece of tuning saves: the cost without it over the cost with it.
  std::vector<double> compiledSaved, runsSaved, runsAloneSaved;
  uint64_t allEvents = 0, allBytes = 0;
  for (const BenchPosition& search : kBenchPositions) {
    if (!search.traced) continue;
    const Position position = parseFen(search.fen);
    Cost plain, traced, hooks, noFile, noFileTable, shortRuns;
    ThinkResult plainResult, tracedResult;
    // One timed think from an empty table: the cheaper of this run and the ones before stays in `cost`.
    const auto timed = [&](Cost& cost, const auto& think) {
      engine->clearHashTable();
      engine->setPosition(position);
      const double cpu0 = processCpu();
      const auto wall0 = Clock::now();
      const ThinkResult result = think();
      cost = {std::min(cost.cpu, processCpu() - cpu0), std::min(cost.wall, since(wall0))};
      return result;
    };
    const auto recordTo = [&](const std::string& file) {
      return [&engine, &search, file, budget] { return recordThink(*engine, budget, file, search.fen, ""); };
    };
    for (int round = 0; round < rounds; ++round) {
      plainResult = timed(plain, [&] { return engine->think(budget); });
      // Each traced run writes a new file: removing the last one (its page cache) is not recording.
      std::filesystem::remove(path);
      tracedResult = timed(traced, recordTo(path));
      HooksOnly nothing;
      const ThinkResult hooked = timed(hooks, [&] { return engine->think(budget, nothing); });
      // /dev/null: the file system's share left out (never removed: as root that deletes the device).
      const ThinkResult discarded = timed(noFile, recordTo("/dev/null"));
      // The same recorder called through SearchObserver's table, not by the search compiled for it
      // (Engine::CompiledSearch, which recordThink uses).
      const ThinkResult throughTable = timed(noFileTable, [&] {
        TraceWriter writer("/dev/null", makeHeader(*engine, budget, search.fen, ""));
        ThinkResult result;
        {
          Recorder recorder(writer, *engine);
          result = engine->think(budget, recorder);
        }
        writer.finish(
            {result.score, result.from, result.to, static_cast<uint64_t>(result.nodes), writer.events(), ""});
        return result;
      });
      // The same think to a file, each chunk written as it is full (no runs).
      std::filesystem::remove(path);
      const ThinkResult cached = timed(shortRuns, [&] {
        TraceWriter writer(path, makeHeader(*engine, budget, search.fen, ""), 0);
        ThinkResult result;
        {
          Recorder recorder(writer, *engine);
          result = engine->think(budget, recorder, Engine::compiledSearch<Recorder>());
        }
        writer.finish(
            {result.score, result.from, result.to, static_cast<uint64_t>(result.nodes), writer.events(), ""});
        return result;
      });
      if (hooked.nodes != tracedResult.nodes || discarded.nodes != tracedResult.nodes ||
          throughTable.nodes != tracedResult.nodes || cached.nodes != tracedResult.nodes) {
        std::fprintf(stderr, "umax-trace-bench: the observed searches disagree on '%s'\n", search.name);
        return 1;
      }
    }
    if (plainResult.nodes != tracedResult.nodes || plainResult.score != tracedResult.score ||
        plainResult.from != tracedResult.from || plainResult.to != tracedResult.to) {
      std::fprintf(stderr, "umax-trace-bench: the traced search differs on '%s'\n", search.name);
      return 1;
    }
    const TraceReader reader(path);
    const uint64_t events = reader.eventCount(), bytes = reader.fileSize();
    cpuRatios.push_back(traced.cpu / plain.cpu);
    wallRatios.push_back(traced.wall / plain.wall);
    hooksRatios.push_back(hooks.cpu / plain.cpu);
    noFileRatios.push_back(noFile.cpu / plain.cpu);
    compiledSaved.push_back(noFileTable.cpu / noFile.cpu);
    runsSaved.push_back((shortRuns.cpu - traced.cpu) / plain.cpu);
    // The runs alone: this trace's bytes written again, in chunks, by a StagedWriter with each
    // longest run (the search's noise left out).
    const std::vector<uint8_t> traceBytes = bytesOf(path);
    const auto writeCost = [&](std::size_t longestRun) {
      double best = 1e9;
      for (int round = 0; round < rounds; ++round) {
        std::filesystem::remove(path + ".runs");
        const int fd = ::open((path + ".runs").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        const double cpu0 = processCpu();
        {
          StagedWriter file(fd, kChunkBytes, longestRun);
          for (std::size_t at = 0; at < traceBytes.size(); at += kChunkBytes) {
            const std::size_t piece = std::min<std::size_t>(kChunkBytes, traceBytes.size() - at);
            std::memcpy(file.end(), traceBytes.data() + at, piece);
            file.advance(piece);
          }
        }
        best = std::min(best, processCpu() - cpu0);
        ::close(fd);
      }
      std::filesystem::remove(path + ".runs");
      return best;
    };
    runsAloneSaved.push_back((writeCost(0) - writeCost(StagedWriter::kLongestRun)) / plain.cpu);
    allEvents += events;
    allBytes += bytes;
    std::printf("%-13s %9ld %9.3f %9.3f %8.2fx %8.2fx %8.2fx %9.2fx %7.2f %7.2f\n", search.name,
                plainResult.nodes, plain.cpu, traced.cpu, hooks.cpu / plain.cpu, noFile.cpu / plain.cpu,
                traced.cpu / plain.cpu, traced.wall / plain.wall, double(events) / double(plainResult.nodes),
                double(bytes) / double(events));
  }
  std::printf("median traced/untraced: %.2fx CPU, %.2fx wall; %.2f bytes per event\n", median(cpuRatios),
              median(wallRatios), double(allBytes) / double(allEvents));
  std::printf(
      "where it goes (median CPU): the hooks alone %.2fx (an observer that records nothing), the recorder "
      "without the file %.2fx (writing to /dev/null), to a file %.2fx\n",
      median(hooksRatios), median(noFileRatios), median(cpuRatios));
  std::printf(
      "what the search compiled for the recorder saves, calling its hooks directly "
      "(Engine::CompiledSearch): the recorder through SearchObserver's table %.3fx of it (median CPU, "
      "without the file)\n",
      median(compiledSaved));
  std::printf(
      "what the writer's runs of up to 1 MiB save (StagedWriter): each chunk written as it is full costs "
      "%+.3fx of the untraced search more in the traced think, %+.3fx writing the trace's bytes alone "
      "(median CPU)\n",
      median(runsSaved), median(runsAloneSaved));

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
    double total = 0, worst = 0;
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
    // The reader's tuning: CRCs checked lazily (a chunk's on its first decoding, atomics keep
    // count across threads).
    start = Clock::now();
    { const TraceReader lazy(path, ChunkChecks::kOnFirstDecode); }
    const double lazySeconds = since(start);
    // The same opening and a first seek to the middle with the file out of the page cache: what
    // a viewer waits for when it opens a trace written a while ago.
    const auto coldOpen = [&](ChunkChecks checks) {
      evictFromCache(path);
      start = Clock::now();
      const TraceReader cold(path, checks);
      Replay coldReplay(cold);
      coldReplay.seek(cold.eventCount() / 2);
      return since(start);
    };
    const double coldChecked = coldOpen(ChunkChecks::kAtOpen),
                 coldLazy = coldOpen(ChunkChecks::kOnFirstDecode);
    std::printf("nodes %ld, events %llu, bytes %llu (%.2f bytes/event), recorded in %.1f s\n", result.nodes,
                static_cast<unsigned long long>(reader.eventCount()),
                static_cast<unsigned long long>(reader.fileSize()),
                double(reader.fileSize()) / double(reader.eventCount()), recordSeconds);
    std::printf("open (map + check every CRC) %.3f s, replay set-up %.6f s\n", openSeconds, replaySeconds);
    std::printf("random seek: mean %.3f ms, max %.3f ms over %d seeks\n", 1e3 * total / seeks, 1e3 * worst,
                seeks);
    std::printf("call tree: %zu calls built in %.2f s\n", tree.nodes().size(), treeSeconds);
    std::printf("open checking no CRC (each chunk's on its first decoding) %.3f s\n", lazySeconds);
    std::printf(
        "out of the page cache, open and seek to the middle: %.3f s checking every CRC at open, %.3f s "
        "checking each chunk on its first decoding\n",
        coldChecked, coldLazy);
  }
  std::filesystem::remove(path);
  return umax::finishOutput("umax-trace-bench");
}
