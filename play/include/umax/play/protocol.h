/// \file protocol.h
/// \brief The chess-GUI protocols of umax-readable: xboard (CECP v2) and UCI.
///
/// A session reads command lines from a stream and writes answers to
/// another, so the suite and the fuzzer drive it in-process as a GUI would
/// through pipes. A think is the original's search with a node budget; time
/// controls choose the budget from the measured speed (see budget.h).
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>

#include "umax/variant.h"

namespace umax::play {

class Game;

/// The default of --trace-limit: each think's trace trimmed to about 2 MB,
/// so that a traced game of 40 moves stays under 100 MB.
inline constexpr double kDefaultTraceLimitMegabytes = 2;

/// Which protocol a session speaks.
enum class Protocol { kXboard, kUci };

/// What the command line sets for every game of a session.
struct SessionOptions {
  long fixedNodes = 0;   ///< --nodes N: every think gets N nodes, whatever the clock says (0: use the clock)
  std::string traceDir;  ///< --trace-dir DIR: record every think (see /work/notes/trace-dir.md layout)
  /// --trace-limit: each think's trace trimmed to about this many bytes (0: whole thinks).
  uint64_t traceLimitBytes = static_cast<uint64_t>(kDefaultTraceLimitMegabytes * 1048576);
  /// Think on a worker thread so stop/?/isready are answered, and read the
  /// input on a thread of its own (false: inline, each line handled before the next is read).
  bool threaded = true;
  double initialNps = 1.0e6;  ///< speed assumed until the first think has been measured
  Game* game = nullptr;       ///< play in this game (set to main()'s start first) instead of a new one
  /// --without / --depth: the Lab's variant every think runs (variant.h); the
  /// default is micro-Max's own search.
  SearchVariant variant;
};

/// Runs a session until quit or end of input; `firstLine` (if not empty) is
/// handled as if read first. Returns the process's exit status (0). A
/// threaded session reads `in` on a thread of its own, which stamps each line
/// when it arrives, answers `.` and UCI `isready` at once where they may
/// overtake the lines before them, and sees `quit` (or the end of input)
/// while earlier lines are handled (Game::endSoon); it reads nothing after `quit`.
int runProtocol(Protocol protocol, std::istream& in, std::ostream& out, const SessionOptions& options,
                std::string_view firstLine = {});

}  // namespace umax::play
