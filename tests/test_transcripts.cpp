// Transcripts: the two executables fed the same stdin print the same stdout.
// umax-minimal never ends at end of input (it prints its board for ever), so
// its output is cut after the readable build's length plus two more boards,
// which must be the last board again.
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>

#include "support.h"

using namespace umax::test;

namespace {

std::string writeInput(const std::string& name, const std::string& input) {
  const std::string path = scratchFile("transcript-" + name + ".in");
  std::ofstream(path, std::ios::binary) << input;
  return path;
}

/// Runs both executables on `input`; returns the readable build's stderr
/// (and its stdout in `output`, if given).
std::string compareExecutables(const std::string& name, const std::string& input,
                               std::string* output = nullptr) {
  const std::string path = writeInput(name, input);
  const std::string errors = path + ".err";
  int status = -1;
  const std::string readable =
      runCommand("'" + binPath("umax-readable") + "' < '" + path + "' 2> '" + errors + "'", &status);
  CHECK(status == 0);
  REQUIRE(readable.size() >= kBoardBytes);
  const std::size_t wanted = readable.size() + 2 * kBoardBytes;
  const std::string minimal = runCommand("timeout 600 '" + binPath("umax-minimal") + "' < '" + path +
                                         "' | head -c " + std::to_string(wanted));
  REQUIRE(minimal.size() == wanted);
  CHECK(minimal.substr(0, readable.size()) == readable);
  const std::string lastBoard = readable.substr(readable.size() - kBoardBytes);
  CHECK(minimal.substr(readable.size(), kBoardBytes) == lastBoard);
  CHECK(minimal.substr(readable.size() + kBoardBytes) == lastBoard);
  const std::string messages = readFile(errors);
  if (output) *output = readable;
  std::remove(path.c_str());
  std::remove(errors.c_str());
  return messages;
}

std::string lines(const std::vector<std::string>& moves) {
  std::string input;
  for (const auto& move : moves) input += move + "\n";
  return input;
}

}  // namespace

TEST_CASE("transcripts of whole games are byte-identical", "[transcripts]") {
  const auto games = testGames();
  REQUIRE(games.size() >= 5);
  for (std::size_t game = 0; game < games.size(); ++game) {
    CAPTURE(game);
    const std::string errors = compareExecutables("game" + std::to_string(game), lines(games[game]));
    CHECK(errors.empty());  // every move of the game was legal
  }
}

TEST_CASE("transcripts with illegal and malformed input lines are byte-identical", "[transcripts]") {
  const auto games = testGames();
  REQUIRE(!games.empty());
  // Between the moves of a game: moves of the wrong side or against the
  // rules, a null move, nonsense, short lines that reuse what earlier lines
  // left in the 9-int buffer, a tab, a NUL byte, a carriage return.
  const std::vector<std::string> noise = {"e2e5", "a1a1", "e1g1", "zz99", "h",   "x7",
                                          "b1b3", "e8e6", "e2",   "\t",   "abc", "d7d5\r"};
  std::string input;
  for (std::size_t ply = 0; ply < games[0].size(); ++ply) {
    if (ply % 5 == 2) input += noise[(ply / 5) % noise.size()] + "\n";
    if (ply == 30) input += std::string("e2\0e4", 5) + "\n";
    input += games[0][ply] + "\n";
  }
  const std::string errors = compareExecutables("noise", input);
  CHECK_THAT(errors, Catch::Contains("illegal move 'a1a1'"));
  CHECK_THAT(errors, Catch::Contains("'zz99' is not a move like e2e4"));
}

TEST_CASE("a transcript with a think at the full original budget is byte-identical", "[transcripts][.slow]") {
  // White thinks with 10,000,000 nodes from the start position (31,259,393
  // nodes: the budget stops only new iterations), then the game goes on.
  const std::string errors = compareExecutables("think", "\ne7e5\ng1f3\n");
  CHECK_THAT(errors, Catch::Contains("plays b1c3"));
}

TEST_CASE("after an illegal move the original cannot think until a legal move is entered",
          "[transcripts][quirk]") {
  // The failed legality check leaves the root position in the table with an
  // exact score (its stand-pat eval) and best move a8a8 (every move's score
  // is overwritten by m in check mode, so none becomes best). The next think
  // returns that entry at once, without counting a node; a8a8 is then
  // refused, and the same happens again at the next empty line.
  const std::string errors = compareExecutables("quirk", "e2e4\ne7e5\ng1g5\n\n\ng1f3\n");
  CHECK_THAT(errors, Catch::Contains("illegal move 'g1g5'"));
  CHECK_THAT(errors, Catch::Contains("no move played: the think returned a8a8 (score 0, 0 nodes"));
  CHECK_THAT(errors, !Catch::Contains("illegal move 'g1f3'"));
}

/// The character the original prints for the piece on `square` ("e5") in a
/// board of its output: rank 8 first, " x" per square, " \n" per row.
char printedPiece(const std::string& board, const std::string& square) {
  const std::size_t row = '8' - square[1];
  const std::size_t column = square[0] - 'a';
  return board.at(row * (8 * 2 + 2) + 2 * column + 1);
}

TEST_CASE("an unterminated last line is played as the original plays it", "[transcripts]") {
  // The last line, e7e5 without its newline, must be played, not refused:
  // nothing on stderr, and the last board has the black pawn ('+') on e5.
  std::string output;
  const std::string errors = compareExecutables("noeol", "e2e4\ne7e5", &output);
  CHECK(errors.empty());
  const std::string lastBoard = output.substr(output.size() - kBoardBytes);
  CHECK(printedPiece(lastBoard, "e5") == '+');
  CHECK(printedPiece(lastBoard, "e7") == '.');
  CHECK(printedPiece(lastBoard, "e4") == '*');
}
