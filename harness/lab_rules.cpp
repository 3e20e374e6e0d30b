// lab_rules.cpp - legal moves, SAN, EPD and the end of a game for umax-lab.
#include "lab_rules.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace umax::lab {
namespace {

bool isCastling(const Position& position, const LegalMove& move) {
  return typeOf(position.board[static_cast<std::size_t>(move.from)]) == kKing &&
         std::abs(move.to - move.from) == 2;
}

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream stream(text);
  for (std::string word; stream >> word;) out.push_back(word);
  return out;
}

}  // namespace

bool inCheck(const Position& position) {
  const int king = findKing(position.board, position.side);
  return king != kNoSquare && isAttacked(position.board, king, opponentOf(position.side));
}

std::vector<LegalMove> legalMoves(Engine& rules, const Position& position) {
  rules.setPosition(position);
  std::vector<LegalMove> legal;
  const int enemy = opponentOf(position.side);
  for (const Move& move : rules.generatedMoves(position.side, position.epSquare, 0)) {
    const LegalMove candidate{move.from, move.to};
    if (isCastling(position, candidate)) {
      // FIDE: not out of check, not through an attacked square.
      if (isAttacked(position.board, move.from, enemy) ||
          isAttacked(position.board, (move.from + move.to) / 2, enemy))
        continue;
    }
    Position after = position;
    applyMove(after, move.from, move.to, position.epSquare);
    const int king = findKing(after.board, position.side);
    if (king == kNoSquare || isAttacked(after.board, king, enemy)) continue;
    bool duplicate = false;  // the generator offers each move once; be sure
    for (const LegalMove& seen : legal) duplicate = duplicate || seen == candidate;
    if (!duplicate) legal.push_back(candidate);
  }
  return legal;
}

LegalMove parseSan(Engine& rules, const Position& position, const std::string& text) {
  std::string san = text;
  while (!san.empty() && (san.back() == '+' || san.back() == '#' || san.back() == '!' || san.back() == '?'))
    san.pop_back();
  const std::vector<LegalMove> legal = legalMoves(rules, position);
  const int homeRow = position.side == kWhite ? 0x70 : 0x00;
  if (san == "O-O" || san == "0-0" || san == "O-O-O" || san == "0-0-0") {
    const LegalMove castle{homeRow + 4, homeRow + (san.size() == 3 ? 6 : 2)};
    for (const LegalMove& move : legal)
      if (move == castle && isCastling(position, move)) return move;
    throw SanError("'" + text + "': that castling is not legal here");
  }
  int type = 0;  // 0: a pawn
  std::size_t at = 0;
  if (!san.empty() && std::string("KQRBN").find(san[0]) != std::string::npos) {
    switch (san[0]) {
      case 'K':
        type = kKing;
        break;
      case 'Q':
        type = kQueen;
        break;
      case 'R':
        type = kRook;
        break;
      case 'B':
        type = kBishop;
        break;
      default:
        type = kKnight;
    }
    at = 1;
  }
  std::string rest = san.substr(at);
  char promotion = 0;
  const auto equals = rest.find('=');
  if (equals != std::string::npos) {
    if (equals + 2 != rest.size())
      throw SanError("'" + text + "': not SAN (a promotion is =Q, =R, =B or =N)");
    promotion = rest[equals + 1];
    rest.erase(equals);
  } else if (!rest.empty() && std::string("QRBN").find(rest.back()) != std::string::npos && type == 0) {
    promotion = rest.back();
    rest.pop_back();
  }
  if (rest.size() < 2) throw SanError("'" + text + "': not SAN (no destination square)");
  const int to = parseSquare(rest.substr(rest.size() - 2));
  if (to < 0) throw SanError("'" + text + "': not SAN (no destination square)");
  rest.erase(rest.size() - 2);
  if (!rest.empty() && rest.back() == 'x') rest.pop_back();
  int fromFile = -1;
  int fromRank = -1;
  for (char c : rest) {
    if (c >= 'a' && c <= 'h' && fromFile < 0) {
      fromFile = c - 'a';
    } else if (c >= '1' && c <= '8' && fromRank < 0) {
      fromRank = c - '0';
    } else {
      throw SanError("'" + text + "': not SAN ('" + std::string(1, c) + "' where a file or rank may stand)");
    }
  }
  if (promotion && promotion != 'Q')
    throw SanError("'" + text + "': promotes to " + std::string(1, promotion) +
                   ", and micro-Max promotes to a queen only");
  std::vector<LegalMove> matches;
  for (const LegalMove& move : legal) {
    const int piece = position.board[static_cast<std::size_t>(move.from)];
    const int moverType = typeOf(piece);
    const bool pawn = moverType == kUpwardPawn || moverType == kDownwardPawn;
    if (type == 0 ? !pawn : moverType != type) continue;
    if (move.to != to || isCastling(position, move)) continue;
    if (fromFile >= 0 && fileOf(move.from) != fromFile) continue;
    if (fromRank >= 0 && rankOf(move.from) != fromRank) continue;
    const bool promotes = pawn && (rankOf(to) == 8 || rankOf(to) == 1);
    if (promotes != (promotion != 0)) continue;
    matches.push_back(move);
  }
  if (matches.empty()) throw SanError("'" + text + "': no legal move of the position is that move");
  if (matches.size() > 1)
    throw SanError("'" + text + "': ambiguous, " + std::to_string(matches.size()) + " legal moves match");
  return matches.front();
}

std::vector<EpdEntry> readEpd(Engine& rules, const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error(path + ": cannot read the file");
  std::vector<EpdEntry> entries;
  int number = 0;
  for (std::string raw; std::getline(file, raw);) {
    ++number;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    const std::string line = trim(raw);
    if (line.empty()) continue;
    EpdEntry entry;
    entry.line = number;
    entry.id = "line " + std::to_string(number);
    // Four FEN fields, then the operations.
    std::size_t at = 0;
    for (int field = 0; field < 4; ++field) {
      while (at < line.size() && line[at] == ' ') ++at;
      const auto end = line.find(' ', at);
      if (at >= line.size() || (end == std::string::npos && field < 3))
        throw std::runtime_error(where +
                                 "an EPD line starts with the four FEN fields (board, side, castling, "
                                 "e.p.); this one has " +
                                 std::to_string(field + (at < line.size())));
      at = end == std::string::npos ? line.size() : end;
    }
    entry.fen = trim(line.substr(0, at));
    try {
      entry.position = parseFen(entry.fen);
    } catch (const FenError& error) {
      throw std::runtime_error(where + "bad position: " + error.what());
    }
    const std::string operations = trim(line.substr(at));
    if (!operations.empty() && operations.back() != ';')
      throw std::runtime_error(where + "an EPD operation ends with ';': '" + operations + "'");
    std::istringstream list(operations);
    for (std::string operation; std::getline(list, operation, ';');) {
      operation = trim(operation);
      if (operation.empty()) continue;
      const auto space = operation.find(' ');
      const std::string opcode = operation.substr(0, space);
      const std::string operand = space == std::string::npos ? "" : trim(operation.substr(space + 1));
      if (opcode == "id") {
        if (operand.size() < 2 || operand.front() != '"' || operand.back() != '"')
          throw std::runtime_error(where + "the id operand is a quoted string: " + operation);
        entry.id = operand.substr(1, operand.size() - 2);
      } else if (opcode == "bm" || opcode == "am") {
        std::vector<std::string>& sans = opcode == "bm" ? entry.bm : entry.am;
        std::vector<LegalMove>& moves = opcode == "bm" ? entry.best : entry.avoid;
        sans = words(operand);
        if (sans.empty()) throw std::runtime_error(where + opcode + " without a move");
        for (const std::string& san : sans) {
          try {
            moves.push_back(parseSan(rules, entry.position, san));
          } catch (const SanError& error) {
            throw std::runtime_error(where + opcode + " " + error.what());
          }
        }
      }
    }
    if (entry.bm.empty() && entry.am.empty())
      throw std::runtime_error(where + "no bm (best move) or am (move to avoid) operation");
    entries.push_back(std::move(entry));
  }
  if (entries.empty()) throw std::runtime_error(path + ": no EPD line");
  return entries;
}

const char* outcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kNone:
      return "none";
    case Outcome::kMate:
      return "mate";
    case Outcome::kStalemate:
      return "stalemate";
    case Outcome::kRepetition:
      return "repetition";
    case Outcome::kFiftyMoves:
      return "50 moves";
    case Outcome::kMaterial:
      return "bare kings";
    case Outcome::kPlyCap:
      return "ply cap";
    case Outcome::kIllegal:
      return "illegal move";
  }
  return "?";
}

namespace {
/// The board, side, castling rights and e.p. square: the FEN's first four fields.
std::string positionKey(const Position& position) {
  const std::string fen = toFen(position.board, position.side, position.epSquare);
  std::size_t at = 0;
  for (int space = 0; space < 4 && at != std::string::npos; ++space) at = fen.find(' ', at + 1);
  return fen.substr(0, at);
}
}  // namespace

GameRecord::GameRecord(const Position& position) : current_(positionKey(position)) { seen_[current_] = 1; }

void GameRecord::played(const Position& before, const LegalMove& move, const Position& after) {
  const int type = typeOf(before.board[static_cast<std::size_t>(move.from)]);
  const bool capture =
      before.board[static_cast<std::size_t>(move.to)] != 0 ||
      ((type == kUpwardPawn || type == kDownwardPawn) && fileOf(move.from) != fileOf(move.to));
  const bool pawn = type == kUpwardPawn || type == kDownwardPawn;
  quiet_ = capture || pawn ? 0 : quiet_ + 1;
  ++plies_;
  current_ = positionKey(after);
  ++seen_[current_];
}

int GameRecord::repetitions() const { return seen_.at(current_); }

Outcome gameOver(Engine& rules, const Position& position, const GameRecord& record, int plyCap) {
  if (legalMoves(rules, position).empty()) return inCheck(position) ? Outcome::kMate : Outcome::kStalemate;
  if (record.repetitions() >= 3) return Outcome::kRepetition;
  if (record.quietPlies() >= 100) return Outcome::kFiftyMoves;
  int minors = 0;
  int others = 0;
  for (int square = 0; square < kNoSquare; ++square) {
    if (!isOnBoard(square)) continue;
    const int type = typeOf(position.board[static_cast<std::size_t>(square)]);
    if (type == kKnight || type == kBishop)
      ++minors;
    else if (type != kEmpty && type != kKing)
      ++others;
  }
  if (others == 0 && minors <= 1) return Outcome::kMaterial;
  if (record.plies() >= plyCap) return Outcome::kPlyCap;
  return Outcome::kNone;
}

}  // namespace umax::lab
