// The stepping logic the visualizer's controls use, tested through the
// replay model without any GUI: step, step back, step over, step out, the
// jumps, finding a node, and the hash table's history at a cursor.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <sstream>

#include "support.h"
#include "umax/engine.h"
#include "umax/session.h"
#include "umax/trace/hash_history.h"
#include "umax/trace/line_search.h"
#include "umax/trace/reader.h"
#include "umax/trace/replay.h"
#include "umax/trace/writer.h"

using namespace umax;
using namespace umax::trace;
using umax::test::scratchFile;

namespace {

/// A small recorded think (1. e4, 3000-node budget), written once per run
/// and removed at exit. The path lives in the same static object that
/// removes the file, so it cannot be destroyed before its last use (a
/// separate static cleaner read the destroyed string: ASan, at exit).
const std::string& stepTrace() {
  static const struct Trace {
    std::string path;
    Trace() : path(scratchFile("stepping.trc")) {
      Engine engine;
      playMoves(engine, "e2e4");
      recordThink(engine, 3000, path, "", "e2e4");
    }
    ~Trace() {
      std::error_code ignored;
      std::filesystem::remove(path, ignored);
    }
  } trace;
  return trace.path;
}

/// Every field of the state, as text, so that two states compare whole and a
/// failure shows the difference.
std::string describe(const SearchState& state) {
  std::ostringstream out;
  out << "events " << state.events() << " nodes " << state.nodes() << " calls " << state.calls()
      << " finished " << state.finished() << "\nboard";
  for (int sq = 0; sq <= 128; ++sq) out << ' ' << int(state.board()[static_cast<std::size_t>(sq)]);
  for (const Frame& f : state.stack()) {
    const NodeCall& c = f.call;
    const MoveRecord& m = f.move;
    out << "\nframe ply " << f.ply << " call " << c.side << ' ' << c.alpha << ' ' << c.beta << ' ' << c.eval
        << ' ' << c.hashKey << ' ' << c.hashLock << ' ' << c.epSquare << ' ' << c.lastTo << ' ' << c.depth
        << " at " << f.callEvent << " node " << f.nodeNumber << " probe " << f.probed << ' '
        << f.probe.firstSlot << ' ' << f.probe.slotsProbed << ' ' << int(f.probe.outcome) << ' '
        << f.probe.endsNode << " d " << f.draft << " m " << f.best << " X " << f.bestFrom << " Y " << f.bestTo
        << " move " << int(m.flags) << ' ' << m.from << ' ' << m.to << ' ' << m.piece << ' ' << m.victim
        << ' ' << m.captureSquare << ' ' << m.rookFrom << ' ' << m.rookTo << ' ' << m.remaining << " on "
        << f.moveOnBoard << " v " << f.lastScore << " made " << f.movesMade << " cut " << f.cutoff << " mate "
        << f.mateProbe;
  }
  return out.str();
}

/// Cursor positions spread over the trace (fixed seed: a failure repeats).
std::vector<uint64_t> samplePositions(uint64_t events, int count, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<uint64_t> positions{0, 1, events / 2, events - 1, events};
  while (static_cast<int>(positions.size()) < count) positions.push_back(random() % (events + 1));
  return positions;
}

}  // namespace

TEST_CASE("stepping forward then back returns to the identical state", "[replay][stepping]") {
  TraceReader reader(stepTrace());
  Replay replay(reader);
  REQUIRE(replay.eventCount() > 10000);
  for (uint64_t position : samplePositions(replay.eventCount() - 1, 300, 1)) {
    CAPTURE(position);
    replay.seek(position);
    const std::string before = describe(replay.state());
    REQUIRE(replay.stepForward());
    REQUIRE(replay.cursor() == position + 1);
    REQUIRE(describe(replay.state()) != before);  // an event always changes something (at least the count)
    REQUIRE(replay.stepBack());
    REQUIRE(describe(replay.state()) == before);
  }
  SECTION("at the ends there is nothing to step over") {
    replay.seek(0);
    CHECK_FALSE(replay.stepBack());
    replay.seek(replay.eventCount());
    CHECK_FALSE(replay.stepForward());
    CHECK(replay.state().finished());
  }
}

TEST_CASE("seeking to random positions gives the state that stepping there gives", "[replay][stepping]") {
  TraceReader reader(stepTrace());
  Replay sequential(reader);
  Replay jumping(reader);
  auto positions = samplePositions(reader.eventCount(), 400, 2);
  std::sort(positions.begin(), positions.end());
  std::vector<uint64_t> shuffled = positions;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(3));
  std::map<uint64_t, std::string> seen;
  for (uint64_t position : shuffled) {
    jumping.seek(position);
    seen[position] = describe(jumping.state());
  }
  for (uint64_t position : positions) {
    while (sequential.cursor() < position) REQUIRE(sequential.stepForward());
    CAPTURE(position);
    REQUIRE(seen[position] == describe(sequential.state()));
  }
}

TEST_CASE("step over a move lands after its score with the same stack and board", "[replay][stepping]") {
  TraceReader reader(stepTrace());
  Replay replay(reader);
  int checked = 0;
  for (uint64_t position : samplePositions(replay.eventCount() - 1, 4000, 4)) {
    if (replay.eventAt(position).kind != EventKind::kMoveMade) continue;
    replay.seek(position);
    const std::size_t depth = replay.state().stack().size();
    const Board board = replay.state().board();  // squares 0..127; 128 is the castling dummy
    const int movesMade = replay.state().stack().back().movesMade;
    CAPTURE(position);
    REQUIRE(replay.stepOver());
    REQUIRE(replay.lastEvent() != nullptr);
    CHECK(replay.lastEvent()->kind == EventKind::kMoveScored);
    CHECK(replay.state().stack().size() == depth);
    // The move was taken back (b[128], the dummy that "no rook" writes land on, may differ).
    CHECK(std::equal(board.begin(), board.begin() + 128, replay.state().board().begin()));
    CHECK(replay.state().stack().back().movesMade == movesMade + 1);
    // Every event in between belonged to the move's subtree: deeper calls only.
    int open = 0;
    for (uint64_t index = position + 1; index + 1 < replay.cursor(); ++index) {
      const EventKind kind = replay.eventAt(index).kind;
      if (kind == EventKind::kCall) ++open;
      if (kind == EventKind::kReturn) --open;
      REQUIRE(open >= 0);
    }
    CHECK(open == 0);
    ++checked;
  }
  CHECK(checked > 50);
}

TEST_CASE("step over a call lands after its return; step out lands after the current call's return",
          "[replay][stepping]") {
  TraceReader reader(stepTrace());
  Replay replay(reader);
  const CallTree tree(reader);
  int overs = 0;
  int outs = 0;
  for (uint64_t position : samplePositions(replay.eventCount() - 1, 2000, 5)) {
    CAPTURE(position);
    replay.seek(position);
    if (replay.eventAt(position).kind == EventKind::kCall) {
      const std::size_t depth = replay.state().stack().size();
      const auto call = tree.findByCallEvent(position);
      REQUIRE(call);
      REQUIRE(replay.stepOver());
      CHECK(replay.cursor() == tree.nodes()[*call].returnEvent + 1);
      CHECK(replay.lastEvent()->kind == EventKind::kReturn);
      CHECK(replay.state().stack().size() == depth);
      ++overs;
      replay.seek(position);
    }
    const auto& stack = replay.state().stack();
    if (stack.size() < 2) continue;
    const std::size_t depth = stack.size();
    const auto call = tree.findByCallEvent(stack.back().callEvent);
    REQUIRE(call);
    REQUIRE(replay.stepOut());
    CHECK(replay.cursor() == tree.nodes()[*call].returnEvent + 1);
    CHECK(replay.lastEvent()->kind == EventKind::kReturn);
    CHECK(replay.state().stack().size() == depth - 1);
    ++outs;
  }
  CHECK(overs > 20);
  CHECK(outs > 500);
}

TEST_CASE("the jumps land on the event kinds they name, and skip none", "[replay][stepping]") {
  TraceReader reader(stepTrace());
  Replay replay(reader);
  using Match = std::function<bool(const Event&, std::size_t depth)>;
  struct Jump {
    const char* name;
    bool (Replay::*go)();
    Match match;  // depth: open calls before the event
  };
  const Jump jumps[] = {
      {"cutoff", &Replay::nextCutoff,
       [](const Event& e, std::size_t) { return e.kind == EventKind::kCutoff; }},
      {"hash hit", &Replay::nextHashHit,
       [](const Event& e, std::size_t) {
         return e.kind == EventKind::kProbe && e.probe.outcome == ProbeOutcome::kHit;
       }},
      {"root iteration", &Replay::nextRootIteration,
       [](const Event& e, std::size_t depth) { return e.kind == EventKind::kIteration && depth == 1; }},
  };
  for (const Jump& jump : jumps) {
    CAPTURE(jump.name);
    int landed = 0;
    for (uint64_t position : samplePositions(replay.eventCount() - 1, 40, 6)) {
      CAPTURE(position);
      replay.seek(position);
      // The expected landing place, found by stepping one event at a time.
      Replay walker(reader);
      walker.seek(position);
      uint64_t expected = UINT64_MAX;
      while (walker.cursor() < walker.eventCount()) {
        const std::size_t depth = walker.state().stack().size();
        const Event next = walker.eventAt(walker.cursor());
        walker.stepForward();
        if (jump.match(next, depth)) {
          expected = walker.cursor();
          break;
        }
      }
      const bool found = (replay.*jump.go)();
      REQUIRE(found == (expected != UINT64_MAX));
      if (!found) continue;
      CHECK(replay.cursor() == expected);
      ++landed;
    }
    CHECK(landed > 5);
  }
}

TEST_CASE("finding node n lands just after node n was counted", "[replay][stepping]") {
  TraceReader reader(stepTrace());
  Replay replay(reader);
  replay.seek(replay.eventCount());
  const uint64_t total = replay.state().nodes();
  REQUIRE(total > 1000);
  for (uint64_t number : {uint64_t{1}, uint64_t{2}, total / 3, total / 2 + 7, total - 1, total}) {
    CAPTURE(number);
    REQUIRE(replay.jumpToNode(number));
    CHECK(replay.state().nodes() == number);
    REQUIRE(replay.lastEvent() != nullptr);
    CHECK(replay.lastEvent()->kind == EventKind::kNodeCounted);
    CHECK(replay.state().stack().back().nodeNumber == number);
  }
  CHECK_FALSE(replay.jumpToNode(total + 1));
  CHECK_FALSE(replay.jumpToNode(0));
}

TEST_CASE("finding a line of moves in the call tree gives the first call that line reaches",
          "[replay][stepping]") {
  TraceReader reader(stepTrace());
  Replay replay(reader);
  const CallTree tree(reader);
  const auto& nodes = tree.nodes();
  auto lineOf = [&](uint32_t index) {
    std::vector<std::pair<int, int>> line;
    for (uint32_t at = index; at != 0; at = nodes[at].parent)
      line.insert(line.begin(), {nodes[at].from, nodes[at].to});
    return line;
  };
  CHECK(findLine(tree, {}) == 0u);
  int tried = 0;
  for (uint32_t index = 1; index < nodes.size(); index += static_cast<uint32_t>(nodes.size() / 97)) {
    if (nodes[index].flags & kTreeMateProbe) continue;
    const auto line = lineOf(index);
    CAPTURE(index, line.size());
    const auto found = findLine(tree, line);
    REQUIRE(found);
    CHECK(*found <= index);
    CHECK(lineOf(*found) == line);
    // No earlier call follows the same line.
    for (uint32_t earlier = 1; earlier < *found; ++earlier)
      if (nodes[earlier].ply == nodes[index].ply && !(nodes[earlier].flags & kTreeMateProbe))
        REQUIRE(lineOf(earlier) != line);
    // Seeking to just after that call opens the line's calls on the stack.
    replay.seek(nodes[*found].callEvent + 1);
    const auto& stack = replay.state().stack();
    REQUIRE(stack.size() == line.size() + 1);
    for (std::size_t i = 0; i < line.size(); ++i) {
      CHECK(stack[i].move.from == line[i].first);
      CHECK(stack[i].move.to == line[i].second);
    }
    ++tried;
  }
  CHECK(tried >= 50);
  CHECK_FALSE(findLine(tree, {{makeSquare(0, 1), makeSquare(0, 8)}}));  // a1a8 is never searched at the root
}

TEST_CASE("the hash history gives each slot's entry at any cursor, as replaying the stores gives it",
          "[replay][stepping][hash]") {
  TraceReader reader(stepTrace());
  HashHistory history(reader.header(), reader.eventCount());
  TimelineIndex timeline(reader.eventCount());
  buildHistories(reader, history, timeline);
  // The shadow table: the initial entries, then every written store in order.
  std::map<uint32_t, HashEntry> table;
  for (const auto& [slot, entry] : reader.header().initialEntries) table[slot] = entry;
  auto positions = samplePositions(reader.eventCount(), 60, 7);
  std::sort(positions.begin(), positions.end());
  std::size_t next = 0;
  uint64_t cutoffs = 0;
  std::size_t rootIterations = 0;
  int depth = 0;
  auto same = [](const HashEntry& a, const HashEntry& b) {
    return a.lock == b.lock && a.score == b.score && a.from == b.from && a.to == b.to && a.draft == b.draft;
  };
  auto checkAt = [&](uint64_t applied) {
    CAPTURE(applied);
    for (const auto& [slot, entry] : table) REQUIRE(same(history.entryAt(slot, applied), entry));
  };
  reader.forEach([&](const Event& event, uint64_t index) {
    while (next < positions.size() && positions[next] == index) checkAt(positions[next++]);
    if (event.kind == EventKind::kStore && event.written) table[event.slot] = event.after;
    if (event.kind == EventKind::kCutoff) ++cutoffs;
    if (event.kind == EventKind::kCall) ++depth;
    if (event.kind == EventKind::kReturn) --depth;
    if (event.kind == EventKind::kIteration && depth == 1) ++rootIterations;
  });
  while (next < positions.size()) checkAt(positions[next++]);
  REQUIRE(table.size() > 100);
  // A slot never written holds nothing.
  CHECK(history.entryAt(1, reader.eventCount()).lock == (table.count(1) ? table[1].lock : 0));
  // The timeline index counts what the events hold.
  uint64_t indexed = 0;
  for (uint32_t count : timeline.cutoffs()) indexed += count;
  CHECK(indexed == cutoffs);
  CHECK(timeline.rootIterations().size() == rootIterations);
  // The last snapshot's occupancy is the number of filled slots at the end.
  uint64_t filled = 0;
  const int last = history.snapshotAt(reader.eventCount());
  for (int cell = 0; cell < HashHistory::kCells; ++cell) filled += history.occupancy(last, cell);
  uint64_t expected = 0;
  for (const auto& [slot, entry] : table) expected += entry.lock != 0;
  CHECK(filled == expected);
}
