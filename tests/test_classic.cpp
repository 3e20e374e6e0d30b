// The readable build's classic interface: the original main() run in-process
// on many inputs gives the same output; bad input gets messages, no crash.
#include <catch2/catch.hpp>
#include <cstdio>
#include <random>

#include "minimal_api.h"
#include "support.h"
#include "umax/classic.h"

using namespace umax;
using namespace umax::test;

namespace {

struct Run {
  std::string out;
  std::string err;
  int status = -1;
};

/// The readable classic interface on an in-memory input.
Run runReadable(const std::string& input, long budget = kNodeLimit) {
  Engine engine;
  // fmemopen() refuses an empty buffer; an empty input is /dev/null.
  std::FILE* in = input.empty() ? std::fopen("/dev/null", "rb")
                                : fmemopen(const_cast<char*>(input.data()), input.size(), "rb");
  char* outBuffer = nullptr;
  char* errBuffer = nullptr;
  std::size_t outSize = 0;
  std::size_t errSize = 0;
  std::FILE* out = open_memstream(&outBuffer, &outSize);
  std::FILE* err = open_memstream(&errBuffer, &errSize);
  REQUIRE(in);
  Run run;
  run.status = runClassicInterface(engine, in, out, err, budget);
  std::fclose(in);
  std::fclose(out);
  std::fclose(err);
  run.out.assign(outBuffer, outSize);
  run.err.assign(errBuffer, errSize);
  std::free(outBuffer);
  std::free(errBuffer);
  return run;
}

/// The original main(), run in-process by the adapter on the same input.
std::string runOriginal(const std::string& input) {
  unsigned long length = 0;
  const char* output = umaxm_run_main(input.data(), input.size(), &length);
  return std::string(output, length);
}

}  // namespace

namespace {

/// Runs `trials` random move-line sessions (from `seed`) through both builds
/// and returns how many lines played a legal move.
/// Lines of up to 8 characters made mostly of plausible move text, so that
/// some are legal moves, many are not, and short ones reuse old buffer bytes.
int compareRandomMoveLines(unsigned seed, int trials) {
  std::mt19937 random(seed);
  const std::string alphabet = "abcdefgh12345678abcdefgh12345678xz09 \t\r";
  int legalMoves = 0;
  for (int trial = 0; trial < trials; ++trial) {
    std::string input = "e2e4\n";
    for (int line = 0; line < 40; ++line) {
      const int length = std::uniform_int_distribution<int>(0, 8)(random);
      std::string text;
      if (length == 4 && random() % 2) {
        // A likely-legal pawn or knight move text.
        const char* candidates[] = {"e7e5", "d7d5", "g8f6", "b8c6", "d2d4",
                                    "g1f3", "b1c3", "c7c5", "f1c4", "f8c5"};
        text = candidates[random() % 10];
      } else {
        for (int index = 0; index < length; ++index)
          text += alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(random)];
      }
      if (text.empty()) text = "a1a1";  // an empty line would think with the full budget
      input += text + "\n";
    }
    CAPTURE(trial, input);
    const Run readable = runReadable(input);
    CHECK(readable.status == 0);
    REQUIRE(readable.out == runOriginal(input));
    for (std::size_t board = 144; board + 144 <= readable.out.size(); board += 144)
      legalMoves += readable.out.compare(board, 144, readable.out, board - 144, 144) != 0;
  }
  return legalMoves;
}

}  // namespace

TEST_CASE("the original main() and the readable loop print the same for random move lines", "[classic]") {
  // Twelve sessions of 40 lines here; the [.slow] case below runs 48 more.
  CHECK(compareRandomMoveLines(20261122, 12) >= 20);  // the lines did play moves, not only refusals
}

TEST_CASE("the original main() and the readable loop print the same for 48 more random move-line sessions",
          "[classic][.slow]") {
  CHECK(compareRandomMoveLines(20261123, 48) >= 80);
}

TEST_CASE("binary input, NUL bytes and a missing last newline match the original", "[classic]") {
  std::mt19937 random(7);
  for (int trial = 0; trial < 40; ++trial) {
    std::string input = "e2e4\n";
    const int bytes = std::uniform_int_distribution<int>(1, 200)(random);
    int sinceBreak = 0;
    for (int index = 0; index < bytes; ++index) {
      char c = static_cast<char>(random() & 0xff);
      // Keep every line within the original's 8 characters, and no empty line.
      if (static_cast<unsigned char>(c) <= 10) {
        if (sinceBreak == 0)
          c = 'x';
        else
          sinceBreak = -1;
      }
      if (sinceBreak == 8) {
        c = '\n';
        sinceBreak = -1;
      }
      input += c;
      ++sinceBreak;
    }
    CAPTURE(trial);
    const Run readable = runReadable(input);
    CHECK(readable.status == 0);
    REQUIRE(readable.out == runOriginal(input));
  }
}

TEST_CASE("an over-long line is refused with a message and changes nothing", "[classic][bad-input]") {
  const Run run = runReadable(std::string("e2e4\n") + std::string(5000, 'x') + "\ne7e5\n");
  CHECK(run.status == 0);
  CHECK_THAT(run.err, Catch::Contains("input line of 5000 characters ignored"));
  // Same output as the original gives without the long line, plus the board
  // printed again after the refused line.
  const std::string original = runOriginal("e2e4\ne7e5\n");
  const std::size_t board = 144;
  CHECK(run.out == original.substr(0, 2 * board) + original.substr(board));
}

TEST_CASE("illegal moves get a message on stderr while stdout stays the original's", "[classic][bad-input]") {
  const std::string input = "e2e4\ne2e4\nq9q9\ne7e5\n";
  const Run run = runReadable(input);
  CHECK(run.out == runOriginal(input));
  CHECK_THAT(run.err, Catch::Contains("illegal move 'e2e4'"));
  CHECK_THAT(run.err, Catch::Contains("'q9q9' is not a move like e2e4"));
}

TEST_CASE("end of input ends the readable loop with status 0", "[classic][bad-input]") {
  const Run empty = runReadable("");
  CHECK(empty.status == 0);
  CHECK(empty.out == boardText(startBoard()));
  CHECK(empty.out == runOriginal(""));
  const Run midLine = runReadable("e2e4\ne7");
  CHECK(midLine.status == 0);
  CHECK(midLine.out == runOriginal("e2e4\ne7"));
}

TEST_CASE("a think with a small budget in the classic loop matches the probe path", "[classic]") {
  // The classic loop thinks, then plays the move through the legality check.
  const Run run = runReadable("e2e4\n\n", 20000);
  CHECK_THAT(run.err, Catch::Contains("umax-readable: plays "));
  CHECK(run.out.size() == 3 * 144);
}
