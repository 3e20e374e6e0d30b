// A folder of traces read back as games (tracer/src/game_dir.cpp) and listed
// by `umax-trace game`: two short games are played along main()'s path with
// every think recorded, as umax-readable --trace-dir records a game, and the
// folder must give back each game's moves, sides, move numbers and results.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "protocol_support.h"
#include "support.h"
#include "umax/engine.h"
#include "umax/session.h"
#include "umax/trace/game_dir.h"
#include "umax/trace/reader.h"
#include "umax/trace/replay.h"
#include "umax/trace/writer.h"
#include "umax/view/stats.h"
#include "umax/view/view_state.h"

using namespace umax;
using namespace umax::test;
using namespace umax::trace;
namespace fs = std::filesystem;

namespace {

constexpr long kGameBudget = 1500;

/// A fresh, empty folder for one test, removed when the test case ends.
class FreshFolder {
 public:
  explicit FreshFolder(const std::string& name)
      : path_(binPath("game-dir-" + std::to_string(getpid()) + "-" + name)) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~FreshFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  FreshFolder(const FreshFolder&) = delete;
  FreshFolder& operator=(const FreshFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

/// What a recorded game should read back as.
struct PlayedThink {
  std::string file;
  std::string move;
  bool white;
};

/// Plays `plies` half-moves from `fen` (empty: the start position): on our
/// side's turns a recorded think whose move is then played, on the other
/// side's turns the next move of `replies`. Trace files are named by `name`
/// (ply, side) inside `folder`.
std::vector<PlayedThink> playRecordedGame(const fs::path& folder, const std::string& fen, bool weAreWhite,
                                          const std::vector<std::string>& replies,
                                          const std::function<std::string(int, bool)>& name) {
  Engine engine;
  if (!fen.empty()) engine.setPosition(parseFen(fen));
  std::string moves;
  std::vector<PlayedThink> thinks;
  std::size_t reply = 0;
  for (int ply = 1;; ++ply) {
    const bool whiteToMove = engine.position().side == kWhite;
    std::string move;
    if (whiteToMove == weAreWhite) {
      const std::string file = (folder / name(ply, whiteToMove)).string();
      const ThinkResult result = recordThink(engine, kGameBudget, file, fen, moves, nullptr);
      move = squareName(result.from) + squareName(result.to);
      thinks.push_back({file, move, whiteToMove});
    } else {
      if (reply == replies.size()) break;
      move = replies[reply++];
    }
    playMoves(engine, move);
    moves += (moves.empty() ? "" : " ") + move;
  }
  return thinks;
}

void checkGame(const GameRecord& game, const std::vector<PlayedThink>& played, int firstPly,
               int firstMoveNumber) {
  REQUIRE(game.thinks.size() == played.size());
  for (std::size_t index = 0; index < played.size(); ++index) {
    const GameThink& think = game.thinks[index];
    CAPTURE(index, think.path);
    CHECK(fs::equivalent(think.path, played[index].file));
    CHECK(think.finished);
    CHECK(think.move == played[index].move);
    CHECK(think.white == played[index].white);
    CHECK(think.budget == kGameBudget);
    CHECK(think.nodes > 0);
    CHECK(think.ply == firstPly + 2 * static_cast<int>(index));
    CHECK(think.moveNumber == firstMoveNumber + static_cast<int>(index));
  }
}

}  // namespace

TEST_CASE("a folder of traces reads back as its games, whatever the file names' order", "[trace][game]") {
  const FreshFolder fresh("two-games");
  const fs::path& folder = fresh.path();
  // White's game named so that plain string order would put ply 11 before ply 3.
  const auto plainName = [](int ply, bool white) {
    return std::to_string(ply) + (white ? "-white" : "-black") + ".trc";
  };
  const std::vector<PlayedThink> first =
      playRecordedGame(folder, "", true, {"e7e5", "b8c6", "g8f6", "f8c5", "d7d6", "c8g4"}, plainName);
  // Black from a FEN with black to move at move 20, in a sub-folder.
  fs::create_directories(folder / "second");
  const std::string fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 20";
  const std::vector<PlayedThink> second =
      playRecordedGame(folder, fen, false, {"d2d4", "b1c3", "c1e3"},
                       [](int ply, bool) { return "second/" + std::to_string(ply) + ".trc"; });
  std::ofstream(folder / "0-junk.trc") << "not a trace";

  const GameDir dir = readGameDir(folder.string());
  REQUIRE(dir.games.size() == 2);
  CHECK(dir.thinkCount() == first.size() + second.size());
  CHECK(dir.games[0].fen.empty());
  checkGame(dir.games[0], first, 1, 1);
  CHECK(startText(dir.games[0]) == "the start position");
  CHECK(dir.games[1].fen == fen);
  CHECK(startText(dir.games[1]) == fen);
  CHECK(startText(GameRecord{std::string(kStartFen), {}, {}, {}}) == "the start position");
  checkGame(dir.games[1], second, 1, 20);
  CHECK(thinkLabel(dir.games[1].thinks[0]) == "20... " + second[0].move);
  CHECK(thinkLabel(dir.games[0].thinks[1]) == "2. " + first[1].move);
  REQUIRE(dir.refusals.size() == 1);
  CHECK(dir.refusals[0].find("0-junk.trc: not a umax trace file") != std::string::npos);

  SECTION("the move list holds every ply, ours pointing to their think") {
    const std::vector<GamePly> plies = gamePlies(dir.games[0]);
    REQUIRE(plies.size() == 2 * first.size() - 1);
    for (std::size_t index = 0; index < plies.size(); ++index) {
      CAPTURE(index);
      CHECK(plies[index].ply == static_cast<int>(index) + 1);
      CHECK(plies[index].white == (index % 2 == 0));
      CHECK(plies[index].moveNumber == static_cast<int>(index) / 2 + 1);
      if (index % 2 == 0) {
        CHECK(plies[index].think == static_cast<int>(index) / 2);
        CHECK(plies[index].move == first[index / 2].move);
      } else {
        CHECK(plies[index].think == -1);
        CHECK(plies[index].move ==
              std::vector<std::string>{"e7e5", "b8c6", "g8f6", "f8c5", "d7d6", "c8g4"}[index / 2]);
      }
    }
    const std::vector<GamePly> blackPlies = gamePlies(dir.games[1]);
    REQUIRE(blackPlies.size() == 2 * second.size() - 1);
    CHECK(blackPlies[0].moveNumber == 20);
    CHECK_FALSE(blackPlies[0].white);
    CHECK(blackPlies[0].think == 0);
    CHECK(blackPlies[1].moveNumber == 21);
    CHECK(blackPlies[1].white);
    CHECK(blackPlies[1].move == "d2d4");
  }
  SECTION("a file of the folder, such as the PGN saved beside it, opens the folder") {
    std::ofstream(folder / "match.pgn") << "[Event \"?\"]\n";
    CHECK(readGameDir((folder / "match.pgn").string()).thinkCount() == dir.thinkCount());
  }
  SECTION("umax-trace game lists every think: ply, move number, side, move, nodes, file") {
    int status = -1;
    const std::string listing =
        runCommand("'" + binPath("umax-trace") + "' game '" + folder.string() + "' 2>&1", &status);
    CHECK(status == 0);
    CHECK(listing == formatGameDir(dir));
    const std::vector<std::string> lines = splitLines(listing);
    CHECK(lines.at(0) == "game 1: " + std::to_string(first.size()) + " thinks, from the start position");
    CHECK(lines.at(2).find("     1     1.   white  " + first[0].move) == 0);
    CHECK(lines.at(2).find(" 1-white.trc") != std::string::npos);
    CHECK(listing.find("game 2: " + std::to_string(second.size()) + " thinks, from " + fen) !=
          std::string::npos);
    CHECK(listing.find("    20... black  " + second[0].move) != std::string::npos);
    CHECK(listing.find("second/1.trc") != std::string::npos);
    CHECK(lines.back().find("not read: ") == 0);
  }
}

TEST_CASE("two games identical so far stay two games", "[trace][game]") {
  const FreshFolder fresh("twins");
  const fs::path& folder = fresh.path();
  const std::vector<std::string> replies = {"e7e5", "b8c6"};
  const std::vector<PlayedThink> first = playRecordedGame(
      folder, "", true, replies, [](int ply, bool) { return "a-" + std::to_string(ply) + ".trc"; });
  const std::vector<PlayedThink> second = playRecordedGame(
      folder, "", true, replies, [](int ply, bool) { return "b-" + std::to_string(ply) + ".trc"; });
  const GameDir dir = readGameDir(folder.string());
  REQUIRE(dir.games.size() == 2);
  CHECK(dir.games[0].thinks.size() == first.size());
  CHECK(dir.games[1].thinks.size() == second.size());
  for (const GameRecord& game : dir.games)
    for (std::size_t index = 0; index < game.thinks.size(); ++index)
      CHECK(game.thinks[index].ply == 1 + 2 * static_cast<int>(index));
}

TEST_CASE("a folder without traces, or no folder at all, is refused with a message", "[trace][game]") {
  const FreshFolder fresh("empty");
  const fs::path& folder = fresh.path();
  CHECK_THROWS_WITH(readGameDir(folder.string()), Catch::Contains("no readable trace"));
  std::ofstream(folder / "bad.trc") << "UMAXTRC";
  CHECK_THROWS_WITH(readGameDir(folder.string()), Catch::Contains("bad.trc"));
  CHECK_THROWS_WITH(readGameDir((folder / "missing").string()), Catch::Contains("does not exist"));
  int status = 0;
  const std::string output = runCommand(
      "'" + binPath("umax-trace") + "' game '" + (folder / "missing").string() + "' 2>&1", &status);
  CHECK(status != 0);
  CHECK(output.find("umax-trace: ") == 0);
  CHECK(output.find("does not exist") != std::string::npos);
}

TEST_CASE("a game folder's game.txt record gives the whole move list and the result", "[trace][game]") {
  const FreshFolder fresh("record");
  const fs::path folder = fresh.path() / "game-001";
  fs::create_directories(folder);
  const std::vector<std::string> replies = {"e7e5", "b8c6"};
  const std::vector<PlayedThink> played = playRecordedGame(folder, "", true, replies, [](int ply, bool) {
    return "00" + std::to_string((ply + 1) / 2) + "-white.trc";
  });
  REQUIRE(played.size() == 3);
  // The record as umax-readable writes it (see /work/notes/trace-dir.md): our moves with their
  // trace, the opponent's, the last reply after our last think, and the result.
  const std::vector<std::string> moves = {played[0].move, "e7e5",         played[1].move,
                                          "b8c6",         played[2].move, "g8f6"};
  const auto writeRecord = [&](const std::vector<std::string>& list) {
    std::ofstream record(folder / "game.txt");
    record << "# umax-readable game record\nprotocol xboard\nstart startpos\n";
    for (std::size_t ply = 0; ply < list.size(); ++ply)
      record << "move " << ply / 2 + 1 << (ply % 2 ? " black " : " white ") << list[ply]
             << (ply % 2 ? " opponent" : " engine trace 00" + std::to_string(ply / 2 + 1) + "-white.trc")
             << "\n";
    record << "result 0-1 {White resigns}\n";
  };
  writeRecord(moves);
  GameDir dir = readGameDir(folder.parent_path().string());
  REQUIRE(dir.games.size() == 1);
  CHECK(dir.games[0].recordedMoves == moves);
  CHECK(dir.games[0].result == "0-1 {White resigns}");
  const std::vector<GamePly> plies = gamePlies(dir.games[0]);
  REQUIRE(plies.size() == moves.size());
  CHECK(plies.back().move == "g8f6");
  CHECK(plies.back().think == -1);
  CHECK(plies[4].think == 2);
  CHECK(formatGameDir(dir).find("game.txt: 6 plies, result 0-1 {White resigns}") != std::string::npos);

  SECTION("a record that disagrees with the traces is left aside") {
    std::vector<std::string> other = moves;
    other[1] = "d7d5";
    writeRecord(other);
    dir = readGameDir(folder.string());
    CHECK(dir.games[0].recordedMoves.empty());
    CHECK(dir.games[0].result.empty());
    CHECK(gamePlies(dir.games[0]).size() == 5);
  }
}

TEST_CASE("a trimmed trace keeps whole first iterations, the think's result, and reads as any other",
          "[trace][game]") {
  const FreshFolder fresh("trimmed");
  constexpr long kThinkBudget = 60000;
  constexpr uint64_t kLimit = 256 * 1024;
  const std::string path = (fresh.path() / "trimmed.trc").string();
  Engine traced;
  traced.setPosition(parseFen("r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10"));
  Engine plain;
  plain.setPosition(traced.position());
  const RecordedThink recorded = recordThinkReporting(traced, kThinkBudget, path, "", "", {}, kLimit);
  const ThinkResult untraced = plain.think(kThinkBudget);
  REQUIRE(recorded.traceFailure.empty());
  CHECK(recorded.trimmed);
  // The think is the untraced one, node for node.
  CHECK(recorded.result.from == untraced.from);
  CHECK(recorded.result.to == untraced.to);
  CHECK(recorded.result.nodes == untraced.nodes);
  // The file: at most the limit, one 64 KB chunk and the footer.
  CHECK(fs::file_size(path) <= kLimit + 2 * 65536);
  const TraceReader reader(path);
  CHECK(!reader.truncated());
  REQUIRE(reader.hasResult());
  CHECK(reader.result().from == untraced.from);
  CHECK(reader.result().to == untraced.to);
  CHECK(static_cast<long>(reader.result().nodes) == untraced.nodes);
  const TraceStats stats = computeStats(reader);
  CHECK(stats.nodes > 0);
  CHECK(static_cast<long>(stats.nodes) < untraced.nodes);
  // What the visualizer shows at the last event and halfway.
  Replay replay(reader);
  for (uint64_t event : {reader.eventCount() / 2, reader.eventCount() - 1}) {
    replay.seek(cursorAfterEvent(event));
    const ViewState view = viewState(replay, hashCountersAt(reader, replay.cursor()));
    CHECK(!toJson(view).empty());
  }
  // Without a limit the same think is recorded whole, and bigger.
  const std::string whole = (fresh.path() / "whole.trc").string();
  Engine again;
  again.setPosition(parseFen("r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10"));
  const RecordedThink full = recordThinkReporting(again, kThinkBudget, whole, "", "");
  CHECK(!full.trimmed);
  CHECK(fs::file_size(whole) > fs::file_size(path));
}

TEST_CASE("by default a traced game's thinks stay under the trace limit, and the folder lists them",
          "[trace][game][protocol]") {
  // The default limit (play::kDefaultTraceLimitMegabytes, 2 MB) keeps a 40-move game under 100 MB:
  // a think of 250,000 nodes (about 4 MB untrimmed) must stay under it.
  const FreshFolder fresh("default-limit");
  const std::string output =
      converse(play::Protocol::kUci, "uci\nucinewgame\nposition startpos moves e2e4\ngo nodes 250000\n", 0,
               fresh.path().string());
  const std::vector<std::string> best = linesAfter(output, "bestmove ");
  REQUIRE(best.size() == 1);
  const fs::path trace = fresh.path() / "game-001" / "001-black.trc";
  REQUIRE(fs::exists(trace));
  const auto limit = static_cast<uint64_t>(play::kDefaultTraceLimitMegabytes * 1048576);
  CHECK(fs::file_size(trace) <= limit + 2 * 65536);
  CHECK(40 * (limit + 2 * 65536) < 100ull * 1000 * 1000);
  const GameDir dir = readGameDir(fresh.path().string());
  REQUIRE(dir.games.size() == 1);
  REQUIRE(dir.games[0].thinks.size() == 1);
  CHECK(dir.games[0].thinks[0].finished);
  CHECK(dir.games[0].thinks[0].move == best[0].substr(0, 4));
  CHECK(dir.games[0].thinks[0].nodes >= 250000);
}

TEST_CASE("a think with a smaller Hash is traced, its trace saying the table's size",
          "[trace][game][protocol][hash]") {
  // Hash 1 (MB) gets a table of 2^16 + 9 slots: no longer the original's search, and still traced.
  const FreshFolder fresh("small-hash");
  const std::string output =
      converse(play::Protocol::kUci,
               "uci\nsetoption name Hash value 1\nucinewgame\nposition startpos moves e2e4\ngo nodes 5000\n",
               0, fresh.path().string());
  const std::vector<std::string> best = linesAfter(output, "bestmove ");
  REQUIRE(best.size() == 1);
  const fs::path trace = fresh.path() / "game-001" / "001-black.trc";
  REQUIRE(fs::exists(trace));
  const TraceReader reader(trace.string());
  CHECK(reader.header().hashSlotBits == 16);
  uint64_t probes = 0;
  uint32_t highest = 0;
  reader.forEach([&](const Event& event, uint64_t) {
    if (event.kind != EventKind::kProbe) return;
    ++probes;
    highest = std::max(highest, event.probe.firstSlot);
  });
  CHECK(probes > 1000);
  CHECK(highest < (uint32_t{1} << 16));  // every window starts inside the small table
  CHECK(highest > (uint32_t{1} << 15));  // and they spread over it
  const GameDir dir = readGameDir(fresh.path().string());
  REQUIRE(dir.games.size() == 1);
  REQUIRE(dir.games[0].thinks.size() == 1);
  CHECK(dir.games[0].thinks[0].move == best[0].substr(0, 4));
}

TEST_CASE("a game.txt record is checked line by line: a bad one is refused naming its line, never half used",
          "[trace][game][bad-input]") {
  const FreshFolder fresh("checked-record");
  const fs::path folder = fresh.path() / "game-001";
  fs::create_directories(folder);
  const std::vector<PlayedThink> played = playRecordedGame(folder, "", true, {"e7e5"}, [](int ply, bool) {
    return "00" + std::to_string((ply + 1) / 2) + "-white.trc";
  });
  REQUIRE(played.size() == 2);
  const std::string header = "# umax-readable game record\nprotocol xboard\n";
  const std::string good = "move 1 white " + played[0].move + " engine trace 001-white.trc budget 1500\n" +
                           "move 1 black e7e5 opponent\n" + "move 2 white " + played[1].move +
                           " engine trace 002-white.trc budget 1500\n";
  const auto readWith = [&](const std::string& text) {
    {
      std::ofstream record(folder / "game.txt", std::ios::binary);
      record << text;
    }
    return readGameDir(folder.string());
  };
  // The record as written reads back whole.
  GameDir dir = readWith(header + "start startpos\n" + good + "result 1-0 {test}\n");
  REQUIRE(dir.games.size() == 1);
  CHECK(dir.refusals.empty());
  CHECK(dir.games[0].recordedMoves.size() == 3);
  CHECK(dir.games[0].result == "1-0 {test}");

  // Each damage: the line it names and what it says; nothing of the record is used.
  const std::string otherFirst = played[0].move == "b1c3" ? "g1f3" : "b1c3";
  const std::string longLine(5000, 'x');
  const struct {
    std::string text;
    std::string where;
    std::string why;
  } damaged[] = {
      {header + "start fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra\n" + good,
       "line 3: ", "the start FEN is refused"},
      {header + "start fen 8/8/8/8/8/8/8/8 w - - 0 1\n" + good, "line 3: ", "the start FEN is refused"},
      {header + "start fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n" + good, "line 3: ", "the traces start from"},
      {header + "start startpos\n" + good + "move 2 black e7e5 opponent\n",
       "line 7: ", "'e7e5' is not legal here (after 3 plies from the start position)"},
      {header + "start startpos\n" + good + "move 2 black e2e4 opponent\n",
       "line 7: ", "'e2e4' is not legal here (after 3 plies from the start position)"},
      {header + "start startpos\nmove 1 white e1g1 opponent\n",
       "line 4: ", "'e1g1' is not legal here (after 0 plies from the start position)"},
      {header + "start startpos\n" + good + "move 2 black zz99 opponent\n",
       "line 7: ", "is not a move like e2e4"},
      {header + "start startpos\n" + good + "move 3 black g8f6 opponent\n",
       "line 7: ", "where the game is at move 2, black to move"},
      {header + "start startpos\nmove 1 white " + otherFirst +
           " engine trace 001-white.trc budget 1500\nmove 1 black e7e5 opponent\n",
       "line 4: ", "but 001-white.trc chose " + played[0].move},
      {header + "start startpos\n" + good + "mvoe 2 black g8f6 opponent\n",
       "line 7: ", "is not a line of a game record"},
      {header + "start startpos\n" + good + longLine + "\n", "line 7: ", "5000 characters long"},
      {header + good, "line 3: ", "before the start line"},
      {header + "start startpos\n" + good + "result 1-0\nresult 0-1\n", "line 8: ", "a second result line"},
      {header + "start startpos\n" + good + "result 1-0 \x1b[2J\n", "line 7: ", "a control byte"},
      {header + "start startpos\r\n" + good, "line 3: ", "a control byte"},
  };
  for (const auto& damage : damaged) {
    CAPTURE(damage.text.substr(0, 400));
    dir = readWith(damage.text);
    REQUIRE(dir.games.size() == 1);
    CHECK(dir.games[0].recordedMoves.empty());
    CHECK(dir.games[0].result.empty());
    CHECK(gamePlies(dir.games[0]).size() ==
          3);  // from the traces: the moves before the last think and its move
    REQUIRE(dir.refusals.size() == 1);
    CAPTURE(dir.refusals[0]);
    CHECK(dir.refusals[0].starts_with((folder / "game.txt").string() + " " + damage.where));
    CHECK(dir.refusals[0].find(damage.why) != std::string::npos);
    CHECK(dir.refusals[0].ends_with("the record is not used (the game is listed from its traces)"));
    CHECK(formatGameDir(dir).find("not read: " + (folder / "game.txt").string() + " line") !=
          std::string::npos);
  }
  // A game umax-readable records (xboard: our moves after each of the GUI's) passes every check:
  // its record is used whole, and the thinks whose moves were played carry no not-played mark.
  const FreshFolder played2("checked-real");
  converse(play::Protocol::kXboard, "xboard\nnew\nusermove e2e4\nusermove d2d4\nquit\n", 3000,
           played2.path().string());
  const GameDir real = readGameDir(played2.path().string());
  CHECK(real.refusals.empty());
  REQUIRE(real.games.size() == 1);
  CHECK(real.games[0].recordedMoves.size() == 4);
  REQUIRE(real.games[0].thinks.size() == 2);
  for (const GameThink& think : real.games[0].thinks) CHECK(think.notPlayed.empty());

  // A 2 MB record (one 2 MB line) is refused whole, by its size.
  dir = readWith(header + "start startpos\n" + std::string(2 << 20, 'm') + "\n");
  REQUIRE(dir.refusals.size() == 1);
  CHECK(dir.refusals[0].find("game.txt is 2097") != std::string::npos);
  CHECK(dir.refusals[0].find("larger than any record umax-readable writes") != std::string::npos);
  CHECK(dir.games[0].recordedMoves.empty());
}
