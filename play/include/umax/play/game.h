/// \file game.h
/// \brief A game of the readable engine as a chess GUI sees it: moves in,
/// thinks out, FIDE's rules at the border.
///
/// Every move takes main()'s path, so that the minimal build can replay a
/// protocol game: an opponent's move is Engine::playMove (clear the locks,
/// legality check by search, play), our move is Engine::think(budget) and
/// then playMove of the move it found. The front ends send our move before
/// that playMove (choose(), then playChosen()), and clear the locks for the
/// opponent's move while the opponent thinks (clearLocksAhead()): a later
/// playMove then only checks, on a table the original's would equal. What the original cannot represent is
/// handled at the border and said in a note: an under-promotion is set on the
/// board after the queen promotion, and a root move FIDE refuses is searched
/// again without it.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "umax/engine.h"
#include "umax/position.h"

namespace umax::play {

/// The original's draft of the iteration a GUI's depth D (in plies) asks
/// for: D + 2. Draft 2 searches every move one ply deep with the replies'
/// captures (quiescence); only draft 3 tries every reply, so that a reply
/// that leaves the king capturable shows as illegal and a mate in one is
/// seen. So GUI depth 1 is draft 3, and draft d is reported as depth d - 2.
inline constexpr int kDraftOfDepthOne = 3;

/// The hash size a GUI's option gives by default, in MB (2^20 bytes): the
/// original's table of 2^24 + 9 slots of 12 bytes. Any size from 192 up
/// gets that table; a smaller one gets the largest power-of-two table that
/// fits, and leaves node identity with the original.
inline constexpr long kDefaultHashMegabytes = 192;
/// The smallest hash size offered, in MB (a table of 2^16 slots, 768 KB).
inline constexpr long kMinHashMegabytes = 1;

/// What the root reports after each completed iteration.
struct Iteration {
  int depth = 0;           ///< the iteration's depth in plies as GUIs count (draft - 2; at least 1)
  int draft = 0;           ///< the original's draft (kMateDraft after a mate score)
  bool fromTable = false;  ///< the root was answered from the hash table (no iteration ran)
  /// A new best move in the iteration under way (depth is that iteration's);
  /// the line is that move alone.
  bool midIteration = false;
  int score = 0;   ///< the root's score, from the side to move
  int from = 0;    ///< best move so far (from-square)
  int to = 0;      ///< best move so far (to-square)
  long nodes = 0;  ///< nodes of this think so far
  std::string pv;  ///< the best line as far as the hash table gives it (at least the best move)
  /// Seconds since the search began (the set-up before it, such as main()'s
  /// replay of the last move, not counted): what a GUI's time and nps count.
  double seconds = 0;
};

/// Called after each completed iteration of a think.
using IterationListener = std::function<void(const Iteration&)>;

/// How a think should end.
struct ThinkLimits {
  long budget = kNodeLimit;                    ///< node budget: no new iteration starts after it
  int depth = 0;                               ///< stop after this depth in plies (0: no limit)
  std::atomic<bool>* stop = nullptr;           ///< raised: unwind at once, keep the last iteration's move
  const std::atomic<bool>* discard = nullptr;  ///< raised: play nothing (the GUI took the move back)
  /// Why, once `discard` is raised (set before it): the trace's footer says so (may be null).
  const std::string* discardReason = nullptr;
  IterationListener listener;  ///< may be empty
  /// A time plan (0: none): no iteration starts that would, at the growth of
  /// the last two, end more than planSeconds after planStart; the think then
  /// ends after the iteration it completed (as a budget of its nodes would).
  double planSeconds = 0;
  std::chrono::steady_clock::time_point planStart{};  ///< when the planned time began (the command's arrival)
  std::string tracePath;                              ///< record the think here (empty: no trace)
  uint64_t traceLimitBytes = 0;                       ///< trim the trace to about this many bytes (0: none)
  /// Play the move found (xboard). False (UCI): the move is only chosen; the
  /// GUI sends it back with the next position, and playMove then records it
  /// as ours, so a second go searches the same position again.
  bool play = true;
};

/// What a think of the game found and played.
struct GameThink {
  bool played = false;        ///< a move was found and played (ThinkLimits::play)
  std::string move;           ///< coordinate move, e.g. "e2e4" ("" if none): played, or only chosen
  ThinkResult result;         ///< the (last) search's result
  long budget = 0;            ///< the budget of that search
  bool stopped = false;       ///< ended by the stop flag mid-iteration: not reproducible by a budget
  bool planEnded = false;     ///< ended after an iteration by the time plan (ThinkLimits::planSeconds)
  std::string filtered;       ///< the first choice FIDE refused, e.g. "e1g1" ("" if none)
  std::string note;           ///< what the front end should tell the user, or ""
  std::string traceFailure;   ///< why the think's trace is missing or cut short ("" if none)
  bool traceTrimmed = false;  ///< the trace keeps only the think's first iterations (traceLimitBytes)
  /// When the (first) search began: the set-up before it (replaying the
  /// last move on main()'s path) took from the think's call to this.
  std::chrono::steady_clock::time_point searchStart{};
  double searchSeconds = 0;  ///< wall time of the search(es), set-up and playing the move not counted
  /// Of the set-up, the wait for the table's memory (Game::prepareTable
  /// still under way): a one-off cost, not a move's fixed cost.
  double tableWaitSeconds = 0;
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
  /// Stops the table's preparation (prepareTable) before the table goes.
  ~Game();
  Game(const Game&) = delete;
  Game& operator=(const Game&) = delete;

  /// main()'s start: the start board with O = 0, an empty hash table. A
  /// table some think or check has used is replaced by a fresh mapping
  /// (zeroes, as a new process has them), which prepareTable() then gives
  /// its memory in the background if it was asked to once.
  void newGame();
  /// Starts from a FEN (castling and e.p. rights included); the table is kept.
  /// \throws FenError, and then nothing changes.
  void setBoard(std::string_view fen);

  /// How playMove checks a move.
  enum class Path {
    kOriginal,  ///< main()'s path: clear the table's locks, legality check by search, play
    kFast,      ///< the same check after clearing only the root's probe window (a replay)
    /// No check yet: the move (FIDE-legal) is set on the board without
    /// touching the table, and the next think's set-up plays it again on
    /// main()'s path (after finishing a clearing of the locks cut short),
    /// on the think's own thread and clock. An xboard move answered by a
    /// think: the command is done at once, so that a `ping` after it is too.
    kDeferred,
  };
  /// Plays an opponent's move like "e2e4" or "a7a8n". Returns "" if played,
  /// else why not ("not a move like e2e4", "illegal"). A move FIDE allows
  /// and the original's check refuses is set on the board directly (see note()).
  /// A move equal to the one the last think chose without playing it is recorded as ours.
  std::string playMove(std::string_view text, Path path = Path::kOriginal);
  /// Back to the start of this game (same start position), the table kept.
  void rewind();
  /// Takes back the moves after the first `plies` (restoring the position saved before each).
  void truncate(std::size_t plies);
  /// What the last playMove() had to do beyond main()'s path ("" if nothing).
  const std::string& note() const { return note_; }
  /// Takes back the last move by restoring the position saved before it
  /// (the table's locks are cleared before the next think, as main() would
  /// have cleared them before the move).
  bool undo();

  /// Sets the hash table to at most `megabytes` MB (see
  /// kDefaultHashMegabytes): a new, empty table when the size changes.
  /// Returns what to tell the user: the table's size and whether thinks
  /// are still the original's. A smaller table records no traces.
  std::string setHashMegabytes(long megabytes);

  /// Thinks and plays the move found (see the file comment for the path):
  /// choose(), then playChosen() when ThinkLimits::play.
  GameThink think(const ThinkLimits& limits);
  /// Thinks and chooses a move without playing it (GameThink::played false):
  /// with ThinkLimits::play the move is played by playChosen(), which a
  /// front end calls once it has sent the move; without (UCI) the GUI sends
  /// it back with the next position. Nothing of the table is touched after
  /// the search, so that the move can go out at once.
  GameThink choose(const ThinkLimits& limits);
  /// Plays the move choose() found with ThinkLimits::play on main()'s path
  /// (clear the locks, check, play) and records it; sets `think.played`. A
  /// move micro-Max's check refuses (FIDE allows it: the search chose it) is
  /// set on the board directly, as the GUI has it, and said in `think.note`.
  /// The check clears only the root's window: clearLocksAhead() is meant to
  /// follow, which wipes the rest (without it the next think plays the move
  /// again on main()'s path first).
  void playChosen(GameThink& think);
  /// For a move chosen and not played (UCI): checks it now and keeps the
  /// position after it, puts the position before it back and clears the
  /// locks ahead (clearLocksAhead). When the GUI sends that very move back
  /// next, playMove() sets that position without touching the table; the
  /// opponent's move after it meets the cleared locks, as on main()'s path
  /// (which clears them, checks our move, and clears them again for the
  /// opponent's), so only its check is left for when it arrives.
  void prepareChosen();
  /// main()'s clearing of the table's locks for the next move entered, done
  /// now (while the opponent thinks): as long as nothing touches the table
  /// before that move arrives, playMove() then only checks it, which is
  /// main()'s path on a table whose locks are all 0.
  void clearLocksAhead();
  /// The session is ending (quit, or the end of its input, read while
  /// earlier commands are still being handled); safe from any thread. From
  /// now on the table's work that only later thinks need stops: a sweep of
  /// the locks under way ends at its next piece of kSweepSlots slots (the
  /// table is then marked as not main()'s: locksStale), the population at
  /// its next 8 MB, and moves are checked without a sweep (Path::kFast).
  /// Nothing after it is node-identical to the original, which no longer
  /// matters: the session ends without another think. endSoon(false) takes
  /// it back, for the next session of a game lent to several (SessionOptions::game).
  void endSoon(bool ending = true);
  /// A command needs the game now (safe from any thread): a clearing of the
  /// locks under way (clearLocksAhead) stops at its next kSweepSlots slots
  /// and remembers where; the next think finishes it before its search if
  /// nothing touched the table since (else it plays the last move again on
  /// main()'s path, a whole clearing). cutSweep(false) takes it back.
  void cutSweep(bool cut = true) { cutSweep_ = cut; }
  /// True while every lock of the table is 0 and nothing touched it since
  /// (after clearLocksAhead() or newGame()).
  bool locksClearedAhead() const { return locksClearedAhead_; }
  /// Has the system give the table its memory, on a thread of its own
  /// (madvise MADV_POPULATE_WRITE, which keeps every byte as it is: the
  /// zeroes of the original's static table), and from now on every fresh
  /// table of this game too (newGame, setHashMegabytes). The front ends call
  /// it at start-up, so that no think faults the 192 MB in probe by probe
  /// (0.6 s for 368 nodes under load, counted as search time), and no
  /// command waits for it: only a think's set-up does (waitTable).
  void prepareTable();
  /// Waits until prepareTable()'s work on the table is done (at once if
  /// there is none), or until `stop` is raised; returns the seconds waited.
  /// Where the system cannot populate a mapping, the pages are touched here
  /// instead (each written with the value it holds), on the calling thread.
  double waitTable(const std::atomic<bool>* stop = nullptr);

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
  /// Attaches details (trace, budget...) to the move of the last think: the
  /// last move of the record, or the chosen move not played yet.
  void describeLastMove(const std::string& details);
  /// Counts games: 1 after the first newGame/setBoard, +1 for each.
  int gameNumber() const { return gameNumber_; }

  /// Wall time of the last legality check (main()'s path clears the 16M-slot
  /// table's locks for every move: a fixed cost per move on the clock).
  double lastCheckSeconds() const { return lastCheckSeconds_; }
  /// The engine (for tests and the trace recorder).
  Engine& engine() { return *engine_; }

 private:
  bool playOnEngine(int from, int to, char promotion, Path path);
  void recordChosen(const Position& before);
  void placeMove(const Position& before, int from, int to, char promotion);
  ThinkResult search(const ThinkLimits& limits, long& budgetUsed, bool& stopped);
  /// Starts populating the table in the background (tablePrepared_ false).
  void startPopulating();
  /// Ends the population under way, if any, and waits for its thread.
  void stopPopulating();
  /// main()'s clearing of every lock (Engine::clearHashLocks, the same
  /// writes), in pieces of kSweepSlots slots so that endSoon() can cut it
  /// short; false if it was cut short (then some locks are left).
  bool sweepLocks();
  /// Clears the locks from slot `first` on, in pieces (as sweepLocks); false
  /// if endSoon() or cutSweep() cut it short, sweepNext_ then the first slot left.
  bool sweepLocksFrom(std::size_t first);

  std::unique_ptr<Engine> engine_;
  std::string startFen_;
  Position start_;
  int startFullMove_ = 1;
  std::vector<PlayedMove> moves_;
  std::vector<Position> before_;    // the position before each move of moves_ (undo restores it)
  PlayedMove chosen_;               // the last think's move when it was not played (text "" if none)
  bool locksStale_ = false;         // positions were restored: clear the locks before the next think
  bool thoughtHere_ = false;        // the last think (not played) was from this very position
  bool locksClearedAhead_ = false;  // every lock is 0 and the table untouched since (see clearLocksAhead)
  bool prepareTables_ = false;      // prepareTable() was called: fresh tables get their memory too
  bool tablePrepared_ = false;      // the table in use has its memory (or is being given it)
  std::atomic<bool> touchPending_{false};  // populating is not supported: waitTable() touches the pages
  std::thread populator_;                  // gives the table its memory (prepareTable)
  std::atomic<bool> stopPopulating_{false};
  std::atomic<bool> populated_{true};  // the populator's work is over (its thread may still be joined)
  std::atomic<bool> ending_{false};    // endSoon(): the session ends, no think follows
  std::atomic<bool> cutSweep_{false};  // cutSweep(): a command waits for the clearing of the locks
  // A clearing of the locks cut short (cutSweep) at slot sweepNext_, the table untouched since:
  // finishing it leaves every lock 0, as the whole clearing does.
  bool resumeSweep_ = false;
  std::size_t sweepNext_ = 0;
  // The chosen move's main()'s path already run (prepareChosen): the position after it, valid
  // while the game is at ply preparedPly_ of game preparedGame_ (-1: none).
  Position preparedAfter_;
  long preparedPly_ = -1;
  int preparedGame_ = 0;
  // What choose() left for playChosen(): the position before the move, its from, to, promotion.
  Position chosenBefore_;
  int chosenFrom_ = 0;
  int chosenTo_ = 0;
  char chosenPromotion_ = 0;
  bool chosenPlays_ = false;  // chosen with ThinkLimits::play, not yet played
  int gameNumber_ = 0;
  std::string note_;
  std::string traceFailure_;   // the think's first trace failure
  bool traceTrimmed_ = false;  // a trace of the think was trimmed
  bool planEnded_ = false;     // the last search ended by the time plan
  double lastCheckSeconds_ = 0;
};

/// The coordinate text of a move, with a promotion letter if given.
std::string moveText(int from, int to, char promotion = 0);

}  // namespace umax::play
