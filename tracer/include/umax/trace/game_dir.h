/// \file game_dir.h
/// \brief The thinks of played games: a folder of traces read as move lists.
///
/// `umax-readable --trace-dir DIR` writes one trace per think of a game; each trace's header holds
/// the game's start and the moves before the think, its footer the move chosen. So the folder
/// reads back as games without relying on the file names: a new game starts wherever the moves
/// before a think stop extending those of the think before it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace umax::trace {

/// One think of a game: one trace file, summed up from its header and footer.
struct GameThink {
  std::string path;         ///< the trace file
  std::string fen;          ///< FEN the game started from (empty: the start position)
  std::string movesBefore;  ///< moves played before the think, "e2e4 e7e5"
  int ply = 1;              ///< half-move of the game this think chose (1 = white's first)
  int moveNumber = 1;       ///< the chess move number of that ply
  bool white = true;        ///< the side that thought
  bool finished = false;    ///< the trace has its footer (false: cut short, no result)
  std::string move;         ///< the move chosen, "g1f3" ("none" when no move was found)
  int score = 0;            ///< the root's score
  uint64_t nodes = 0;       ///< nodes searched
  int64_t budget = 0;       ///< node budget of the think
  uint64_t events = 0;      ///< events readable in the file
  /// Why the move chosen was never played ("quit", "end of input", "'usermove' arrived": the
  /// think was cut short), from the game's `game.txt` "unplayed" line; "" when it was played or
  /// no record says.
  std::string notPlayed;
};

/// One game: its thinks in the order they were made.
struct GameRecord {
  std::string fen;                ///< the FEN the game started from (empty: the start position)
  std::vector<GameThink> thinks;  ///< in ply order
  /// The moves of the `game.txt` record umax-readable writes beside the traces, when the game has
  /// its own folder and the record agrees with the traces; empty otherwise.
  std::vector<std::string> recordedMoves;
  std::string result;  ///< the record's `result` line ("1-0 {White mates}"), if any
};

/// A folder of traces read as games.
struct GameDir {
  std::string path;                   ///< the folder
  std::vector<GameRecord> games;      ///< in file order
  std::vector<std::string> refusals;  ///< "file: why" for each trace that could not be read
  /// All thinks, game after game.
  std::size_t thinkCount() const;
};

/// Reads every `*.trc` file in `path` and in its direct sub-folders, the game folders of
/// `--trace-dir` (deeper folders and the kernel's pseudo filesystems such as /proc are not
/// entered, links not followed; 100,000 traces at most) in file-name order and groups the thinks
/// into games. What cannot be read (not a trace, no permission, a link in a loop) is listed in
/// `refusals`, not thrown. `path` may also name a file in the folder (the game's PGN): its folder
/// is read.
/// \throws std::runtime_error if `path` does not exist, lies on a pseudo filesystem or holds no
/// trace at all.
GameDir readGameDir(const std::string& path);

}  // namespace umax::trace
