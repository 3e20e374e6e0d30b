// umax-viz's command line, and the trace it opens before any window exists.
#include "command_line.h"

#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "panels.h"
#include "umax/cli_limits.h"
#include "umax/trace/writer.h"

namespace umax::viz {
namespace {

/// Why --screenshot may not write `path` ("" if it may): a file that exists
/// and is not a PNG (a screenshot of ours) needs --force, a symbolic link is
/// never followed, a folder, FIFO or device is never written.
std::string screenshotRefusal(const std::string& path, bool force) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) return "";  // a new file
  if (S_ISLNK(status.st_mode))
    return force ? ""
                 : "'" + path +
                       "' is a symbolic link: not followed, not overwritten (--force replaces the link)";
  if (!S_ISREG(status.st_mode))
    return "cannot write '" + path + "': not a regular file (a folder, FIFO or device)";
  char magic[8] = {};
  std::ifstream(path, std::ios::binary).read(magic, sizeof magic);
  if (force || std::string(magic, sizeof magic) == "\x89PNG\r\n\x1a\n") return "";
  return "'" + path + "' exists and is not a PNG: not overwritten (--force overwrites it)";
}

}  // namespace

std::optional<int> parseCommandLine(int argc, char** argv, Options& options) {
  CLI::App cli{"umax-viz - step through a recorded micro-Max search beside its source"};
  cli.add_option("trace", options.tracePath,
                 "trace file, or game folder (umax-readable --trace-dir) or its PGN, to open");
  cli.add_option(
      "--compare", options.comparePath,
      "a second trace shown beside the first (say the same position recorded with umax-trace record "
      "--without NAME): both searches' root iterations, where their trees first part, and each "
      "tree at the root in the iteration the cursor is in");
  cli.add_option("--ply", options.ply,
                 "in a game folder, open the think of this ply (1 = white's first move)")
      ->check(::umax::cli::whole(1, 100000, "plies"));
  cli.add_option("--fen", options.fen, "record a search of this position first (with --nodes)")
      ->check(::umax::cli::fenText());
  cli.add_option("--moves", options.moves, "moves played before the recorded search, e.g. \"e2e4 e7e5\"")
      ->check(::umax::cli::movesText());
  cli.add_option("--nodes", options.nodes,
                 "node budget of the search to record (records when given): 1 to 10000000, the original's "
                 "own budget (a think of that budget can write about a gigabyte)")
      ->check(::umax::cli::nodeBudget(1, kMaxRecordNodes));
  cli.add_option("-o,--output", options.output,
                 "where to write the recorded trace (default: a temporary file): a new file or a trace "
                 "(anything else needs --force); not a FIFO, device or folder");
  cli.add_flag("--force", options.force,
               "with -o: overwrite a file that is not a trace, or replace a symbolic link (never followed); "
               "with --screenshot: a file that is not a PNG, or a link");
  cli.add_option(
         "--event", options.event,
         "open the trace just after this event: events are numbered from 0, as umax-trace jsonl's \"i\" "
         "and umax-trace state --event (default: before the first event)")
      ->check(::umax::cli::whole(0, LLONG_MAX));
  cli.add_option("--screenshot", options.screenshot,
                 "render one frame into this PNG and exit (no window shown, but GLFW needs a display: "
                 "without one, run under xvfb-run -a)");
  cli.add_flag("--layout-dump", options.layoutDump, "print each panel's name and rectangle after the frame");
  cli.add_flag("--show-help", options.showHelp, "open with the help (F1) shown");
  cli.add_flag("--legend", options.showLegend,
               "open with the legend (L) shown; it starts hidden, as it covers part of the Source panel");
  cli.add_flag("--no-legend", options.hideLegend, "open with the legend (L) hidden (the default)");
  cli.add_option("--bench", options.benchFrames,
                 "headless: render this many frames while scrubbing and print timings")
      ->check(::umax::cli::whole(1, 1000000, "frames"));
  cli.add_flag("--wait-for-indexes", options.waitForIndexes,
               "headless: draw after the background indexes are built, even for a trace of more than "
               "10,000,000 events (shorter ones always wait)");
  cli.add_option("--size", options.width,
                 "window width in pixels (the height follows 1280x800 unless --height); below 800 the "
                 "compact layout of a phone")
      ->check(::umax::cli::whole(320, 4096, "pixels"));
  int height = 0;
  cli.add_option("--height", height, "window height in pixels (a phone's: --size 390 --height 700)")
      ->check(::umax::cli::whole(240, 4096, "pixels"));
  cli.add_option("--source-dir", options.sourceDir, "project directory holding minimal/ and readable/");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return cli.exit(error);
  }
  options.height = height > 0 ? height : options.width * 800 / 1280;
  if (!options.output.empty()) {
    try {
      trace::checkTraceTarget(options.output, options.force);
    } catch (const std::exception& error) {
      std::cerr << "umax-viz: " << error.what() << "\n";
      return 2;
    }
  }
  if (const std::string refusal = screenshotRefusal(options.screenshot, options.force);
      !options.screenshot.empty() && !refusal.empty()) {
    std::cerr << "umax-viz: --screenshot: " << refusal << "\n";
    return 2;
  }
  if (options.nodes <= 0 && (!options.fen.empty() || !options.moves.empty())) {
    std::cerr << "umax-viz: --fen/--moves record a search and need --nodes N\n";
    return 2;
  }
  return std::nullopt;
}

namespace {

/// Records the search --nodes asks for; headless, waits for it (there is no window to show it in).
std::optional<int> recordStartingTrace(App& app, Options& options) {
  const bool temporary = options.output.empty();
  if (temporary)
    options.output =
        (std::filesystem::temp_directory_path() / ("umax-viz-" + std::to_string(getpid()) + ".trc")).string();
  app.startRecording(options.fen, options.moves, options.nodes, options.output, temporary);
  if (!options.headless()) {
    app.recordingEvent = options.event;  // checked when the recording opens
    return std::nullopt;
  }
  while (app.recording() && !app.recording()->done)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  app.update(0);
  if (!app.error().empty()) {
    std::cerr << "umax-viz: " << app.error() << "\n";
    return 1;
  }
  return std::nullopt;
}

std::optional<int> openNamedTrace(App& app, const Options& options) {
  const auto start = std::chrono::steady_clock::now();
  if (!openTraceOrGame(app, options.tracePath, options.ply)) {
    std::cerr << "umax-viz: " << app.error() << "\n";
    return 1;
  }
  if (app.trace()->reader->truncated())
    std::cerr << "umax-viz: " << options.tracePath << " is truncated ("
              << app.trace()->reader->truncationNote() << "): showing the " << app.eventCount()
              << " events before the cut\n";
  if (options.benchFrames > 0)
    std::printf("open: %.3f s wall, %.3f s CPU (map, checks, replay model; %s) for %llu events, %.1f MB\n",
                secondsSince(start), app.trace()->openCpuSeconds,
                app.trace()->reader->allChunksChecked() ? "every chunk's CRC checked"
                                                        : "chunks' CRCs checked as they are read",
                static_cast<unsigned long long>(app.eventCount()), app.trace()->reader->fileSize() / 1e6);
  return std::nullopt;
}

}  // namespace

std::optional<int> openStartingTrace(App& app, Options& options) {
  std::optional<int> exit;
  if (options.nodes > 0)
    exit = recordStartingTrace(app, options);
  else if (!options.tracePath.empty())
    exit = openNamedTrace(app, options);
  else if (options.headless()) {
    std::cerr << "umax-viz: --screenshot and --bench need a trace file or --nodes\n";
    return 2;
  }
  if (exit || !app.hasTrace()) return exit;
  if (!options.comparePath.empty() && !app.openCompared(options.comparePath)) {
    std::cerr << "umax-viz: " << app.error() << "\n";
    return 2;
  }
  if (options.event >= static_cast<long long>(app.eventCount())) {
    std::cerr << "umax-viz: --event " << options.event << " is outside the trace: " << app.trace()->path
              << " has " << app.eventCount() << " events (numbered 0 to " << app.eventCount() - 1 << ")\n";
    return 2;
  }
  if (options.event >= 0) app.seek(trace::cursorAfterEvent(static_cast<uint64_t>(options.event)));
  if (options.headless() && headlessWaitsForIndexes(app, options)) {
    // Headless frames of a short trace show the finished tree and index: wait for them here.
    app.waitForIndexes();
    if (options.benchFrames > 0) printIndexTimes(app);
  } else if (options.benchFrames > 0) {
    std::printf(
        "indexes: building in the background while the frames are drawn (--wait-for-indexes waits)\n");
  }
  return std::nullopt;
}

bool headlessWaitsForIndexes(const App& app, const Options& options) {
  return options.waitForIndexes || app.eventCount() <= kHeadlessWaitEvents;
}

void printIndexTimes(App& app) {
  if (!app.hasTrace()) return;
  app.waitForIndexes();
  const LoadedTrace& loaded = *app.trace();
  std::printf(
      "background, two threads: call tree %.3f s wall (%.3f s CPU), hash history + timeline index "
      "%.3f s wall (%.3f s CPU)\n",
      loaded.treeBuild.seconds, loaded.treeBuild.cpuSeconds, loaded.indexBuild.seconds,
      loaded.indexBuild.cpuSeconds);
}

}  // namespace umax::viz
