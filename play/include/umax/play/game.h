/// \file game.h
/// \brief A game of the readable engine as a chess GUI sees it: moves in,
/// thinks out, FIDE's rules at the border.
///
/// Every move takes main()'s path, so that the minimal build can replay a
/// protocol game: an opponent's move is Engine::playMove (clear the locks,
/// legality check by search, play), our move is Engine::think(budget) and
/// then playMove of the move it found. What the original cannot represent is
/// handled at the border and said in a note: an under-promotion is set on the
/// board after the queen promotion, and a root move FIDE refuses is searched
/// again without it.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "umax/engine.h"
#include "umax/position.h"

namespace umax::play {

/// What the root reports after each completed iteration.
struct Iteration {
  int depth = 0;   ///< the iteration's draft
  int score = 0;   ///< the root's score, from the side to move
  int from = 0;    ///< best move so far (from-square)
  int to = 0;      ///< best move so far (to-square)
  long nodes = 0;  ///< nodes of this think so far
  std::string pv;  ///< the best line as far as the hash table gives it (at least the best move)
};

/// Called after each completed iteration of a think.
using IterationListener = std::function<void(const Iteration&)>;

/// How a think should end.
struct ThinkLimits {
  long budget = kNodeLimit;                    ///< node budget: no new iteration starts after it
  int depth = 0;                               ///< stop after this iteration (0: no limit)
  std::atomic<bool>* stop = nullptr;           ///< raised: unwind at once, keep the last iteration's move
  const std::atomic<bool>* discard = nullptr;  ///< raised: play nothing (the GUI took the move back)
  IterationListener listener;                  ///< may be empty
  std::string tracePath;                       ///< record the think here (empty: no trace)
};

/// What a think of the game found and played.
struct GameThink {
  bool played = false;       ///< a move was found and played
  std::string move;          ///< coordinate move, e.g. "e2e4" ("" if none)
  ThinkResult result;        ///< the (last) search's result
  long budget = 0;           ///< the budget of that search
  bool stopped = false;      ///< ended by the stop flag or the depth limit, not by the budget
  std::string filtered;      ///< the first choice FIDE refused, e.g. "e1g1" ("" if none)
  std::string note;          ///< what the front end should tell the user, or ""
  std::string traceFailure;  ///< why the think's trace is missing or cut short ("" if none)
};

/// One move of the game record.
struct PlayedMove {
  std::string text;       ///< coordinate move, promotion letter if any
  bool byEngine = false;  ///< thought by us
  std::string details;    ///< for game.txt: trace, budget, nodes, score...
};

/// A game: the engine, the start position and the moves since.
class Game {
 public:
  Game();

  /// main()'s start: the start board with O = 0, an empty hash table.
  void newGame();
  /// Starts from a FEN (castling and e.p. rights included); the table is kept.
  /// \throws FenError, and then nothing changes.
  void setBoard(std::string_view fen);

  /// Plays an opponent's move like "e2e4" or "a7a8n". Returns "" if played,
  /// else why not ("not a move like e2e4", "illegal"). A move FIDE allows
  /// and the original's check refuses is set on the board directly (see note()).
  std::string playMove(std::string_view text);
  /// Back to the start of this game (same start position), the table kept.
  void rewind();
  /// What the last playMove() had to do beyond main()'s path ("" if nothing).
  const std::string& note() const { return note_; }
  /// Takes back the last move: the game is replayed from its start (the table is kept).
  bool undo();

  /// Thinks and plays the move found (see the file comment for the path).
  GameThink think(const ThinkLimits& limits);

  /// "" while the game goes on; else a result line such as "1-0 {White mates}".
  std::string outcome() const;

  /// The game position.
  Position position() const { return engine_->position(); }
  /// Side to move: kWhite or kBlack.
  int sideToMove() const { return engine_->position().side; }
  /// Full-move number of the position (from the start FEN's counter).
  int fullMove() const;
  /// The start FEN ("" for main()'s start).
  const std::string& startFen() const { return startFen_; }
  /// Side to move at the start.
  int startSide() const { return start_.side; }
  /// Full-move number at the start.
  int startFullMove() const { return startFullMove_; }
  /// The moves since the start.
  const std::vector<PlayedMove>& moves() const { return moves_; }
  /// The moves since the start as one space-separated string.
  std::string moveList() const;
  /// Attaches details (trace, budget...) to the last move of the record.
  void describeLastMove(const std::string& details) { moves_.back().details = details; }
  /// Counts games: 1 after the first newGame/setBoard, +1 for each.
  int gameNumber() const { return gameNumber_; }

  /// Wall time of the last legality check (main()'s path clears the 16M-slot
  /// table's locks for every move: a fixed cost per move on the clock).
  double lastCheckSeconds() const { return lastCheckSeconds_; }
  /// The engine (for tests and the trace recorder).
  Engine& engine() { return *engine_; }

 private:
  bool playOnEngine(int from, int to, char promotion);
  void placeMove(const Position& before, int from, int to, char promotion);
  ThinkResult search(const ThinkLimits& limits, long& budgetUsed, bool& stopped);

  std::unique_ptr<Engine> engine_;
  std::string startFen_;
  Position start_;
  int startFullMove_ = 1;
  std::vector<PlayedMove> moves_;
  int gameNumber_ = 0;
  std::string note_;
  std::string traceFailure_;  // the think's first trace failure
  double lastCheckSeconds_ = 0;
};

/// The coordinate text of a move, with a promotion letter if given.
std::string moveText(int from, int to, char promotion = 0);

}  // namespace umax::play
