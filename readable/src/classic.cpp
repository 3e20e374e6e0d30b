// classic.cpp - main()'s play loop from the original, with the same output.
#include "umax/classic.h"

#include <array>

namespace umax {
namespace {

/// Printed symbol for each piece code & 15. // micro-Max: n[]
constexpr char kPieceSymbols[] = ".?+nkbrq?*?NKBRQ";

// [parse-square]
/// The offset main() adds to `file letter - 16 * rank digit` to land on the
/// 0x88 square: 'a' - 16 * '1' + 799 is a1 (0x70). The original reuses its
/// promotion bonus C = 799 for it; here it has its own name.
/// // micro-Max: C in K=c[0]-16*c[1]+C
constexpr int kTypedSquareOffset = 799;
static_assert('a' - 16 * '1' + kTypedSquareOffset == makeSquare(0, 1));
static_assert('h' - 16 * '8' + kTypedSquareOffset == makeSquare(7, 8));

/// main()'s way of turning two typed characters into a square, kept in a
/// char like K and L (so other characters give other, wrapped values).
/// // micro-Max: K=c[0]-16*c[1]+C
int squareFromCharacters(int file, int rank) {
  return static_cast<int8_t>(file - 16 * rank + kTypedSquareOffset);
}
// [parse-square]

std::string printable(const std::array<int, kMaxLineLength + 1>& line, int length) {
  std::string text;
  for (int index = 0; index < length; ++index) {
    const int c = line[index];
    if (c >= 32 && c < 127) {
      text += static_cast<char>(c);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c & 0xff);
      text += escaped;
    }
  }
  return text;
}

}  // namespace

// [print-board]
std::string boardText(const Board& board) {
  // main(): F(i,0,121)printf(" %c",i&8&&(i+=7)?10:n[b[i]&15]);
  std::string text;
  for (int row = 0; row < 8; ++row) {
    for (int file = 0; file < 8; ++file) {
      text += ' ';
      text += kPieceSymbols[board[16 * row + file] & 15];
    }
    text += " \n";
  }
  return text;
}
// [print-board]

int runClassicInterface(Engine& engine, std::FILE* in, std::FILE* out, std::FILE* err, long budget) {
  // [input-buffer]
  // The original's input buffer, int c[9]. It keeps what earlier lines left
  // in it: a short line reads its move squares partly from them.
  std::array<int, kMaxLineLength + 1> line{};
  // [input-buffer]
  for (;;) {
    std::fputs(boardText(engine.position().board).c_str(), out);
    std::fflush(out);

    // [read-line]
    // Read a line: every byte up to the first one <= 10 (newline, NUL, tab, ...).
    int length = 0;  // bytes read, terminator included
    int c;
    bool tooLong = false;
    do {
      c = std::getc(in);
      if (length <= kMaxLineLength) {
        line[length] = c;
      } else {
        tooLong = true;
      }
      ++length;
    } while (c > 10);
    // [read-line]

    // [refuse-line]
    if (c == EOF && length == 1) return 0;  // end of input: the original would loop for ever
    if (tooLong) {
      std::fprintf(err, "umax-readable: input line of %d characters ignored: the original reads at most %d\n",
                   length - 1, kMaxLineLength);
      continue;
    }
    // [refuse-line]

    // [enter-move]
    if (line[0] != '\n') {
      // An entered move: its squares, computed exactly as main() does.
      const int from = squareFromCharacters(line[0], line[1]);
      const int to = squareFromCharacters(line[2], line[3]);
      if (!engine.playMove(from, to)) {
        // [enter-move]
        int parsedFrom;
        int parsedTo;
        const std::string text = printable(line, length - 1);
        const bool wellFormed = length - 1 >= 4 && parseMove(std::string(text, 0, 4), parsedFrom, parsedTo);
        if (wellFormed)
          std::fprintf(err, "umax-readable: illegal move '%s'\n", text.c_str());
        else
          std::fprintf(err, "umax-readable: '%s' is not a move like e2e4\n", text.c_str());
      }
    } else {
      // [think-and-play]
      // An empty line: think (the original's budget is 10,000,000), then play through
      // the same legality check as an entered move.
      const ThinkResult result = engine.think(budget);
      const bool played = engine.playMove(result.from, result.to);
      // [think-and-play]
      if (played) {
        std::fprintf(err, "umax-readable: plays %s%s (score %d, %ld nodes)\n",
                     squareName(result.from).c_str(), squareName(result.to).c_str(), result.score,
                     result.nodes);
      } else {
        std::fprintf(err, "umax-readable: no move played: the think returned %s%s (score %d, %ld nodes%s)\n",
                     squareName(result.from).c_str(), squareName(result.to).c_str(), result.score,
                     result.nodes,
                     result.nodes == 0 ? "; answered from the hash table, as after an illegal move"
                                       : "; mate or stalemate?");
      }
    }
  }
}

}  // namespace umax
