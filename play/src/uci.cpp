// uci.cpp - the Universal Chess Interface: identification, positions with
// moves, go with its limits, info lines per iteration, stop and bestmove.
#include <cstdlib>
#include <optional>
#include <sstream>
#include <vector>

#include "session.h"
#include "umax/numbers.h"
#include "umax/play/fide.h"
#include "umax/search_rules.h"
#include "umax/session.h"

namespace umax::play {
namespace {

/// Deepest go depth accepted (plies).
constexpr long kMaxDepth = 96;

std::string scoreText(int score) {
  if (isMateScore(score)) return "mate " + std::to_string(mateInMoves(score));
  return "cp " + std::to_string(score);
}

/// Largest count kept: longer numbers are that many (every limit clamps far below it).
constexpr long kHugeCount = 1000000000000000L;

/// Parses a whole number with an optional sign; any number of digits, the
/// value saturating at +-kHugeCount (so "99999999999999" is a huge count,
/// which each limit then clamps, not an error). False if it is not a number.
bool parseCount(const std::string& text, long& value) {
  std::size_t index = text.empty() || (text[0] != '-' && text[0] != '+') ? 0 : 1;
  const bool negative = index == 1 && text[0] == '-';
  if (index >= text.size()) return false;
  long count = 0;
  for (; index < text.size(); ++index) {
    if (text[index] < '0' || text[index] > '9') return false;
    count = std::min(kHugeCount, count * 10 + (text[index] - '0'));
  }
  value = negative ? -count : count;
  return true;
}

class UciSession final : public Session {
 public:
  UciSession(std::ostream& out, const SessionOptions& options) : Session(out, options) {
    protocolName_ = "uci";
  }

  void refuse(const std::string&, const std::string& why) override { send("info string error " + why); }

  // isready while the engine calculates is answered at once (UCI): so too
  // while the lines before it only start or stop thinks (position, go,
  // stop, ponderhit) and a think runs or a go is among them, however long
  // their set-up takes (the last move's sweep of the locks, under load).
  // Anything else before it (setoption, ucinewgame...) is waited for.
  bool answerAtOnce(const std::string& command, const InboxState& ahead) override {
    if (command != "isready" || !ahead.onlyThinks || !(thinking() || ahead.goes > 0)) return false;
    send("readyok");
    return true;
  }

  bool handle(const std::string& command, const std::string& rest, const std::string& line) override {
    if (thinking()) {
      if (command == "isready") {
        send("readyok");
        return true;
      }
      if (command == "stop") {
        stopSeenNow();
        stopThink();
        flushBestMove();
        return true;
      }
      if (command == "quit") {
        abandonThink("quit");
        return false;
      }
      if (command == "ponderhit") {
        // go ponder thinks until now: the move found so far is the answer.
        stopSeenNow();
        stopThink();
        flushBestMove();
        return true;
      }
      // A GUI sends stop before anything else; anything else ends the think as stop would.
      stopSeenNow();
      stopThink();
      flushBestMove();
    }
    return dispatch(command, rest, line);
  }

 private:
  bool dispatch(const std::string& command, const std::string& rest, const std::string& line) {
    if (command == "quit") return false;
    if (command == "uci") {
      send("id name umax-readable (micro-Max 3.2)");
      send("id author H.G. Muller (micro-Max), micro-Max Anatomy (readable build)");
      send("option name Hash type spin default " + std::to_string(kDefaultHashMegabytes) + " min " +
           std::to_string(kMinHashMegabytes) + " max " + std::to_string(kDefaultHashMegabytes));
      send("uciok");
    } else if (command == "isready") {
      // Outside a think, ready means the table too: one still being given
      // its memory (start-up, ucinewgame, Hash) is waited for here, where
      // the GUI waits before it starts a clock, not in a think.
      game_.waitTable();
      send("readyok");
    } else if (command == "ucinewgame") {
      game_.newGame();
      startGameRecord();
    } else if (command == "position") {
      positionLine_ = lineNumber_;
      positionArrival_ = arrival_;
      position(rest);
    } else if (command == "go") {
      go(rest);
    } else if (command == "setoption") {
      setOption(rest);
    } else if (command == "debug") {
      debug_ = rest == "on";
    } else if (command == "stop" || command == "ponderhit" || command == "register") {
      // Nothing to stop / no options: accepted and ignored.
    } else {
      send("info string error unknown command: " + shownText(line, 80));
    }
    return true;
  }

  /// `setoption name Hash value N`: the only option.
  void setOption(const std::string& rest) {
    std::istringstream words(rest);
    std::string word;
    std::string name;
    std::string value;
    words >> word;
    if (word == "name") {
      while (words >> word && word != "value") name += (name.empty() ? "" : " ") + word;
      if (word == "value") words >> value;
    }
    if (name != "Hash" && name != "hash") {
      send("info string error unknown option: " + shownText(rest, 80));
      return;
    }
    // One rule with xboard's memory: below 1 MB refused, above 192 MB the original's table.
    long megabytes;
    if (!parseCount(value, megabytes) || megabytes < kMinHashMegabytes) {
      send("info string error Hash needs a size of at least " + std::to_string(kMinHashMegabytes) + " MB (" +
           std::to_string(kDefaultHashMegabytes) +
           " and above: the original's table): " + shownText(rest, 80));
      return;
    }
    requestHashMegabytes(megabytes);
  }

  void position(const std::string& rest) {
    std::istringstream words(rest);
    std::string word;
    words >> word;
    std::string fen;
    if (word == "fen") {
      std::string field;
      while (words >> field && field != "moves") fen += (fen.empty() ? "" : " ") + field;
      word = field == "moves" ? "moves" : "";
    } else if (word == "startpos") {
      word.clear();
      words >> word;
    } else {
      send("info string error position needs startpos or fen: position " + shownText(rest, 80));
      return;
    }
    if (!word.empty() && word != "moves") {
      send("info string error expected moves after the position, found " + shownText(word, 40));
      return;
    }
    std::vector<std::string> moves;
    while (words >> word) moves.push_back(word);

    // The moves the game shares with the list are kept; the rest are taken
    // back by restoring saved positions, and the new ones are played with the
    // fast check (milliseconds for hundreds of plies). The next think plays
    // the last move again on main()'s path (clear the locks, check, play), so
    // that a game the GUI continues move by move meets the original's table.
    const bool sameStart = fen.empty() ? game_.startFen().empty() : game_.startFen() == fen;
    if (!sameStart) {
      if (fen.empty()) {
        game_.newGame();
      } else {
        try {
          game_.setBoard(fen);
        } catch (const std::exception& refusal) {
          send("info string error " + std::string(refusal.what()));
          return;
        }
      }
      startGameRecord();
    }
    std::size_t shared = 0;
    while (shared < game_.moves().size() && shared < moves.size() &&
           game_.moves()[shared].text == normalized(moves[shared]))
      ++shared;
    if (shared < game_.moves().size()) {
      game_.truncate(shared);
      if (shared == 0) startGameRecord();
    }
    for (std::size_t index = game_.moves().size(); index < moves.size(); ++index) {
      const std::string why = game_.playMove(moves[index], Game::Path::kFast);
      if (!why.empty()) {
        send("info string error move " + std::to_string(index + 1) + " " + shownText(moves[index], 12) +
             " is " + (why == "illegal" ? "illegal" : why) + "; position ends before it");
        return;
      }
    }
    writeRecord();
  }

  static std::string normalized(const std::string& move) {
    std::string text = move;
    for (char& c : text) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c | 0x20 : c);
    return text;
  }

  /// Is `word` one of go's parameters (so that a searchmoves list ends before it)?
  static bool isGoParameter(const std::string& word) {
    for (const char* name : {"searchmoves", "ponder", "wtime", "btime", "winc", "binc", "movestogo", "depth",
                             "nodes", "mate", "movetime", "infinite"})
      if (word == name) return true;
    return false;
  }

  void go(const std::string& rest) {
    std::vector<std::string> words;
    {
      std::istringstream stream(rest);
      std::string word;
      while (stream >> word) words.push_back(word);
    }
    TimeControl control;
    double ourTime = -1;  // -1: no clock given
    double ourIncrement = 0;
    const bool white = game_.sideToMove() == kWhite;
    bool ponder = false;
    long mateMoves = 0;
    for (std::size_t index = 0; index < words.size(); ++index) {
      const std::string& word = words[index];
      if (word == "infinite") {
        control.infinite = true;
        continue;
      }
      if (word == "ponder") {
        ponder = true;
        continue;
      }
      if (word == "searchmoves") {
        // The original searches every root move: the list is skipped, the other limits kept.
        while (index + 1 < words.size() && !isGoParameter(words[index + 1])) ++index;
        send("info string searchmoves is not supported: searching all moves");
        continue;
      }
      long value;
      if (index + 1 >= words.size() || !parseCount(words[index + 1], value)) {
        refuseGo("go " + shownText(word, 20) + " needs a number");
        return;
      }
      ++index;
      // Numbers are clamped to what each limit can mean: a clock below 0
      // is 0 (xboard's time does the same), a count at least 1.
      if (word == "wtime" || word == "btime") {
        if ((word == "wtime") == white) ourTime = static_cast<double>(std::max(0L, value)) / 1000;
      } else if (word == "winc" || word == "binc") {
        if ((word == "winc") == white) ourIncrement = static_cast<double>(std::max(0L, value)) / 1000;
      } else if (word == "movestogo") {
        control.movesToGo = static_cast<int>(std::clamp(value, 0L, 100000L));
      } else if (word == "depth") {
        control.depth = static_cast<int>(std::clamp(value, 1L, kMaxDepth));
      } else if (word == "nodes") {
        control.fixedNodes = std::clamp(value, 1L, kMaxBudget);
      } else if (word == "movetime") {
        control.moveSeconds = static_cast<double>(std::max(1L, value)) / 1000.0;
      } else if (word == "mate") {
        // No mate search in the original: a mate in N shows within 2N - 1 plies.
        mateMoves = std::clamp(value, 1L, (kMaxDepth + 1) / 2);
      } else {
        refuseGo("go: unknown parameter " + shownText(word, 20));
        return;
      }
    }
    if (mateMoves > 0 && control.depth == 0) {
      control.depth = static_cast<int>(2 * mateMoves - 1);
      send("info string go mate " + std::to_string(mateMoves) + ": no mate search here, a search " +
           std::to_string(control.depth) + " plies deep instead (it finds a mate that short)");
    }
    if (ponder) {
      // Pondering is not offered (no Ponder option); a GUI that sends go
      // ponder anyway gets a think until ponderhit or stop, then the move.
      control.infinite = true;
      send("info string go ponder: pondering is not supported; thinking until ponderhit or stop");
    }
    infinite_ = control.infinite;
    control.timeLeft = ourTime;
    control.increment = ourIncrement;
    if (options_.fixedNodes > 0) control.fixedNodes = options_.fixedNodes;
    correct(control);
    const Budget budget = chooseBudget(control, nodesPerSecond());
    std::string plan =
        "info string budget " + std::to_string(budget.nodes) + " nodes (" + budget.reason + ")";
    if (control.fixedNodes == 0 && control.depth > 0)
      plan += "; the nodes of the last info line replay it with umax-probe --nodes";
    else if (budget.hardSeconds > 0)
      plan +=
          "; a think the clock stops before the budget is spent is not reproducible by umax-probe --nodes";
    // Only with debug on: polyglot shows every info string of a think as a
    // thinking line (and xboard then finds "Impossible move" in it).
    if (debug_) send(plan);
    const std::string over = game_.outcome();
    if (!over.empty()) {
      send("info string game over: " + over);
      send("bestmove 0000");
      return;
    }
    auto listener = [this](const Iteration& iteration) {
      const std::string line = infoLine(iteration);
      {
        std::lock_guard lock(bestMutex_);
        if (!iteration.midIteration) lastInfo_ = line;
        midPosted_ = iteration.midIteration;
      }
      send(line);
    };
    // go infinite (analysis) and go ponder: however long an iteration takes,
    // the last line comes again at least once a second with the nodes and
    // time of now (not kept as the line to repeat before bestmove).
    IterationListener pulse;
    if (control.infinite) pulse = [this](const Iteration& iteration) { send(infoLine(iteration)); };
    pendingBest_.clear();
    stopSeen_ = false;
    lastInfo_.clear();
    midPosted_ = false;
    // The think starts when the position it searches arrived, if that came just before.
    const auto clockStart = positionLine_ == lineNumber_ - 1 ? positionArrival_ : arrival_;
    startThink(
        budget, listener,
        [this](GameThink& think, const Budget&, double) {
          // No info string may follow the last info depth line (polyglot
          // shows it as a line of thinking): a note, which is rare, is
          // followed by that line again.
          std::lock_guard lock(bestMutex_);
          // A think stopped after a new best move was posted answers with
          // the last completed iteration's move: its line comes again.
          if (!think.note.empty()) send("info string " + think.note);
          if ((!think.note.empty() || midPosted_) && !lastInfo_.empty()) send(lastInfo_);
          midPosted_ = false;
          // The move is only chosen: the GUI sends it back with the next
          // position, which plays it on main()'s path as the original does.
          const std::string best = !think.move.empty() ? "bestmove " + think.move : "bestmove 0000";
          if (infinite_ && !stopSeen_) {
            pendingBest_ = best;  // go infinite (or ponder): bestmove only after stop or ponderhit
          } else {
            send(best);
          }
          // After bestmove, on the opponent's time: our move checked and the
          // locks cleared, so that the next position only checks the reply.
          game_.prepareChosen();
        },
        clockStart, false, pulse);
  }

  /// An info line: depth, score, nodes, nps and time of the search, and the line.
  static std::string infoLine(const Iteration& iteration) {
    const double seconds = iteration.seconds;  // the search's own time
    const long milliseconds = static_cast<long>(seconds * 1000);
    const long nps = seconds > 0 ? static_cast<long>(static_cast<double>(iteration.nodes) / seconds) : 0;
    return "info depth " + std::to_string(iteration.depth) + " score " + scoreText(iteration.score) +
           " nodes " + std::to_string(iteration.nodes) + " nps " + std::to_string(nps) + " time " +
           std::to_string(milliseconds) + " pv " + iteration.pv;
  }

  /// A go that cannot be read: the error, and a bestmove all the same (a
  /// GUI waits for one after every go), the null move 0000: no think ran.
  void refuseGo(const std::string& why) {
    send("info string error " + why + "; no think: bestmove 0000");
    send("bestmove 0000");
  }

  /// A stop (or what ends a think as one) has come: a bestmove already
  /// waiting for it goes out now, and the think's own goes out as soon as it
  /// is found, before the work after it (the check of our move and the
  /// clearing of the locks, which the stop would otherwise wait for: 0.1 to
  /// 0.6 s under load).
  void stopSeenNow() {
    std::lock_guard lock(bestMutex_);
    stopSeen_ = true;
    if (!pendingBest_.empty()) send(pendingBest_);
    pendingBest_.clear();
  }

  void flushBestMove() {
    std::lock_guard lock(bestMutex_);
    stopSeen_ = true;
    if (!pendingBest_.empty()) send(pendingBest_);
    pendingBest_.clear();
  }

  std::mutex bestMutex_;
  bool debug_ = false;  // debug on: the budget of each think as an info string
  bool infinite_ = false;
  bool stopSeen_ = false;
  std::string pendingBest_;
  std::string lastInfo_;    // the last info depth line of a completed iteration
  bool midPosted_ = false;  // a line for a new best move mid-iteration was sent after it
  long positionLine_ = -1;  // the line number of the last position command
  std::chrono::steady_clock::time_point positionArrival_;
};

}  // namespace

std::unique_ptr<Session> makeUciSession(std::ostream& out, const SessionOptions& options) {
  return std::make_unique<UciSession>(out, options);
}

}  // namespace umax::play
