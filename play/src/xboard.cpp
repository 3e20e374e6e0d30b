// xboard.cpp - the Chess Engine Communication Protocol (CECP v2) as xboard
// and WinBoard speak it: features, the game commands, clocks and thinking output.
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "session.h"
#include "umax/numbers.h"
#include "umax/play/fide.h"
#include "umax/search_rules.h"

namespace umax::play {
namespace {

/// The features we offer after `protover 2`: only what is really supported.
constexpr const char* kFeatures =
    "feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 "
    "analyze=1 colors=0 ics=0 name=0 pause=0 nps=0 debug=1 memory=1 smp=0 exclude=0 setscore=0 "
    "variants=\"normal\" myname=\"umax-readable (micro-Max 3.2)\" done=1";

/// Commands a GUI sends that need no action from us.
bool isIgnored(const std::string& command) {
  for (const char* word : {"xboard", "accepted", "rejected", "hard", "easy", "random", "computer", "name",
                           "rating", "ics", "cores", "egtpath", "option", "draw", "bk", "otim"})
    if (command == word) return true;
  return false;
}

/// Parses a number (umax::parseDecimal); false if `text` is not one.
bool parseNumber(const std::string& text, double& value) {
  const std::optional<double> parsed = parseDecimal(text, -DBL_MAX, DBL_MAX);
  if (parsed) value = *parsed;
  return parsed.has_value();
}

/// Parses "5" (minutes) or "0:30" (minutes:seconds) into seconds.
bool parseBaseTime(const std::string& text, double& seconds) {
  const std::size_t colon = text.find(':');
  double minutes;
  if (colon == std::string::npos) {
    if (!parseNumber(text, minutes) || minutes < 0) return false;
    seconds = 60 * minutes;
    return true;
  }
  double extra;
  if (!parseNumber(text.substr(0, colon), minutes) || !parseNumber(text.substr(colon + 1), extra) ||
      minutes < 0 || extra < 0)
    return false;
  seconds = 60 * minutes + extra;
  return true;
}

/// Commands that change the game (a think in progress is abandoned first).
bool changesGame(const std::string& command, const std::string& rest) {
  for (const char* word : {"new", "force", "setboard", "undo", "remove", "result", "usermove", "white",
                           "black", "go", "playother", "variant", "edit"})
    if (command == word) return true;
  int from;
  int to;
  // Protocol 1 sends moves without "usermove".
  return (command.size() == 4 || command.size() == 5) && parseMove(command.substr(0, 4), from, to) &&
         rest.empty();
}

/// A score as xboard shows it: centipawns, or +-(100000 + moves) for a mate.
long xboardScore(int score) {
  if (isMateScore(score))
    return mateInMoves(score) > 0 ? 100000 + mateInMoves(score) : -100000 + mateInMoves(score);
  return score;
}

class XboardSession final : public Session {
 public:
  XboardSession(std::ostream& out, const SessionOptions& options) : Session(out, options) {
    protocolName_ = "xboard";
  }

  void refuse(const std::string& line, const std::string& why) override {
    send("Error (" + why + "): " + printable(line));
  }

  // `.` asks for the analysis's status and changes nothing: while the
  // analysis thinks, the reading thread answers it as it arrives, whatever
  // lines wait before it (else it is handled in turn: an analysis about to
  // start again after a move answers it then).
  bool answerAtOnce(const std::string& command, const InboxState&) override {
    if (command != "." || !analyze_ || !thinking()) return false;
    send(status());
    return true;
  }

  bool handle(const std::string& command, const std::string& rest, const std::string& line) override {
    // While we think, every command is answered at once and the think goes
    // on (ping, post, easy, time...: none touches the game being searched);
    // ? moves now, quit ends, and what changes the game ends the think
    // without a move.
    if (command == ".") {
      // Analysis status: answered during analysis only (xboard sends . only then).
      if (analyze_ && thinking()) send(status());
      return true;
    }
    if (thinking()) {
      if (command == "?") {
        // The move before anything later is answered; the work after it
        // (our move's check, the clearing of the locks) goes on meanwhile.
        if (!analyze_) stopThinkUntilMoved();  // analysis has no move to make
        return true;
      }
      if (command == "quit") {
        abandonThink("quit");
        return false;
      }
      if (changesGame(command, rest) || command == "exit" || command == "analyze")
        abandonThink("'" + command + "' arrived");
    }
    if (changesGame(command, rest)) {
      std::lock_guard lock(hintMutex_);
      hint_.clear();
    }
    const bool goOn = dispatch(command, rest, line);
    // Analysis goes on in the position the command left (a move, an undo, a new board).
    if (goOn && analyze_ && !thinking()) analyze();
    return goOn;
  }

 private:
  bool dispatch(const std::string& command, const std::string& rest, const std::string& line) {
    if (command == "quit") return false;
    if (command == "protover") {
      send(kFeatures);
    } else if (command == "new") {
      game_.newGame();
      startGameRecord();
      requestedSide_ = 0;
      force_ = false;
      engineSide_ = kBlack;
      ourMoves_ = 0;
      control_.depth = 0;
      control_.moveSeconds = moveSecondsSet_;
    } else if (command == "force") {
      force_ = true;
    } else if (command == "go") {
      if (!applyRequestedSide(line)) return true;
      force_ = false;
      engineSide_ = game_.sideToMove();
      think();
    } else if (command == "playother") {
      force_ = false;
      engineSide_ = opponentOf(game_.sideToMove());
    } else if (command == "white" || command == "black") {
      setSideToMove(command == "white" ? kWhite : kBlack);
    } else if (command == "usermove") {
      if (applyRequestedSide(line)) userMove(rest);
    } else if (command == "setboard") {
      setBoard(rest);
    } else if (command == "ping") {
      // Outside a think, the pong also says the table is ready: a table still
      // being given its memory (start-up, new, memory) is waited for here,
      // where xboard waits before it starts a clock, not in a think.
      if (!thinking()) game_.waitTable();
      send("pong " + rest);
    } else if (command == "memory") {
      // One rule with UCI's Hash: below 1 MB refused, above 192 MB the original's table.
      double megabytes;
      if (!parseNumber(rest, megabytes) || megabytes < kMinHashMegabytes)
        return error("memory needs a size of at least 1 MB", line);
      requestHashMegabytes(static_cast<long>(std::min(megabytes, 1.0e6)));
    } else if (command == "level") {
      level(rest, line);
    } else if (command == "st") {
      double seconds;
      if (!parseNumber(rest, seconds) || seconds <= 0)
        return error("st needs a positive number of seconds", line);
      moveSecondsSet_ = control_.moveSeconds = seconds;
    } else if (command == "sd") {
      double depth;
      if (!parseNumber(rest, depth) || depth < 1 || depth > 98) return error("sd needs a depth 1..98", line);
      control_.depth = static_cast<int>(depth);  // plies, as GUIs mean them (see kDraftOfDepthOne)
    } else if (command == "time") {
      double centiseconds;
      if (!parseNumber(rest, centiseconds)) return error("time needs centiseconds", line);
      control_.timeLeft = std::max(0.0, centiseconds / 100);
    } else if (command == "undo") {
      if (!game_.undo()) return error("no move to undo", line);
    } else if (command == "remove") {
      if (game_.moves().size() < 2) return error("fewer than two moves to remove", line);
      game_.undo();
      game_.undo();
    } else if (command == "result") {
      force_ = true;
      recordResult(rest);
    } else if (command == "post") {
      post_ = true;
    } else if (command == "nopost") {
      post_ = false;
    } else if (command == "?") {
      // Not thinking: nothing to move now.
    } else if (command == "hint") {
      std::string hint;
      {
        std::lock_guard lock(hintMutex_);
        hint = hint_;
      }
      if (!hint.empty()) send("Hint: " + hint);  // the reply our last think expected
    } else if (command == "variant") {
      if (rest != "normal") return error("only variant normal is played", line);
    } else if (command == "analyze") {
      analyze_ = true;  // the think starts below (handle)
    } else if (command == "exit") {
      analyze_ = false;
    } else if (command == "edit" || command == "pause" || command == "resume" || command == "nps" ||
               command == "exclude" || command == "include" || command == "setscore") {
      return error("not supported", line);
    } else if (isIgnored(command)) {
      // Nothing to do.
    } else {
      int from;
      int to;
      if ((command.size() == 4 || command.size() == 5) && parseMove(command.substr(0, 4), from, to) &&
          rest.empty()) {
        if (applyRequestedSide(line)) userMove(command);  // protocol 1 sends moves without "usermove"
      } else
        return error("unknown command", line);
    }
    return true;
  }

  bool error(const std::string& what, const std::string& line) {
    send("Error (" + what + "): " + printable(line));  // no raw bytes, no 4 KB echo
    return true;
  }

  static std::string printable(const std::string& line) {
    std::string text;
    for (std::size_t index = 0; index < line.size() && index < 60; ++index) {
      const auto byte = static_cast<unsigned char>(line[index]);
      text += (byte >= 32 && byte < 127) ? line[index] : '?';
    }
    if (line.size() > 60) text += "...";
    return text;
  }

  // The old colours idiom (`black`, `time`, `otim`, `white`, `go`): `white`
  // or `black` names the side on move and gives us the other one. The side
  // is only noted here and put on the board when a move or a think comes, so
  // that the usual black-then-white pair leaves main()'s start untouched.
  void setSideToMove(int side) {
    engineSide_ = opponentOf(side);
    requestedSide_ = side;
  }

  /// Puts the side `white`/`black` asked for on move, if it is not already;
  /// false (with an error line) if the position cannot have that side on move.
  bool applyRequestedSide(const std::string& line) {
    const int side = requestedSide_;
    requestedSide_ = 0;
    if (side == 0 || game_.sideToMove() == side) return true;
    Position position = game_.position();
    position.side = side;
    try {
      game_.setBoard(toFen(position, game_.fullMove()));
    } catch (const std::exception& refusal) {
      error(std::string("cannot put that side on move: ") + refusal.what(), line);
      return false;
    }
    startGameRecord();
    return true;
  }

  void userMove(const std::string& text) {
    if (text.empty()) {
      send("Error (usermove needs a move like e2e4): usermove");
      return;
    }
    // In force mode (a GUI setting up a game) the fast check; a think plays
    // the last move again on main()'s path before it starts.
    // A move our think answers is only set on the board here: main()'s check
    // of it (on the locks cleared after our last move) is the think's set-up,
    // on its thread and clock, so that the command is done at once and a
    // `ping` after it is answered at once too.
    const bool thinkFollows = analyze_ || (!force_ && opponentOf(game_.sideToMove()) == engineSide_);
    const std::string why = game_.playMove(text, force_         ? Game::Path::kFast
                                                 : thinkFollows ? Game::Path::kDeferred
                                                                : Game::Path::kOriginal);
    if (!why.empty()) {
      send(why == "illegal" ? "Illegal move: " + printable(text)
                            : "Illegal move (" + why + "): " + printable(text));
      return;
    }
    if (!game_.note().empty()) send("# " + game_.note());
    writeRecord();
    if (!force_ && !analyze_ && game_.sideToMove() == engineSide_) think();
  }

  void setBoard(const std::string& fen) {
    requestedSide_ = 0;
    try {
      game_.setBoard(fen);
    } catch (const std::exception& refusal) {
      send("tellusererror Illegal position: " + std::string(refusal.what()));
      send("Error (" + std::string(refusal.what()) + "): setboard " + printable(fen));
      return;
    }
    startGameRecord();
  }

  void level(const std::string& rest, const std::string& line) {
    std::istringstream words(rest);
    std::string movesText;
    std::string baseText;
    std::string incrementText;
    double moves;
    double base;
    double increment;
    if (!(words >> movesText >> baseText >> incrementText) || !parseNumber(movesText, moves) || moves < 0 ||
        !parseBaseTime(baseText, base) || !parseNumber(incrementText, increment) || increment < 0) {
      error("level needs MPS BASE INC, e.g. level 40 5 0 or level 0 0:30 1", line);
      return;
    }
    movesPerSession_ = static_cast<int>(moves);
    control_.increment = increment;
    control_.timeLeft = base;
    control_.moveSeconds = moveSecondsSet_ = 0;
  }

  /// A thinking line as xboard reads it: depth, score, centiseconds of search, nodes, line.
  static std::string thinkingLine(const Iteration& iteration) {
    const auto centiseconds = static_cast<long>(iteration.seconds * 100);
    return std::to_string(iteration.depth) + " " + std::to_string(xboardScore(iteration.score)) + " " +
           std::to_string(centiseconds) + " " + std::to_string(iteration.nodes) + " " + iteration.pv;
  }

  /// Analysis (xboard's analyze mode): a think without limit (but --nodes N's
  /// budget) that posts its lines and plays nothing, until exit or a command
  /// that changes the game.
  void analyze() {
    if (!game_.outcome().empty()) return;
    TimeControl control;
    control.infinite = true;
    control.fixedNodes = options_.fixedNodes;  // --nodes N bounds an analysis too (as UCI's go infinite)
    const Budget budget = chooseBudget(control, nodesPerSecond());
    IterationListener listener = [this](const Iteration& iteration) { send(thinkingLine(iteration)); };
    analysisStart_ = std::chrono::steady_clock::now().time_since_epoch().count();
    rootMoves_ = static_cast<int>(fideLegalMoves(game_.position()).size());
    // However long an iteration takes, the last line comes again at least
    // once a second with the nodes and time of now.
    startThink(
        budget, listener, [](GameThink&, const Budget&, double) {}, arrival_, false, listener);
  }

  /// The answer to `.` during analysis: stat01: centiseconds, nodes, the
  /// depth under way, moves left and moves in all at the root. The search
  /// does not tell which root move it is on, so both counts are the root's
  /// legal moves, and no move is named.
  std::string status() {
    const std::optional<Iteration> line = progress();
    // Before the first line: the time since the analysis began, no depth yet.
    const double seconds =
        line ? line->seconds
             : std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch() -
                                             std::chrono::steady_clock::duration(analysisStart_.load()))
                   .count();
    const long nodes = line ? line->nodes : game_.engine().thinkNodes();
    // A completed iteration's line: the next one is under way.
    const int depth = !line ? 0 : line->midIteration ? line->depth : line->depth + 1;
    return "stat01: " + std::to_string(static_cast<long>(seconds * 100)) + " " + std::to_string(nodes) + " " +
           std::to_string(depth) + " " + std::to_string(rootMoves_) + " " + std::to_string(rootMoves_);
  }

  /// Our think: the budget from the control, thinking lines if posted, then `move`.
  void think() {
    const std::string over = game_.outcome();
    if (!over.empty()) {
      send(over);
      recordResult(over);
      return;
    }
    TimeControl control = control_;
    control.fixedNodes = options_.fixedNodes;
    if (movesPerSession_ > 0) control.movesToGo = movesPerSession_ - (ourMoves_ % movesPerSession_);
    if (control.timeLeft < 0 && control.moveSeconds <= 0 && control.depth == 0 && control.fixedNodes == 0)
      control.timeLeft = 300;  // no control given: as xboard's default, 5 minutes per game
    correct(control);
    const Budget budget = chooseBudget(control, nodesPerSecond());
    IterationListener listener = [this](const Iteration& iteration) {
      const std::string line = thinkingLine(iteration);
      {
        std::lock_guard lock(hintMutex_);
        if (!iteration.midIteration) {
          lastLine_ = iteration.pv;
          lastPosted_ = line;
        }
        midPosted_ = iteration.midIteration && post_;
      }
      if (post_) send(line);  // post / nopost may come during the think
    };
    startThink(
        budget, listener,
        [this](GameThink& think, const Budget& planned, double) {
          {
            // A think stopped after a new best move was posted plays the
            // last completed iteration's move: its line comes last.
            std::lock_guard lock(hintMutex_);
            if (midPosted_ && !lastPosted_.empty()) send(lastPosted_);
            midPosted_ = false;
            lastPosted_.clear();
          }
          if (!think.note.empty()) send("# " + think.note);
          send("# budget " + std::to_string(think.budget) + " nodes (" + planned.reason + ")" +
               (think.stopped
                    ? "; stopped before the budget was spent, not reproducible by umax-probe --nodes"
                    : ""));
          if (think.move.empty()) {
            send("# no move: " + think.note);
            return;
          }
          // The move goes out first; main()'s check of it and the clearing of
          // the locks for the opponent's move follow, on the opponent's time.
          ++ourMoves_;
          send("move " + think.move);
          moveSent();
          const std::string noteBefore = think.note;
          game_.playChosen(think);
          if (think.note != noteBefore)
            send("# " + think.note.substr(noteBefore.empty() ? 0 : noteBefore.size() + 2));
          {
            // The last line's second move, if it is a legal reply to the move played: the hint.
            std::lock_guard lock(hintMutex_);
            std::istringstream line(lastLine_);
            std::string ours;
            std::string reply;
            line >> ours >> reply;
            int from;
            int to;
            hint_.clear();
            if (think.played && ours == think.move.substr(0, 4) && parseMove(reply, from, to) &&
                isFideLegal(game_.position(), from, to))
              hint_ = reply;
            lastLine_.clear();
          }
          const std::string over = game_.outcome();
          if (!over.empty()) {
            send(over);
            recordResult(over);
          }
          game_.clearLocksAhead();
        },
        arrival_);
  }

  bool force_ = false;
  // (Read by the reading thread too: `.`.)
  std::atomic<bool> analyze_{false};  // analyze mode: think without end, play nothing
  std::atomic<std::chrono::steady_clock::rep> analysisStart_{0};  // when the analysis think started
  std::atomic<int> rootMoves_{0};                                 // legal moves in the analysed position
  std::mutex hintMutex_;
  std::string hint_;               // the reply the last think's line expects ("" if none)
  std::string lastLine_;           // the think's last line (read by the thinking thread)
  std::string lastPosted_;         // the last completed iteration's thinking line
  bool midPosted_ = false;         // a mid-iteration line was posted after it
  std::atomic<bool> post_{false};  // read by the thinking thread
  int requestedSide_ = 0;          // side named by white/black, not yet on the board (0: none)
  int engineSide_ = kBlack;
  int movesPerSession_ = 0;
  int ourMoves_ = 0;
  double moveSecondsSet_ = 0;
  TimeControl control_;
};

}  // namespace

std::unique_ptr<Session> makeXboardSession(std::ostream& out, const SessionOptions& options) {
  return std::make_unique<XboardSession>(out, options);
}

}  // namespace umax::play
