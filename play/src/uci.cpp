// uci.cpp - the Universal Chess Interface: identification, positions with
// moves, go with its limits, info lines per iteration, stop and bestmove.
#include <cstdlib>
#include <sstream>
#include <vector>

#include "session.h"
#include "umax/play/fide.h"
#include "umax/session.h"

namespace umax::play {
namespace {

/// Scores beyond this mean a mate was seen; the original halves the mated
/// side's -kInfinity and each ply towards the root takes one off.
constexpr int kMateScore = kInfinity / 2;

std::string scoreText(int score) {
  if (score > kMateBound || score < -kMateBound) {
    const int plies = kMateScore - (score > 0 ? score : -score) + 1;
    const int moves = (plies + 1) / 2;
    return "mate " + std::to_string(score > 0 ? moves : -moves);
  }
  return "cp " + std::to_string(score);
}

bool parseCount(const std::string& text, long& value) {
  if (text.empty() || text.size() > 12) return false;
  char* end = nullptr;
  value = std::strtol(text.c_str(), &end, 10);
  return end && *end == 0;
}

class UciSession final : public Session {
 public:
  UciSession(std::ostream& out, const SessionOptions& options) : Session(out, options) {
    protocolName_ = "uci";
  }

  bool handle(const std::string& raw) override {
    std::string line = raw;
    std::string why;
    if (!cleanLine(line, why)) {
      send("info string error " + why);
      return true;
    }
    std::string command;
    std::string rest;
    splitCommand(line, command, rest);
    if (command.empty()) return true;

    if (thinking()) {
      if (command == "isready") {
        send("readyok");
        return true;
      }
      if (command == "stop") {
        stopThink();
        flushBestMove();
        return true;
      }
      if (command == "quit") {
        abandonThink();
        return false;
      }
      if (command == "ponderhit") return true;
      // A GUI sends stop before anything else; anything else ends the think as stop would.
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
      send("uciok");
    } else if (command == "isready") {
      send("readyok");
    } else if (command == "ucinewgame") {
      game_.newGame();
      startGameRecord();
    } else if (command == "position") {
      position(rest);
    } else if (command == "go") {
      go(rest);
    } else if (command == "stop" || command == "ponderhit" || command == "debug" || command == "setoption" ||
               command == "register") {
      // Nothing to stop / no options: accepted and ignored.
    } else {
      send("info string error unknown command: " + shownText(line, 80));
    }
    return true;
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

    // A position that continues the current game plays only the new moves,
    // keeping the table as the original's game loop does; any other starts
    // the game again from its position (the table is kept, as between the
    // original's moves; ucinewgame clears it).
    const bool sameStart = fen.empty() ? game_.startFen().empty() : game_.startFen() == fen;
    bool continues = sameStart && moves.size() >= game_.moves().size();
    for (std::size_t index = 0; continues && index < game_.moves().size(); ++index)
      continues = game_.moves()[index].text == normalized(moves[index]);
    if (!continues) {
      if (fen.empty()) {
        restartFromStart();
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
    for (std::size_t index = game_.moves().size(); index < moves.size(); ++index) {
      const std::string why = game_.playMove(moves[index]);
      if (!why.empty()) {
        send("info string error move " + std::to_string(index + 1) + " " + shownText(moves[index], 12) +
             " is " + (why == "illegal" ? "illegal" : why) + "; position ends before it");
        return;
      }
    }
    writeRecord();
  }

  /// main()'s start again, the table kept (the original never clears it between games).
  void restartFromStart() {
    if (game_.startFen().empty())
      game_.rewind();
    else
      game_.newGame();
  }

  static std::string normalized(const std::string& move) {
    std::string text = move;
    for (char& c : text) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c | 0x20 : c);
    return text;
  }

  void go(const std::string& rest) {
    std::istringstream words(rest);
    std::string word;
    TimeControl control;
    double ourTime = -1;
    double ourIncrement = 0;
    const bool white = game_.sideToMove() == kWhite;
    infinite_ = false;
    while (words >> word) {
      if (word == "infinite") {
        control.infinite = infinite_ = true;
        continue;
      }
      if (word == "ponder") continue;
      if (word == "searchmoves") {
        send("info string error searchmoves is not supported; searching all moves");
        while (words >> word) {
        }
        break;
      }
      std::string valueText;
      long value;
      if (!(words >> valueText) || !parseCount(valueText, value)) {
        send("info string error go " + shownText(word, 20) + " needs a number");
        return;
      }
      if (word == "wtime" || word == "btime") {
        if ((word == "wtime") == white) ourTime = static_cast<double>(value) / 1000;
      } else if (word == "winc" || word == "binc") {
        if ((word == "winc") == white) ourIncrement = static_cast<double>(value) / 1000;
      } else if (word == "movestogo") {
        control.movesToGo = static_cast<int>(std::max(0L, value));
      } else if (word == "depth") {
        control.depth = static_cast<int>(std::clamp(value, 1L, 98L));
      } else if (word == "nodes") {
        control.fixedNodes = std::max(1L, value);
      } else if (word == "movetime") {
        control.moveSeconds = std::max(1L, value) / 1000.0;
      } else if (word == "mate") {
        // No mate search in the original: a plain think.
      } else {
        send("info string error go: unknown parameter " + shownText(word, 20));
        return;
      }
    }
    control.timeLeft = ourTime >= 0 ? std::max(0.0, ourTime) : -1;
    control.increment = ourIncrement;
    if (options_.fixedNodes > 0) control.fixedNodes = options_.fixedNodes;
    correct(control);
    const Budget budget = chooseBudget(control, nodesPerSecond());
    send("info string budget " + std::to_string(budget.nodes) + " nodes (" + budget.reason + ")");
    const std::string over = game_.outcome();
    if (!over.empty()) {
      send("info string game over: " + over);
      send("bestmove 0000");
      return;
    }
    const auto start = std::chrono::steady_clock::now();
    auto listener = [this, start](const Iteration& iteration) {
      if (iteration.from == iteration.to) return;  // iteration 1 from an empty root slot looks at no move
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const long milliseconds = static_cast<long>(seconds * 1000);
      const long nps = seconds > 0 ? static_cast<long>(static_cast<double>(iteration.nodes) / seconds) : 0;
      send("info depth " + std::to_string(iteration.depth) + " score " + scoreText(iteration.score) +
           " nodes " + std::to_string(iteration.nodes) + " nps " + std::to_string(nps) + " time " +
           std::to_string(milliseconds) + " pv " + iteration.pv);
    };
    pendingBest_.clear();
    stopSeen_ = false;
    startThink(budget, listener, [this](const GameThink& think, const Budget&, double) {
      if (!think.note.empty()) send("info string " + think.note);
      send("info string budget " + std::to_string(think.budget) + " nodes" +
           (think.stopped ? " (stopped before the budget was spent: not reproducible by umax-probe --nodes)"
                          : ""));
      // The move is on the board of our game record; a GUI sends the whole
      // game again with its next position command, which continues it.
      const std::string best = think.played ? "bestmove " + think.move : "bestmove 0000";
      std::lock_guard lock(bestMutex_);
      if (infinite_ && !stopSeen_) {
        pendingBest_ = best;  // go infinite: bestmove only after stop
      } else {
        send(best);
      }
    });
  }

  void flushBestMove() {
    std::lock_guard lock(bestMutex_);
    stopSeen_ = true;
    if (!pendingBest_.empty()) send(pendingBest_);
    pendingBest_.clear();
  }

  std::mutex bestMutex_;
  bool infinite_ = false;
  bool stopSeen_ = false;
  std::string pendingBest_;
};

}  // namespace

std::unique_ptr<Session> makeUciSession(std::ostream& out, const SessionOptions& options) {
  return std::make_unique<UciSession>(out, options);
}

}  // namespace umax::play
