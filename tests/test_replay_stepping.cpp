// The replay model and the navigator the visualizer's keys and buttons call,
// tested without any GUI: seeking equals stepping, step over / out, the
// jumps to cutoffs, hash hits and iterations, finding a node or a line of
// moves (each with and without the background indexes, which must agree),
// the draft a call completed, and the hash table's history at a cursor; for
// large traces, opening from the footer's index with chunks checked as they
// are read, the indexes built on threads, and the navigator's scan limit.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>
#include <thread>

#include "support.h"
#include "umax/engine.h"
#include "umax/session.h"
#include "umax/trace/reader.h"
#include "umax/trace/replay.h"
#include "umax/trace/writer.h"
#include "umax/view/call_tree.h"
#include "umax/view/hash_history.h"
#include "umax/view/navigator.h"

using namespace umax;
using namespace umax::trace;
using umax::test::allEvents;
using umax::test::fileBytes;
using umax::test::scratchFile;
using umax::test::writeBytes;

namespace {

/// A think recorded once per run into the temp folder and removed at exit.
/// The path lives in the same static object that removes the file, so it
/// cannot be destroyed before its last use (a separate static cleaner read
/// the destroyed string: ASan, at exit).
struct RecordedThink {
  std::string path;
  RecordedThink(const std::string& name, const std::string& fen, const std::string& moves, long budget,
                const SearchVariant& variant = {})
      : path(scratchFile("stepping-" + name + ".trc")) {
    const auto engine = std::make_unique<Engine>();
    if (!fen.empty()) engine->setPosition(parseFen(fen));
    playMoves(*engine, moves);
    engine->setVariant(variant);
    recordThink(*engine, budget, path, fen, moves);
  }
  ~RecordedThink() {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
};

/// 1. e4, 3000-node budget: ~170,000 events in ~17 chunks.
const std::string& stepTrace() {
  static const RecordedThink trace("e4", "", "e2e4", 3000);
  return trace.path;
}

/// 1. e4 in the Lab, without best-first, the delayed-gain penalty and the centre table (other
/// windows, no sneaked-in moves, other evals), 10000-node budget: ~440,000 events in ~10 chunks;
/// its replay applies the variant's rules.
const std::string& labTrace() {
  static const RecordedThink trace("lab-e4", "", "e2e4", 10000,
                                   {parseWithout("best-first,delayed-gain,centre"), 0});
  return trace.path;
}

/// Black to move in an Italian opening, 5000-node budget: a second position, the other side.
const std::string& blackTrace() {
  static const RecordedThink trace(
      "italian", "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3", "", 5000);
  return trace.path;
}

/// A mate in one (Ra8#): mate scores, whose nodes store D = 99.
const std::string& mateTrace() {
  static const RecordedThink trace("mate", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "", 2000);
  return trace.path;
}

/// Topic 16's mate (the docs' mate.umaxtrace): black to move, mated, 100 nodes.
const std::string& matedTrace() {
  static const RecordedThink trace("mated", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "", 100);
  return trace.path;
}

/// A trace with the indexes the visualizer builds in the background.
struct Indexed {
  TraceReader reader;
  CallTree tree;
  HashHistory hash;
  TimelineIndex timeline;
  explicit Indexed(const std::string& path)
      : reader(path),
        tree(reader),
        hash(reader.header(), reader.eventCount()),
        timeline(reader.eventCount()) {
    buildHistories(reader, hash, timeline);
  }
};

/// The trace a test case opened last, with its indexes and (once asked for) every event. A case's
/// GENERATE branches and SECTIONs run its body again, on the same trace: built once per run, these
/// took most of such a case's time. Read only; each run makes its own Replay and Navigator.
struct OpenedTrace {
  std::string path;
  std::unique_ptr<const Indexed> indexed;
  std::vector<Event> events;
};

OpenedTrace& openedTrace(const std::string& path) {
  static OpenedTrace last;
  if (last.path != path) {
    last = {};  // the previous trace's memory freed first
    last.indexed = std::make_unique<const Indexed>(path);
    last.path = path;
  }
  return last;
}

/// The trace at `path`, opened, with its call tree and timeline index (openedTrace).
const Indexed& indexedTrace(const std::string& path) { return *openedTrace(path).indexed; }

/// Every event of the trace at `path`, decoded once (openedTrace).
const std::vector<Event>& eventsOf(const std::string& path) {
  OpenedTrace& trace = openedTrace(path);
  if (trace.events.empty()) trace.events = allEvents(trace.indexed->reader);
  return trace.events;
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
        << ' ' << m.captureSquare << ' ' << m.rookFrom << ' ' << m.passedSquare << ' ' << m.remaining
        << " on " << f.moveOnBoard << " v " << f.lastScore << " made " << f.movesMade << " cut " << f.cutoff
        << " mate " << f.mateProbe;
  }
  return out.str();
}

/// A replay of a trace and its navigator, with the background indexes (`indexed`) or without.
struct Navigating {
  const Indexed& trace;
  Replay replay;
  Navigator navigator;
  Navigating(const std::string& path, bool indexed)
      : trace(indexedTrace(path)),
        replay(trace.reader),
        navigator(replay, indexed ? &trace.tree : nullptr, indexed ? &trace.timeline : nullptr) {}
};

/// Cursor positions spread over the trace (fixed seed: a failure repeats).
std::vector<uint64_t> samplePositions(uint64_t events, int count, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<uint64_t> positions{0, 1, events / 2, events - 1, events};
  while (static_cast<int>(positions.size()) < count) positions.push_back(random() % (events + 1));
  return positions;
}

/// The same positions in the order of the trace, for the checks that seek to each in turn and
/// only then look: a seek to a later event of the same chunk goes on from the cursor, where one
/// to a random chunk decodes that chunk again (most of those tests' time). Seeking in any order
/// is the replay's own test above.
std::vector<uint64_t> positionsInOrder(uint64_t events, int count, uint64_t seed) {
  std::vector<uint64_t> positions = samplePositions(events, count, seed);
  std::sort(positions.begin(), positions.end());
  return positions;
}

/// The navigator's moves that go to another event (the visualizer's keys), by name.
using NavigatorMove = bool (Navigator::*)();
const std::pair<const char*, NavigatorMove> kNavigatorMoves[] = {
    {"step over", &Navigator::stepOver},           {"step out", &Navigator::stepOut},
    {"next cutoff", &Navigator::nextCutoff},       {"next hash hit", &Navigator::nextHashHit},
    {"next iteration", &Navigator::nextIteration}, {"previous iteration", &Navigator::previousIteration},
};

/// From each of `positions`, makes each of two navigators (of `firstReplay`
/// and `secondReplay`) each move of kNavigatorMoves, and hands `check` the
/// position and what the two moves answered.
template <class Check>
void moveBoth(Replay& firstReplay, Navigator& first, Replay& secondReplay, Navigator& second,
              const std::vector<uint64_t>& positions, Check&& check) {
  for (uint64_t position : positions) {
    for (const auto& [name, move] : kNavigatorMoves) {
      CAPTURE(position, name);
      firstReplay.seek(position);
      secondReplay.seek(position);
      const bool a = (first.*move)();
      const bool b = (second.*move)();
      check(position, a, b);
    }
  }
}

/// The root's iteration events: kIteration while only the root call is open, found by counting
/// calls and returns over the events.
std::vector<uint64_t> rootIterationEvents(const std::vector<Event>& events) {
  std::vector<uint64_t> found;
  int depth = 0;
  for (std::size_t index = 0; index < events.size(); ++index) {
    const EventKind kind = events[index].kind;
    if (kind == EventKind::kIteration && depth == 1) found.push_back(index);
    if (kind == EventKind::kCall) ++depth;
    if (kind == EventKind::kReturn) --depth;
  }
  return found;
}

}  // namespace

// ---- the replay model: seeking and stepping ---------------------------------

TEST_CASE("stepping forward then back returns to the identical state", "[replay][stepping]") {
  TraceReader reader(GENERATE(stepTrace(), labTrace()));
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
  SECTION("seven steps back and forward across a checkpoint boundary") {
    REQUIRE(reader.chunks().size() > 3);
    const uint64_t boundary = reader.chunks()[2].firstEvent;
    replay.seek(boundary + 3);
    const std::string there = describe(replay.state());
    for (int step = 0; step < 7; ++step) REQUIRE(replay.stepBack());
    CHECK(replay.cursor() == boundary - 4);
    for (int step = 0; step < 7; ++step) REQUIRE(replay.stepForward());
    CHECK(replay.cursor() == boundary + 3);
    CHECK(describe(replay.state()) == there);
  }
  SECTION("at the ends there is nothing to step over") {
    replay.seek(0);
    CHECK_FALSE(replay.stepBack());
    replay.seek(replay.eventCount());
    CHECK_FALSE(replay.stepForward());
    CHECK(replay.state().finished());
  }
}

TEST_CASE("seeking anywhere, in any order, gives the state that applying the events up to there gives",
          "[replay][stepping]") {
  TraceReader reader(GENERATE(stepTrace(), labTrace()));
  REQUIRE(reader.chunks().size() > 3);  // the seeks cross chunk checkpoints
  auto positions = samplePositions(reader.eventCount(), 400, 2);
  std::sort(positions.begin(), positions.end());
  // The reference: a fresh SearchState fed every event in order (no checkpoint, no replay).
  std::map<uint64_t, std::string> expected;
  SearchState applying(reader.header());
  std::size_t next = 0;
  reader.forEach([&](const Event& event, uint64_t index) {
    while (next < positions.size() && positions[next] == index)
      expected[positions[next++]] = describe(applying);
    applying.apply(event);
  });
  while (next < positions.size()) expected[positions[next++]] = describe(applying);

  SECTION("by seeks in shuffled order (far, both ways)") {
    Replay jumping(reader);
    std::vector<uint64_t> shuffled = positions;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(3));
    for (uint64_t position : shuffled) {
      CAPTURE(position);
      jumping.seek(position);
      REQUIRE(jumping.cursor() == position);
      REQUIRE(describe(jumping.state()) == expected[position]);
    }
  }
  SECTION("by stepping forward one event at a time") {
    Replay stepping(reader);
    for (uint64_t position : positions) {
      while (stepping.cursor() < position) REQUIRE(stepping.stepForward());
      CAPTURE(position);
      REQUIRE(describe(stepping.state()) == expected[position]);
    }
  }
}

// ---- the navigator ------------------------------------------------------------
//
// Every navigation test runs twice: with the call tree and the timeline index
// (the shortcuts the visualizer uses once they are built) and with neither
// (the scans over the events).

TEST_CASE("step over a move lands after its score with the same stack and board", "[navigator][stepping]") {
  const bool indexed = GENERATE(true, false);
  CAPTURE(indexed);
  Navigating navigating(stepTrace(), indexed);
  auto& [trace, replay, navigator] = navigating;
  int checked = 0;
  for (uint64_t position : positionsInOrder(replay.eventCount() - 1, 4000, 4)) {
    if (replay.eventAt(position).kind != EventKind::kMoveMade) continue;
    replay.seek(position);
    const std::size_t depth = replay.state().stack().size();
    const Board board = replay.state().board();  // squares 0..127; 128 is the castling dummy
    const int movesMade = replay.state().stack().back().movesMade;
    CAPTURE(position);
    REQUIRE(navigator.stepOver());
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

TEST_CASE("step over a call lands after its return, step out after the current call's return",
          "[navigator][stepping]") {
  const bool indexed = GENERATE(true, false);
  CAPTURE(indexed);
  Navigating navigating(stepTrace(), indexed);
  auto& [trace, replay, navigator] = navigating;
  const std::vector<Event>& events = eventsOf(stepTrace());
  // A call's return, by counting calls and returns from its kCall (not from the tree).
  auto returnOf = [&events](uint64_t call) {
    int open = 0;
    for (uint64_t index = call; index < events.size(); ++index) {
      if (events[index].kind == EventKind::kCall) ++open;
      if (events[index].kind == EventKind::kReturn && --open == 0) return index;
    }
    return static_cast<uint64_t>(events.size());
  };
  int overs = 0;
  int outs = 0;
  for (uint64_t position : positionsInOrder(replay.eventCount() - 1, 1000, 5)) {
    CAPTURE(position);
    replay.seek(position);
    if (events[position].kind == EventKind::kCall) {
      const std::size_t depth = replay.state().stack().size();
      REQUIRE(navigator.stepOver());
      CHECK(replay.cursor() == returnOf(position) + 1);
      CHECK(replay.lastEvent()->kind == EventKind::kReturn);
      CHECK(replay.state().stack().size() == depth);
      ++overs;
      replay.seek(position);
    } else if (events[position].kind != EventKind::kMoveMade && position > 0) {
      // Any other event: one step.
      REQUIRE(navigator.stepOver());
      CHECK(replay.cursor() == position + 1);
      replay.seek(position);
    }
    const auto& stack = replay.state().stack();
    if (stack.size() < 2) continue;
    const std::size_t depth = stack.size();
    const uint64_t expected = returnOf(stack.back().callEvent) + 1;
    REQUIRE(navigator.stepOut());
    CHECK(replay.cursor() == expected);
    CHECK(replay.lastEvent()->kind == EventKind::kReturn);
    CHECK(replay.state().stack().size() == depth - 1);
    ++outs;
  }
  CHECK(overs > 10);
  CHECK(outs > 250);
  SECTION("at the end there is nothing to step over or out of") {
    replay.seek(replay.eventCount());
    CHECK_FALSE(navigator.stepOver());
    CHECK_FALSE(navigator.stepOut());
    CHECK(replay.cursor() == replay.eventCount());
  }
}

TEST_CASE("the jumps land just after the next event of their kind, skipping none, iterations in order",
          "[navigator][stepping]") {
  const std::string& path = GENERATE(stepTrace(), blackTrace(), labTrace());
  const bool indexed = GENERATE(true, false);
  CAPTURE(path, indexed);
  Navigating navigating(path, indexed);
  auto& [trace, replay, navigator] = navigating;
  const std::vector<Event>& events = eventsOf(path);
  const std::vector<uint64_t> iterations = rootIterationEvents(events);
  struct Jump {
    const char* name;
    bool (Navigator::*go)();
    std::function<bool(uint64_t index)> isTarget;
  };
  const Jump jumps[] = {
      {"cutoff", &Navigator::nextCutoff, [&](uint64_t i) { return events[i].kind == EventKind::kCutoff; }},
      {"hash hit", &Navigator::nextHashHit,
       [&](uint64_t i) {
         return events[i].kind == EventKind::kProbe && events[i].probe.outcome == ProbeOutcome::kHit;
       }},
      {"root iteration", &Navigator::nextIteration,
       [&](uint64_t i) { return std::binary_search(iterations.begin(), iterations.end(), i); }},
  };
  SECTION("next cutoff, next hash hit, next iteration") {
    for (const Jump& jump : jumps) {
      CAPTURE(jump.name);
      // Every such event, looked at one at a time.
      std::vector<uint64_t> targets;
      for (uint64_t index = 0; index < events.size(); ++index)
        if (jump.isTarget(index)) targets.push_back(index);
      int landed = 0;
      for (uint64_t position : positionsInOrder(replay.eventCount() - 1, 60, 6)) {
        CAPTURE(position);
        replay.seek(position);
        // The expected landing place: just after the first such event at or after the cursor.
        const auto next = std::lower_bound(targets.begin(), targets.end(), position);
        const uint64_t expected = next == targets.end() ? UINT64_MAX : *next + 1;
        const bool found = (navigator.*jump.go)();
        REQUIRE(found == (expected != UINT64_MAX));
        CHECK(replay.cursor() == (found ? expected : position));  // unchanged when there is none
        landed += found;
      }
      CHECK(landed > 5);
    }
  }
  SECTION("previous iteration: back to just after the last root iteration before the cursor's event") {
    int landed = 0;
    for (uint64_t position : positionsInOrder(replay.eventCount() - 1, 60, 8)) {
      CAPTURE(position);
      replay.seek(position);
      uint64_t expected = UINT64_MAX;
      for (uint64_t event : iterations)
        if (event + 1 < position) expected = event + 1;
      const bool found = navigator.previousIteration();
      REQUIRE(found == (expected != UINT64_MAX));
      CHECK(replay.cursor() == (found ? expected : position));
      landed += found;
    }
    CHECK(landed > 5);
  }
  SECTION("the root's iterations, forward and back: draft 1, 2, 3, ..., with only the root open") {
    int reached = 0;
    while (navigator.nextIteration()) {
      ++reached;
      REQUIRE(replay.lastEvent()->kind == EventKind::kIteration);
      CHECK(replay.state().stack().size() == 1);
      CHECK(replay.lastEvent()->value == reached);
    }
    CHECK(reached >= 3);
    // And back down again, one iteration at a time, to the first.
    for (int back = reached - 1; back >= 1; --back) {
      REQUIRE(navigator.previousIteration());
      REQUIRE(replay.lastEvent()->kind == EventKind::kIteration);
      CHECK(replay.state().stack().size() == 1);
      CHECK(replay.lastEvent()->value == back);
    }
    const uint64_t first = replay.cursor();
    CHECK_FALSE(navigator.previousIteration());  // none before the first
    CHECK(replay.cursor() == first);
  }
}

TEST_CASE("finding node n lands just after node n was counted", "[navigator][stepping]") {
  const std::string& path = GENERATE(stepTrace(), blackTrace(), labTrace());
  CAPTURE(path);
  TraceReader reader(path);
  Replay replay(reader);
  Navigator navigator(replay);
  replay.seek(replay.eventCount());
  const uint64_t total = replay.state().nodes();
  REQUIRE(total > 1234);
  for (uint64_t number :
       {uint64_t{1}, uint64_t{2}, uint64_t{1234}, total / 3, total / 2 + 7, total - 1, total}) {
    CAPTURE(number);
    REQUIRE(navigator.findNode(number));
    CHECK(replay.state().nodes() == number);
    REQUIRE(replay.lastEvent() != nullptr);
    CHECK(replay.lastEvent()->kind == EventKind::kNodeCounted);
    CHECK(replay.state().stack().back().nodeNumber == number);
  }
  const uint64_t before = replay.cursor();
  CHECK_FALSE(navigator.findNode(total + 1));
  CHECK_FALSE(navigator.findNode(0));
  CHECK(replay.cursor() == before);
}

TEST_CASE("finding a line of moves gives the first call that line reaches", "[navigator][stepping]") {
  const Indexed trace(stepTrace());
  Replay replay(trace.reader);
  const auto& nodes = trace.tree.nodes();
  auto lineOf = [&](uint32_t index) {
    MoveLine line;
    for (uint32_t at = index; at != 0; at = nodes[at].parent)
      line.insert(line.begin(), {nodes[at].from, nodes[at].to});
    return line;
  };
  CHECK(findLine(trace.tree, {}) == 0u);
  CHECK(Navigator(replay).findLine({}) == 0u);
  int tried = 0;
  for (uint32_t index = 1; index < nodes.size(); index += static_cast<uint32_t>(nodes.size() / 97)) {
    if (nodes[index].flags & kTreeMateProbe) continue;
    const MoveLine line = lineOf(index);
    CAPTURE(index, line.size());
    const auto found = findLine(trace.tree, line);
    REQUIRE(found);
    CHECK(*found <= index);
    CHECK(lineOf(*found) == line);
    // No earlier call follows the same line.
    for (uint32_t earlier = 1; earlier < *found; ++earlier)
      if (nodes[earlier].ply == nodes[index].ply && !(nodes[earlier].flags & kTreeMateProbe))
        REQUIRE(lineOf(earlier) != line);
    // The navigator, with the tree and by scanning the events, lands just after that call's kCall,
    // with the line's calls open on the stack.
    for (const CallTree* tree : {&trace.tree, static_cast<const CallTree*>(nullptr)}) {
      CAPTURE(tree != nullptr);
      replay.seek(0);
      REQUIRE(Navigator(replay, tree).findLine(line) == found);
      CHECK(replay.cursor() == nodes[*found].callEvent + 1);
      const auto& stack = replay.state().stack();
      REQUIRE(stack.size() == line.size() + 1);
      for (std::size_t i = 0; i < line.size(); ++i) {
        CHECK(stack[i].move.from == line[i].first);
        CHECK(stack[i].move.to == line[i].second);
      }
    }
    ++tried;
  }
  CHECK(tried >= 50);
  const MoveLine never{{makeSquare(0, 1), makeSquare(0, 8)}};  // a1a8 is never searched at the root
  CHECK_FALSE(findLine(trace.tree, never));
  replay.seek(77);
  CHECK_FALSE(Navigator(replay).findLine(never));
  CHECK(replay.cursor() == 77);
}

TEST_CASE("the tree's iteration groups hold the root's replies of each iteration, as the events give them",
          "[navigator][stepping]") {
  const std::string& path = GENERATE(stepTrace(), blackTrace(), mateTrace(), labTrace());
  CAPTURE(path);
  const Indexed& trace = indexedTrace(path);
  const auto& nodes = trace.tree.nodes();
  // Walked over the events: a root kIteration opens a group; a kCall with only the root open is a
  // reply of the group open; every kCall below the root counts in that group's calls.
  struct Walked {
    int draft;
    uint64_t event;
    std::vector<uint64_t> replyCalls;  // their kCall events
    uint32_t calls = 0;
  };
  std::vector<Walked> walked;
  const std::vector<Event>& events = eventsOf(path);
  int depth = 0;
  for (std::size_t index = 0; index < events.size(); ++index) {
    const Event& event = events[index];
    if (event.kind == EventKind::kIteration && depth == 1) walked.push_back({event.value, index, {}});
    if (event.kind == EventKind::kCall) {
      if (depth >= 1) {
        REQUIRE_FALSE(walked.empty());
        ++walked.back().calls;
        if (depth == 1) walked.back().replyCalls.push_back(index);
      }
      ++depth;
    }
    if (event.kind == EventKind::kReturn) --depth;
  }
  REQUIRE(walked.size() >= 3);
  const auto compare = [&](const std::vector<IterationGroup>& groups, bool withEmpty) {
    std::size_t at = 0;
    for (const Walked& expected : walked) {
      if (!withEmpty && expected.replyCalls.empty()) continue;
      CAPTURE(expected.draft);
      REQUIRE(at < groups.size());
      const IterationGroup& group = groups[at++];
      CHECK(group.draft == expected.draft);
      CHECK(group.startEvent == (withEmpty ? expected.event : expected.replyCalls.front()));
      std::vector<uint64_t> replyCalls;
      for (uint32_t call : group.calls) {
        CHECK(nodes[call].parent == 0u);
        replyCalls.push_back(nodes[call].callEvent);
      }
      CHECK(replyCalls == expected.replyCalls);
      CHECK(group.subtreeCalls == expected.calls);
    }
    CHECK(at == groups.size());
  };
  SECTION("with the timeline index: every iteration, one without a reply too") {
    const std::vector<IterationGroup> groups = iterationGroups(trace.tree, &trace.timeline);
    compare(groups, true);
    // The iteration the root is in: from just after its kIteration to that event of the next.
    CHECK_FALSE(iterationAt(groups, walked.front().event));
    for (std::size_t g = 0; g < walked.size(); ++g) {
      CAPTURE(g);
      REQUIRE(iterationAt(groups, walked[g].event + 1) == g);
      const uint64_t last = g + 1 < walked.size() ? walked[g + 1].event : events.size();
      REQUIRE(iterationAt(groups, last) == g);
    }
  }
  SECTION("from the tree alone: the iterations that called a reply") {
    compare(iterationGroups(trace.tree), false);
  }
  // Every reply of the root is in exactly one group.
  std::size_t grouped = 0;
  for (const IterationGroup& group : iterationGroups(trace.tree)) grouped += group.calls.size();
  std::size_t replies = 0;
  for (uint32_t child = nodes[0].firstChild; child != 0; child = nodes[child].nextSibling) ++replies;
  CHECK(grouped == replies);
  CHECK(replies > walked.size());
}

TEST_CASE("an iteration's row counts the mate probe apart from the replies", "[navigator][stepping]") {
  // Topic 16's mate (the docs' mate.umaxtrace): black's three king moves each lose the king, then
  // the root's mate probe, a null move that is no reply; the row once said "4 replies".
  const Indexed trace(matedTrace());
  const auto& nodes = trace.tree.nodes();
  int withProbe = 0;
  for (const IterationGroup& group : iterationGroups(trace.tree, &trace.timeline)) {
    std::size_t moves = 0, probes = 0;
    for (uint32_t call : group.calls) {
      const bool probe = (nodes[call].flags & kTreeMateProbe) != 0;
      probes += probe;
      moves += !probe;
    }
    const std::string label = iterationGroupLabel(trace.tree, group);
    CAPTURE(label);
    if (group.calls.empty()) {
      CHECK(label == "iteration " + std::to_string(group.draft) + ": no reply searched");
      continue;
    }
    CHECK(label == "iteration " + std::to_string(group.draft) + ": " + std::to_string(moves) +
                       (moves == 1 ? " reply" : " replies") + (probes ? ", then the mate probe; " : ", ") +
                       std::to_string(group.subtreeCalls) + " calls");
    if (probes == 1 && moves == 3) ++withProbe;
  }
  CHECK(withProbe >= 1);
}

TEST_CASE("the navigator lands on the same event with the indexes as without them, for every move",
          "[navigator][stepping]") {
  const std::string& path = GENERATE(stepTrace(), blackTrace(), mateTrace(), labTrace());
  CAPTURE(path);
  const Indexed trace(path);
  Replay fast(trace.reader);
  Replay slow(trace.reader);
  Navigator withIndexes(fast, &trace.tree, &trace.timeline);
  Navigator scanning(slow);
  int moved = 0;
  moveBoth(fast, withIndexes, slow, scanning, positionsInOrder(trace.reader.eventCount(), 150, 9),
           [&](uint64_t position, bool a, bool b) {
             REQUIRE(a == b);
             REQUIRE(fast.cursor() == slow.cursor());
             moved += a && fast.cursor() != position;
           });
  CHECK(moved > 300);
}

// ---- the draft a call completed -------------------------------------------------

TEST_CASE("the draft shown for every call is the D it stored, or the D of the hash entry that answered it",
          "[navigator][draft]") {
  const std::string& path = GENERATE(stepTrace(), blackTrace(), mateTrace(), labTrace());
  CAPTURE(path);
  const Indexed trace(path);
  const std::vector<Event> events = allEvents(trace.reader);
  // Per call, in call order, from the events alone: the D its last store wrote (or, for a store
  // the table refused, the draft of its last iteration: 99 once a mate score was found), or the
  // D of the entry that ended it at the probe.
  struct Open {
    int lastIteration = 0;
    int stored = -1;
    bool answeredByHash = false;
    int hashDraft = 0;
  };
  std::vector<Open> open;
  std::vector<std::pair<int, bool>> expected;  // per call: the draft, and whether a written store gave it
  std::vector<std::size_t> callNumber;
  std::size_t calls = 0;
  for (const Event& event : events) {
    switch (event.kind) {
      case EventKind::kCall:
        open.push_back({});
        callNumber.push_back(calls++);
        expected.emplace_back(-1, false);
        break;
      case EventKind::kProbe:
        if (event.probe.endsNode) open.back() = {0, -1, true, event.entry.draft};
        break;
      case EventKind::kIteration:
        open.back().lastIteration = event.value;
        break;
      case EventKind::kStore:
        open.back().stored = event.written ? event.after.draft : -1;
        break;
      case EventKind::kReturn: {
        const Open& call = open.back();
        const bool mate = event.best > kMateBound || event.best < -kMateBound;
        auto& [draft, fromStore] = expected[callNumber.back()];
        if (call.answeredByHash)
          draft = call.hashDraft;
        else if (call.stored >= 0)
          draft = call.stored, fromStore = true;
        else
          draft = mate ? kMateDraft : call.lastIteration;
        open.pop_back();
        callNumber.pop_back();
        break;
      }
      default:
        break;
    }
  }
  const auto& nodes = trace.tree.nodes();
  REQUIRE(nodes.size() == expected.size());
  int fromStores = 0;
  int mates = 0;
  for (std::size_t index = 0; index < nodes.size(); ++index) {
    CAPTURE(index);
    REQUIRE(nodes[index].completedDraft() == expected[index].first);
    fromStores += expected[index].second;
    mates += expected[index].first == kMateDraft;
    CHECK(nodes[index].completedDraft() <= kMateDraft);
  }
  CHECK(fromStores > static_cast<int>(nodes.size()) / 4);
  if (path == mateTrace()) CHECK(mates > 10);
}

// ---- the hash table's history -------------------------------------------------

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

// ---- large traces: opening from the footer's index, indexes built in the background --------------

namespace {

/// Every field of the call tree's nodes, as text (a difference shows where).
std::string describe(const CallTree& tree) {
  std::ostringstream out;
  for (const TreeNode& node : tree.nodes())
    out << node.callEvent << ' ' << node.returnEvent << ' ' << node.parent << ' ' << node.firstChild << ' '
        << node.nextSibling << ' ' << node.alpha << ' ' << node.beta << ' ' << node.score << ' '
        << int(node.from) << ' ' << int(node.to) << ' ' << int(node.ply) << ' ' << int(node.depth) << ' '
        << int(node.draft) << ' ' << int(node.flags) << ' ' << node.iteration << '\n';
  return out.str();
}

}  // namespace

TEST_CASE(
    "a reader opened from the footer's index sees the chunks and events of one that checked every chunk",
    "[replay][large]") {
  const std::string& path = GENERATE(stepTrace(), blackTrace(), mateTrace(), labTrace());
  CAPTURE(path);
  const TraceReader walked(path, ChunkChecks::kAtOpen);
  const TraceReader indexed(path, ChunkChecks::kOnFirstDecode);
  REQUIRE(walked.allChunksChecked());
  REQUIRE_FALSE(walked.chunks().empty());
  CHECK_FALSE(indexed.allChunksChecked());
  REQUIRE(indexed.chunks().size() == walked.chunks().size());
  for (std::size_t chunk = 0; chunk < walked.chunks().size(); ++chunk) {
    const ChunkInfo& a = walked.chunks()[chunk];
    const ChunkInfo& b = indexed.chunks()[chunk];
    CAPTURE(chunk);
    CHECK(a.offset == b.offset);
    CHECK(a.payloadOffset == b.payloadOffset);
    CHECK(a.payloadBytes == b.payloadBytes);
    CHECK(a.events == b.events);
    CHECK(a.firstEvent == b.firstEvent);
    CHECK(a.nodesBefore == b.nodesBefore);
    CHECK(a.checkpointOffset == b.checkpointOffset);
    CHECK(a.checkpointBytes == b.checkpointBytes);
  }
  CHECK(indexed.eventCount() == walked.eventCount());
  CHECK(indexed.result().nodes == walked.result().nodes);
  CHECK(indexed.result().score == walked.result().score);
  const std::vector<Event> events = allEvents(walked);
  const std::vector<Event> same = allEvents(indexed);
  REQUIRE(same.size() == events.size());
  for (std::size_t index = 0; index < events.size(); ++index)
    REQUIRE(toString(same[index]) == toString(events[index]));
  CHECK(indexed.allChunksChecked());
}

TEST_CASE("opened from the footer's index, damage in a chunk is refused when that chunk is first decoded",
          "[replay][large]") {
  const std::vector<uint8_t> bytes = fileBytes(stepTrace());
  const TraceReader intact(stepTrace());
  const std::string bad = scratchFile("stepping-damaged.trc");

  SECTION("a flipped byte in chunk 1's records") {
    std::vector<uint8_t> copy = bytes;
    copy[static_cast<std::size_t>(intact.chunks()[1].payloadOffset) + 100] ^= 0x20;
    writeBytes(bad, copy);
    CHECK_THROWS_WITH(TraceReader(bad, ChunkChecks::kAtOpen), Catch::Contains("chunk checksum mismatch"));
    const TraceReader reader(bad, ChunkChecks::kOnFirstDecode);
    std::vector<Event> events;
    CHECK_NOTHROW(reader.decodeChunk(0, events));
    CHECK_THROWS_WITH(reader.decodeChunk(1, events), Catch::Contains("chunk checksum mismatch"));
    // Every time, not only the first: a failed check marks nothing as checked.
    CHECK_THROWS_WITH(reader.decodeChunk(1, events), Catch::Contains("chunk checksum mismatch"));
    CHECK_THROWS_WITH(CallTree(reader), Catch::Contains("chunk checksum mismatch"));
    CHECK_FALSE(reader.allChunksChecked());
  }

  SECTION("every one of 300 random byte flips is refused at open or on decoding, or reads as truncated") {
    std::mt19937 random(11);
    std::uniform_int_distribution<std::size_t> where(0, bytes.size() - 1);
    // The header and the footer are under 1% of the file: one flip in ten goes there.
    const auto footer =
        static_cast<std::size_t>(intact.chunks().back().payloadOffset + intact.chunks().back().payloadBytes);
    std::uniform_int_distribution<std::size_t> outsideChunks(
        0, bytes.size() - footer + intact.chunks()[0].offset - 1);
    std::uniform_int_distribution<int> bit(0, 7);
    int atOpen = 0;
    int onDecoding = 0;
    for (int trial = 0; trial < 300; ++trial) {
      std::vector<uint8_t> copy = bytes;
      std::size_t at = where(random);
      if (trial % 10 == 0) {  // a byte of the header or of the footer
        at = outsideChunks(random);
        if (at >= intact.chunks()[0].offset) at += footer - intact.chunks()[0].offset;
      }
      copy[at] ^= static_cast<uint8_t>(1 << bit(random));
      CAPTURE(at);
      writeBytes(bad, copy);
      std::unique_ptr<TraceReader> reader;
      try {
        reader = std::make_unique<TraceReader>(bad, ChunkChecks::kOnFirstDecode);
      } catch (const TraceError&) {
        ++atOpen;
        continue;
      }
      if (reader->truncated()) {  // a flip in the end marker: every record intact
        REQUIRE(at >= bytes.size() - 8);
        REQUIRE(allEvents(*reader).size() == intact.eventCount());
        continue;
      }
      REQUIRE_THROWS_AS(allEvents(*reader), TraceError);
      ++onDecoding;
    }
    CHECK(atOpen > 0);
    CHECK(onDecoding > 200);  // most bytes are records
  }
}

TEST_CASE(
    "indexes built on two threads at once from a reader checking chunks as it goes equal the ones built "
    "in turn",
    "[replay][large]") {
  const std::string& path = GENERATE(stepTrace(), blackTrace(), labTrace());
  CAPTURE(path);
  const Indexed inTurn(path);
  const TraceReader reader(path, ChunkChecks::kOnFirstDecode);
  std::unique_ptr<CallTree> tree;
  HashHistory hash(reader.header(), reader.eventCount());
  TimelineIndex timeline(reader.eventCount());
  std::vector<double> treeShares, indexShares;
  // As the visualizer does: one thread per index, both reading (and checking) the same chunks,
  // while this thread decodes chunks too.
  std::thread treeWorker(
      [&] { tree = std::make_unique<CallTree>(reader, [&](double s) { treeShares.push_back(s); }); });
  std::thread indexWorker(
      [&] { buildHistories(reader, hash, timeline, [&](double s) { indexShares.push_back(s); }); });
  std::vector<Event> events;
  for (std::size_t chunk = reader.chunks().size(); chunk-- > 0;) reader.decodeChunk(chunk, events);
  treeWorker.join();
  indexWorker.join();
  CHECK(reader.allChunksChecked());
  REQUIRE(tree);
  CHECK(describe(*tree) == describe(inTurn.tree));
  // Progress goes up to 1 and never back.
  REQUIRE_FALSE(treeShares.empty());
  REQUIRE_FALSE(indexShares.empty());
  CHECK(treeShares.back() == 1.0);
  CHECK(indexShares.back() == 1.0);
  CHECK(std::is_sorted(treeShares.begin(), treeShares.end()));
  CHECK(std::is_sorted(indexShares.begin(), indexShares.end()));
  CHECK(timeline.cutoffs() == inTurn.timeline.cutoffs());
  CHECK(timeline.hashHits() == inTurn.timeline.hashHits());
  REQUIRE(timeline.rootIterations().size() == inTurn.timeline.rootIterations().size());
  for (std::size_t i = 0; i < timeline.rootIterations().size(); ++i) {
    CHECK(timeline.rootIterations()[i].event == inTurn.timeline.rootIterations()[i].event);
    CHECK(timeline.rootIterations()[i].draft == inTurn.timeline.rootIterations()[i].draft);
  }
  REQUIRE(hash.storeCount() == inTurn.hash.storeCount());
  for (uint64_t applied : samplePositions(reader.eventCount(), 40, 5))
    for (uint32_t slot = 0; slot < static_cast<uint32_t>(kHashEntries); slot += 4099) {
      CAPTURE(applied, slot);
      REQUIRE(hash.lastWriteBefore(slot, applied) == inTurn.hash.lastWriteBefore(slot, applied));
      const HashEntry a = hash.entryAt(slot, applied);
      const HashEntry b = inTurn.hash.entryAt(slot, applied);
      REQUIRE(
          (a.lock == b.lock && a.score == b.score && a.from == b.from && a.to == b.to && a.draft == b.draft));
    }
  const int last = hash.snapshotAt(reader.eventCount());
  for (int cell = 0; cell < HashHistory::kCells; ++cell)
    REQUIRE(hash.occupancy(last, cell) == inTurn.hash.occupancy(last, cell));
}

TEST_CASE("a move that would scan past the navigator's limit leaves the cursor where it was and says so",
          "[navigator][large]") {
  const Indexed trace(stepTrace());
  Replay limited(trace.reader);
  Replay free(trace.reader);
  Navigator capped(limited);
  Navigator scanning(free);
  // A third of a chunk: some moves fit in it, others do not (the scan counts whole chunks).
  capped.limitScan(trace.reader.eventCount() / trace.reader.chunks().size() / 3);
  int gaveUp = 0;
  int agreed = 0;
  moveBoth(limited, capped, free, scanning, positionsInOrder(trace.reader.eventCount(), 120, 3),
           [&](uint64_t position, bool a, bool b) {
             CHECK_FALSE(scanning.gaveUp());
             if (capped.gaveUp()) {
               REQUIRE_FALSE(a);
               REQUIRE(limited.cursor() == position);
               ++gaveUp;
             } else {
               REQUIRE(a == b);
               REQUIRE(limited.cursor() == free.cursor());
               ++agreed;
             }
           });
  CHECK(gaveUp > 20);
  CHECK(agreed > 200);
  // Finding a line the search never played scans the whole trace without the call tree: it gives up.
  limited.seek(10);
  CHECK_FALSE(capped.findLine({{0, 0}}));
  CHECK(capped.gaveUp());
  CHECK(limited.cursor() == 10);
  // With the indexes at hand the same moves need no long scan.
  Navigator indexed(limited, &trace.tree, &trace.timeline);
  indexed.limitScan(3000);
  limited.seek(0);
  int steps = 0;
  while (indexed.nextIteration()) ++steps;
  CHECK_FALSE(indexed.gaveUp());
  CHECK(steps == static_cast<int>(trace.timeline.rootIterations().size()));
}
