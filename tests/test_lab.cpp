// The Lab (umax/variant.h): the search with ideas switched off. The default
// search's identity with the original is the rest of the suite's job; here:
// the Lab's own instantiation with nothing off is the original's search, the
// alpha-beta theorem holds on micro-Max, and with every idea off the node
// count is the size of a tree walked with the generator alone.
#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "umax/bench_positions.h"
#include "umax/engine.h"
#include "umax/position.h"
#include "umax/variant.h"

namespace {

using umax::Engine;
using umax::Idea;
using umax::SearchVariant;
using umax::ThinkResult;

/// A think from `fen` with a fresh table (the smallest one when the variant
/// has none: it is never read, and 192 MiB pages are not mapped for nothing).
ThinkResult thinkFrom(const std::string& fen, const SearchVariant& variant, long budget = 0) {
  Engine engine;
  if (variant.lacks(Idea::kHash)) engine.resizeHashTable(umax::kMinHashSlotBits);
  engine.setPosition(umax::parseFen(fen));
  engine.setVariant(variant);
  return engine.think(budget);
}

SearchVariant without(unsigned ideas, int depth) { return SearchVariant{ideas, depth}; }

constexpr unsigned kAll = (1u << umax::kIdeas.size()) - 1;

// The tree the search walks with every idea off, counted with the move
// generator and applyMove alone (not the search): each node is one call; it
// scans its moves from a8 in the generator's order until one takes the king
// (the scan's only cutoff with the full window), searching each move's reply
// when a ply is left; a node above draft 1 whose every move let the king be
// taken (or that has none) adds the mate probe, one more node.
struct TreeCount {
  long nodes = 0;
  bool kingTaken = false;  // the node's scan met a king capture: it returns +infinity
};

TreeCount walkedTree(const umax::Position& position, int draft) {
  static Engine engine;  // only its generator is used
  engine.setPosition(position);
  const std::vector<umax::Move> moves = engine.generatedMoves(position.side, position.epSquare, 0);
  TreeCount count{1, false};
  bool everyReplyTakesTheKing = true;
  for (const umax::Move& move : moves) {
    const bool takesKing =
        umax::captureGain(move.victim) < 0 ||
        (position.epSquare != umax::kNoSquare && move.to - position.epSquare < 2 &&
         position.epSquare - move.to < 2 && position.board[static_cast<std::size_t>(position.epSquare)]);
    if (takesKing) return {count.nodes, true};
    if (draft - 1 < 1) continue;
    umax::Position child = position;
    umax::applyMove(child, move.from, move.to, position.epSquare);
    const TreeCount reply = walkedTree(child, draft - 1);
    count.nodes += reply.nodes;
    everyReplyTakesTheKing = everyReplyTakesTheKing && reply.kingTaken;
  }
  if (draft > 1 && everyReplyTakesTheKing) ++count.nodes;  // the mate probe
  return count;
}

const char* const kTheoremPositions[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
    "6k1/5p2/6p1/8/8/6P1/5PK1/3Q1q2 w - - 0 50",
    "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
};

}  // namespace

TEST_CASE("Lab: --without names are the seven ideas, a bad one is refused with the list", "[lab]") {
  CHECK(umax::parseWithout("hash") == umax::ideaBit(Idea::kHash));
  CHECK(umax::parseWithout("alpha-beta,centre") ==
        (umax::ideaBit(Idea::kAlphaBeta) | umax::ideaBit(Idea::kCentre)));
  CHECK(umax::parseWithout("all") == kAll);
  for (const umax::IdeaName& idea : umax::kIdeas)
    CHECK(umax::parseWithout(idea.name) == umax::ideaBit(idea.idea));
  for (const char* bad : {"", "hsh", "hash,", ",hash", "Hash", "alpha beta"}) {
    INFO(bad);
    try {
      umax::parseWithout(bad);
      FAIL("accepted");
    } catch (const std::invalid_argument& error) {
      CHECK(std::string(error.what()).find(umax::ideaNames()) != std::string::npos);
    }
  }
  CHECK(without(umax::parseWithout("centre,hash"), 0).description() == "without hash, centre");
  CHECK(SearchVariant{}.description() == "the whole search");
}

TEST_CASE("Lab: --depth D with nothing off is the original's think that stops after draft D", "[lab]") {
  // The default think with budget B starts no iteration once B nodes are
  // counted; with B the count after the root's iteration of draft D it ends
  // there. The Lab's instantiation (kLab) with --depth D must give the same
  // move, score and node count: the switches it reads change nothing when off.
  for (const umax::BenchPosition& position : umax::kBenchPositions) {
    Engine reference;
    reference.setPosition(umax::parseFen(position.fen));
    std::vector<umax::IterationReport> reports;
    reference.setIterationListener([&](const umax::IterationReport& report) { reports.push_back(report); });
    reference.think(60000);
    for (const umax::IterationReport& report : reports) {
      if (report.draft < 2 || report.draft > 20) continue;  // draft 1 counts no node of its own
      INFO(position.name << " draft " << report.draft);
      const ThinkResult expected = thinkFrom(position.fen, SearchVariant{}, report.nodes);
      const ThinkResult lab = thinkFrom(position.fen, without(0, report.draft));
      CHECK(lab.depth == report.draft);
      CHECK(lab.nodes == expected.nodes);
      CHECK(lab.score == expected.score);
      CHECK(lab.from == expected.from);
      CHECK(lab.to == expected.to);
    }
  }
}

TEST_CASE("Lab: the alpha-beta theorem: without the table, alpha-beta finds minimax's score in fewer nodes",
          "[lab]") {
  // The hash table is off on both sides: with it, a bound stored under one
  // window may settle a node under another, and the two searches would not
  // walk comparable trees.
  const unsigned noHash = umax::ideaBit(Idea::kHash);
  const unsigned minimax = noHash | umax::ideaBit(Idea::kAlphaBeta);
  for (const char* fen : kTheoremPositions) {
    for (int depth = 2; depth <= 4; ++depth) {
      INFO(fen << " depth " << depth);
      const ThinkResult alphaBeta = thinkFrom(fen, without(noHash, depth));
      const ThinkResult full = thinkFrom(fen, without(minimax, depth));
      CHECK(alphaBeta.score == full.score);
      CHECK(alphaBeta.nodes <= full.nodes);
      if (depth >= 3) CHECK(alphaBeta.nodes < full.nodes);
    }
  }
}

TEST_CASE(
    "Lab: with every idea off, the node count is the generator's tree (perft's walk with the scan's stop)",
    "[lab]") {
  for (const char* fen : kTheoremPositions) {
    const umax::Position position = umax::parseFen(fen);
    for (int depth = 1; depth <= 3; ++depth) {
      INFO(fen << " depth " << depth);
      const ThinkResult result = thinkFrom(fen, without(kAll, depth));
      CHECK(result.nodes == walkedTree(position, depth).nodes);
    }
  }
  // One deeper case, from the start position.
  const umax::Position start = umax::parseFen(kTheoremPositions[0]);
  CHECK(thinkFrom(kTheoremPositions[0], without(kAll, 4)).nodes == walkedTree(start, 4).nodes);
}
