// protocol_support.h - helpers of the protocol tests: a session driven
// in-process through string streams, and the lines it answered.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "support.h"
#include "umax/play/game.h"
#include "umax/play/protocol.h"

namespace umax::test {

/// One game (one engine, 270 MB) shared by the in-process protocol tests;
/// each session sets it back to main()'s start with an empty table.
inline play::Game& sharedGame() {
  static play::Game game;
  return game;
}

/// Runs a whole session on `input` without threads (each think runs to its
/// budget before the next line is read) and returns everything it wrote.
inline std::string converse(play::Protocol protocol, const std::string& input, long fixedNodes = 0,
                            const std::string& traceDir = "") {
  play::SessionOptions options;
  options.fixedNodes = fixedNodes;
  options.traceDir = traceDir;
  options.threaded = false;
  options.game = &sharedGame();
  sharedGame().setHashMegabytes(play::kDefaultHashMegabytes);  // a test's Hash / memory ends with its session
  std::istringstream in(input);
  std::ostringstream out;
  play::runProtocol(protocol, in, out, options);
  return out.str();
}

/// The lines of `output` that start with `prefix`, the prefix cut off.
inline std::vector<std::string> linesAfter(const std::string& output, const std::string& prefix) {
  std::vector<std::string> found;
  for (const std::string& line : splitLines(output))
    if (line.rfind(prefix, 0) == 0) found.push_back(line.substr(prefix.size()));
  return found;
}

/// True if some line of `output` is exactly `line`.
inline bool hasLine(const std::string& output, const std::string& line) {
  for (const std::string& each : splitLines(output))
    if (each == line) return true;
  return false;
}

}  // namespace umax::test
