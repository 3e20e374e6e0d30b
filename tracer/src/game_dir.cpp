// Reading a folder of traces as games: see game_dir.h.
#include "umax/trace/game_dir.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "umax/folders.h"
#include "umax/play/game_record.h"
#include "umax/position.h"
#include "umax/session.h"
#include "umax/trace/reader.h"

namespace umax::trace {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxGameDirTraces = 100000;  // the rest are listed as not read
constexpr int kMaxFolderDepth = 1;                 // the folder and its game folders (game-NNN)

/// The space-separated words of `text`: moves, or a FEN's fields.
std::vector<std::string> words(const std::string& text) {
  std::istringstream stream(text);
  return {std::istream_iterator<std::string>(stream), std::istream_iterator<std::string>()};
}

/// The name a think's trace has in game.txt, "" for a file that is no trace: NAME.trc's own, and
/// NAME.trc for a partial trace, `.NAME.trc.partial` (partialTracePath: a think whose recording was
/// cut short, killed or by a full disk, read as a trace cut short).
std::string traceName(const fs::path& file) {
  const std::string name = file.filename().string();
  if (file.extension() == ".trc") return name;
  const bool partial = name.size() > std::string_view("..trc.partial").size() && name.front() == '.' &&
                       name.ends_with(".trc.partial");
  return partial ? name.substr(1, name.size() - 1 - std::string_view(".partial").size()) : "";
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

/// A think with its folder, spelled once (paths are split once, not per comparison).
struct FiledThink {
  GameThink think;
  std::string folder;
};

}  // namespace

std::size_t GameDir::thinkCount() const {
  std::size_t count = 0;
  for (const GameRecord& game : games) count += game.thinks.size();
  return count;
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
  const auto isTrace = [](const fs::path& file) { return !traceName(file).empty(); };
  collectFiles(folder, kMaxFolderDepth, isTrace, kMaxGameDirTraces, "traces", files, dir.refusals);
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
