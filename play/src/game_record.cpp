// game_record.cpp - a game's game.txt read back and its moves played by FIDE's rules (game_record.h).
#include "umax/play/game_record.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>

#include "umax/notation.h"
#include "umax/play/fide.h"
#include "umax/position.h"
#include "umax/session.h"

namespace umax::play {

namespace {

namespace fs = std::filesystem;

constexpr std::uintmax_t kMaxGameRecordBytes = 1 << 20;  // a game.txt umax-readable writes is a few KB
/// The longest line of a game record umax-readable writes is a few hundred characters (a FEN, a
/// move's details); a longer one is not a line it wrote.
constexpr std::size_t kMaxGameRecordLine = 4096;

}  // namespace

std::pair<int, bool> numberPly(const std::string& fen, int ply) {
  std::istringstream stream(fen);
  const std::vector<std::string> fields{std::istream_iterator<std::string>(stream),
                                        std::istream_iterator<std::string>()};
  int firstMoveNumber = 1;
  if (fields.size() >= 6) {
    try {
      firstMoveNumber = std::max(1, std::stoi(fields[5]));
    } catch (const std::exception&) {  // not a number: the start position's
    }
  }
  const int halfMoves = ply - 1 + (fields.size() < 2 || fields[1] != "b" ? 0 : 1);  // from white's first
  return {firstMoveNumber + halfMoves / 2, halfMoves % 2 == 0};
}

RecordedGame readGameRecord(const fs::path& file, const std::string& fen, const EngineMoveCheck& check) {
  std::error_code error;
  const std::uintmax_t size = fs::file_size(file, error);
  if (error) throw RecordRefusal(": " + error.message());
  if (size > kMaxGameRecordBytes)
    throw RecordRefusal(" is " + std::to_string(size) +
                        " bytes: larger than any record umax-readable writes (" +
                        std::to_string(kMaxGameRecordBytes) + " at most)");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw RecordRefusal(": cannot be opened");
  const std::string startText = fen.empty() || fen == kStartFen ? "the start position" : fen;
  RecordedGame lines;
  std::vector<std::string>& moves = lines.moves;
  std::map<std::string, std::string>& unplayed = lines.unplayed;
  std::string& result = lines.result;
  std::optional<Position> position;  // after the moves so far, once `start` is read
  bool protocolSeen = false;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string at = " line " + std::to_string(number) + ": ";
    if (line.size() > kMaxGameRecordLine)
      throw RecordRefusal(at + "the line is " + std::to_string(line.size()) +
                          " characters long, longer than any umax-readable writes (" +
                          std::to_string(kMaxGameRecordLine) + ")");
    const auto refuse = [&](const std::string& why) {
      return RecordRefusal(at + why + " (the line: '" + shownText(line, 80) + "')");
    };
    // umax-readable writes text: no control byte (a NUL, a carriage return, an escape sequence).
    if (std::any_of(line.begin(), line.end(),
                    [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
      throw refuse("a control byte: not a line of text umax-readable writes");
    std::istringstream record(line);
    std::string keyword;
    record >> keyword;
    if (keyword.empty() || keyword.front() == '#') continue;
    // The game's numbering at the next ply: move number and side.
    // (Not a structured binding: clang lets no lambda capture one.)
    const std::pair<int, bool> numbering = numberPly(fen, static_cast<int>(moves.size()) + 1);
    const int moveNumber = numbering.first;
    const bool white = numbering.second;
    const auto checkNumber = [&](const std::string& numberText, const std::string& side) {
      if (numberText != std::to_string(moveNumber) || side != (white ? "white" : "black"))
        throw refuse("'" + shownText(numberText) + " " + shownText(side) + "' where the game is at move " +
                     std::to_string(moveNumber) + ", " + (white ? "white" : "black") + " to move");
    };
    if (keyword == "protocol") {
      std::string name;
      if (protocolSeen || !(record >> name)) throw refuse("a second or empty protocol line");
      protocolSeen = true;
    } else if (keyword == "start") {
      std::string kind;
      record >> kind;
      std::string text;
      std::getline(record >> std::ws, text);
      if (position) throw refuse("a second start line");
      if (kind == "startpos" && text.empty()) {
        text = std::string(kStartFen);
      } else if (kind != "fen") {
        throw refuse("a start line is 'start startpos' or 'start fen FEN'");
      }
      try {
        position = parseFen(text);
      } catch (const std::exception& bad) {
        throw refuse(std::string("the start FEN is refused: ") + bad.what());
      }
      if (text != (fen.empty() ? std::string(kStartFen) : fen))
        throw refuse("the traces start from " + startText + ", not from this position");
    } else if (keyword == "move" || keyword == "unplayed") {
      std::string numberText, side, move;
      if (!(record >> numberText >> side >> move))
        throw refuse("a " + keyword + " line lacks its number, side or move");
      if (!position) throw refuse("a " + keyword + " before the start line");
      checkNumber(numberText, side);
      if (keyword == "unplayed") {  // "unplayed 1 white c2c4 001-white.trc quit"
        std::string traceFile, why;
        if (!(record >> traceFile) || !std::getline(record >> std::ws, why) || why.empty())
          throw refuse("an unplayed line names its think's trace and why it was not played");
        int from = 0;
        int to = 0;
        if (move != "-" && move != "none" && (move.size() < 4 || !parseMove(move.substr(0, 4), from, to)))
          throw refuse("'" + shownText(move) + "' is not a move like e2e4, '-' or 'none'");
        if (traceFile.find('/') != std::string::npos || !traceFile.ends_with(".trc"))
          throw refuse("'" + shownText(traceFile) + "' is not the name of a trace in the game's folder");
        unplayed[traceFile] = why;
        continue;
      }
      std::string who;
      record >> who;
      if (who != "engine" && who != "opponent") throw refuse("a move is the 'engine''s or the 'opponent''s");
      // An engine move names its trace: the move is the one that think chose (unless the FIDE
      // filter replaced it), after the record's moves so far.
      std::string word, traceFile;
      bool filtered = false;
      while (record >> word) {
        if (word == "trace" && !(record >> traceFile)) throw refuse("'trace' without its file");
        if (word == "fide-filter") filtered = true;
      }
      if (who == "engine" && !traceFile.empty()) {
        std::string before;
        for (const std::string& played : moves) before += (before.empty() ? "" : " ") + played;
        if (const std::string why = check(traceFile, before, move, filtered); !why.empty()) throw refuse(why);
      }
      if (const std::string why = playFideMove(*position, move); !why.empty())
        throw refuse(why + " (after " + std::to_string(moves.size()) +
                     (moves.size() == 1 ? " ply from " : " plies from ") + startText + ")");
      moves.push_back(move);
    } else if (keyword == "result") {
      if (!result.empty()) throw refuse("a second result line");
      std::getline(record >> std::ws, result);
      if (result.empty()) throw refuse("an empty result line");
    } else {
      throw refuse("'" + shownText(keyword, 40) + "' is not a line of a game record");
    }
  }
  if (in.bad()) throw RecordRefusal(": a read failed");
  if (!position) throw RecordRefusal(": no start line (not a record umax-readable wrote)");
  return lines;
}

}  // namespace umax::play
