// umax-viz's command line, and what it asks for before any window opens:
// opening (or recording) the trace, and checking the requested event.
#pragma once

#include <optional>
#include <string>

#include "app.h"

namespace umax::viz {

/// The largest --nodes budget umax-viz records: the original's own (10,000,000).
inline constexpr long kMaxRecordNodes = 10000000;

/// What the command line asks for.
struct Options {
  std::string tracePath;
  int ply = 0;  ///< --ply: in a game folder, the think of this ply
  std::string fen;
  std::string moves;
  long nodes = 0;  ///< > 0: record a search first (at most kMaxRecordNodes)
  std::string output;
  bool force = false;    ///< --force: -o may overwrite a file that is not a trace
  long long event = -1;  ///< -1: open at the start
  std::string screenshot;
  bool layoutDump = false;
  bool showHelp = false;
  bool showLegend = false;  ///< --legend: open with the legend shown
  bool hideLegend = false;  ///< --no-legend: the default, kept for scripts that pass it
  int benchFrames = 0;
  bool waitForIndexes = false;  ///< headless: wait for the indexes whatever the trace's length
  int width = 1280;
  int height = 800;
  std::string sourceDir = UMAX_SOURCE_DIR;
  std::string comparePath;  ///< --compare: a second trace shown beside the first

  /// No window on screen: render some frames and exit.
  bool headless() const { return !screenshot.empty() || benchFrames > 0; }
};

/// Parses the command line into `options`. Returns an exit code when the program must end now
/// (--help, a bad option), nothing when it goes on.
std::optional<int> parseCommandLine(int argc, char** argv, Options& options);

/// Opens the trace the command line names, or starts (headless: finishes) recording one, and
/// places the cursor at --event. Every problem is printed once on stderr, before any window
/// exists (so a bad file needs no display). Returns the exit code if the program must end.
std::optional<int> openStartingTrace(App& app, Options& options);

/// Headless: true if the frames show the finished indexes (a short trace, or --wait-for-indexes).
bool headlessWaitsForIndexes(const App& app, const Options& options);

/// --bench: waits for the background indexes (if still building) and prints how long each took.
void printIndexTimes(App& app);

}  // namespace umax::viz
