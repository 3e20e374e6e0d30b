// umax-trace: record a search of the readable micro-Max into a trace file,
// and look at one: figures, a Graphviz tree, JSON lines, a Chrome trace.
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "umax/cli_limits.h"
#include "umax/engine.h"
#include "umax/replacing_file.h"
#include "umax/session.h"
#include "umax/stop_on_signal.h"
#include "umax/tool_output.h"
#include "umax/trace/export.h"
#include "umax/trace/game_dir.h"
#include "umax/trace/reader.h"
#include "umax/trace/replay.h"
#include "umax/trace/writer.h"
#include "umax/view/call_tree_dot.h"
#include "umax/view/compare.h"
#include "umax/view/stats.h"
#include "umax/view/view_state.h"

namespace {

using namespace umax;
using namespace umax::trace;

/// A one-line progress display on stderr, redrawn in place: the root iteration, the nodes counted,
/// the megabytes written and the rates. No percentage and no time left: the budget only stops new
/// iterations from starting, and the last one runs to its end (the original's default think after
/// 1. e4 counts 72.6M nodes on a budget of 10M).
struct ProgressBar {
  bool enabled;
  std::string path;
  std::string partial = partialPath(path);  // where the writer appends until the trace is whole
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  bool drawn = false;
  int draft = 0;

  void update(uint64_t nodes, int newDraft) {
    if (!enabled) return;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    struct stat info {};  // the file as flushed so far (the writer appends whole chunks)
    const bool found = ::stat(partial.c_str(), &info) == 0 || ::stat(path.c_str(), &info) == 0;
    const double megabytes = found ? double(info.st_size) / 1e6 : 0.0;
    // Under 80 columns, so that \r redraws it in place on a standard terminal.
    std::fprintf(stderr, "\rrecording: iteration %2d %11llu nodes %8.1f MB %6.1f s %5.2fM nodes/s", newDraft,
                 static_cast<unsigned long long>(nodes), megabytes, seconds,
                 seconds > 0 ? double(nodes) / seconds / 1e6 : 0.0);
    std::fflush(stderr);
    drawn = true;
    draft = newDraft;
  }
  /// Redraws the line with the final count (if it was shown) and ends it.
  void done(uint64_t nodes) {
    if (!drawn) return;
    update(nodes, draft);
    std::fprintf(stderr, "\n");
  }
};

int record(const std::string& fen, const std::string& moves, long nodes, int hashBits,
           const SearchVariant& variant, const std::string& output, bool progress) {
  // The table of its size from the start (the original's is never mapped for a smaller one): the
  // moves' legality checks store into it, as main() does.
  auto engine = std::make_unique<Engine>(hashBits);
  if (!fen.empty()) engine->setPosition(parseFen(fen));
  playMoves(*engine, moves);
  engine->setVariant(variant);  // after the moves: their legality checks run the whole search
  ProgressBar bar{progress, output};
  ThinkResult result;
  {  // an interrupted recording still ends with its footer: a complete file that opens at once
    const StopOnSignal stopOnSignal;
    engine->setStopFlag(&stopRequested);
    result = recordThink(*engine, nodes, output, fen, moves,
                         [&](uint64_t counted, int draft) { bar.update(counted, draft); });
    engine->setStopFlag(nullptr);
  }
  bar.done(static_cast<uint64_t>(result.nodes));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - bar.start).count();
  const TraceReader reader(output);
  const uint64_t events = reader.eventCount(), bytes = reader.fileSize();
  if (result.aborted) {
    std::cerr
        << "umax-trace: interrupted after " << result.nodes
        << " nodes: the trace holds the search up to the stop (its last root iteration cut short) and is "
           "complete, with its footer\n";
    std::cout << (result.hasMove() ? "last completed iteration: " : "no completed iteration: ");
  }
  std::cout << formatThink(result.from, result.to, result.score, result.nodes)
            << variantSuffix(variant, result.depth) << "\n";
  std::cout << "trace " << output << ": " << events << " events, " << bytes << " bytes ("
            << (events ? double(bytes) / double(events) : 0.0) << " bytes/event), " << seconds << " s\n";
  return result.aborted ? 128 + stopSignal : 0;  // as a shell reports a process a signal ended
}

/// Warns on stderr when the trace `reader` read from `path` is cut short or has bytes after its
/// end: the tool uses its complete events (`use`: "using", "comparing").
void warnIfCut(const TraceReader& reader, const std::string& path, const char* use) {
  if (reader.truncated())
    std::cerr << "umax-trace: warning: '" << path << "' "
              << (reader.trailingBytes() > 0 ? "has extra bytes after its end" : "is truncated") << " ("
              << reader.truncationNote() << "); " << use << " its " << reader.eventCount()
              << " complete events\n";
}

}  // namespace

int main(int argc, char** argv) {
  checkStandardOutput();
  CLI::App app{"umax-trace - record a search of the readable micro-Max and look at it"};
  app.require_subcommand(1);

  std::string fen, moves, output, path, without;
  long nodes = 10000;
  int hashBits = kHashSlotBits, depth = 0;
  bool quiet = false, force = false;
  auto* recordCommand = app.add_subcommand("record",
                                           "think once and record every event into a trace file (Ctrl-C "
                                           "stops the think and keeps a complete trace)");
  recordCommand->add_option("--fen", fen, "position to search (default: the start position)")
      ->check(umax::cli::fenText());
  recordCommand->add_option("--moves", moves, "moves to play first, e.g. \"e2e4 e7e5\"")
      ->check(umax::cli::movesText());
  recordCommand->add_option("--nodes", nodes, "node budget: no new iteration starts after it (default 10000)")
      ->check(umax::cli::nodeBudget(1, 100000000L));
  const std::string bits = std::to_string(kHashSlotBits);
  recordCommand
      ->add_option("--hash-bits", hashBits,
                   "a hash table of 2^K + 9 slots, K from " + std::to_string(kMinHashSlotBits) + " to " +
                       bits + " (default " + bits +
                       ": the original's); a smaller one makes other positions share slots, so the "
                       "search is no longer the original's")
      ->check(umax::cli::whole(kMinHashSlotBits, kHashSlotBits));
  recordCommand
      ->add_option("-o,--output", output,
                   "trace file to write: a new file or a trace (anything else needs --force); not a FIFO, "
                   "device or folder")
      ->required();
  recordCommand
      ->add_option("--without", without,
                   "the Lab: record the search without these ideas, comma-separated: " + ideaNames() +
                       " (or all); the trace names its variant")
      ->check(umax::cli::ideaList());
  recordCommand
      ->add_option("--depth", depth,
                   "the Lab: the think ends after the root's iteration of draft D, with no node budget "
                   "(excludes --nodes)")
      ->check(umax::cli::searchDepth());
  recordCommand->add_flag("--force", force, "overwrite an -o file that is not a trace");
  recordCommand->add_flag("-q,--quiet", quiet, "no progress display on stderr");

  // A command that reads a trace file, and writes to -o if `writes`.
  const auto readingCommand = [&](const std::string& name, const std::string& description,
                                  bool writes = false) {
    CLI::App* command = app.add_subcommand(name, description);
    command->add_option("file", path, "trace file")->required();
    if (writes) command->add_option("-o,--output", output, "file to write (default: stdout)");
    return command;
  };
  auto* infoCommand = readingCommand("info",
                                     "figures: nodes, events, bytes, event counts, hash hit rate, "
                                     "cutoffs per draft, branching factor per iteration");
  DotOptions dot;
  auto* dotCommand = readingCommand(
      "dot",
      "one root iteration's call tree as Graphviz DOT, root at the top, cutoffs and hash hits marked "
      "(dot -Tsvg renders it)",
      true);
  dotCommand->add_option("--max-ply", dot.maxPly, "deepest ply drawn (root = 0; default 3)")
      ->check(umax::cli::whole(0, 200, "plies"));
  dotCommand->add_option("--iteration", dot.iteration, "root iteration to draw (default: the last)")
      ->check(umax::cli::whole(0, 200));
  dotCommand
      ->add_option(
          "--children", dot.children,
          "moves drawn at each call of the principal variation: the best ones, drawn left to right in "
          "the order searched (default 3; other calls show their best reply; the rest fold into a "
          "\"+N more\" box); 0 draws every call")
      ->check(umax::cli::whole(0, 1000, "moves"));
  dotCommand
      ->add_option("--max-nodes", dot.maxNodes,
                   "stop drawing after this many calls, with a note saying so (default 60)")
      ->check(umax::cli::whole(1, 1000000, "calls"));
  auto* jsonlCommand = readingCommand(
      "jsonl", "every event as one JSON object per line, its fields named as in the original (k q l ...)",
      true);
  auto* chromeCommand = readingCommand(
      "chrome", "Chrome trace-event JSON (Perfetto): calls as nested slices, 1 us = 1 event", true);

  uint64_t stateEvent = 0;
  bool statePretty = false;
  auto* stateCommand = readingCommand(
      "state",
      "what the visualizer shows at one event, as one JSON object: the board (FEN), the window, the "
      "variables, the stack, the hash counters up to there, the arrows and a narration of what happened "
      "and why. Events are numbered from 0, as jsonl's \"i\"");
  stateCommand->add_option("--event", stateEvent, "the event (0-based, jsonl's i): the state just after it")
      ->required()
      ->check(umax::cli::whole(0, LLONG_MAX));
  stateCommand->add_flag("--pretty", statePretty, "indent the JSON");

  std::string otherPath;
  auto* compareCommand = app.add_subcommand(
      "compare",
      "two searches side by side (say micro-Max's and the Lab's without one idea, of the same position): "
      "each root iteration's nodes, calls, effective branching, best move and score, and where the two "
      "trees first differ (the event and the move, their numbers in each trace and the path from the root)");
  compareCommand->add_option("A", path, "the first trace file")->required();
  compareCommand->add_option("B", otherPath, "the second trace file")->required();

  auto* gameCommand = app.add_subcommand(
      "game", "list the thinks of the games in a folder written by umax-readable --trace-dir");
  gameCommand->add_option("folder", path, "the folder (or a file in it, such as the game's PGN)")->required();

  CLI11_PARSE(app, argc, argv);

  try {
    if (*recordCommand) {
      if (depth && recordCommand->count("--nodes")) {
        std::cerr << "umax-trace: --nodes and --depth exclude each other (--depth has no budget)\n";
        return 2;
      }
      SearchVariant variant;
      if (!without.empty()) variant.without = parseWithout(without);
      variant.depth = depth;
      checkTraceTarget(output, force);
      return finishOutput("umax-trace", record(fen, moves, nodes, hashBits, variant, output,
                                               !quiet && isatty(STDERR_FILENO)));
    }
    if (*infoCommand) {
      writeInfo(TraceReader(path), std::cout);
      return finishOutput("umax-trace");
    }
    if (*compareCommand) {
      const std::string firstPath = path;
      const TraceReader first(firstPath);
      path = otherPath;  // a TraceError from here on names B
      const TraceReader second(otherPath);
      warnIfCut(first, firstPath, "comparing");
      warnIfCut(second, otherPath, "comparing");
      writeComparison(first, firstPath, second, otherPath, compareTraces(first, second), std::cout);
      return finishOutput("umax-trace");
    }
    if (*gameCommand) {
      std::cout << formatGameDir(readGameDir(path));
      return finishOutput("umax-trace");
    }
    const TraceReader reader(path);
    warnIfCut(reader, path, "using");
    const auto exportTo = [&](auto&& write) { return writeOutput(output, "umax-trace", write); };
    if (*dotCommand) return exportTo([&](std::ostream& out) { writeDot(reader, dot, out); });
    if (*jsonlCommand) return exportTo([&](std::ostream& out) { writeJsonLines(reader, out); });
    if (*chromeCommand) return exportTo([&](std::ostream& out) { writeChromeTrace(reader, out); });
    if (const uint64_t events = reader.eventCount(); stateEvent >= events) {
      std::cerr << "umax-trace: --event " << stateEvent << " is outside '" << path
                << "': its events are 0 to "
                << (events == 0 ? std::string("(none)") : std::to_string(events - 1)) << "\n";
      return 2;
    }
    Replay replay(reader);
    replay.seek(cursorAfterEvent(stateEvent));
    std::cout << toJson(viewState(replay, hashCountersAt(reader, replay.cursor())), statePretty ? 2 : -1)
              << "\n";
    return finishOutput("umax-trace");
  } catch (const TraceError& error) {
    // Name the file unless the message does.
    const std::string& file = *recordCommand ? output : path;
    const std::string message = error.what();
    std::cerr << "umax-trace: "
              << (message.find(file) == std::string::npos ? "'" + file + "': " + message : message) << "\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "umax-trace: " << error.what() << "\n";
    return 2;
  }
}
