// Reading a folder of traces as games: see game_dir.h.
#include "umax/trace/game_dir.h"

#if defined(__linux__)
#include <sys/vfs.h>
#endif

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iterator>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "umax/play/game_record.h"
#include "umax/position.h"
#include "umax/session.h"
#include "umax/trace/reader.h"

namespace umax::trace {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxGameDirTraces = 100000;  // the rest are listed as not read
constexpr int kMaxFolderDepth = 1;                 // the folder and its game folders

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
  think.moveNumber = play::numberPly(header.fen, think.ply).first;
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

/// Reads a game's `game.txt` record into `game` (play::readGameRecord, each engine move the one
/// its trace chose), each think's moves before it the record's.
/// \throws play::RecordRefusal naming the line and why; nothing of the record is used then.
void checkGameRecord(const fs::path& file, GameRecord& game) {
  const auto agrees = [&game](const std::string& trace, const std::string& before, const std::string& move,
                              bool filtered) -> std::string {
    const auto think = std::find_if(game.thinks.begin(), game.thinks.end(),
                                    [&](const GameThink& one) { return traceName(one.path) == trace; });
    if (think == game.thinks.end()) return "";
    if (think->movesBefore != before)
      return "the think of " + trace + " was made after '" + think->movesBefore + "', the record has '" +
             before + "' before this move";
    if (think->finished && !filtered && think->move != move.substr(0, 4))
      return "the move is " + shownText(move) + ", but " + trace + " chose " + think->move;
    return "";
  };
  play::RecordedGame record = play::readGameRecord(file, game.fen, agrees);
  const std::vector<std::string>& moves = record.moves;
  const std::map<std::string, std::string>& unplayed = record.unplayed;
  // Every think's moves before it are the record's first moves: all of them for a think whose
  // move was not played, fewer for one whose move was.
  for (const GameThink& think : game.thinks) {
    const std::string name = traceName(think.path);
    const std::vector<std::string> before = words(think.movesBefore);
    const bool played = !unplayed.contains(name) && think.notPlayed.empty();
    if (before.size() + (played ? 1 : 0) > moves.size() ||
        !std::equal(before.begin(), before.end(), moves.begin()))
      throw play::RecordRefusal(": " + name + " was searched after '" + think.movesBefore +
                                "', which the record's " + std::to_string(moves.size()) + " plies do not " +
                                (played ? "continue with its move" : "begin with"));
  }
  for (GameThink& think : game.thinks)
    if (const auto why = unplayed.find(traceName(think.path)); why != unplayed.end())
      think.notPlayed = why->second;
  game.recordedMoves = std::move(record.moves);
  game.result = record.result;
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
    if (gamesPerFolder[gameFolders[index]] != 1 || !fs::is_regular_file(record, error)) continue;
    try {  // a record that fails a check is refused with its line and reason, the game listed from its traces
      checkGameRecord(record, dir.games[index]);
    } catch (const play::RecordRefusal& refusal) {
      dir.refusals.push_back(record.string() + refusal.what() +
                             "; the record is not used (the game is listed from its traces)");
    }
  }
  if (dir.games.empty())
    throw std::runtime_error("no readable trace (*.trc) in '" + folder.string() +
                             "' or its direct sub-folders (the game folders; deeper ones are not read)" +
                             (dir.refusals.empty() ? "" : ": " + dir.refusals.front()));
  return dir;
}

}  // namespace umax::trace
