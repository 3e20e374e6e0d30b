// support.cpp - shared helpers of the test suite.
#include "support.h"

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "umax/trace/reader.h"

namespace umax::test {

std::string quote(const std::string& text) { return "'" + text + "'"; }

std::vector<trace::Event> allEvents(const trace::TraceReader& reader) {
  std::vector<trace::Event> events;
  // One allocation: growing by doubling maps fresh pages for each copy (half the suite's page faults).
  events.reserve(reader.eventCount());
  reader.forEach([&](const trace::Event& event, uint64_t) { events.push_back(event); });
  return events;
}

std::string sourcePath(const std::string& relative) { return std::string(UMAX_SOURCE_DIR) + "/" + relative; }
std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

std::set<int> codeLinesOf(const std::string& source) {
  std::set<int> lines;
  int line = 1;
  bool inComment = false;
  for (std::size_t index = 0; index < source.size(); ++index) {
    if (!inComment && source.compare(index, 2, "/*") == 0) {
      inComment = true;
      ++index;
    } else if (inComment && source.compare(index, 2, "*/") == 0) {
      inComment = false;
      ++index;
    } else if (source[index] == '\n') {
      ++line;
    } else if (!inComment && !std::isspace(static_cast<unsigned char>(source[index]))) {
      lines.insert(line);
    }
  }
  return lines;
}

std::string binPath(const std::string& name) { return std::string(UMAX_BIN_DIR) + "/" + name; }

std::optional<FenError> fenRefusal(const std::string& fen) {
  try {
    (void)parseFen(fen);
  } catch (const FenError& error) {
    return error;
  }
  return std::nullopt;
}

namespace {

/// This process's scratch folder, removed at exit.
const std::filesystem::path& scratchFolder() {
  static const struct Folder {
    std::filesystem::path path;
    Folder() : path(std::filesystem::temp_directory_path() / ("umax-tests-" + std::to_string(::getpid()))) {
      std::filesystem::create_directories(path);
    }
    ~Folder() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } folder;
  return folder.path;
}

}  // namespace

std::string scratchFile(const std::string& name) { return (scratchFolder() / name).string(); }

std::string readFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) FAIL("cannot read " << path);
  std::ostringstream contents;
  contents << file.rdbuf();
  return contents.str();
}

std::vector<uint8_t> fileBytes(const std::string& path) {
  const std::string contents = readFile(path);
  return std::vector<uint8_t>(contents.begin(), contents.end());
}

void writeBytes(const std::string& path, const std::vector<uint8_t>& bytes, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(std::min(size, bytes.size())));
}

std::vector<CorpusInput> corpusInputs(const std::string& fuzzer) {
  std::vector<CorpusInput> inputs;
  for (const auto& entry : std::filesystem::directory_iterator(sourcePath("fuzz/corpus/" + fuzzer)))
    inputs.push_back({entry.path().filename().string(), readFile(entry.path().string())});
  return inputs;
}

const std::vector<TestPosition>& testPositions() {
  static const std::vector<TestPosition> positions = [] {
    std::vector<TestPosition> rows;
    std::istringstream lines(readFile(sourcePath("tests/data/positions.tsv")));
    std::string line;
    std::getline(lines, line);  // header
    while (std::getline(lines, line)) {
      const auto tab = line.find('\t');
      if (line.empty() || tab == std::string::npos) continue;
      rows.push_back({line.substr(0, tab), line.substr(tab + 1)});
    }
    return rows;
  }();
  return positions;
}

std::vector<std::vector<std::string>> testGames() {
  std::vector<std::vector<std::string>> games;
  std::istringstream lines(readFile(sourcePath("tests/data/games.txt")));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::vector<std::string> game;
    for (std::string move; words >> move;) game.push_back(move);
    games.push_back(game);
  }
  return games;
}

std::string runCommand(const std::string& command, int* status) {
  std::FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) FAIL("cannot run " << command);
  std::string output;
  char buffer[65536];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, got);
  const int result = pclose(pipe);
  if (status) *status = WIFEXITED(result) ? WEXITSTATUS(result) : -1;
  return output;
}

std::vector<std::pair<int, int>> pseudoLegalMoves(const Position& position) {
  std::vector<std::pair<int, int>> moves;
  const Board& board = position.board;
  const int side = position.side;
  const int enemy = opponentOf(side);
  auto empty = [&](int square) { return isOnBoard(square) && board[square] == 0; };
  auto hostile = [&](int square) { return isOnBoard(square) && (board[square] & enemy); };
  for (int from = 0; from < 128; ++from) {
    if (!isOnBoard(from) || !(board[from] & side)) continue;
    const int type = typeOf(board[from]);
    if (type == kUpwardPawn || type == kDownwardPawn) {
      const int forward = side == kWhite ? -16 : 16;
      const int startRank = side == kWhite ? 2 : 7;
      if (empty(from + forward)) {
        moves.push_back({from, from + forward});
        if (rankOf(from) == startRank && empty(from + 2 * forward))
          moves.push_back({from, from + 2 * forward});
      }
      for (int diagonal : {forward - 1, forward + 1}) {
        const int to = from + diagonal;
        if (hostile(to) || (isOnBoard(to) && to == position.epSquare)) moves.push_back({from, to});
      }
      continue;
    }
    const bool slider = type == kBishop || type == kRook || type == kQueen;
    std::vector<int> steps;
    if (type == kKnight) steps = {14, 18, 31, 33, -14, -18, -31, -33};
    if (type == kKing || type == kQueen) steps = {1, -1, 16, -16, 15, -15, 17, -17};
    if (type == kBishop) steps = {15, -15, 17, -17};
    if (type == kRook) steps = {1, -1, 16, -16};
    for (int step : steps) {
      for (int to = from + step; isOnBoard(to); to += step) {
        if (board[to] & side) break;
        moves.push_back({from, to});
        if (board[to] || !slider) break;
      }
    }
    if (type == kKing && (board[from] & kVirgin)) {
      if (empty(from + 1) && empty(from + 2)) moves.push_back({from, from + 2});
      if (empty(from - 1) && empty(from - 2)) moves.push_back({from, from - 2});
    }
  }
  return moves;
}

}  // namespace umax::test
