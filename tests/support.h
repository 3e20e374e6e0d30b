// support.h - shared helpers of the test suite: data files, commands, moves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "umax/position.h"

namespace umax::trace {
struct Event;
class TraceReader;
}  // namespace umax::trace

namespace umax::test {

/// Where the sources and the built executables are.
std::string sourcePath(const std::string& relative);
std::string binPath(const std::string& name);

/// A path for a scratch file `name` in this test process's own folder under
/// the system's temp directory; the folder is made on first use and removed,
/// with everything in it, at exit.
std::string scratchFile(const std::string& name);

/// Reads a whole file; fails the test if it cannot.
std::string readFile(const std::string& path);
/// A whole file's bytes; fails the test if it cannot read it.
std::vector<uint8_t> fileBytes(const std::string& path);
/// Writes the first `size` of `bytes` (all of them by default) to `path`, replacing it.
void writeBytes(const std::string& path, const std::vector<uint8_t>& bytes, std::size_t size = SIZE_MAX);

/// One input of a fuzzer's committed corpus: its file name and bytes.
struct CorpusInput {
  std::string name;
  std::string bytes;
};
/// Every input of fuzz/corpus/`fuzzer` (the corpus fuzz/run.sh grows with
/// libFuzzer in clang builds), for the tests that replay it in every build.
std::vector<CorpusInput> corpusInputs(const std::string& fuzzer);

/// The lines of a text, without their line ends.
std::vector<std::string> splitLines(const std::string& text);

/// Line numbers (1-based) of a C source that keep code once /* */ comments
/// are removed: the "code lines" of the original that the line map and the
/// walkthrough must each explain.
std::set<int> codeLinesOf(const std::string& source);

/// The FenError parseFen() throws for `fen`, or nothing if it accepts it.
std::optional<FenError> fenRefusal(const std::string& fen);

/// One row of tests/data/positions.tsv.
struct TestPosition {
  std::string category;
  std::string fen;
};
/// All rows of tests/data/positions.tsv.
const std::vector<TestPosition>& testPositions();

/// The games of tests/data/games.txt, each a list of moves like "e2e4".
std::vector<std::vector<std::string>> testGames();

/// A text in single quotes, for a shell command line (paths without quotes).
std::string quote(const std::string& text);

/// Bytes of one board the classic interface prints: " x" per square, " \n" per row.
constexpr std::size_t kBoardBytes = 8 * (8 * 2 + 2);

/// Every event of a trace, in order (for small traces).
std::vector<trace::Event> allEvents(const trace::TraceReader& reader);

/// Runs a shell command; returns its stdout and sets `status` to its exit status.
std::string runCommand(const std::string& command, int* status = nullptr);

/// Every pseudo-legal move of the side to move, by piece geometry alone
/// (blockers respected, check ignored), castling (king two squares sideways
/// while it keeps the virgin bit) and e.p. included. Independent of both builds.
std::vector<std::pair<int, int>> pseudoLegalMoves(const Position& position);

}  // namespace umax::test
