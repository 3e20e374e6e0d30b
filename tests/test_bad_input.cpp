// Bad input: the umax-readable executable in its classic mode survives
// over-long lines, binary garbage, NUL bytes and end of input in mid-line
// (exit 0, no hang, a message on stderr for every refused line); bad FENs on
// the command line of umax-readable and umax-probe end with status 2 and a
// clear message; each FEN field wrong in turn is refused at that field.
// Also the regression inputs the fuzzers of fuzz/ found (if any: see below).
#include <catch2/catch.hpp>
#include <climits>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "support.h"
#include "umax/classic.h"
#include "umax/numbers.h"
#include "umax/position.h"
#include "umax/trace/reader.h"

using namespace umax;
using namespace umax::test;

namespace {

/// What one run of an executable gave.
struct Result {
  std::string out;
  std::string err;
  int status = -1;
};

/// Runs `bin/<command>` with `input` on stdin (under `timeout`, so a hang
/// fails the test with status 124 instead of stopping the suite).
Result runExecutable(const std::string& name, const std::string& command, const std::string& input) {
  const std::string base = scratchFile("bad-input-" + name);
  const std::string inPath = base + ".in";
  const std::string errPath = base + ".err";
  std::ofstream(inPath, std::ios::binary) << input;
  Result result;
  result.out =
      runCommand("timeout 300 " + command + " < '" + inPath + "' 2> '" + errPath + "'", &result.status);
  result.err = readFile(errPath);
  std::remove(inPath.c_str());
  std::remove(errPath.c_str());
  return result;
}

Result runClassic(const std::string& name, const std::string& input, long nodes = 2000) {
  return runExecutable(name, "'" + binPath("umax-readable") + "' --nodes " + std::to_string(nodes), input);
}

/// One input line as the original reads it: the bytes before the first byte
/// <= 10, and that terminator (-1 for a last line ended by the end of input).
struct InputLine {
  std::string text;
  int terminator;
};

std::vector<InputLine> inputLines(const std::string& input) {
  std::vector<InputLine> lines;
  std::string text;
  for (char c : input) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 10) {
      lines.push_back({text, byte});
      text.clear();
    } else {
      text += c;
    }
  }
  if (!text.empty()) lines.push_back({text, -1});
  return lines;
}

/// Checks a classic-mode run line by line: one board per line plus the
/// first; for every line either a changed board (a move was played, no
/// message) or the message that belongs to that kind of line, in order.
/// \returns how many lines were refused.
int checkClassicRun(const std::string& input, const Result& run) {
  const auto lines = inputLines(input);
  CHECK(run.status == 0);
  REQUIRE(run.out.size() == kBoardBytes * (lines.size() + 1));
  const auto messages = splitLines(run.err);
  std::size_t next = 0;
  int refused = 0;
  auto expectMessage = [&](const std::string& wanted, const std::string& alternative) {
    REQUIRE(next < messages.size());
    const std::string& message = messages[next++];
    CAPTURE(message);
    CHECK(message.rfind("umax-readable: ", 0) == 0);
    const bool found =
        message.find(wanted) != std::string::npos || message.find(alternative) != std::string::npos;
    CHECK(found);
  };
  for (std::size_t index = 0; index < lines.size(); ++index) {
    const InputLine& line = lines[index];
    CAPTURE(index, line.text.size(), line.terminator);
    const bool changed = run.out.compare(index * kBoardBytes, kBoardBytes, run.out, (index + 1) * kBoardBytes,
                                         kBoardBytes) != 0;
    if (line.text.size() > static_cast<std::size_t>(kMaxLineLength)) {
      CHECK_FALSE(changed);
      ++refused;
      const std::string wanted = "input line of " + std::to_string(line.text.size()) + " characters ignored";
      expectMessage(wanted, wanted);
    } else if (line.text.empty() && line.terminator == '\n') {
      // An empty line thinks; the message says what it played, if anything.
      expectMessage("umax-readable: plays ", "no move played");
    } else if (!changed) {
      // Any other line is a move (an empty one ended by NUL, tab, ... is made
      // of the terminator and old buffer bytes, as in the original).
      ++refused;
      expectMessage("illegal move '", "is not a move like e2e4");
    }
  }
  CHECK(next == messages.size());  // no message without a reason
  return refused;
}

std::string randomBytes(std::mt19937& random, std::size_t count) {
  std::string bytes;
  for (std::size_t index = 0; index < count; ++index) bytes += static_cast<char>(random() & 0xff);
  return bytes;
}

}  // namespace

TEST_CASE("umax-readable survives over-long lines, with or without a last newline", "[bad-input]") {
  const std::string input = "e2e4\n" + std::string(1 << 20, 'x') + "\n" + std::string(9, 'e') + "\ne7e5\n" +
                            std::string(100000, '7') + "\n" + std::string(70000, 'z');
  const Result run = runClassic("long", input);
  CHECK(checkClassicRun(input, run) == 4);
  CHECK_THAT(run.err, Catch::Contains("input line of 1048576 characters ignored"));
  CHECK_THAT(run.err, Catch::Contains("input line of 70000 characters ignored"));
}

TEST_CASE("umax-readable survives binary garbage and reports every refused line", "[bad-input]") {
  std::mt19937 random(20261122);
  for (int trial = 0; trial < 4; ++trial) {
    CAPTURE(trial);
    // Random bytes between moves of a game; runs of bytes <= 10 make empty
    // lines (thinks, with a small budget) and lines of old buffer bytes.
    const std::string input = "e2e4\n" + randomBytes(random, 1500) + "\ne7e5\n" + randomBytes(random, 1500);
    const Result run = runClassic("garbage" + std::to_string(trial), input);
    CHECK(checkClassicRun(input, run) > 10);
  }
}

TEST_CASE("umax-readable survives NUL bytes inside, between and instead of lines", "[bad-input]") {
  const std::string input = std::string("e2\0e4\n", 6) + std::string(20, '\0') + std::string("e2e4\0", 5) +
                            std::string("\0\0\0g8f6\n", 8) + std::string("x\0", 2);
  const Result run = runClassic("nul", input);
  // Refused: "e2", "e4", 20 + 3 empty lines ended by NUL, and "x".
  CHECK(checkClassicRun(input, run) == 26);
  // e2e4 (ended by a NUL) and g8f6 were played.
  const Position expected = parseFen("rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
  CHECK(run.out.substr(run.out.size() - kBoardBytes) == boardText(expected.board));
}

TEST_CASE("umax-readable handles end of input in mid-line", "[bad-input]") {
  SECTION("an unterminated legal move is played") {
    const std::string input = "e2e4\ne7e5";
    const Result run = runClassic("eof-move", input);
    CHECK(checkClassicRun(input, run) == 0);
  }
  SECTION("an unterminated illegal move is refused") {
    const std::string input = "e2e4\ne7e3";
    const Result run = runClassic("eof-illegal", input);
    CHECK(checkClassicRun(input, run) == 1);
    CHECK_THAT(run.err, Catch::Contains("illegal move 'e7e3'"));
  }
  SECTION("an unterminated short line and an unterminated binary line") {
    for (const std::string& input : {std::string("e2e4\ne"), std::string("e2e4\n\xff\xfe\x80", 8)}) {
      const Result run = runClassic("eof-short", input);
      CHECK(checkClassicRun(input, run) == 1);
    }
  }
  SECTION("no input at all") {
    const Result run = runClassic("eof-empty", "");
    CHECK(run.status == 0);
    CHECK(run.out == boardText(startBoard()));
    CHECK(run.err.empty());
  }
}

TEST_CASE("a bad --fen or --moves ends umax-readable and umax-probe with status 2 and a message",
          "[bad-input]") {
  struct Case {
    std::string arguments;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"--fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR'", "bad FEN at column 1: a FEN has 4 to 6"},
      {"--fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5'",
       "bad FEN at column 52: e.p. square e5"},
      {"--fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBZR w KQkq -'", "unexpected character 'Z'"},
      {"--fen \"$(printf '8/8/8/8/8/8/8/k6K w - -\\001')\"", "is not printable ASCII"},
      {"--fen '8/8/8/8/8/8/8/8 w - -'", "exactly one white king, found 0"},
      {"--moves 'e2e4 e7e5 e1e3'", "move 3 'e1e3' is illegal here"},
      {"--moves 'e2e4 xyzzy'", "move 2 'xyzzy' is not a move like e2e4"},
  };
  const std::vector<std::pair<std::string, std::string>> programs = {
      {"umax-readable", "--think --nodes 1000"},
      {"umax-probe", "--engine readable --nodes 1000"},
      {"umax-probe", "--engine minimal --nodes 1000"},
  };
  for (const auto& [program, options] : programs) {
    for (const auto& test : cases) {
      const Result run =
          runExecutable("args", "'" + binPath(program) + "' " + options + " " + test.arguments, "");
      CAPTURE(program, options, test.arguments, run.err);
      CHECK(run.status == 2);
      CHECK(run.out.empty());
      CHECK(splitLines(run.err).size() == 1);
      CHECK_THAT(run.err, Catch::StartsWith(program + ": "));
      CHECK_THAT(run.err, Catch::Contains(test.message));
    }
  }
}

TEST_CASE("a FEN with each field wrong in turn is refused at that field", "[bad-input][fen-errors]") {
  // Fields: placement, side, castling, e.p., half-move clock, move number.
  const std::vector<std::string> good = {
      "r3k2r/pppppppp/8/8/4P3/8/PPPP1PPP/R3K2R", "b", "KQkq", "e3", "0", "1"};
  struct Wrong {
    std::size_t field;
    std::string text;
    std::string message;
  };
  const std::vector<Wrong> wrongs = {
      {0, "r3k2r/pppppppp/8/8/4P3/8/PPPP1PPP/R3K2R/", "more than 8 ranks"},
      {0, "r3k2r/pppppppp//8/4P3/8/PPPP1PPP/R3K2R", "rank 6 has 0 squares, not 8"},
      {0, "r3k2r/pppppppp/0/8/4P3/8/PPPP1PPP/R3K2R", "unexpected character '0'"},
      {0, "r3k2r/pppppppp/8/8/4P3/8/PPPP1PPP/R3K2K", "exactly one white king, found 2"},
      {0, "r3k2r/ppppppp/8/8/4P3/8/PPPP1PPP/R3K2R", "rank 7 has 7 squares"},
      {1, "W", "side to move must be 'w' or 'b', found 'W'"},
      {1, "white", "found 'white'"},
      {2, "KQkq-", "letters from KQkq, found '-'"},
      {2, "KQkqK", "castling right 'K' is given twice"},
      {3, "e", "e.p. square must be '-' or a square like e3, found 'e'"},
      {3, "e3e3", "found 'e3e3'"},
      {3, "d3", "e.p. square d3 does not lie behind a pawn"},
      {3, "e6", "e.p. square e6 is not on rank 3"},
      {4, "x", "half-move clock must be a non-negative number, found 'x'"},
      {4, "1234567890", "half-move clock must be a non-negative number, found '1234567890'"},
      {5, "1.5", "move number must be a positive number, found '1.5'"},
      {5, "-", "move number must be a positive number, found '-'"},
  };
  for (const auto& wrong : wrongs) {
    std::vector<std::string> fields = good;
    fields[wrong.field] = wrong.text;
    std::string fen;
    std::size_t column = 0;
    for (std::size_t index = 0; index < fields.size(); ++index) {
      if (index) fen += ' ';
      if (index == wrong.field) column = fen.size();
      fen += fields[index];
    }
    CAPTURE(fen);
    const std::optional<FenError> error = fenRefusal(fen);
    REQUIRE(error.has_value());  // refused, not accepted
    CAPTURE(error->what());
    CHECK_THAT(error->what(), Catch::Contains(wrong.message));
    // Errors about the whole placement (its king count) point at its start.
    CHECK(error->column() >= column);
    CHECK(error->column() <= column + wrong.text.size());
  }
  // The base FEN itself is fine: every refusal above is due to its one wrong field.
  std::string base;
  for (const auto& field : good) base += (base.empty() ? "" : " ") + field;
  CHECK_NOTHROW(parseFen(base));
}

TEST_CASE("castling rights need their own rook and king", "[bad-input][fen-errors]") {
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"r3k2r/8/8/8/8/8/8/1R2K2R w Q - 0 1", "castling right 'Q' needs a white rook on a1"},
      {"1r2k2r/8/8/8/8/8/8/R3K2R w q - 0 1", "castling right 'q' needs a black rook on a8"},
      {"r3k2r/8/8/8/8/8/8/R2K3R w K - 0 1", "castling right 'K' needs the white king on e1"},
      {"r3k2r/8/8/8/8/8/8/R3K2R w kk - 0 1", "castling right 'k' is given twice"},
  };
  for (const auto& [fen, message] : rows) {
    CAPTURE(fen);
    CHECK_THROWS_WITH(parseFen(fen), Catch::Contains(message));
  }
}

TEST_CASE("with black to move, a white king in check is refused", "[bad-input][fen-errors]") {
  CHECK_THROWS_WITH(parseFen("4k3/8/8/8/8/8/8/r3K3 b - - 0 1"),
                    Catch::Contains("the side not to move (white) is in check"));
  CHECK_NOTHROW(parseFen("4k3/8/8/8/8/8/8/r3K3 w - - 0 1"));
}

TEST_CASE("every input of the committed fuzz_fen corpus is parsed or refused with a FenError",
          "[bad-input][fuzz-corpus]") {
  // Any other exception or a crash fails.
  int inputs = 0;
  int accepted = 0;
  for (const auto& [name, fen] : corpusInputs("fuzz_fen")) {
    CAPTURE(name);
    ++inputs;
    try {
      const Position position = parseFen(fen);
      ++accepted;
      CHECK((position.side == kWhite || position.side == kBlack));
    } catch (const FenError& error) {
      CHECK(error.column() <= fen.size());
    }
  }
  CHECK(inputs >= 50);
  CHECK(accepted >= 10);  // the corpus reaches past the parser's refusals
}

// ---- numbers ---------------------------------------------------------------

TEST_CASE("parseWhole and parseDecimal take decimal digits only, in range, and echo refusals as typed",
          "[reliability][bad-input][numbers]") {
  CHECK(parseWhole("0", 0, 10) == 0);
  CHECK(parseWhole("-7", -10, 10) == -7);
  CHECK(parseWhole("9223372036854775807", 0, LLONG_MAX) == LLONG_MAX);
  CHECK(parseWhole("-9223372036854775808", LLONG_MIN, 0) == LLONG_MIN);
  for (const char* text : {"", "-", " 5", "5 ", "+5", "0x10", "010", "-0", "5e2", "1.0", "12x", "--1",
                           "99999999999999999999", "9223372036854775808", "-1", "11"}) {
    CAPTURE(text);
    std::string why;
    CHECK_FALSE(parseWhole(text, 0, 10, &why));
    CHECK(why == "must be a whole number from 0 to 10, not '" + std::string(text) + "'" +
                     (std::string(text) == "010" ? " (leading zeros are not accepted)" : ""));
  }
  std::string why;
  CHECK_FALSE(parseWhole("-1", 0, LLONG_MAX, &why, "nodes"));
  CHECK(why == "must be a whole number of nodes, 0 or more, not '-1'");

  CHECK(parseDecimal("2", 0, 10) == 2.0);
  CHECK(parseDecimal("0.5", 0, 10) == 0.5);
  CHECK(parseDecimal(".5", 0, 10) == 0.5);
  CHECK(parseDecimal("1e-3", 0, 10) == 0.001);
  CHECK(parseDecimal("-2.5E+0", -10, 10) == -2.5);
  for (const char* text : {"", ".", "nan", "NaN", "inf", "-inf", "infinity", "0x1p3", " 1", "1 ", "+1", "1e",
                           "1e+", "e5", "1e999", "-1", "11", "1,5"}) {
    CAPTURE(text);
    CHECK_FALSE(parseDecimal(text, 0, 10, &why));
    CHECK(why == "must be a number from 0 to 10, not '" + std::string(text) + "'");
  }
}

TEST_CASE("every tool refuses a bad number with the text as typed, never wraps or clamps it",
          "[reliability][bad-input][numbers]") {
  const std::string trace = scratchFile("numbers.trc");
  int status = -1;
  runCommand("'" + binPath("umax-trace") + "' record --nodes 300 -q -o '" + trace + "' 2>&1", &status);
  REQUIRE(status == 0);
  struct Case {
    std::string command;
    std::string shown;  ///< what the refusal must echo
  };
  const std::string tool = "'" + binPath("umax-trace") + "' ";
  const std::string readable = "'" + binPath("umax-readable") + "' ";
  const std::string viz = "'" + binPath("umax-viz") + "' ";
  const std::vector<Case> cases = {
      {tool + "state '" + trace + "' --event -1", "not '-1'"},
      {tool + "state '" + trace + "' --event ''", "not ''"},
      {tool + "state '" + trace + "' --event 99999999999999999999999", "not '99999999999999999999999'"},
      {tool + "state '" + trace + "' --event 0x10", "not '0x10'"},
      {tool + "state '" + trace + "' --event 010", "not '010'"},
      {tool + "dot '" + trace + "' --max-ply ' 3'", "not ' 3'"},
      {tool + "dot '" + trace + "' --children 1e3", "not '1e3'"},
      {tool + "record -q -o '" + trace + "' --hash-bits 0x10", "not '0x10'"},
      {tool + "record -q -o '" + trace + "' --nodes 99999999999", "not '99999999999'"},
      {readable + "--xboard --trace-limit nan", "not 'nan'"},
      {readable + "--xboard --trace-limit inf", "not 'inf'"},
      {readable + "--xboard --trace-limit 1e-9", "not '1e-9'"},
      {readable + "--xboard --trace-limit -1", "not '-1'"},
      {readable + "--perft 0", "not '0'"},
      {readable + "--perft +3", "not '+3'"},
      {readable + "--think --nodes -5", "not '-5'"},
      {viz + "--ply 0", "not '0'"},
      {viz + "--ply -1", "not '-1'"},
      {viz + "--bench -5", "not '-5'"},
      {viz + "--event -1", "not '-1'"},
      {viz + "--size 1e3", "not '1e3'"},
      {"'" + binPath("umax-probe") + "' --nodes 010", "not '010'"},
      {"'" + binPath("umax-replay") + "' --moves e2e4 --nodes -5", "not '-5'"},
      {"'" + binPath("umax-bench") + "' --rounds 0", "not '0'"},
  };
  for (const Case& test : cases) {
    CAPTURE(test.command);
    const std::string output = runCommand("timeout 60 " + test.command + " </dev/null 2>&1", &status);
    CAPTURE(output);
    CHECK(status != 0);
    CHECK(status != 124);
    CHECK(output.find(test.shown) != std::string::npos);
    CHECK(output.find("must be") != std::string::npos);
    CHECK(output.find("18446744073709551615") == std::string::npos);
  }
  // The trace is untouched by the refused record commands.
  CHECK(trace::TraceReader(trace).eventCount() > 0);
}
