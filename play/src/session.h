// session.h - what the xboard and UCI front ends share: the game, the output
// stream, the think on a worker thread with its stop flag and hard timer, the
// speed estimate, and the trace directory. Internal to umax_play.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "umax/play/budget.h"
#include "umax/play/game.h"
#include "umax/play/protocol.h"

namespace umax::play {

/// The longest command line accepted; longer lines are refused whole.
inline constexpr std::size_t kMaxCommandLength = 4096;

class Session {
 public:
  Session(std::ostream& out, const SessionOptions& options);
  virtual ~Session();

  /// Handles one line; false when the session should end (quit).
  virtual bool handle(const std::string& line) = 0;
  /// End of input: abandon any think, write the record.
  void endOfInput();

 protected:
  /// What to do when a think is done (called on the thinking thread).
  using Finish = std::function<void(const GameThink& think, const Budget& budget, double seconds)>;

  /// Writes one line (with a newline) and flushes; safe from any thread.
  void send(const std::string& line);
  /// Starts a think with `budget`; `finish` reports and records the move.
  void startThink(const Budget& budget, IterationListener listener, Finish finish);
  /// True while a think runs.
  bool thinking() const { return busy_; }
  /// Waits until the think (if any) has ended.
  void waitThink();
  /// Ends the think now; its move is still played and reported.
  void stopThink();
  /// Ends the think now and plays nothing.
  void abandonThink();

  /// Nodes per second: measured over the last thinks.
  double nodesPerSecond() const { return nps_; }
  /// Puts the measured corrections (fixed cost per move, overshoot) into a clock.
  void correct(TimeControl& control) const;
  /// Notes the cost of the opponent's move just played (its legality check).
  void noteOpponentMove() { opponentCheck_ = game_.lastCheckSeconds(); }
  /// The trace file for the next think ("" if not tracing); creates the game folder.
  std::string nextTracePath();
  /// Records `line` as the game's result, then rewrites game.txt.
  void recordResult(const std::string& line);
  /// Rewrites game.txt (if tracing and the game has a folder).
  void writeRecord();
  /// Forgets the game folder: the next think starts a new one.
  void startGameRecord();
  /// The think's details for game.txt.
  static std::string details(const GameThink& think, const std::string& traceFile);

  std::ostream& out_;
  SessionOptions options_;
  std::unique_ptr<Game> ownGame_;  // unless options.game lends one
  Game& game_;
  std::string protocolName_;

 private:
  void runThink(const Budget& budget, IterationListener listener, Finish finish);

  std::mutex outMutex_;
  std::thread worker_;
  std::thread timer_;
  std::atomic<bool> busy_{false};
  std::atomic<bool> stop_{false};
  std::atomic<bool> discard_{false};
  std::mutex timerMutex_;
  std::condition_variable timerWake_;
  bool thinkOver_ = false;
  double nps_;
  double overshoot_ = 1;      // running average of nodes / budget of clock thinks
  double ourCheck_ = 0;       // the last legality check of our move (seconds)
  double opponentCheck_ = 0;  // the last legality check of the opponent's move
  std::string gameFolder_;
  std::string lastTraceFile_;
  bool recordFailed_ = false;    // game.txt could not be written: the GUI was told
  bool tracingStopped_ = false;  // a trace could not be written: the GUI was told, no more traces
  std::string result_;
};

/// Cleans a line read from the GUI: strips a trailing CR; returns false (and
/// sets `why`) for lines that are too long or hold control bytes.
bool cleanLine(std::string& line, std::string& why);

/// The first word of a line and the rest (leading blanks removed).
void splitCommand(const std::string& line, std::string& command, std::string& rest);

}  // namespace umax::play
