// umax-lab's ground (harness/lab_rules.h): legal moves under FIDE's rules,
// SAN, the EPD suites it reads, and the rules that end its games.
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "lab_rules.h"
#include "support.h"
#include "umax/engine.h"
#include "umax/notation.h"
#include "umax/position.h"

using namespace umax::test;
using umax::lab::LegalMove;

namespace {

LegalMove move(const char* text) {
  int from = 0;
  int to = 0;
  REQUIRE(umax::parseMove(text, from, to));
  return {from, to};
}

/// The error readEpd gives for a one-line file, or "" if it accepts it.
std::string epdError(umax::Engine& rules, const std::string& line) {
  const std::string path = scratchFile("lab-bad.epd");
  {
    std::ofstream file(path);
    file << line << "\n";
  }
  try {
    umax::lab::readEpd(rules, path);
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("Lab rules: legal moves, check, mate and stalemate under FIDE's rules", "[lab-tools]") {
  umax::Engine rules;
  CHECK(umax::lab::legalMoves(rules, umax::parseFen(umax::kStartFen)).size() == 20);
  // Kiwipete: 48 legal moves (perft 1), castling both ways among them.
  const auto kiwipete = umax::lab::legalMoves(
      rules, umax::parseFen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"));
  CHECK(kiwipete.size() == 48);
  // Castling through an attacked square is refused (the rook on f8 guards f1).
  const auto through = umax::lab::legalMoves(rules, umax::parseFen("5rk1/8/8/8/8/8/8/4K2R w K - 0 1"));
  CHECK(std::find(through.begin(), through.end(), move("e1g1")) == through.end());
  CHECK(std::find(through.begin(), through.end(), move("h1h2")) != through.end());
  // Back-rank mate and a stalemate.
  const umax::Position mate = umax::parseFen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
  CHECK(umax::lab::legalMoves(rules, mate).empty());
  CHECK(umax::lab::inCheck(mate));
  const umax::Position stalemate = umax::parseFen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  CHECK(umax::lab::legalMoves(rules, stalemate).empty());
  CHECK_FALSE(umax::lab::inCheck(stalemate));
  umax::lab::GameRecord record(mate);
  CHECK(umax::lab::gameOver(rules, mate, record, 300) == umax::lab::Outcome::kMate);
  CHECK(umax::lab::gameOver(rules, stalemate, umax::lab::GameRecord(stalemate), 300) ==
        umax::lab::Outcome::kStalemate);
}

TEST_CASE("Lab rules: SAN names exactly one legal move, or a clear error", "[lab-tools]") {
  umax::Engine rules;
  const umax::Position kiwipete =
      umax::parseFen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  CHECK(umax::lab::parseSan(rules, kiwipete, "O-O") == move("e1g1"));
  CHECK(umax::lab::parseSan(rules, kiwipete, "O-O-O") == move("e1c1"));
  CHECK(umax::lab::parseSan(rules, kiwipete, "dxe6") == move("d5e6"));
  CHECK(umax::lab::parseSan(rules, kiwipete, "Qxf6") == move("f3f6"));
  CHECK(umax::lab::parseSan(rules, kiwipete, "Nxf7!") == move("e5f7"));
  CHECK(umax::lab::parseSan(rules, kiwipete, "gxh3") == move("g2h3"));
  CHECK(umax::lab::parseSan(rules, kiwipete, "Bxa6") == move("e2a6"));
  // Two rooks reach d1: the file of the one that moves tells them apart.
  const umax::Position rooks = umax::parseFen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
  CHECK(umax::lab::parseSan(rules, rooks, "Rad1") == move("a1d1"));
  CHECK(umax::lab::parseSan(rules, rooks, "Rhd1") == move("h1d1"));
  CHECK_THROWS_WITH(umax::lab::parseSan(rules, rooks, "Rd1"), Catch::Contains("ambiguous"));
  CHECK_THROWS_WITH(umax::lab::parseSan(rules, rooks, "Qd1"), Catch::Contains("no legal move"));
  CHECK_THROWS_WITH(umax::lab::parseSan(rules, rooks, "R"), Catch::Contains("not SAN"));
  const umax::Position promotion = umax::parseFen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
  CHECK(umax::lab::parseSan(rules, promotion, "b8=Q+") == move("b7b8"));
  CHECK_THROWS_WITH(umax::lab::parseSan(rules, promotion, "b8=N"), Catch::Contains("queen only"));
  CHECK_THROWS_WITH(umax::lab::parseSan(rules, promotion, "b8"), Catch::Contains("no legal move"));
}

TEST_CASE("Lab rules: the committed suites read whole, every bm a legal move", "[lab-tools]") {
  umax::Engine rules;
  const auto bk = umax::lab::readEpd(rules, sourcePath("data/epd/bk.epd"));
  REQUIRE(bk.size() == 24);
  CHECK(bk.front().id == "BK.01");
  CHECK(bk.front().best == std::vector<LegalMove>{move("d6d1")});
  const auto wac = umax::lab::readEpd(rules, sourcePath("data/epd/wac.epd"));
  REQUIRE(wac.size() == 300);
  CHECK(wac.back().id == "WAC.300");
  for (const auto& entry : wac) CHECK(entry.best.size() == entry.bm.size());
  CHECK(wac[242].best.size() == 2);  // WAC.243: Qe2 Qg2 (see data/epd/README.md)
}

TEST_CASE("Lab rules: a malformed EPD line is refused with its file, line and fault", "[lab-tools]") {
  umax::Engine rules;
  CHECK(epdError(rules, "8/8/8/8/8/8/8/K6k w - - bm Kb2; id \"ok\";").empty());
  const std::pair<const char*, const char*> bad[] = {
      {"8/8/8/8/8/8/8/K6k w -", "four FEN fields"},
      {"8/8/8/8/8/8/8/K6k x - - bm Kb2;", "bad position"},
      {"8/8/8/8/8/8/8/K6k w - - bm Kb2", "ends with ';'"},
      {"8/8/8/8/8/8/8/K6k w - - id \"x\";", "no bm"},
      {"8/8/8/8/8/8/8/K6k w - - bm Kc3;", "no legal move"},
      {"8/8/8/8/8/8/8/K6k w - - bm ;", "bm without a move"},
      {"8/8/8/8/8/8/8/K6k w - - bm Kb2; id x;", "quoted string"},
  };
  for (const auto& [line, message] : bad) {
    CAPTURE(line);
    const std::string error = epdError(rules, line);
    CHECK(error.find("lab-bad.epd:1: ") != std::string::npos);
    CHECK(error.find(message) != std::string::npos);
  }
  // umax-lab itself stops with the message and status 1.
  int status = -1;
  const std::string output = runCommand(binPath("umax-lab") + " --depth-suite " + scratchFile("lab-bad.epd") +
                                            " --tactics-suite " + sourcePath("data/epd/wac.epd") + " 2>&1",
                                        &status);
  CHECK(status == 1);
  CHECK(output.find("umax-lab: ") != std::string::npos);
  CHECK(output.find("quoted string") != std::string::npos);
}

TEST_CASE("Lab rules: repetition, 50 moves, bare kings and the ply cap end a game", "[lab-tools]") {
  umax::Engine rules;
  umax::Position position = umax::parseFen(umax::kStartFen);
  umax::lab::GameRecord record(position);
  const char* const shuffle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
  int played = 0;
  for (int round = 0; round < 2; ++round) {
    for (const char* text : shuffle) {
      CHECK(umax::lab::gameOver(rules, position, record, 300) == umax::lab::Outcome::kNone);
      const umax::Position before = position;
      const LegalMove m = move(text);
      umax::applyMove(position, m.from, m.to, position.epSquare);
      record.played(before, m, position);
      ++played;
    }
  }
  // The start position stands for the third time.
  CHECK(record.repetitions() == 3);
  CHECK(umax::lab::gameOver(rules, position, record, 300) == umax::lab::Outcome::kRepetition);
  CHECK(record.quietPlies() == played);
  CHECK(umax::lab::gameOver(rules, umax::parseFen(umax::kStartFen), umax::lab::GameRecord(position), 0) ==
        umax::lab::Outcome::kPlyCap);
  const umax::Position bare = umax::parseFen("8/8/8/4k3/8/8/2N5/4K3 w - - 0 1");
  CHECK(umax::lab::gameOver(rules, bare, umax::lab::GameRecord(bare), 300) == umax::lab::Outcome::kMaterial);
  const umax::Position rook = umax::parseFen("8/8/8/4k3/8/8/2R5/4K3 w - - 0 1");
  CHECK(umax::lab::gameOver(rules, rook, umax::lab::GameRecord(rook), 300) == umax::lab::Outcome::kNone);
  // 100 quiet plies: each side plays a move to a position not seen before,
  // the one leaving the other side the most moves (the king stays in the open).
  umax::Position quiet = rook;
  umax::lab::GameRecord fifty(quiet);
  for (int ply = 0; ply < 100; ++ply) {
    const umax::Position before = quiet;
    std::size_t most = 0;
    umax::Position next;
    umax::lab::GameRecord nextRecord = fifty;
    for (const LegalMove& candidate : umax::lab::legalMoves(rules, quiet)) {
      umax::Position after = quiet;
      umax::applyMove(after, candidate.from, candidate.to, quiet.epSquare);
      umax::lab::GameRecord trial = fifty;
      trial.played(before, candidate, after);
      const std::size_t replies = umax::lab::legalMoves(rules, after).size();
      if (trial.repetitions() == 1 && trial.quietPlies() == ply + 1 && replies > most) {
        most = replies;
        next = after;
        nextRecord = trial;
      }
    }
    INFO("ply " << ply << " " << umax::toFen(quiet.board, quiet.side, quiet.epSquare));
    REQUIRE(most > 0);
    quiet = next;
    fifty = nextRecord;
  }
  CHECK(fifty.quietPlies() == 100);
  CHECK(umax::lab::gameOver(rules, quiet, fifty, 1000) == umax::lab::Outcome::kFiftyMoves);
}

TEST_CASE("umax-lab writes its page and plot whole, and never over a file it did not write", "[lab-tools]") {
  // A tiny run of all three sections (depth 2, one tactic, one opening).
  const std::string page = scratchFile("lab-page.md");
  const std::string svg = scratchFile("lab-nodes.svg");
  const std::string other = scratchFile("lab-other.md");
  for (const std::string& file : {page, svg}) std::remove(file.c_str());
  {
    std::ofstream file(other);
    file << "# not umax-lab's\n";
  }
  const std::string command =
      binPath("umax-lab") + " --depth-suite " + sourcePath("data/epd/bk.epd") + " --tactics-suite " +
      sourcePath("data/epd/wac.epd") +
      " --depth 2 --minimax-depth 2 --tactics-count 1 --tactics-nodes 200 --openings 1"
      " --match-nodes 100 --ply-cap 20 --made-by test";
  int status = -1;
  std::string output = runCommand(command + " --page " + page + " --svg " + svg + " 2>&1", &status);
  INFO(output);
  REQUIRE(status == 0);
  CHECK(output.find("vs without centre: 2 games") != std::string::npos);
  CHECK(readFile(page).rfind("# What each idea buys {#page_lab}\n", 0) == 0);
  CHECK(readFile(svg).find("<desc>written by umax-lab") != std::string::npos);
  // Its own files it overwrites; another file it refuses, leaving it as it was.
  output = runCommand(command + " --page " + page + " --svg " + svg + " 2>&1", &status);
  CHECK(status == 0);
  output = runCommand(command + " --page " + other + " 2>&1", &status);
  CHECK(status == 1);
  CHECK(output.find("was not written by umax-lab: not overwritten") != std::string::npos);
  CHECK(readFile(other) == "# not umax-lab's\n");
}
