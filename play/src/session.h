// session.h - what the xboard and UCI front ends share: the game, the output
// stream, the think on a worker thread with its stop flag and hard timer, the
// speed estimate, and the trace directory. Internal to umax_play.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <istream>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "umax/play/budget.h"
#include "umax/play/game.h"
#include "umax/play/protocol.h"

namespace umax::play {

/// Analysis posts a line whenever this long has passed without one, so that
/// a GUI hears from it at least once a second during a long iteration.
inline constexpr double kPulseSeconds = 0.9;

/// The least lateness assumed for a stopped think's move (seconds): before
/// any stopped think of the session measured one (a game's first move is
/// often the one the timer stops: the speed is not known yet), and after
/// many stopped in time. On two cores loaded with two CPU hogs the move went
/// out 0.02 to 0.13 s after the deadline.
inline constexpr double kLeastLateness = 0.05;

/// The longest command line accepted; longer lines are refused whole. A
/// line is read in pieces: at most this many characters (and one) are kept,
/// the rest of an overlong line is only counted, so memory stays bounded.
inline constexpr std::size_t kMaxCommandLength = 4096;

/// Reads one line ('\n' removed) from `in`, keeping at most `limit` + 1 of its
/// characters in `line` and its whole length in `length`. False at end of input.
bool readBoundedLine(std::istream& in, std::string& line, std::size_t& length, std::size_t limit);

/// What the lines read and not yet handled (the one being handled
/// included) hold, for Session::answerAtOnce.
struct InboxState {
  bool onlyThinks = true;  ///< every one is position, go, stop, ponderhit, isready or `.`
  int goes = 0;            ///< how many are `go`
};

class Session {
 public:
  Session(std::ostream& out, const SessionOptions& options);
  virtual ~Session();

  /// Handles a line just read (of `length` characters, of which `line` may
  /// hold only the first kMaxCommandLength + 1): a line cleanLine refuses
  /// goes to refuse(), a blank one is skipped, any other to handle(); false
  /// when the session should end.
  /// `arrival`: when the line was read (a think's clock counts from there).
  bool take(const std::string& line, std::size_t length,
            std::chrono::steady_clock::time_point arrival = std::chrono::steady_clock::now());
  /// Called by the reading thread for each line as it arrives (threaded
  /// sessions): true if the line was answered now and is not to be handled
  /// in turn. Only for lines whose answer may overtake the lines before them
  /// (`ahead`): thread-safe reads of the session, send().
  virtual bool answerAtOnce(const std::string& /*command*/, const InboxState& /*ahead*/) { return false; }
  /// The session's last line (quit, or the end of input) has been read
  /// while earlier lines are still being handled: the table's work for later
  /// thinks stops (Game::endSoon). Safe from any thread.
  void endSoon() { game_.endSoon(); }
  /// Handles one clean line: its first word `command`, the `rest`, the whole
  /// `line`; false when the session should end (quit).
  virtual bool handle(const std::string& command, const std::string& rest, const std::string& line) = 0;
  /// Tells the GUI, in the protocol's form, that `line` was refused and `why`.
  virtual void refuse(const std::string& line, const std::string& why) = 0;
  /// End of input: abandon any think, write the record.
  void endOfInput();

 protected:
  /// What to do when a think is done (called on the thinking thread).
  /// It gets the move chosen, not played: it sends it first, then plays it
  /// (Game::playChosen) or prepares it (Game::prepareChosen).
  using Finish = std::function<void(GameThink& think, const Budget& budget, double seconds)>;

  /// Writes one line (with a newline) and flushes; safe from any thread.
  void send(const std::string& line);
  /// Starts a think with `budget` (its hard limit counted from `clockStart`);
  /// `finish` reports and records the move. With `play` false the move is only chosen (UCI).
  /// With a `pulse` (analysis), a line is posted at least once a second
  /// however long an iteration takes: whenever kPulseSeconds pass without
  /// one from `listener`, `pulse` gets progress().
  void startThink(const Budget& budget, IterationListener listener, Finish finish,
                  std::chrono::steady_clock::time_point clockStart, bool play = true,
                  IterationListener pulse = {});
  /// What the think under way has found so far: the last line its listener
  /// was given (depth, score, best line), with the nodes and the search's
  /// seconds of now. Empty before the first line.
  std::optional<Iteration> progress();
  /// Sets the hash size (MB) now, or when the think running has ended;
  /// the user is told the size (a comment line or info string).
  void requestHashMegabytes(long megabytes);
  /// True while a think runs.
  bool thinking() const { return busy_; }
  /// Waits until the think (if any) has ended.
  void waitThink();
  /// Ends the think now; its move is still played and reported.
  void stopThink();
  /// Ends the think now and waits until its move has been sent (moveSent()),
  /// not for the work after it (our move's check, the clearing of the locks):
  /// xboard's `?`, whose move must come before the answer to any later command.
  void stopThinkUntilMoved();
  /// Called by a think's finish right after its move line went out.
  void moveSent();
  /// Ends the think now and plays nothing; a traced think is recorded in
  /// game.txt as not played, `why` ("quit", "end of input", ...).
  void abandonThink(const std::string& why = "the session ended");

  /// Nodes per second: measured over the last thinks.
  double nodesPerSecond() const { return nps_; }
  /// Puts the measured corrections (fixed cost per move, overshoot) into a clock.
  void correct(TimeControl& control) const;
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

  /// When the line being handled was read (a think's time counts from there).
  std::chrono::steady_clock::time_point arrival_ = std::chrono::steady_clock::now();
  /// Lines taken so far (the one being handled included).
  long lineNumber_ = 0;

  std::ostream& out_;
  SessionOptions options_;
  std::unique_ptr<Game> ownGame_;  // unless options.game lends one
  Game& game_;
  std::string protocolName_;

 private:
  void runThink(const Budget& budget, IterationListener listener, Finish finish, bool play,
                std::chrono::steady_clock::time_point clockStart);
  void applyHashSize();
  /// The clock of a think (a thread of its own): raises the stop flag at
  /// `deadline` (if `hasDeadline`), and posts a `pulse` line (if any) when
  /// the think has been quiet for kPulseSeconds; ends with the think.
  void runClock(std::chrono::steady_clock::time_point deadline, bool hasDeadline,
                const IterationListener& pulse);
  /// When the next pulse is due: kPulseSeconds after the last line.
  std::chrono::steady_clock::time_point pulseDue();
  /// Posts progress() through `pulse` if the think has been quiet long enough.
  void postPulse(const IterationListener& pulse);
  /// progress() at `now`, progressMutex_ held.
  std::optional<Iteration> progressAt(std::chrono::steady_clock::time_point now) const;

  std::mutex outMutex_;
  std::thread worker_;
  std::thread timer_;
  std::atomic<bool> busy_{false};
  std::atomic<bool> stop_{false};
  std::atomic<bool> discard_{false};
  std::mutex timerMutex_;
  std::condition_variable timerWake_;
  bool thinkOver_ = false;
  bool moveOut_ = false;  // the think's move went out (or the think is over), guarded by timerMutex_
  double nps_;
  double overshoot_ = 1;  // running average of nodes / budget of clock thinks
  // How late after the timer's deadline a stopped think's move went out
  // (fading maximum, never below kLeastLateness, which is also assumed before any was measured).
  double lateness_ = kLeastLateness;
  // The lateness expected from the share of a core the last think had: kLeastLateness / share.
  double starvedLateness_ = kLeastLateness;
  double setupSeconds_ = 0;  // the last think's set-up: from the command's arrival to its search
  // What the think has posted (progress()), guarded by progressMutex_,
  // which is held while a line is sent so that no pulse overtakes a newer line.
  std::mutex progressMutex_;
  std::optional<Iteration> heard_;                  // the last line the listener was given
  std::chrono::steady_clock::time_point heardAt_;   // when
  std::chrono::steady_clock::time_point postedAt_;  // the last line of the think posted, or its start
  bool searching_ = false;                          // pulses may be posted (the think's search runs)
  std::string gameFolder_;
  std::string lastTraceFile_;
  bool recordFailed_ = false;    // game.txt could not be written: the GUI was told
  bool tracingStopped_ = false;  // a trace could not be written: the GUI was told, no more traces
  std::string result_;
  long pendingHash_ = 0;       // MB asked for during a think (0: none)
  std::string abandonReason_;  // why the think under way is abandoned (set before discard_)
  /// game.txt's "unplayed" lines: each with the number of moves played before it.
  std::vector<std::pair<std::size_t, std::string>> unplayed_;
};

/// Cleans a line read from the GUI (`length` characters long, of which
/// `line` may hold only the first ones): strips a trailing CR; returns false
/// (and sets `why`) for lines that are too long or hold control bytes.
bool cleanLine(std::string& line, std::size_t length, std::string& why);

/// The first word of a line and the rest (leading blanks removed).
void splitCommand(const std::string& line, std::string& command, std::string& rest);

}  // namespace umax::play
