// Reading a folder of traces as games: see game_dir.h.
#include "umax/trace/game_dir.h"

#if defined(__linux__)
#include <sys/vfs.h>
#endif

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <tuple>

#include "umax/notation.h"
#include "umax/play/fide.h"
#include "umax/position.h"
#include "umax/session.h"
#include "umax/trace/reader.h"

namespace umax::trace {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxGameDirTraces = 100000;        // the rest are listed as not read
constexpr int kMaxFolderDepth = 1;                       // the folder and its game folders
constexpr std::uintmax_t kMaxGameRecordBytes = 1 << 20;  // a game.txt umax-readable writes is a few KB

/// File names in "natural" order, digit runs compared as numbers, so that
/// "move-9" comes before "move-10" whatever the zero padding.
bool naturalLess(const std::string& a, const std::string& b) {
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  // The digit run at `at` without its leading zeros (one kept of a run of zeros); `at` moves past it.
  const auto number = [&](const std::string& text, std::size_t& at) {
    const std::size_t start = at;
    while (at < text.size() && digit(text[at])) ++at;
    std::string run = text.substr(start, at - start);
    return run.erase(0, std::min(run.find_first_not_of('0'), run.size() - 1));
  };
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      const std::string numberA = number(a, i), numberB = number(b, j);
      if (numberA.size() != numberB.size()) return numberA.size() < numberB.size();
      if (numberA != numberB) return numberA < numberB;
    } else if (a[i] != b[j]) {
      return a[i] < b[j];
    } else {
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

/// The space-separated words of `text`: moves, or a FEN's fields.
std::vector<std::string> words(const std::string& text) {
  std::istringstream stream(text);
  return {std::istream_iterator<std::string>(stream), std::istream_iterator<std::string>()};
}

/// The chess move number of ply `ply` of a game started from `fen` (1 = its first move) and
/// whether white plays it, from the FEN's second and sixth fields (the start position's when the
/// FEN is empty or lacks them).
std::pair<int, bool> numberPly(const std::string& fen, int ply) {
  const std::vector<std::string> fields = words(fen);
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

/// Is `name` a partial trace, `.NAME.trc.partial` (partialTracePath): a think whose recording
/// was cut short (killed, a full disk), read as a trace cut short.
bool isPartialTrace(const std::string& name) {
  return name.size() > std::string_view("..trc.partial").size() && name.front() == '.' &&
         name.ends_with(".trc.partial");
}

/// The name a think's trace has in game.txt: the file's, a partial trace's without its dot and
/// ".partial".
std::string traceName(const std::string& path) {
  std::string name = fs::path(path).filename().string();
  if (isPartialTrace(name)) name = name.substr(1, name.size() - 1 - std::string_view(".partial").size());
  return name;
}

/// Sums up one trace file as a think of a game.
GameThink readThink(const fs::path& file) {
  const TraceReader reader(file.string());
  const TraceHeader& header = reader.header();
  GameThink think;
  think.path = file.string();
  think.fen = header.fen;
  think.movesBefore = header.moves;
  think.budget = header.budget;
  think.events = reader.eventCount();
  think.white = header.position.side == kWhite;
  think.ply = static_cast<int>(words(header.moves).size()) + 1;
  think.moveNumber = numberPly(header.fen, think.ply).first;
  think.finished = reader.hasResult();
  if (think.finished) {
    const TraceResult& result = reader.result();
    think.move = thinkMoveName(result.from, result.to);
    think.score = result.score;
    think.nodes = result.nodes;
    think.notPlayed = result.notPlayed;  // the trace's own mark; game.txt may say so too
  }
  return think;
}

/// A game record (game.txt) that cannot be used: the line and why.
struct RecordRefusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The longest line of a game record umax-readable writes is a few hundred characters (a FEN, a
/// move's details); a longer one is not a line it wrote.
constexpr std::size_t kMaxGameRecordLine = 4096;

/// Reads a game's `game.txt` record into `game`, checked as any input is: every line one
/// umax-readable writes (`#` comments, `protocol`, `start`, `move`, `unplayed`, `result`), the
/// start the traces' start, each move legal in turn from it, numbered and sided as it falls, each
/// engine move the one its trace chose, each think's moves before it the record's.
/// \throws RecordRefusal naming the line and why; nothing of the record is used then.
void checkGameRecord(const fs::path& file, GameRecord& game) {
  std::error_code error;
  const std::uintmax_t size = fs::file_size(file, error);
  if (error) throw RecordRefusal(": " + error.message());
  if (size > kMaxGameRecordBytes)
    throw RecordRefusal(" is " + std::to_string(size) +
                        " bytes: larger than any record umax-readable writes (" +
                        std::to_string(kMaxGameRecordBytes) + " at most)");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw RecordRefusal(": cannot be opened");
  const auto thinkNamed = [&game](const std::string& name) -> const GameThink* {
    for (const GameThink& think : game.thinks)
      if (traceName(think.path) == name) return &think;
    return nullptr;
  };
  std::vector<std::string> moves;
  std::map<std::string, std::string> unplayed;  // trace file name -> why its move was not played
  std::string result;
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
    const std::pair<int, bool> numbering = numberPly(game.fen, static_cast<int>(moves.size()) + 1);
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
      std::string fen;
      std::getline(record >> std::ws, fen);
      if (position) throw refuse("a second start line");
      if (kind == "startpos" && fen.empty()) {
        fen = std::string(kStartFen);
      } else if (kind != "fen") {
        throw refuse("a start line is 'start startpos' or 'start fen FEN'");
      }
      try {
        position = parseFen(fen);
      } catch (const std::exception& bad) {
        throw refuse(std::string("the start FEN is refused: ") + bad.what());
      }
      const std::string traces = game.fen.empty() ? std::string(kStartFen) : game.fen;
      if (fen != traces)
        throw refuse("the traces start from " + game.startText() + ", not from this position");
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
      if (const GameThink* think = who == "engine" && !traceFile.empty() ? thinkNamed(traceFile) : nullptr) {
        std::string before;
        for (const std::string& played : moves) before += (before.empty() ? "" : " ") + played;
        if (think->movesBefore != before)
          throw refuse("the think of " + traceFile + " was made after '" + think->movesBefore +
                       "', the record has '" + before + "' before this move");
        if (think->finished && !filtered && think->move != move.substr(0, 4))
          throw refuse("the move is " + shownText(move) + ", but " + traceFile + " chose " + think->move);
      }
      if (const std::string why = play::playFideMove(*position, move); !why.empty())
        throw refuse(why + " (after " + std::to_string(moves.size()) + " plies from " + game.startText() +
                     ")");
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
  // Every think's moves before it are the record's first moves: all of them for a think whose
  // move was not played, fewer for one whose move was.
  for (const GameThink& think : game.thinks) {
    const std::string name = traceName(think.path);
    const std::vector<std::string> before = words(think.movesBefore);
    const bool played = !unplayed.contains(name) && think.notPlayed.empty();
    if (before.size() + (played ? 1 : 0) > moves.size() ||
        !std::equal(before.begin(), before.end(), moves.begin()))
      throw RecordRefusal(": " + name + " was searched after '" + think.movesBefore +
                          "', which the record's " + std::to_string(moves.size()) + " plies do not " +
                          (played ? "continue with its move" : "begin with"));
  }
  for (GameThink& think : game.thinks)
    if (const auto why = unplayed.find(traceName(think.path)); why != unplayed.end())
      think.notPlayed = why->second;
  game.recordedMoves = std::move(moves);
  game.result = result;
}

/// Reads a game's `game.txt` into `game` (checkGameRecord); a record that fails a check goes to
/// `refusals` with its line and reason, and the game is listed from its traces alone.
void readGameRecord(const fs::path& file, GameRecord& game, std::vector<std::string>& refusals) {
  try {
    checkGameRecord(file, game);
  } catch (const RecordRefusal& refusal) {
    refusals.push_back(file.string() + refusal.what() +
                       "; the record is not used (the game is listed from its traces)");
  }
}

/// The kernel's pseudo filesystem `folder` lies on ("proc", "sysfs", ...), or "" for any other:
/// such a folder holds no game, and walking /proc or /sys reads the whole system's state.
std::string pseudoFilesystem(const fs::path& folder) {
#if defined(__linux__)
  // The magic numbers of linux/magic.h (entering an autofs may mount a remote filesystem).
  static constexpr std::pair<unsigned long, std::string_view> kPseudoFilesystems[] = {
      {0x9fa0, "proc"},          {0x62656572, "sysfs"},       {0x1cd1, "devpts"},
      {0x64626720, "debugfs"},   {0x74726163, "tracefs"},     {0x73636673, "securityfs"},
      {0x27e0eb, "cgroup"},      {0x63677270, "cgroup2"},     {0xcafe4a11, "bpf"},
      {0xf97cff8c, "selinuxfs"}, {0x42494e4d, "binfmt_misc"}, {0x6e736673, "nsfs"},
      {0x6165676c, "pstore"},    {0x62656570, "configfs"},    {0x65735543, "fusectl"},
      {0x19800202, "mqueue"},    {0xde5e81e4, "efivarfs"},    {0x0187, "autofs"}};
  struct statfs info {};
  if (statfs(folder.c_str(), &info) != 0) return "";
  for (const auto& [magic, name] : kPseudoFilesystems)
    if (static_cast<unsigned long>(info.f_type) == magic) return std::string(name);
#else
  (void)folder;
#endif
  return "";
}

/// Collects the `*.trc` files in `folder` and in its direct sub-folders, the game folders
/// (`--trace-dir`'s game-NNN; deeper ones and those on the kernel's pseudo filesystems are not
/// entered; links are not followed). An entry that cannot be read goes to `refusals` with its
/// reason.
void collectTraces(const fs::path& folder, int depth, std::vector<fs::path>& files,
                   std::vector<std::string>& refusals) {
  std::error_code error;
  if (depth > kMaxFolderDepth || !pseudoFilesystem(folder).empty()) return;
  fs::directory_iterator entries(folder, error);
  if (error) {
    refusals.push_back(folder.string() + ": " + error.message());
    return;
  }
  for (const fs::directory_iterator end; entries != end; entries.increment(error)) {
    if (error) {
      refusals.push_back(folder.string() + ": " + error.message() + " (the rest of this folder not read)");
      return;
    }
    const fs::path& path = entries->path();
    std::error_code statusError;
    const fs::file_status own = entries->symlink_status(statusError);
    if (fs::is_directory(own)) {
      collectTraces(path, depth + 1, files, refusals);
      continue;
    }
    const fs::file_status target = entries->status(statusError);
    if (statusError) {  // a link in a loop or to nowhere
      if (fs::is_symlink(own) || path.extension() == ".trc")
        refusals.push_back(path.string() + ": " + statusError.message());
      continue;
    }
    if ((path.extension() != ".trc" && !isPartialTrace(path.filename().string())) || fs::is_directory(target))
      continue;
    if (!fs::is_regular_file(target)) {
      refusals.push_back(path.string() + ": not a regular file (a FIFO or device)");
      continue;
    }
    if (files.size() == kMaxGameDirTraces) {
      refusals.push_back(path.string() + " and the rest: more than " + std::to_string(kMaxGameDirTraces) +
                         " traces, not read");
      return;
    }
    files.push_back(path);
  }
}

/// A think with its folder, spelled once (paths are split once, not per comparison).
struct FiledThink {
  GameThink think;
  std::string folder;
};

}  // namespace

std::string GameThink::label() const {
  return std::to_string(moveNumber) + (white ? ". " : "... ") + (finished ? move : std::string("?")) +
         (notPlayed.empty() ? "" : " (not played)");
}

std::vector<GamePly> gamePlies(const GameRecord& game) {
  std::vector<GamePly> plies;
  if (game.thinks.empty()) return plies;
  const GameThink& last = game.thinks.back();
  std::vector<std::string> moves = game.recordedMoves;
  if (moves.empty()) {
    moves = words(last.movesBefore);
    if (last.finished && last.move != "none" && last.notPlayed.empty()) moves.push_back(last.move);
  }
  for (std::size_t index = 0; index < moves.size(); ++index) {
    GamePly ply;
    ply.ply = static_cast<int>(index) + 1;
    std::tie(ply.moveNumber, ply.white) = numberPly(game.fen, ply.ply);
    ply.move = moves[index];
    for (std::size_t think = 0; think < game.thinks.size(); ++think)
      if (game.thinks[think].ply == ply.ply && game.thinks[think].notPlayed.empty())
        ply.think = static_cast<int>(think);
    plies.push_back(std::move(ply));
  }
  return plies;
}

std::string GameRecord::startText() const {
  return fen.empty() || fen == kStartFen ? "the start position" : fen;
}

std::size_t GameDir::thinkCount() const {
  return std::accumulate(
      games.begin(), games.end(), std::size_t{0},
      [](std::size_t count, const GameRecord& game) { return count + game.thinks.size(); });
}

GameDir readGameDir(const std::string& path) {
  std::error_code error;
  fs::path folder(path);
  if (!fs::exists(folder, error)) throw std::runtime_error("'" + path + "' does not exist");
  if (!fs::is_directory(folder, error)) folder = folder.parent_path().empty() ? "." : folder.parent_path();
  if (const std::string kind = pseudoFilesystem(folder); !kind.empty())
    throw std::runtime_error("'" + folder.string() + "' is on the kernel's " + kind +
                             " filesystem, which holds no game (give a game folder)");

  GameDir dir;
  dir.path = folder.string();
  std::vector<fs::path> files;
  collectTraces(folder, 0, files, dir.refusals);
  std::sort(files.begin(), files.end(),
            [](const fs::path& a, const fs::path& b) { return naturalLess(a.native(), b.native()); });

  std::vector<FiledThink> thinks;
  thinks.reserve(files.size());
  for (const fs::path& file : files) {
    try {
      thinks.push_back({readThink(file), file.parent_path().string()});
    } catch (const std::exception& refusal) {
      dir.refusals.push_back(file.string() + ": " + refusal.what());
    }
  }
  // Ply order within each folder and start (the order the thinks were made, whatever the names);
  // then each think joins the first game of its run (folder and start) that it continues: two
  // games identical so far still separate, and a think is compared with its run's games only.
  std::stable_sort(thinks.begin(), thinks.end(), [](const FiledThink& a, const FiledThink& b) {
    if (a.folder != b.folder) return naturalLess(a.folder, b.folder);
    if (a.think.fen != b.think.fen) return a.think.fen < b.think.fen;
    return a.think.ply < b.think.ply;
  });
  std::vector<std::string> gameFolders;  // each game's folder
  std::size_t runStart = 0;              // the first game of the current folder and start
  for (std::size_t index = 0; index < thinks.size(); ++index) {
    FiledThink& filed = thinks[index];
    // (The think before was moved into its game, the last one made: its start is that game's.)
    if (index > 0 && (filed.folder != thinks[index - 1].folder || filed.think.fen != dir.games.back().fen))
      runStart = dir.games.size();
    // A think continues a game if it comes later and the moves before it extend the moves before the
    // game's latest think (not necessarily by the move it chose: a protocol engine may play another).
    const std::string& moves = filed.think.movesBefore;
    auto game = std::find_if(
        dir.games.begin() + static_cast<std::ptrdiff_t>(runStart), dir.games.end(),
        [&](const GameRecord& record) {
          const std::string& before = record.thinks.back().movesBefore;
          return filed.think.ply > record.thinks.back().ply && moves.starts_with(before) &&
                 (before.empty() || moves.size() == before.size() || moves[before.size()] == ' ');
        });
    if (game == dir.games.end()) {
      game = dir.games.insert(dir.games.end(), GameRecord{filed.think.fen, {}, {}, {}});
      gameFolders.push_back(filed.folder);
    }
    game->thinks.push_back(std::move(filed.think));
  }
  // A game alone in its folder may have the record umax-readable writes there.
  std::map<std::string, int> gamesPerFolder;
  for (const std::string& gameFolder : gameFolders) ++gamesPerFolder[gameFolder];
  for (std::size_t index = 0; index < dir.games.size(); ++index) {
    const fs::path record = fs::path(gameFolders[index]) / "game.txt";
    if (gamesPerFolder[gameFolders[index]] == 1 && fs::is_regular_file(record, error))
      readGameRecord(record, dir.games[index], dir.refusals);
  }
  if (dir.games.empty())
    throw std::runtime_error("no readable trace (*.trc) in '" + folder.string() +
                             "' or its direct sub-folders (the game folders; deeper ones are not read)" +
                             (dir.refusals.empty() ? "" : ": " + dir.refusals.front()));
  return dir;
}

}  // namespace umax::trace
