// session.cpp - the think on a worker thread, its stop flag and hard timer,
// the speed estimate and the trace directory, shared by both protocols.
#include "session.h"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "umax/notation.h"

namespace umax::play {
namespace {

/// Share of a new measurement in the running speed estimate.
constexpr double kSpeedWeight = 0.5;
/// Thinks shorter than this say little about the speed.
constexpr double kShortestMeasuredThink = 0.05;

std::string threeDigits(int number) {
  const std::string text = std::to_string(number);
  // (Not text.insert(0, "0") in a loop: GCC 12 warns of a false -Wrestrict there.)
  return std::string(text.size() < 3 ? 3 - text.size() : 0, '0') + text;
}

/// Largest overshoot assumed (an iteration costs a few times the last).
constexpr double kMaxOvershoot = 8;

/// Share of the lateness kept from one stopped think to the next.
constexpr double kLatenessFade = 0.8;
/// Most lateness taken into account (seconds).
constexpr double kMaxLateness = 0.3;

/// CPU seconds the calling thread has run.
double threadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

}  // namespace

void Session::correct(TimeControl& control) const {
  // What a move costs our clock besides its search: the time from the
  // command's arrival to the search's start (the opponent's move checked,
  // the last move played again on main()'s path when needed). Our own move
  // is checked after it was sent, on the opponent's time.
  control.reservePerMove = setupSeconds_;
  control.afterThink = std::max(lateness_, starvedLateness_);
  control.overshoot = overshoot_;
}

bool cleanLine(std::string& line, std::size_t length, std::string& why) {
  length = std::max(length, line.size());
  if (!line.empty() && line.back() == '\r') {
    line.pop_back();
    --length;
  }
  if (length > kMaxCommandLength) {
    why = "line of " + std::to_string(length) + " characters is too long (at most " +
          std::to_string(kMaxCommandLength) + "; discarded)";
    line.resize(std::min<std::size_t>(line.size(), 60));
    return false;
  }
  for (char c : line) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 32 && byte != '\t') || byte == 127) {
      why = "line holds control bytes";
      return false;
    }
  }
  return true;
}

void splitCommand(const std::string& line, std::string& command, std::string& rest) {
  const std::size_t start = line.find_first_not_of(" \t");
  if (start == std::string::npos) {
    command.clear();
    rest.clear();
    return;
  }
  const std::size_t end = line.find_first_of(" \t", start);
  command = line.substr(start, end == std::string::npos ? std::string::npos : end - start);
  const std::size_t restStart =
      end == std::string::npos ? std::string::npos : line.find_first_not_of(" \t", end);
  rest = restStart == std::string::npos ? "" : line.substr(restStart);
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) rest.pop_back();
}

Session::Session(std::ostream& out, const SessionOptions& options)
    : out_(out),
      options_(options),
      ownGame_(options.game ? nullptr : std::make_unique<Game>()),
      game_(options.game ? *options.game : *ownGame_),
      nps_(options.initialNps) {
  game_.endSoon(false);  // a lent game's last session may have ended it
  if (options.game) game_.newGame();
  game_.engine().setVariant(options.variant);  // the Lab's --without / --depth, for every think
  // The table's 192 MB get their memory now, beside the first commands:
  // no think faults them in, and no command waits for them.
  game_.prepareTable();
}

Session::~Session() { abandonThink("the session ended"); }

bool Session::take(const std::string& raw, std::size_t length,
                   std::chrono::steady_clock::time_point arrival) {
  arrival_ = arrival;
  ++lineNumber_;
  std::string line = raw;
  std::string why;
  if (!cleanLine(line, length, why)) {
    refuse(line, why);
    return true;
  }
  std::string command;
  std::string rest;
  splitCommand(line, command, rest);
  if (command.empty()) return true;
  return handle(command, rest, line);
}

void Session::send(const std::string& line) {
  std::lock_guard lock(outMutex_);
  out_ << line << '\n';
  out_.flush();
}

void Session::endOfInput() {
  abandonThink("end of input");
  writeRecord();
}

void Session::runThink(const Budget& budget, IterationListener listener, Finish finish, bool play,
                       std::chrono::steady_clock::time_point clockStart) {
  ThinkLimits limits;
  limits.budget = budget.nodes;
  limits.depth = budget.depth;
  limits.stop = &stop_;
  limits.discard = &discard_;
  limits.discardReason = &abandonReason_;
  limits.listener = std::move(listener);
  limits.tracePath = nextTracePath();
  limits.traceLimitBytes = options_.traceLimitBytes;
  limits.play = play;
  limits.planSeconds = budget.planSeconds;
  limits.planStart = clockStart;
  const auto tBegin = std::chrono::steady_clock::now();
  const double cpuBegin = threadCpuSeconds();
  GameThink think = game_.choose(limits);
  const auto tChosen = std::chrono::steady_clock::now();
  {
    // How much of a core the think had: on a starved machine a stopped
    // think's move goes out late by about kLeastLateness over that share
    // (measured at a load of 20 under two hogs: a fifth of a core, the move
    // 0.2 s after the stop), so the next stops come that much sooner. The
    // share swings from one think to the next on a loaded machine (a think
    // with most of a core, the next stalled for 0.2 s), so the largest
    // lateness so expected is kept, fading by kLatenessFade a think.
    const double wall = std::chrono::duration<double>(tChosen - tBegin).count();
    if (wall >= kShortestMeasuredThink) {
      const double share = std::clamp((threadCpuSeconds() - cpuBegin) / wall, 0.01, 1.0);
      starvedLateness_ = std::max(
          {kLeastLateness, kLatenessFade * starvedLateness_, std::min(kMaxLateness, kLeastLateness / share)});
    }
  }
  {
    // The search is over: no pulse may come after the lines finish sends
    // (UCI repeats the line of the move it plays just before bestmove).
    std::lock_guard lock(progressMutex_);
    searching_ = false;
  }
  if (!think.traceFailure.empty() && !tracingStopped_) {
    // Told once: no more thinks are traced in this session (a full disk
    // stays full), and the game goes on.
    tracingStopped_ = true;
    const std::string text = "tracing stopped: " + think.traceFailure;
    send(protocolName_ == "uci" ? "info string " + text : "telluser " + text);
  }
  // The search alone: set-up before it and the move played after it are not the speed.
  const double seconds = think.searchSeconds;
  const double searchSeconds = seconds;
  if (think.searchStart != std::chrono::steady_clock::time_point{})
    setupSeconds_ = std::max(
        0.0, std::chrono::duration<double>(think.searchStart - clockStart).count() - think.tableWaitSeconds);
  if (searchSeconds >= kShortestMeasuredThink && think.result.nodes > 0)
    nps_ =
        (1 - kSpeedWeight) * nps_ + kSpeedWeight * (static_cast<double>(think.result.nodes) / searchSeconds);
  if (budget.hardSeconds > 0 && !think.stopped && !think.planEnded && think.budget > 0 &&
      think.result.nodes > 0) {
    const double ratio = std::clamp(
        static_cast<double>(think.result.nodes) / static_cast<double>(think.budget), 1.0, kMaxOvershoot);
    overshoot_ = (1 - kSpeedWeight) * overshoot_ + kSpeedWeight * ratio;
  } else if (think.stopped) {
    overshoot_ = std::min(kMaxOvershoot, overshoot_ * 1.5);  // the hard limit struck: plan smaller
  }
  // A trace file written again (a think after an undo) is no longer the one an "unplayed" line named.
  std::erase_if(unplayed_, [this](const auto& entry) {
    return !lastTraceFile_.empty() && entry.second.find(" " + lastTraceFile_ + " ") != std::string::npos;
  });
  if (!discard_) {
    // The move is chosen, not played yet: finish sends it, then plays it
    // (playChosen, xboard) or prepares it for the GUI's next position (UCI).
    if (!think.move.empty())
      game_.describeLastMove(details(think, think.traceFailure.empty() ? lastTraceFile_ : ""));
    if (budget.hardSeconds > 0 && think.stopped) {
      // How late after the timer's deadline the move goes out (the stop
      // unwinding, a loaded machine's scheduling): the next stops come that
      // much sooner. The largest lateness seen, fading by kLatenessFade a
      // think, never below kLeastLateness.
      const double late =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - clockStart).count() -
          budget.hardSeconds;
      lateness_ = std::max({kLeastLateness, kLatenessFade * lateness_, std::clamp(late, 0.0, kMaxLateness)});
    }
    finish(think, budget, seconds);
    writeRecord();
  } else if (!lastTraceFile_.empty()) {
    // The trace's footer holds the think's result, but its move was never
    // played: game.txt says so (umax-trace game and the Game panel read it).
    // After a FIDE-filtered first choice the result is a second search's,
    // not the trace's: "-".
    const int from = think.result.from;
    const int to = think.result.to;
    const std::string move = !think.filtered.empty() ? "-" : from == to ? "none" : moveName(from, to);
    unplayed_.emplace_back(game_.moves().size(), "unplayed " + std::to_string(game_.fullMove()) +
                                                     (game_.sideToMove() == kWhite ? " white " : " black ") +
                                                     move + " " + lastTraceFile_ + " " + abandonReason_);
    writeRecord();
  }
  {
    std::lock_guard lock(timerMutex_);
    thinkOver_ = true;
    moveOut_ = true;
  }
  timerWake_.notify_all();
}

void Session::moveSent() {
  {
    std::lock_guard lock(timerMutex_);
    moveOut_ = true;
  }
  timerWake_.notify_all();
}

void Session::stopThinkUntilMoved() {
  stop_ = true;
  if (!options_.threaded || !worker_.joinable()) return waitThink();
  std::unique_lock lock(timerMutex_);
  timerWake_.wait(lock, [this] { return moveOut_; });
}

void Session::requestHashMegabytes(long megabytes) {
  pendingHash_ = megabytes;
  if (!thinking()) applyHashSize();
}

void Session::applyHashSize() {
  if (pendingHash_ <= 0) return;
  const std::string note = game_.setHashMegabytes(pendingHash_);
  pendingHash_ = 0;
  send(protocolName_ == "uci" ? "info string " + note : "# " + note);
}

void Session::startThink(const Budget& budget, IterationListener listener, Finish finish,
                         std::chrono::steady_clock::time_point clockStart, bool play,
                         IterationListener pulse) {
  waitThink();
  applyHashSize();  // a size asked for during the last think
  stop_ = false;
  discard_ = false;
  thinkOver_ = false;
  moveOut_ = false;
  busy_ = true;
  {
    std::lock_guard lock(progressMutex_);
    heard_.reset();
    postedAt_ = std::chrono::steady_clock::now();
    searching_ = true;
  }
  // Every line the think posts is kept for progress() and pulses.
  IterationListener heard;
  if (listener)
    heard = [this, listener = std::move(listener)](const Iteration& iteration) {
      std::lock_guard lock(progressMutex_);
      heard_ = iteration;
      heardAt_ = postedAt_ = std::chrono::steady_clock::now();
      listener(iteration);
    };
  if (!options_.threaded) {
    runThink(budget, std::move(heard), std::move(finish), play, clockStart);
    busy_ = false;
    return;
  }
  if (budget.hardSeconds > 0 || pulse) {
    const auto deadline = clockStart + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                           std::chrono::duration<double>(budget.hardSeconds));
    timer_ = std::thread([this, deadline, hasDeadline = budget.hardSeconds > 0, pulse = std::move(pulse)] {
      runClock(deadline, hasDeadline, pulse);
    });
  }
  worker_ = std::thread([this, budget, heard = std::move(heard), finish = std::move(finish), play,
                         clockStart] { runThink(budget, heard, finish, play, clockStart); });
}

void Session::runClock(std::chrono::steady_clock::time_point deadline, bool hasDeadline,
                       const IterationListener& pulse) {
  std::unique_lock lock(timerMutex_);
  for (;;) {
    auto wake = hasDeadline ? deadline : std::chrono::steady_clock::now() + std::chrono::hours(1);
    if (pulse) wake = std::min(wake, pulseDue());
    if (timerWake_.wait_until(lock, wake, [this] { return thinkOver_; })) return;
    if (hasDeadline && std::chrono::steady_clock::now() >= deadline) {
      stop_ = true;
      return;
    }
    if (pulse) {
      lock.unlock();  // the worker's end (thinkOver_) must not wait for a line
      postPulse(pulse);
      lock.lock();
    }
  }
}

std::chrono::steady_clock::time_point Session::pulseDue() {
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(progressMutex_);
  const auto due = postedAt_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                   std::chrono::duration<double>(kPulseSeconds));
  // Nothing to post yet (no line heard): look again soon.
  return std::max(due, now + std::chrono::milliseconds(50));
}

void Session::postPulse(const IterationListener& pulse) {
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(progressMutex_);
  if (!searching_ || std::chrono::duration<double>(now - postedAt_).count() < kPulseSeconds) return;
  const std::optional<Iteration> line = progressAt(now);
  if (!line) return;
  postedAt_ = now;
  pulse(*line);  // under progressMutex_: no newer line of the think goes out before it
}

std::optional<Iteration> Session::progress() {
  std::lock_guard lock(progressMutex_);
  return progressAt(std::chrono::steady_clock::now());
}

// The last line heard, its nodes those the engine has counted by now (the
// search's counter, read while it runs) and its seconds those of the search
// by now (the line's own, which count from the search's start, plus the time since).
std::optional<Iteration> Session::progressAt(std::chrono::steady_clock::time_point now) const {
  if (!heard_) return std::nullopt;
  Iteration line = *heard_;
  line.nodes = std::max(line.nodes, game_.engine().thinkNodes());
  line.seconds += std::chrono::duration<double>(now - heardAt_).count();
  return line;
}

void Session::waitThink() {
  if (worker_.joinable()) worker_.join();
  if (timer_.joinable()) timer_.join();
  busy_ = false;
}

void Session::stopThink() {
  stop_ = true;
  waitThink();
}

void Session::abandonThink(const std::string& why) {
  if (busy_) abandonReason_ = why;  // read by the think once discard_ is up
  discard_ = true;
  stop_ = true;
  // A think that has sent its move may be clearing the locks for the next
  // one: that stops at its next piece, and the next think finishes it.
  game_.cutSweep();
  waitThink();
  game_.cutSweep(false);
}

std::string Session::nextTracePath() {
  lastTraceFile_.clear();
  if (options_.traceDir.empty() || tracingStopped_) return "";
  namespace fs = std::filesystem;
  std::error_code error;
  if (gameFolder_.empty()) {
    for (int number = 1;; ++number) {
      const fs::path folder = fs::path(options_.traceDir) / ("game-" + threeDigits(number));
      if (!fs::exists(folder, error)) {
        fs::create_directories(folder, error);
        if (error) {
          const std::string text = "trace-dir: cannot create " + folder.string() + ": " + error.message();
          send(protocolName_ == "uci" ? "info string " + text : "# " + text);
          return "";
        }
        gameFolder_ = folder.string();
        break;
      }
    }
  }
  lastTraceFile_ =
      threeDigits(game_.fullMove()) + (game_.sideToMove() == kWhite ? "-white.trc" : "-black.trc");
  return (fs::path(gameFolder_) / lastTraceFile_).string();
}

std::string Session::details(const GameThink& think, const std::string& traceFile) {
  std::string text;
  if (!traceFile.empty()) text += " trace " + traceFile + (think.traceTrimmed ? " trace-trimmed" : "");
  text += " budget " + std::to_string(think.budget) + " nodes " + std::to_string(think.result.nodes) +
          " score " + std::to_string(think.result.score);
  if (think.stopped) text += " stopped";
  if (!think.filtered.empty()) text += " fide-filter " + think.filtered;
  return text;
}

void Session::startGameRecord() {
  gameFolder_.clear();
  result_.clear();
  unplayed_.clear();
}

void Session::recordResult(const std::string& line) {
  result_ = line;
  writeRecord();
}

// game.txt is written whole to game.txt.new and then renamed over it: a
// full disk leaves the last complete record (or none), never an empty or
// cut one, and the GUI is told once.
void Session::writeRecord() {
  if (gameFolder_.empty()) return;
  namespace fs = std::filesystem;
  const fs::path path = fs::path(gameFolder_) / "game.txt";
  const fs::path fresh = fs::path(gameFolder_) / "game.txt.new";
  std::ofstream record(fresh);
  record << "# umax-readable game record (one line per fact; '#' lines are comments)\n";
  record << "protocol " << protocolName_ << "\n";
  record << (game_.startFen().empty() ? "start startpos" : "start fen " + game_.startFen()) << "\n";
  int number = game_.startFullMove();
  int side = game_.startSide();
  std::size_t played = 0;
  auto unplayed = unplayed_.begin();
  for (const PlayedMove& move : game_.moves()) {
    for (; unplayed != unplayed_.end() && unplayed->first == played; ++unplayed)
      record << unplayed->second << "\n";
    ++played;
    record << "move " << number << (side == kWhite ? " white " : " black ") << move.text
           << (move.byEngine ? " engine" + move.details : std::string(" opponent")) << "\n";
    if (side == kBlack) ++number;
    side = opponentOf(side);
  }
  for (; unplayed != unplayed_.end(); ++unplayed) record << unplayed->second << "\n";
  if (!result_.empty()) record << "result " << result_ << "\n";
  record.close();
  std::error_code error;
  if (record) fs::rename(fresh, path, error);
  if (!record || error) {
    fs::remove(fresh, error);
    if (!recordFailed_) {
      recordFailed_ = true;
      const std::string text =
          "cannot write " + path.string() + " (disk full?): the game record keeps its last version";
      send(protocolName_ == "uci" ? "info string " + text : "telluser " + text);
    }
  }
}

}  // namespace umax::play
