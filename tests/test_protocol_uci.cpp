// The UCI front end, driven in-process as a UCI GUI (or polyglot) drives an
// engine: identification, positions with moves, go and its limits, info
// lines, bestmove, and errors that keep the game.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engines.h"
#include "protocol_support.h"
#include "umax/play/fide.h"

using namespace umax;
using namespace umax::test;

TEST_CASE("uci is answered with id and uciok, isready with readyok", "[protocol][uci]") {
  const std::string output = converse(play::Protocol::kUci, "uci\nisready\n");
  CHECK(linesAfter(output, "id name ").size() == 1);
  CHECK(linesAfter(output, "id author ").size() == 1);
  CHECK(hasLine(output, "uciok"));
  CHECK(hasLine(output, "readyok"));
}

TEST_CASE("a fixed-node game through UCI gives the original's moves", "[protocol][uci][equivalence]") {
  // A GUI sends the whole game before each go; the engine plays only the new moves.
  constexpr long kBudget = 30000;
  constexpr int kPlies = 16;
  const std::vector<std::string> expected = originalSelfPlay("minimal", kPlies, kBudget);
  REQUIRE(expected.size() == kPlies);  // every move the original found was legal
  // Feed the moves the original found back as the GUI would; the engine must find each one itself.
  std::string input = "uci\nucinewgame\nisready\n";
  std::string moves;
  for (const std::string& move : expected) {
    input += "position startpos" + (moves.empty() ? std::string() : " moves" + moves) + "\ngo nodes " +
             std::to_string(kBudget) + "\n";
    moves += " " + move;
  }
  CHECK(movesAfter(converse(play::Protocol::kUci, input), "bestmove ") == expected);
}

TEST_CASE("go depth, go nodes and go movetime report a budget that replays the think", "[protocol][uci]") {
  const std::string output = converse(
      play::Protocol::kUci, "uci\ndebug on\nucinewgame\nposition startpos moves e2e4 e7e5\ngo depth 5\n");
  const std::vector<std::string> budgets = linesAfter(output, "info string budget ");
  REQUIRE(budgets.size() == 1);  // the plan; no info string after the thinking lines
  CHECK(budgets[0].find("the nodes of the last info line replay it") != std::string::npos);
  const std::vector<std::string> infoLines = linesAfter(output, "info depth ");
  REQUIRE(!infoLines.empty());
  const std::string& last = infoLines.back();
  const long nodes = std::stol(last.substr(last.find(" nodes ") + 7));
  const std::vector<std::string> best = linesAfter(output, "bestmove ");
  REQUIRE(best.size() == 1);
  auto original = makeEngine("minimal");
  setUpGame(*original, "", "e2e4 e7e5");
  const ThinkResult result = original->think(nodes);
  CHECK(best[0] == squareName(result.from) + squareName(result.to));
  // info lines: depth, score, nodes, nps, time and pv, one per iteration.
  const std::vector<std::string> infos = linesAfter(output, "info depth ");
  REQUIRE(!infos.empty());
  for (const char* field : {" score cp ", " nodes ", " nps ", " time ", " pv "}) {
    CAPTURE(field);
    CHECK(infos.back().find(field) != std::string::npos);
  }
  CHECK(std::stoi(infos.back()) == 5);
  // The pv, read back from the hash table, is a line of legal moves that starts with the best move.
  const std::string pv = infos.back().substr(infos.back().find(" pv ") + 4);
  CHECK(pv.rfind(best[0], 0) == 0);
  Position position = original->position();
  std::istringstream line(pv);
  std::string move;
  int plies = 0;
  auto replay = makeEngine("readable");
  replay->setPosition(position);
  while (line >> move) {
    CAPTURE(pv, move);
    int from;
    int to;
    REQUIRE(parseMove(move, from, to));
    CHECK(play::isFideLegal(replay->position(), from, to));
    REQUIRE(replay->playMove(from, to));
    ++plies;
  }
  CHECK(plies >= 3);
}

TEST_CASE("UCI errors are info string lines and the game is kept", "[protocol][uci][bad-input]") {
  const std::string output = converse(
      play::Protocol::kUci,
      "uci\nposition startpos moves e2e4\nfoo\ngo nodes\ngo wtime x\nposition\nposition fen 8/8 w\n"
      "position startpos moves e2e4 e7e7\ngo\x01\nposition startpos moves e2e4 e7e5\ngo bogus 1\nisready\n");
  CHECK(hasLine(output, "info string error unknown command: foo"));
  CHECK(hasLine(output, "info string error go nodes needs a number; no think: bestmove 0000"));
  CHECK(hasLine(output, "info string error go wtime needs a number; no think: bestmove 0000"));
  CHECK(linesAfter(output, "info string error position needs startpos or fen").size() == 1);
  CHECK(linesAfter(output, "info string error bad FEN").size() == 1);
  CHECK(hasLine(output, "info string error move 2 e7e7 is illegal; position ends before it"));
  CHECK(hasLine(output, "info string error line holds control bytes"));
  CHECK(hasLine(output, "info string error go: unknown parameter bogus; no think: bestmove 0000"));
  CHECK(hasLine(output, "readyok"));
  // Every go was refused, and each still got its bestmove (a GUI waits for one): the null move.
  CHECK(linesAfter(output, "bestmove ") == std::vector<std::string>{"0000", "0000", "0000"});
}

TEST_CASE("go infinite thinks until stop, and isready is answered meanwhile, through a pipe",
          "[protocol][uci][pipes]") {
  const std::string output = pipeSession(
      "printf 'uci\\nposition startpos moves e2e4\\ngo infinite\\n'; sleep 1; printf 'isready\\n'; sleep 0.5;"
      " printf 'stop\\n'; sleep 0.5; printf 'quit\\n'",
      30);
  checkAnsweredBefore(output, "readyok", "bestmove ");  // answered while thinking
  CHECK(output.find("info depth ") != std::string::npos);
}

TEST_CASE("isready overtakes only lines that start or stop thinks, through a pipe",
          "[protocol][uci][pipes]") {
  // The input is read ahead on a thread of its own. The first isready waits for the Hash before
  // it (its readyok says the new table is there); the second, behind position and go only, is
  // answered as the engine calculates, before the think's bestmove.
  const std::string output = pipeSession(
      "printf 'uci\\nsetoption name Hash value 16\\nisready\\nposition startpos\\ngo movetime "
      "400\\nisready\\n';"
      " sleep 1.5; printf 'quit\\n'",
      30);
  const std::vector<std::string> lines = splitLines(output);
  std::vector<std::size_t> ready;
  std::size_t hash = lines.size();
  std::size_t best = lines.size();
  for (std::size_t index = 0; index < lines.size(); ++index) {
    if (lines[index] == "readyok") ready.push_back(index);
    if (lines[index].rfind("info string hash table ", 0) == 0) hash = std::min(hash, index);
    if (lines[index].rfind("bestmove ", 0) == 0) best = std::min(best, index);
  }
  CAPTURE(output);
  REQUIRE(ready.size() == 2);
  REQUIRE(hash < lines.size());
  REQUIRE(best < lines.size());
  CHECK(hash < ready[0]);
  CHECK(ready[1] < best);
}

TEST_CASE("go infinite posts an info line at least once a second during long iterations",
          "[protocol][uci][pipes]") {
  // Driven by the engine's own clock, not by sleeps: `stop` goes once a line
  // says the search has run 7 s (on a loaded machine that takes longer; a
  // fixed sleep once left the search 2.8 s of its 7).
  PipedEngine engine("--uci");
  engine.send("uci");
  engine.send("isready");
  REQUIRE(engine.awaitLine("readyok"));
  engine.send("position startpos moves e2e4");
  engine.send("go infinite");
  const auto searchTime = [](const std::string& line) {
    if (line.rfind("info depth ", 0) != 0) return 0L;
    const std::size_t at = line.find(" time ");
    return at == std::string::npos ? 0L : std::stol(line.substr(at + 6));
  };
  CHECK(engine.await([&](const std::string& line) { return searchTime(line) >= 7000; }));
  engine.send("stop");
  CHECK(engine.await([](const std::string& line) { return line.rfind("bestmove ", 0) == 0; }));
  engine.send("quit");
  CHECK(engine.finish() == 0);
  const std::string output = engine.output();
  struct Line {
    int depth;
    long milliseconds;
    long nodes;
    std::string pv;
  };
  std::vector<Line> lines;
  std::vector<std::string> texts;
  for (const std::string& text : splitLines(output)) {
    if (text.rfind("info depth ", 0) != 0) continue;
    // A think stopped mid-iteration sends the last completed iteration's line
    // again before bestmove (it plays that line's move): not a new line.
    if (std::find(texts.begin(), texts.end(), text) != texts.end()) continue;
    texts.push_back(text);
    std::istringstream fields(text);
    Line line{};
    std::string word;
    while (fields >> word) {
      if (word == "depth") fields >> line.depth;
      if (word == "time") fields >> line.milliseconds;
      if (word == "nodes") fields >> line.nodes;
      if (word == "pv") std::getline(fields, line.pv);
    }
    lines.push_back(line);
  }
  REQUIRE(lines.size() >= 2);
  CHECK(lines.back().milliseconds >= 3000);
  int repeated = 0;
  for (std::size_t index = 1; index < lines.size(); ++index) {
    CAPTURE(index, lines[index - 1].milliseconds, lines[index].milliseconds);
    CHECK(lines[index].milliseconds - lines[index - 1].milliseconds <= 3000);
    CHECK(lines[index].milliseconds >= lines[index - 1].milliseconds);
    CHECK(lines[index].nodes >= lines[index - 1].nodes);
    if (lines[index].depth == lines[index - 1].depth && lines[index].pv == lines[index - 1].pv &&
        lines[index].milliseconds > lines[index - 1].milliseconds)
      ++repeated;
  }
  CHECK(repeated >= 2);
  CHECK(linesAfter(output, "bestmove ").size() == 1);
}

TEST_CASE("go movetime ends the think in time", "[protocol][uci][pipes]") {
  // End of input 3 s after go abandons a think without a bestmove, so a
  // bestmove shows that the 0.5 s think ended well before.
  const std::string output =
      pipeSession("printf 'uci\\ndebug on\\nposition startpos\\ngo movetime 500\\n'; sleep 3", 30, "--uci");
  CHECK(output.find("info string budget ") != std::string::npos);
  CHECK(output.find("(move time 0.500 s") != std::string::npos);
  CHECK(output.find("bestmove ") != std::string::npos);
}

TEST_CASE(
    "go depth 1 finds the mate in one, in UCI's mate notation, and a second go searches the same position",
    "[protocol][uci]") {
  const std::string output = converse(play::Protocol::kUci,
                                      "uci\nucinewgame\nposition startpos moves f2f3 e7e5 g2g4\n"
                                      "go wtime 30000 btime 30000 depth 1\ngo depth 3\ngo depth 3\n");
  const std::vector<std::string> best = linesAfter(output, "bestmove ");
  REQUIRE(best.size() == 3);
  for (const std::string& move : best) CHECK(move == "d8h4");
  CHECK(output.find("a8a8") == std::string::npos);
  CHECK(output.find("FIDE filter") == std::string::npos);
  // Every think reports depth, score and line, a think answered from the table too.
  const std::vector<std::string> lines = splitLines(output);
  int thinks = 0;
  std::string lastInfo;
  for (const std::string& line : lines) {
    if (line.rfind("info depth ", 0) == 0) lastInfo = line;
    if (line.rfind("bestmove ", 0) == 0) {
      ++thinks;
      CAPTURE(thinks);
      CHECK(lastInfo.find(" score mate 1 ") != std::string::npos);
      CHECK(lastInfo.find(" pv d8h4") != std::string::npos);
      lastInfo.clear();
    }
  }
  CHECK(thinks == 3);
}

TEST_CASE("no info string follows the last info depth line of a think", "[protocol][uci]") {
  // polyglot shows an info string after the thinking lines as a line of thinking.
  const std::string output = converse(
      play::Protocol::kUci,
      "uci\nucinewgame\nposition startpos moves e2e4\ngo depth 4\nposition startpos moves e2e4 e7e5\n"
      "go nodes 20000\ngo movetime 300\n");
  bool sawDepth = false;
  int thinks = 0;
  for (const std::string& line : splitLines(output)) {
    if (line.rfind("info depth ", 0) == 0) sawDepth = true;
    CAPTURE(line);
    if (sawDepth) CHECK(line.rfind("info string", 0) != 0);
    if (line.rfind("bestmove ", 0) == 0) {
      ++thinks;
      CHECK(sawDepth);
      sawDepth = false;
    }
  }
  CHECK(thinks == 3);
}

TEST_CASE("go searchmoves keeps the depth, go mate searches that deep, go ponder waits for ponderhit",
          "[protocol][uci]") {
  const std::string output = converse(play::Protocol::kUci,
                                      "uci\nucinewgame\nposition startpos\ngo searchmoves a2a3 b2b3 depth 2\n"
                                      "position startpos moves f2f3 e7e5 g2g4\ngo mate 1\n");
  CHECK(hasLine(output, "info string searchmoves is not supported: searching all moves"));
  const std::vector<std::string> infos = linesAfter(output, "info depth ");
  REQUIRE(!infos.empty());
  const std::vector<std::string> best = linesAfter(output, "bestmove ");
  REQUIRE(best.size() == 2);
  CHECK(best[1] == "d8h4");
  CHECK(linesAfter(output, "info string go mate 1: ").size() == 1);
  // The depth-2 think ended after depth 2: its last info line says so.
  const std::vector<std::string> lines = splitLines(output);
  std::string lastInfo;
  for (const std::string& line : lines) {
    if (line.rfind("info depth ", 0) == 0) lastInfo = line;
    if (line.rfind("bestmove ", 0) == 0) break;
  }
  CHECK(lastInfo.rfind("info depth 2 ", 0) == 0);
}

TEST_CASE("go ponder thinks until ponderhit, then answers, through a pipe", "[protocol][uci][pipes]") {
  const std::string output = pipeSession(
      "printf 'uci\\nposition startpos moves e2e4\\ngo ponder wtime 100000 btime 100000\\n'; sleep 1; "
      "printf 'isready\\n'; sleep 0.5; printf 'ponderhit\\n'; sleep 0.5; printf 'quit\\n'",
      30, "--uci");
  checkAnsweredBefore(output, "readyok", "bestmove ");  // go ponder did not answer at once
}

TEST_CASE("a position of 200 plies replays without the original's check per ply, and continues the game",
          "[protocol][uci]") {
  // 200 plies (the knights out and back, 50 times), sent whole: a fresh
  // engine replays them with the fast check, then thinks.
  std::vector<std::string> game;
  for (int round = 0; round < 50; ++round)
    for (const char* move : {"g1f3", "g8f6", "f3g1", "f6g8"}) game.push_back(move);
  std::string list;
  for (const std::string& move : game) list += " " + move;
  const std::string output = converse(
      play::Protocol::kUci, "uci\nucinewgame\nposition startpos moves" + list + "\nisready\ngo nodes 2000\n");
  CHECK(linesAfter(output, "info string error").empty());
  CHECK(hasLine(output, "readyok"));
  REQUIRE(linesAfter(output, "bestmove ").size() == 1);
  CHECK(sharedGame().moves().size() == game.size());
  const Board board = sharedGame().position().board;
  const Board start = startBoard();
  for (int square = 0; square < 128; ++square) {
    CAPTURE(square);
    CHECK((board[square] & ~kVirgin) == (start[square] & ~kVirgin));  // the knights are home again
  }
}

TEST_CASE("the Hash option sizes the table: the default is the original's, a smaller one says it leaves it",
          "[protocol][uci][hash]") {
  play::Game& game = sharedGame();
  long filledInside = 0;
  long filledOutside = 0;
  const std::string output =
      converseWatching(play::Protocol::kUci,
                       "uci\nsetoption name Hash value 16\nucinewgame\nposition startpos\n"
                       "go nodes 20000\nisready\n",
                       [&](const std::string& line) {
                         if (line.rfind("bestmove ", 0) != 0) return;
                         // As the think left it (the locks are cleared after bestmove).
                         const std::span<const HashEntry> table = game.engine().hashTable();
                         const std::size_t used = (std::size_t{1} << 20) + kProbeSlots;
                         for (std::size_t slot = 0; slot < table.size(); slot += 97)
                           (slot < used ? filledInside : filledOutside) += table[slot].lock != 0;
                       });
  CHECK(hasLine(output, "option name Hash type spin default 192 min 1 max 192"));
  // 16 MB holds 2^20 + 9 slots of 12 bytes (12 MB), not 2^21 (24 MB).
  checkSmallerTable(output, "info string hash table ", 20, 16);
  REQUIRE(linesAfter(output, "bestmove ").size() == 1);
  // The think stored only in the smaller table: the original's slots past it stay empty.
  CHECK(filledInside > 0);
  CHECK(filledOutside == 0);

  const std::string back = converse(play::Protocol::kUci, "uci\nsetoption name Hash value 192\nisready\n");
  const std::vector<std::string> again = linesAfter(back, "info string hash table ");
  REQUIRE(again.size() == 1);
  checkOriginalTableBack(again);
  const std::string refused = converse(
      play::Protocol::kUci, "setoption name Hash value 0\nsetoption name Threads value 2\nisready\n");
  CHECK(linesAfter(refused, "info string error Hash needs a size of at least 1 MB").size() == 1);
  CHECK(linesAfter(refused, "info string error unknown option").size() == 1);
  CHECK(game.engine().hashSlotBits() == kHashSlotBits);
}

TEST_CASE("an info line is sent when the root's best move changes within an iteration", "[protocol][uci]") {
  // After 1. e4 the best move changes in the middle of several iterations:
  // such a line has the depth of the iteration under way, and the line of
  // the completed iteration follows with the same depth.
  const std::string output =
      converse(play::Protocol::kUci, "uci\nucinewgame\nposition startpos moves e2e4\ngo nodes 200000\n");
  std::vector<int> depths;
  for (const std::string& line : linesAfter(output, "info depth ")) depths.push_back(std::stoi(line));
  CHECK(repeatedDepths(depths) > 0);  // and never back to a shallower depth
  // The last line is a completed iteration's, whose move is the one played.
  const std::vector<std::string> lines = linesAfter(output, "info depth ");
  const std::vector<std::string> best = linesAfter(output, "bestmove ");
  REQUIRE(best.size() == 1);
  CHECK(lines.back().substr(lines.back().find(" pv ") + 4, 4) == best[0].substr(0, 4));
}

TEST_CASE("bestmove goes out before our move is checked, and the next position only checks the reply",
          "[protocol][uci][equivalence]") {
  // After bestmove our move is checked and the table's locks cleared, on
  // the opponent's time; when the GUI sends both moves back, ours is set
  // from that check and only the reply is checked, on the cleared locks:
  // the table then holds exactly what main()'s check of the reply stores.
  constexpr long kBudget = 3000;
  const std::vector<std::string> expected = originalReplies({"e2e4", "d2d4"}, kBudget);
  // main()'s path for the three moves alone: what its check of d2d4 leaves locked.
  Engine alone;
  for (const std::string& move : {std::string("e2e4"), expected[0], std::string("d2d4")}) {
    int from;
    int to;
    REQUIRE(parseMove(move, from, to));
    REQUIRE(alone.playMove(from, to));
  }
  long replyLocks = 0;
  for (const HashEntry& entry : alone.hashTable()) replyLocks += entry.lock != 0;
  REQUIRE(replyLocks > 0);

  play::Game& game = sharedGame();
  std::vector<long> lockedAtReady;
  const std::string output = converseWatching(
      play::Protocol::kUci,
      "uci\nucinewgame\nposition startpos moves e2e4\ngo nodes 3000\nisready\nposition startpos moves e2e4 " +
          expected[0] + " d2d4\nisready\ngo nodes 3000\n",
      [&](const std::string& line) {
        if (line == "readyok") lockedAtReady.push_back(lockedSlots(game));
      });
  CHECK(movesAfter(output, "bestmove ") == expected);
  REQUIRE(lockedAtReady.size() == 2);
  CHECK(lockedAtReady[0] == 0);           // after bestmove: our move checked, every lock cleared
  CHECK(lockedAtReady[1] == replyLocks);  // after the position: the reply's check alone
}

TEST_CASE("GNOME Chess's go wtime 30000 btime 30000 gets a real think, not a token one",
          "[protocol][uci][budget]") {
  // GNOME Chess 43 (Hard) sends no increment and no moves to go; a think
  // must plan at least 1/60 of the 30 s (it once planned 0 s: the reserve
  // for the moves' fixed costs took the whole clock).
  const std::string output = converse(
      play::Protocol::kUci,
      "uci\nisready\ndebug on\nucinewgame\nposition startpos moves e2e4\ngo wtime 30000 btime 30000\n"
      "position startpos moves e2e4 e7e5 g1f3\ngo wtime 30000 btime 30000\n");
  const std::vector<std::string> budgets = linesAfter(output, "info string budget ");
  REQUIRE(budgets.size() == 2);
  for (const std::string& budget : budgets) {
    CAPTURE(budget);
    const std::size_t at = budget.find("clock: t = ");
    REQUIRE(at != std::string::npos);
    CHECK(std::stod(budget.substr(at + 11)) >= 30.0 / 60);
  }
  CHECK(linesAfter(output, "bestmove ").size() == 2);
}

TEST_CASE("huge and negative numbers are clamped, and every go gets its bestmove",
          "[protocol][uci][bad-input]") {
  const std::string output =
      converse(play::Protocol::kUci,
               "uci\ndebug on\nposition startpos\ngo wtime -5 btime -5\ngo nodes 99999999999999 depth 1\n"
               "go movetime 99999999999999 depth 1\ngo depth -3\ngo wtime 99999999999999999999 depth 1\n");
  const std::vector<std::string> budgets = linesAfter(output, "info string budget ");
  REQUIRE(budgets.size() == 5);
  CHECK(budgets[0].find("clock: t = 0.000 s") != std::string::npos);  // no time left, not "no limit"
  CHECK(budgets[1].find("fixed 2000000000 nodes") != std::string::npos);
  CHECK(budgets[2].find("move time ") != std::string::npos);
  CHECK(linesAfter(output, "bestmove ").size() == 5);
  CHECK(linesAfter(output, "info string error").empty());
  // One rule for hash sizes in both protocols: below 1 MB refused, above 192 the original's table.
  const std::string uci = converse(play::Protocol::kUci,
                                   "setoption name Hash value 0\nsetoption name Hash value -1\n"
                                   "setoption name Hash value 100000\nisready\n");
  CHECK(linesAfter(uci, "info string error Hash needs a size of at least 1 MB").size() == 2);
  checkOriginalTableBack(linesAfter(uci, "info string hash table "));
  const std::string xboard =
      converse(play::Protocol::kXboard, "xboard\nmemory 0\nmemory -1\nmemory 100000\n");
  CHECK(linesAfter(xboard, "Error (memory needs a size of at least 1 MB)").size() == 2);
  checkOriginalTableBack(linesAfter(xboard, "# hash table "));
}

TEST_CASE("polyglot gets no info string during a think unless debug is on", "[protocol][uci]") {
  // polyglot shows each info string of a think as a thinking line ("1 +0 0 0 budget 351100"),
  // and xboard then logs "Impossible move" parsing it.
  const std::string output = converse(play::Protocol::kUci, "uci\nposition startpos\ngo nodes 2000\n");
  CHECK(linesAfter(output, "info string").empty());
  CHECK(linesAfter(output, "bestmove ").size() == 1);
}

TEST_CASE("a trace folder that cannot be made is told as an info string under UCI",
          "[protocol][uci][trace]") {
  // The game's folder would go under a regular file: it cannot be made. The
  // GUI is told in its protocol's words (it was a "# ..." line, xboard's),
  // and the game goes on untraced.
  const std::string file = binPath("not-a-folder-" + std::to_string(getpid()));
  { std::ofstream(file) << "a file\n"; }
  const std::string output =
      converse(play::Protocol::kUci, "uci\nposition startpos\ngo nodes 2000\n", 0, file + "/games");
  std::filesystem::remove(file);
  CHECK(linesAfter(output, "info string trace-dir: cannot create ").size() == 1);
  CHECK(linesAfter(output, "#").empty());
  CHECK(linesAfter(output, "bestmove ").size() == 1);
}
