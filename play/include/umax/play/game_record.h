/// \file game_record.h
/// \brief `game.txt`, the record umax-readable --trace-dir writes beside a game's traces, read
/// back and checked by FIDE's rules.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace umax::play {

/// The chess move number of ply `ply` of a game started from `fen` (1 = its first move) and
/// whether white plays it, from the FEN's second and sixth fields (the start position's when the
/// FEN is empty or lacks them).
std::pair<int, bool> numberPly(const std::string& fen, int ply);

/// A game record that cannot be used: where and why (" line 3: ..." or ": ...", after the file's name).
struct RecordRefusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What a game record says.
struct RecordedGame {
  std::vector<std::string> moves;               ///< the game's moves, "e2e4", in order
  std::map<std::string, std::string> unplayed;  ///< trace file name -> why its think's move was not played
  std::string result;                           ///< the `result` line ("1-0 {White mates}"), if any
};

/// Asked of each engine move that names its trace: `trace` the file's name, `before` the
/// record's moves before it ("e2e4 e7e5"), `move` the move, `filtered` the FIDE filter replaced
/// the think's choice. Returns why the think does not agree, "" when it does.
using EngineMoveCheck = std::function<std::string(const std::string& trace, const std::string& before,
                                                  const std::string& move, bool filtered)>;

/// Reads a game's `game.txt`, checked as any input is: every line one umax-readable writes (`#`
/// comments, `protocol`, `start`, `move`, `unplayed`, `result`), the start `fen` (the traces'; ""
/// for the start position), each move legal in turn from it (playFideMove), numbered and sided
/// as it falls, each engine move agreeing with its think (`check`).
/// \throws RecordRefusal naming the line and why.
RecordedGame readGameRecord(const std::filesystem::path& file, const std::string& fen,
                            const EngineMoveCheck& check);

}  // namespace umax::play
