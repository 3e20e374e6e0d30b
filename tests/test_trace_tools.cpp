// The trace tools as a user runs them: umax-trace record / info / dot /
// jsonl / chrome, umax-readable --trace, and what the tool says about files
// that are missing, foreign, cut short or damaged. The exports are checked
// against the trace itself, read back with the tracer library.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support.h"
#include "umax/hash_table.h"
#include "umax/notation.h"
#include "umax/trace/reader.h"
#include "umax/trace/replay.h"
#include "umax/types.h"
#include "umax/view/call_tree.h"

using namespace umax::test;
using namespace umax::trace;
using nlohmann::json;

namespace {

/// `umax-trace info` parsed: "nodes" -> "92432", "event call" -> "101728", ...
std::map<std::string, std::string> parseInfo(const std::string& output) {
  std::map<std::string, std::string> fields;
  for (const std::string& line : splitLines(output)) {
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "event" || key == "iteration" || key == "cutoffs") {
      std::string second;
      words >> second;
      key += " " + second;
    }
    std::string rest;
    std::getline(words, rest);
    if (!rest.empty() && rest.front() == ' ') rest.erase(0, 1);
    fields[key] = rest;
  }
  return fields;
}

uint64_t number(const std::map<std::string, std::string>& fields, const std::string& key) {
  const auto found = fields.find(key);
  if (found == fields.end()) FAIL("info has no line '" << key << "'");
  return std::stoull(found->second);
}

/// The search arguments of one recorded trace.
struct Sample {
  std::string name;
  std::string fen;    // empty: the start position
  std::string moves;  // empty: none
  long nodes;
  std::string path;  // the trace file
  std::string infoText;
  std::map<std::string, std::string> info;
};

std::string searchArguments(const Sample& sample) {
  std::string arguments;
  if (!sample.fen.empty()) arguments += " --fen " + quote(sample.fen);
  if (!sample.moves.empty()) arguments += " --moves " + quote(sample.moves);
  return arguments + " --nodes " + std::to_string(sample.nodes);
}

/// The shared traces; the files are removed when the test run ends.
struct Samples : std::vector<Sample> {
  ~Samples() {
    for (const Sample& sample : *this) std::remove(sample.path.c_str());
  }
};

/// The traces the tests share, recorded once per run by `umax-trace record`.
std::vector<Sample>& samples() {
  static Samples recorded = [] {
    Samples list;
    list.assign({
        {"start", "", "", 3000, "", "", {}},
        {"after-moves", "", "e2e4 e7e5 g1f3", 2000, "", "", {}},
        {"kiwipete",
         "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
         "",
         500,
         "",
         "",
         {}},
        {"endgame-ep", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "e2e4", 2000, "", "", {}},
        {"mate-in-one", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "", 2000, "", "", {}},
    });
    for (Sample& sample : list) {
      sample.path = scratchFile(sample.name + ".trc");
      int status = -1;
      const std::string output =
          runCommand(quote(binPath("umax-trace")) + " record -q" + searchArguments(sample) + " -o " +
                         quote(sample.path) + " 2>&1",
                     &status);
      INFO(output);
      REQUIRE(status == 0);
      sample.infoText = runCommand(quote(binPath("umax-trace")) + " info " + quote(sample.path), &status);
      REQUIRE(status == 0);
      sample.info = parseInfo(sample.infoText);
    }
    return list;
  }();
  return recorded;
}

/// Runs `umax-trace <arguments>` with stderr folded into the output.
std::string umaxTrace(const std::string& arguments, int* status) {
  return runCommand(quote(binPath("umax-trace")) + " " + arguments + " 2>&1", status);
}

/// Runs `umax-trace <arguments> -o <file>`, the file a scratch file `name`;
/// requires it to succeed (showing its messages if it fails) and returns the
/// file's path.
std::string umaxTraceTo(const std::string& arguments, const std::string& name) {
  const std::string path = scratchFile(name);
  int status = -1;
  INFO(umaxTrace(arguments + " -o " + quote(path), &status));
  REQUIRE(status == 0);
  return path;
}

/// The site id each event kind is reported from (search_observer.h).
int expectedSite(const std::string& kind, bool endsNode) {
  static const std::map<std::string, int> sites = {
      {"call", 1}, {"probe", 2}, {"node", 4},  {"iteration", 5},   {"king-capture", 6}, {"cutoff", 7},
      {"move", 8}, {"score", 9}, {"best", 10}, {"mate-probe", 11}, {"store", 12},       {"return", 13}};
  if (kind == "probe" && endsNode) return 3;
  const auto found = sites.find(kind);
  return found == sites.end() ? -1 : found->second;
}

}  // namespace

TEST_CASE("umax-trace info counts the nodes the original counts", "[trace]") {
  for (const Sample& sample : samples()) {
    CAPTURE(sample.name);
    int status = -1;
    const std::string probe =
        runCommand(quote(binPath("umax-probe")) + " --engine minimal" + searchArguments(sample), &status);
    REQUIRE(status == 0);
    std::smatch match;
    REQUIRE(std::regex_search(probe, match, std::regex("nodes (\\d+)")));
    CHECK(number(sample.info, "nodes") == std::stoull(match[1].str()));
    // The footer's result is the original's whole answer, not just the count.
    CHECK("result " + splitLines(probe).at(0) == "result " + sample.info.at("result"));
    CHECK(number(sample.info, "event node") == number(sample.info, "nodes"));
    CHECK(sample.info.count("truncated") == 0);
    const TraceReader reader(sample.path);
    CHECK(number(sample.info, "events") == reader.eventCount());
    CHECK(number(sample.info, "bytes") == reader.fileSize());
  }
}

TEST_CASE("umax-trace info's table size is the slots the original's probe can reach", "[trace]") {
  // The original's array, read from its source: struct _ A[U] with #define U 16777224.
  std::smatch match;
  const std::string source = readFile(sourcePath("minimal/micro-max.c"));
  REQUIRE(std::regex_search(source, match, std::regex("#define U (\\d+)")));
  const long declared = std::stol(match[1].str());
  CHECK(declared == (1L << 24) + 8);
  CHECK(umax::kHashEntries == declared);
  // Window starts j = (k*E ^ J) & (U-9) run from 0 to 2^24 - 1; the probe reads A[j+1] .. A[j+9].
  CHECK(long{umax::kHashSlotMask} + 1 == 1L << umax::kHashSlotBits);
  const long lastRead = long{umax::kHashSlotMask} + umax::kProbeSlots;
  CHECK(lastRead == declared);  // A[U]: one past the end of the original's array
  // The readable table has the dummy slot 0 and every slot the probe reads: 2^24 + 9.
  const umax::HashTableMemory table;
  CHECK(static_cast<long>(table.size()) == lastRead + 1);
  const Sample& sample = samples().at(0);
  REQUIRE(sample.info.count("hash-table") == 1);
  CHECK(
      sample.info.at("hash-table") ==
      "2^24 + 9 slots (the original's: A[] has 2^24 + 8, its last probe window reads one more past the end)");
}

TEST_CASE("umax-trace jsonl writes every event as one JSON object with its fields", "[trace]") {
  for (const Sample& sample : samples()) {
    CAPTURE(sample.name);
    const std::string output = umaxTraceTo("jsonl " + quote(sample.path), sample.name + ".jsonl");
    const std::vector<std::string> lines = splitLines(readFile(output));
    REQUIRE(lines.size() == number(sample.info, "events"));

    std::map<std::string, uint64_t> kinds;
    uint64_t open = 0;
    uint64_t nodes = 0;
    uint64_t bad = 0;  // lines that disagree with the trace (the first few are reported)
    const TraceReader reader(sample.path);
    reader.forEach([&](const Event& event, uint64_t index) {
      const auto expect = [&](bool ok, const char* what) {
        if (!ok && bad++ < 5) FAIL_CHECK("line " << index << ": " << what << ": " << lines[index]);
      };
      const json line = json::parse(lines[index], nullptr, false);
      if (line.is_discarded() || !line.is_object()) return expect(false, "not a JSON object");
      expect(line.at("i") == index, "i");
      const std::string kind = line.at("kind");
      expect(kind == std::string(kindName(event.kind)), "kind");
      ++kinds[kind];
      expect(line.at("site") == expectedSite(kind, line.value("endsNode", false)), "site");
      // The ply follows the calls and returns.
      if (kind == "call") {
        expect(line.at("ply") == open, "ply");
        ++open;
      } else {
        if (open == 0) return expect(false, "an event outside any call");
        expect(line.at("ply") == open - 1, "ply");
        if (kind == "return") --open;
      }
      // The fields carry the original's names and the decoded values.
      if (kind == "call") {
        const auto& c = event.call;
        expect(std::vector<int64_t>{line.at("k"), line.at("q"), line.at("l"), line.at("e"), line.at("E"),
                                    line.at("z"), line.at("n")} ==
                   std::vector<int64_t>{c.side, c.alpha, c.beta, c.eval, c.epSquare, c.lastTo, c.depth},
               "call fields");
        expect(line.at("J") == c.hashKey && line.at("Z") == c.hashLock, "hash keys");
      } else if (kind == "move") {
        const auto& m = event.move;
        expect(std::vector<int>{line.at("x"), line.at("y"), line.at("u"), line.at("t"), line.at("H"),
                                line.at("G"), line.at("F"), line.at("h")} ==
                   std::vector<int>{m.from, m.to, m.piece, m.victim, m.captureSquare, m.rookFrom,
                                    m.passedSquare, m.remaining},
               "move fields");
        expect(line.at("bestFirst") == ((m.flags & kMoveSneaked) != 0), "bestFirst");
      } else if (kind == "probe") {
        expect(line.at("a") == event.probe.slot && line.at("endsNode") == event.probe.endsNode,
               "probe fields");
        if (line.at("outcome") == "hit") expect(line.at("V") == event.entry.score, "stored score");
      } else if (kind == "node") {
        expect(line.at("N") == ++nodes, "node number");
      } else if (kind == "score") {
        expect(line.at("v") == event.value, "v");
      } else if (kind == "return") {
        expect(line.at("m") == event.best && line.at("dLoop") == event.draft, "return fields");
      } else if (kind == "store") {
        expect(line.at("written") == event.written && line.at("after").at("V") == event.after.score,
               "store fields");
      }
    });
    CHECK(bad == 0);
    CHECK(open == 0);
    CHECK(nodes == number(sample.info, "nodes"));
    for (int kind = 1; kind < kEventKindCount; ++kind) {
      const std::string name(kindName(static_cast<EventKind>(kind)));
      CAPTURE(name);
      CHECK(kinds[name] == number(sample.info, "event " + name));
    }
    std::remove(output.c_str());
  }
}

namespace {

/// Checks a Chrome trace-event file: it parses, every "E" closes the
/// innermost open "B" of the same name, time never goes back. Returns the
/// count of each (ph, name) pair; "B" is counted under "B".
std::map<std::string, uint64_t> checkChromeTrace(const std::string& path, std::vector<uint64_t>& beginTimes) {
  const json trace = json::parse(readFile(path), nullptr, false);
  REQUIRE_FALSE(trace.is_discarded());
  REQUIRE(trace.contains("traceEvents"));
  std::map<std::string, uint64_t> counts;
  std::vector<std::string> open;
  uint64_t last = 0;
  uint64_t badNesting = 0;
  for (const json& event : trace.at("traceEvents")) {
    const std::string ph = event.at("ph");
    if (ph == "M") continue;
    const uint64_t ts = event.at("ts");
    if (ts < last) ++badNesting;
    last = ts;
    const std::string name = event.at("name");
    if (ph == "B") {
      open.push_back(name);
      beginTimes.push_back(ts);
      ++counts["B"];
    } else if (ph == "E") {
      if (open.empty() || open.back() != name) ++badNesting;
      if (!open.empty()) open.pop_back();
      ++counts["E"];
    } else {
      ++counts[ph + " " + name];
    }
  }
  CHECK(badNesting == 0);
  CHECK(open.empty());
  return counts;
}

}  // namespace

TEST_CASE("umax-trace chrome writes one nested slice per call", "[trace]") {
  for (const Sample& sample : samples()) {
    CAPTURE(sample.name);
    const std::string output = umaxTraceTo("chrome " + quote(sample.path), sample.name + ".json");
    std::vector<uint64_t> beginTimes;
    std::map<std::string, uint64_t> counts = checkChromeTrace(output, beginTimes);
    CHECK(counts["B"] == number(sample.info, "event call"));
    CHECK(counts["E"] == counts["B"]);
    CHECK(counts["i beta cutoff"] == number(sample.info, "event cutoff"));
    CHECK(counts["i hash cutoff"] == number(sample.info, "hash-cutoffs"));
    // A slice starts at its call's event index.
    std::vector<uint64_t> callIndices;
    TraceReader(sample.path).forEach([&](const Event& event, uint64_t index) {
      if (event.kind == EventKind::kCall) callIndices.push_back(index);
    });
    CHECK(beginTimes == callIndices);
    std::remove(output.c_str());
  }
}

TEST_CASE("umax-trace dot draws one iteration's calls and dot renders it", "[trace]") {
  int status = -1;
  runCommand("command -v dot", &status);
  INFO("Graphviz's dot is required: apt-get install graphviz (see scripts/install-deps.sh)");
  REQUIRE(status == 0);

  const std::regex nodeStatement("^  n(\\d+) \\[label=\"((?:[^\"\\\\]|\\\\.)*)\"");
  const std::regex edgeStatement("^  n(\\d+) -> n(\\d+)");
  SECTION("ply 1 of an iteration: the root's calls in it, in order, with their marks")
  for (const Sample& sample : samples()) {
    CAPTURE(sample.name);
    const TraceReader reader(sample.path);
    const CallTree tree(reader);
    const std::vector<TreeNode>& nodes = tree.nodes();
    int lastIteration = 0;
    for (const TreeNode& node : nodes) lastIteration = std::max<int>(lastIteration, node.iteration);
    REQUIRE(lastIteration > 1);

    for (const int iteration : {0, std::max(2, lastIteration - 1)}) {
      CAPTURE(iteration);
      const std::string dotFile = umaxTraceTo(
          "dot " + quote(sample.path) + " --max-ply 1 --children 0 --iteration " + std::to_string(iteration),
          sample.name + ".dot");
      const std::string svgFile = scratchFile(sample.name + ".svg");
      INFO(runCommand("dot -Tsvg " + quote(dotFile) + " -o " + quote(svgFile) + " 2>&1", &status));
      CHECK(status == 0);
      const std::string svg = readFile(svgFile);
      CHECK(svg.find("<svg") != std::string::npos);

      // Ply 1 of that iteration: the root's calls made in it, in call order.
      const int wanted = iteration == 0 ? lastIteration : iteration;
      std::vector<uint32_t> expected;
      for (uint32_t child = nodes[0].firstChild; child != 0; child = nodes[child].nextSibling)
        if (nodes[child].iteration == wanted) expected.push_back(child);
      REQUIRE_FALSE(expected.empty());
      std::vector<uint32_t> drawn;
      std::vector<uint32_t> edgeTargets;
      std::map<uint32_t, std::string> labels;
      for (const std::string& line : splitLines(readFile(dotFile))) {
        std::smatch match;
        if (std::regex_search(line, match, edgeStatement)) {
          CHECK(match[1].str() == "0");
          edgeTargets.push_back(static_cast<uint32_t>(std::stoul(match[2].str())));
        } else if (std::regex_search(line, match, nodeStatement)) {
          const auto index = static_cast<uint32_t>(std::stoul(match[1].str()));
          if (index != 0) drawn.push_back(index);
          labels[index] = match[2].str();
        }
      }
      CHECK(drawn == expected);
      CHECK(edgeTargets == expected);
      for (const uint32_t index : expected) {
        const TreeNode& node = nodes[index];
        const std::string move =
            (node.flags & kTreeMateProbe) ? std::string("null move") : umax::moveName(node.from, node.to);
        CHECK(labels[index].rfind(
                  move + "\\nwindow [" + std::to_string(node.alpha) + ", " + std::to_string(node.beta) + "]",
                  0) == 0);
        CHECK((labels[index].find("beta cutoff") != std::string::npos) == ((node.flags & kTreeCutoff) != 0));
        CHECK((labels[index].find("from the hash table") != std::string::npos) ==
              ((node.flags & kTreeHashCut) != 0));
      }
      std::remove(dotFile.c_str());
      std::remove(svgFile.c_str());
    }
  }

  SECTION("a drawing cut by --max-nodes says so and still renders") {
    const Sample& sample = samples().at(1);
    const std::string dotFile =
        umaxTraceTo("dot " + quote(sample.path) + " --max-ply 4 --children 0 --max-nodes 7", "cut.dot");
    const std::string text = readFile(dotFile);
    CHECK(text.find("Drawing stopped at 7 calls") != std::string::npos);
    int callNodes = 0;
    for (const std::string& line : splitLines(text))
      callNodes += std::regex_search(line, nodeStatement) ? 1 : 0;
    CHECK(callNodes == 7);
    runCommand("dot -Tsvg " + quote(dotFile) + " -o /dev/null", &status);
    CHECK(status == 0);
    std::remove(dotFile.c_str());
  }
  SECTION("an iteration the root never reached is refused") {
    const std::string output = umaxTrace("dot " + quote(samples().at(0).path) + " --iteration 90", &status);
    CHECK(status != 0);
    CHECK(output.find("no iteration 90") != std::string::npos);
  }
}

namespace {

/// The draft each call stored in the hash table (the D a reader expects to
/// see), by the index of its kCall event, worked out from the events
/// without completedDraft(): the D of its last written store; the draft of
/// its last iteration where a store was refused; the entry's D when the
/// table answered it; 0 if it never finished an iteration.
std::map<uint64_t, int> storedDrafts(const TraceReader& reader) {
  struct Open {
    uint64_t callEvent;
    int draft;
  };
  std::vector<Open> open;
  std::map<uint64_t, int> drafts;
  reader.forEach([&](const Event& event, uint64_t index) {
    switch (event.kind) {
      case EventKind::kCall:
        open.push_back({index, 0});
        break;
      case EventKind::kProbe:
        if (event.probe.endsNode) open.back().draft = event.entry.draft;
        break;
      case EventKind::kIteration:
        open.back().draft = event.value;
        break;
      case EventKind::kStore:
        if (event.written) open.back().draft = event.after.draft;
        break;
      case EventKind::kReturn:
        drafts[open.back().callEvent] = open.back().draft;
        open.pop_back();
        break;
      default:
        break;
    }
  });
  return drafts;
}

}  // namespace

TEST_CASE("the draft shown for every call is the draft it stored, and a mate score shows 99", "[trace]") {
  uint64_t mateScores = 0;
  for (const Sample& sample : samples()) {
    CAPTURE(sample.name);
    const TraceReader reader(sample.path);
    const std::map<uint64_t, int> stored = storedDrafts(reader);
    std::vector<int> inReturnOrder;  // the stored drafts, in the order the calls returned
    std::vector<uint64_t> openCalls;
    reader.forEach([&](const Event& event, uint64_t index) {
      if (event.kind == EventKind::kCall) openCalls.push_back(index);
      if (event.kind != EventKind::kReturn) return;
      inReturnOrder.push_back(stored.at(openCalls.back()));
      openCalls.pop_back();
    });

    {  // jsonl: a return's draft
      const std::string output = umaxTraceTo("jsonl " + quote(sample.path), sample.name + "-draft.jsonl");
      std::vector<int> shown;
      uint64_t wrongMate = 0;
      for (const std::string& text : splitLines(readFile(output))) {
        const json line = json::parse(text);
        if (line.at("kind") != "return") continue;
        shown.push_back(line.at("draft"));
        const int score = line.at("m");
        if (score > umax::kMateBound || score < -umax::kMateBound) {
          ++mateScores;
          wrongMate += line.at("draft") != umax::kMateDraft;
        }
      }
      CHECK(shown == inReturnOrder);
      CHECK(wrongMate == 0);
      CHECK(*std::max_element(shown.begin(), shown.end()) <= umax::kMateDraft);
      std::remove(output.c_str());
    }
    {  // chrome: the draft at a slice's end
      const std::string output = umaxTraceTo("chrome " + quote(sample.path), sample.name + "-draft.json");
      std::vector<int> shown;
      const json trace = json::parse(readFile(output));
      for (const json& event : trace.at("traceEvents"))
        if (event.at("ph") == "E") shown.push_back(event.at("args").at("draft"));
      CHECK(shown == inReturnOrder);
      std::remove(output.c_str());
    }
    {  // dot: every call of the last iteration, drawn in full
      const std::string output =
          umaxTraceTo("dot " + quote(sample.path) + " --children 0 --max-ply 200 --max-nodes 1000000",
                      sample.name + "-draft.dot");
      const CallTree tree(reader);
      const std::regex drawnCall("^  n(\\d+) \\[label=\".*\\\\nscore -?\\d+  draft (\\d+)");
      uint64_t calls = 0;
      uint64_t wrong = 0;
      for (const std::string& line : splitLines(readFile(output))) {
        std::smatch match;
        if (!std::regex_search(line, match, drawnCall)) continue;
        ++calls;
        const TreeNode& node = tree.nodes().at(std::stoul(match[1].str()));
        if (std::stoi(match[2].str()) != stored.at(node.callEvent) && wrong++ < 5)
          FAIL_CHECK(line << " (stored draft " << stored.at(node.callEvent) << ")");
      }
      CHECK(calls > 1);
      CHECK(wrong == 0);
      std::remove(output.c_str());
    }
  }
  CHECK(mateScores > 0);  // the mate-in-one sample has them
}

TEST_CASE("the default dot drawing puts the root on top and draws the best moves, counting the rest",
          "[trace]") {
  int status = -1;
  const Sample& sample = samples().at(1);  // three moves into an opening
  const TraceReader reader(sample.path);
  const CallTree tree(reader);
  const std::vector<TreeNode>& nodes = tree.nodes();
  const std::string dotFile = umaxTraceTo("dot " + quote(sample.path) + " --max-ply 2", "default.dot");
  const std::string text = readFile(dotFile);
  CHECK(text.find("rankdir=TB") != std::string::npos);

  // Per drawn call: the children drawn, and how many it says it left out.
  const std::regex callStatement("^  n(\\d+) \\[label=\"((?:[^\"\\\\]|\\\\.)*)\"");
  const std::regex callEdge("^  n(\\d+) -> n(\\d+)");
  const std::regex foldBox("^  more(\\d+) \\[label=\"\\+(\\d+) more move");
  const std::regex foldNote("the best of its (\\d+) moves drawn");
  std::vector<uint32_t> order;  // call boxes in statement order
  std::map<uint32_t, std::vector<uint32_t>> drawnChildren;
  std::map<uint32_t, uint64_t> leftOut;
  for (const std::string& line : splitLines(text)) {
    std::smatch match;
    if (std::regex_search(line, match, callEdge)) {
      drawnChildren[std::stoul(match[1].str())].push_back(std::stoul(match[2].str()));
    } else if (std::regex_search(line, match, foldBox)) {
      leftOut[std::stoul(match[1].str())] += std::stoul(match[2].str());
    } else if (std::regex_search(line, match, callStatement)) {
      const auto index = static_cast<uint32_t>(std::stoul(match[1].str()));
      order.push_back(index);
      const std::string label = match[2].str();
      std::smatch note;
      if (std::regex_search(label, note, foldNote)) leftOut[index] += std::stoul(note[1].str()) - 1;
    }
  }
  REQUIRE_FALSE(order.empty());
  CHECK(order.front() == 0);  // the root comes first
  CHECK(order.size() <= 60);
  CHECK(order.size() > 5);

  int lastIteration = 0;
  for (const TreeNode& node : nodes) lastIteration = std::max<int>(lastIteration, node.iteration);
  for (const uint32_t parent : order) {
    CAPTURE(parent);
    std::vector<uint32_t> all;  // its calls in the drawing's iteration and plies
    for (uint32_t child = nodes[parent].firstChild; child != 0; child = nodes[child].nextSibling)
      if ((parent != 0 || nodes[child].iteration == lastIteration) && nodes[child].ply <= 2)
        all.push_back(child);
    const std::vector<uint32_t>& drawn = drawnChildren[parent];
    // Every call is drawn or counted, none twice; drawn ones keep the search's order.
    CHECK(drawn.size() + leftOut[parent] == all.size());
    CHECK(std::is_sorted(drawn.begin(), drawn.end()));
    CHECK(drawn.size() <= 3);
    // The parent's best move (the reply that returned the least) is among the drawn.
    if (!drawn.empty()) {
      const auto best = std::min_element(
          all.begin(), all.end(), [&](uint32_t a, uint32_t b) { return nodes[a].score < nodes[b].score; });
      CHECK(std::any_of(drawn.begin(), drawn.end(),
                        [&](uint32_t child) { return nodes[child].score == nodes[*best].score; }));
    }
  }
  // A picture a page holds.
  const std::string svgFile = scratchFile("default.svg");
  INFO(runCommand("dot -Tsvg " + quote(dotFile) + " -o " + quote(svgFile) + " 2>&1", &status));
  REQUIRE(status == 0);
  std::smatch size;
  const std::string svg = readFile(svgFile);
  REQUIRE(std::regex_search(svg, size, std::regex("<svg width=\"(\\d+)pt\" height=\"(\\d+)pt\"")));
  CHECK(std::stoi(size[1].str()) < 1600);
  CHECK(std::stoi(size[2].str()) < 800);
  std::remove(dotFile.c_str());
  std::remove(svgFile.c_str());
}

TEST_CASE("umax-readable --trace records the think it prints", "[trace]") {
  SECTION("the same line as without --trace, and the trace of that search")
  for (const Sample& sample : {samples().at(0), samples().at(1)}) {
    CAPTURE(sample.name);
    const std::string path = scratchFile(sample.name + "-readable.trc");
    int status = -1;
    const std::string plain =
        runCommand(quote(binPath("umax-readable")) + " --think" + searchArguments(sample), &status);
    REQUIRE(status == 0);
    const std::string traced = runCommand(
        quote(binPath("umax-readable")) + " --think --trace " + quote(path) + searchArguments(sample),
        &status);
    REQUIRE(status == 0);
    CHECK(traced == plain);
    REQUIRE(std::regex_match(plain, std::regex("bestmove [a-h][1-8][a-h][1-8] score -?\\d+ nodes \\d+\n")));
    const std::map<std::string, std::string> info = parseInfo(umaxTrace("info " + quote(path), &status));
    REQUIRE(status == 0);
    CHECK("result " + info.at("result") + "\n" == "result " + plain);
    // The same search as umax-trace record's.
    CHECK(info.at("events") == sample.info.at("events"));
    std::remove(path.c_str());
  }
  SECTION("--hash-bits: a smaller table, recorded with its size, the same file as umax-trace record's") {
    int status = -1;
    const std::string readable = scratchFile("small-readable.trc");
    const std::string recorded = scratchFile("small-record.trc");
    const std::string arguments = " --moves e2e4 --nodes 3000 --hash-bits 12";
    const std::string printed =
        runCommand(quote(binPath("umax-readable")) + arguments + " --trace " + quote(readable), &status);
    REQUIRE(status == 0);
    umaxTrace("record" + arguments + " -q -o " + quote(recorded), &status);
    REQUIRE(status == 0);
    CHECK(readFile(readable) == readFile(recorded));
    const umax::trace::TraceReader reader(readable);
    CHECK(reader.header().hashSlotBits == 12);
    // Another search than the original table's: the same think with 2^24 + 9 slots differs.
    const std::string original =
        runCommand(quote(binPath("umax-readable")) + " --think --moves e2e4 --nodes 3000", &status);
    REQUIRE(status == 0);
    CHECK(printed != original);
    std::remove(readable.c_str());
    std::remove(recorded.c_str());
  }
  SECTION("--hash-bits out of range is refused by both tools, naming the option") {
    int status = -1;
    for (const std::string value : {"11", "25", "x"}) {
      CAPTURE(value);
      const std::string path = scratchFile("bad-bits.trc");
      std::string output =
          umaxTrace("record --nodes 100 --hash-bits " + value + " -q -o " + quote(path), &status);
      CHECK(status != 0);
      CHECK(output.find("--hash-bits") != std::string::npos);
      CHECK_FALSE(std::ifstream(path).good());
      output = runCommand(
          quote(binPath("umax-readable")) + " --think --nodes 100 --hash-bits " + value + " 2>&1", &status);
      CHECK(status != 0);
      CHECK(output.find("--hash-bits") != std::string::npos);
      CHECK(output.find("bestmove") == std::string::npos);
    }
    // The protocols size the table with their own commands.
    const std::string output =
        runCommand(quote(binPath("umax-readable")) + " --uci --hash-bits 16 2>&1 </dev/null", &status);
    CHECK(status == 2);
    CHECK(output.find("Hash") != std::string::npos);
  }
  SECTION("a trace file that cannot be created is an error, not a crash") {
    int status = -1;
    const std::string output = runCommand(
        quote(binPath("umax-readable")) + " --nodes 100 --trace /nonexistent-dir/x.trc 2>&1", &status);
    CHECK(status == 2);
    CHECK(output.find("cannot create") != std::string::npos);
  }
}

TEST_CASE("a signal stops umax-trace record with a complete trace of the search so far", "[trace]") {
  // The original's own think after 1. e4 (72.6M nodes), stopped once the
  // recording is under way: the think ends at the next node and the file
  // gets its footer (a killed recorder leaves a cut file without one).
  for (const int signal : {SIGINT, SIGTERM}) {
    CAPTURE(signal);
    const std::string path = scratchFile("stopped.trc");
    const std::string out = scratchFile("stopped.out");
    const std::string err = scratchFile("stopped.err");
    std::remove(path.c_str());
    const std::string program = binPath("umax-trace");
    std::vector<std::string> words = {program,    "record", "--moves", "e2e4", "--nodes",
                                      "10000000", "-q",     "-o",      path};
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&files, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults;  // the child catches these whatever the test runner does with them
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
    pid_t child = 0;
    REQUIRE(posix_spawn(&child, program.c_str(), &files, &attributes, argv.data(), environ) == 0);
    posix_spawn_file_actions_destroy(&files);
    posix_spawnattr_destroy(&attributes);
    // Under way: 2 MB of chunks written (the whole think writes 5 GB) to the partial trace,
    // which becomes `path` once complete.
    const auto start = std::chrono::steady_clock::now();
    struct stat info {};
    const std::string partial = partialTracePath(path);
    while ((::stat(partial.c_str(), &info) != 0 || info.st_size < 2'000'000) &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(120))
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(info.st_size >= 2'000'000);
    REQUIRE(::kill(child, signal) == 0);
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));  // not killed by the signal
    CHECK(WEXITSTATUS(status) == 128 + signal);
    const std::string printed = readFile(out);
    INFO(printed);
    CHECK(std::regex_search(printed, std::regex("^(last|no) completed iteration: bestmove ")));
    CHECK(readFile(err).find("interrupted after") != std::string::npos);

    const TraceReader reader(path);
    CHECK_FALSE(reader.truncated());
    REQUIRE(reader.hasResult());
    CHECK(reader.result().nodes > 0);
    CHECK(reader.result().nodes < 72'643'997);  // stopped before the think's end
    CHECK(reader.result().events == reader.eventCount());
    // The search is cut inside its calls: info says so, and every event replays.
    int infoStatus = -1;
    const std::map<std::string, std::string> fields =
        parseInfo(umaxTrace("info " + quote(path), &infoStatus));
    CHECK(infoStatus == 0);
    CHECK(fields.count("stopped") == 1);
    CHECK(number(fields, "nodes") == reader.result().nodes);
    Replay replay(reader);
    CHECK_NOTHROW(replay.seek(reader.eventCount()));
    std::remove(path.c_str());
    std::remove(out.c_str());
    std::remove(err.c_str());
  }
}

TEST_CASE("umax-trace explains files it cannot read", "[trace]") {
  const Sample& sample = samples().at(0);
  const std::string full = readFile(sample.path);
  const auto writeBytes = [](const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
  };
  int status = -1;
  // One of the commands that read a trace; the exports write to /dev/null.
  const auto readWith = [&status](const std::string& command, const std::string& path) {
    return umaxTrace(command + " " + quote(path) + (command == "info" ? "" : " -o /dev/null"), &status);
  };

  SECTION("a missing file") {
    const std::string output = umaxTrace("info " + quote(scratchFile("missing.trc")), &status);
    CHECK(status == 2);
    CHECK(output.find("cannot open") != std::string::npos);
  }
  SECTION("a file that is not a trace, or empty") {
    const std::string path = scratchFile("foreign.trc");
    writeBytes(path, "bestmove e2e4 score 0 nodes 1\n");
    std::string output = umaxTrace("info " + quote(path), &status);
    CHECK(status == 2);
    CHECK(output.find("not a umax trace file") != std::string::npos);
    writeBytes(path, "");
    output = umaxTrace("dot " + quote(path), &status);
    CHECK(status == 2);
    CHECK(output.find("empty") != std::string::npos);
    std::remove(path.c_str());
  }
  SECTION("a trace of another format version is refused, naming both versions") {
    const std::string path = scratchFile("version.trc");
    std::string bytes = full;
    bytes[8] = 5;  // the version field follows the 8-byte magic
    writeBytes(path, bytes);
    for (const char* command : {"info", "jsonl", "chrome", "dot"}) {
      CAPTURE(command);
      const std::string output = readWith(command, path);
      CHECK(status == 2);
      CHECK(output.find("trace format version 5 is not supported (this build reads version " +
                        versionName(kFormatVersion) + " only") != std::string::npos);
    }
    std::remove(path.c_str());
  }
  SECTION("a truncated copy is read up to its last complete record") {
    const std::string path = scratchFile("truncated.trc");
    writeBytes(path, full.substr(0, full.size() * 2 / 3));
    const std::string output = umaxTrace("info " + quote(path), &status);
    CHECK(status == 0);
    const auto info = parseInfo(output);
    REQUIRE(info.count("truncated"));
    CHECK(info.at("truncated").rfind("yes", 0) == 0);
    CHECK(number(info, "nodes") < number(sample.info, "nodes"));
    CHECK(number(info, "events") > 0);
    CHECK(info.count("result") == 0);
    // The exports work on what is there, and say the file was cut.
    const std::string jsonl = scratchFile("truncated.jsonl");
    CHECK(umaxTrace("jsonl " + quote(path) + " -o " + quote(jsonl), &status).find("truncated") !=
          std::string::npos);
    CHECK(status == 0);
    CHECK(splitLines(readFile(jsonl)).size() == number(info, "events"));
    const std::string chrome = scratchFile("truncated.json");
    umaxTrace("chrome " + quote(path) + " -o " + quote(chrome), &status);
    CHECK(status == 0);
    std::vector<uint64_t> beginTimes;
    CHECK(checkChromeTrace(chrome, beginTimes)["B"] == number(info, "event call"));
    runCommand(quote(binPath("umax-trace")) + " dot " + quote(path) + " 2>/dev/null | dot -Tsvg -o /dev/null",
               &status);
    CHECK(status == 0);
    for (const std::string& file : {path, jsonl, chrome}) std::remove(file.c_str());
  }
  SECTION("a damaged copy is refused with the place of the damage") {
    const std::string path = scratchFile("damaged.trc");
    // Bytes inside chunks of records and inside the footer.
    for (const std::size_t offset :
         {full.size() / 3, full.size() / 2, full.size() * 3 / 4, full.size() - 30}) {
      CAPTURE(offset);
      std::string bytes = full;
      bytes[offset] = static_cast<char>(bytes[offset] ^ 0x5a);
      writeBytes(path, bytes);
      for (const char* command : {"info", "jsonl", "chrome", "dot"}) {
        CAPTURE(command);
        const std::string output = readWith(command, path);
        CHECK(status == 2);
        CHECK(std::regex_search(
            output, std::regex("^umax-trace: .*(corrupt|checksum|does not fit).*\\(at byte \\d+\\)")));
      }
    }
    std::remove(path.c_str());
  }
}

// ---- the Lab: umax-trace record --without / --depth, and compare ----------------

TEST_CASE("umax-trace record --without records a think of the Lab, and every tool names its variant",
          "[trace][lab]") {
  int status = -1;
  const std::string arguments = " --moves e2e4 --nodes 2000 --without hash,best-first";
  const std::string lab = scratchFile("lab-record.trc");
  const std::string recorded = umaxTrace("record -q" + arguments + " -o " + quote(lab), &status);
  REQUIRE(status == 0);
  // The think's line is the one umax-readable --think prints for the same variant.
  const std::string plain = runCommand(quote(binPath("umax-readable")) + " --think" + arguments, &status);
  REQUIRE(status == 0);
  CHECK(splitLines(recorded).at(0) + "\n" == plain);
  CHECK(plain.find(" without hash,best-first") != std::string::npos);
  // umax-readable --trace writes the same file.
  const std::string readable = scratchFile("lab-readable.trc");
  runCommand(quote(binPath("umax-readable")) + " --think --trace " + quote(readable) + arguments, &status);
  REQUIRE(status == 0);
  CHECK(readFile(readable) == readFile(lab));

  const auto info = parseInfo(umaxTrace("info " + quote(lab), &status));
  REQUIRE(status == 0);
  CHECK(info.at("search") == "the Lab, without hash, best-first");
  CHECK(info.at("hash-probes") == info.at("event probe"));
  CHECK(info.at("hash-stores") == "0 written, " + info.at("event store") + " refused");  // no table
  const std::vector<std::string> lines = splitLines(umaxTrace("jsonl " + quote(lab), &status));
  REQUIRE(status == 0);
  const json header = json::parse(lines.at(0));
  CHECK(header.at("header") == true);
  CHECK(header.at("without") == "hash,best-first");
  CHECK(header.at("depth") == 0);
  CHECK(json::parse(lines.at(1)).at("i") == 0);
  CHECK(lines.size() == number(info, "events") + 1);
  const json state = json::parse(umaxTrace("state " + quote(lab) + " --event 1", &status));
  REQUIRE(status == 0);
  CHECK(state.at("search") == "the Lab, without hash, best-first");
  CHECK(state.at("narration").get<std::string>().find("no hash table") != std::string::npos);

  // A trace of micro-Max's own search names none: its jsonl starts with event 0.
  const Sample& sample = samples().at(0);
  CHECK(sample.info.at("search") == "micro-Max's own (the whole search)");
  CHECK(json::parse(splitLines(umaxTrace("jsonl " + quote(sample.path), &status)).at(0)).at("i") == 0);
  CHECK_FALSE(
      json::parse(umaxTrace("state " + quote(sample.path) + " --event 1", &status)).contains("search"));

  SECTION("--depth D: no budget, the root stops at draft D") {
    const std::string deep = scratchFile("lab-depth.trc");
    const std::string output =
        umaxTrace("record -q --depth 3 --without quiescence -o " + quote(deep), &status);
    REQUIRE(status == 0);
    CHECK(std::regex_search(output, std::regex(" depth 3 without quiescence\n")));
    const auto depthInfo = parseInfo(umaxTrace("info " + quote(deep), &status));
    CHECK(depthInfo.at("budget").rfind("none", 0) == 0);
    CHECK(depthInfo.count("iteration 3") == 1);
    CHECK(depthInfo.count("iteration 4") == 0);
    std::remove(deep.c_str());
  }
  SECTION("a bad name or --nodes with --depth is refused, with no file") {
    const std::string refused = scratchFile("lab-refused.trc");
    std::remove(refused.c_str());
    std::string output = umaxTrace("record --without speed -o " + quote(refused), &status);
    CHECK(status != 0);
    CHECK(output.find("'speed' is not an idea of the search; the ideas are: alpha-beta") !=
          std::string::npos);
    output = umaxTrace("record --nodes 100 --depth 3 -o " + quote(refused), &status);
    CHECK(status != 0);
    CHECK(output.find("--nodes and --depth exclude each other") != std::string::npos);
    CHECK_FALSE(std::ifstream(refused).good());
  }
  std::remove(lab.c_str());
  std::remove(readable.c_str());
}

namespace {

/// A jsonl line's values without the hash table's layout (slots, keys, locks): what compare's
/// eventWhat compares, read independently from the export.
json withoutLayout(json line) {
  for (const char* key : {"i", "site", "J", "Z", "j", "a", "probed", "before", "N"}) line.erase(key);
  if (line.contains("after")) line["after"].erase("K");
  if (line.contains("written") && !line.at("written").get<bool>()) line.erase("after");  // the kept entry
  return line;
}

}  // namespace

TEST_CASE("umax-trace compare shows two searches side by side and where their trees part", "[trace][lab]") {
  int status = -1;
  const std::string whole = umaxTraceTo("record -q --moves e2e4 --nodes 2000", "compare-whole.trc");
  const std::string centre =
      umaxTraceTo("record -q --moves e2e4 --nodes 2000 --without centre", "compare-centre.trc");
  const std::string output = umaxTrace("compare " + quote(whole) + " " + quote(centre), &status);
  INFO(output);
  REQUIRE(status == 0);
  CHECK(output.find("A  " + whole + ": micro-Max's own; start position + e2e4; budget 2000") !=
        std::string::npos);
  CHECK(output.find("B  " + centre + ": the Lab, without centre; start position + e2e4; budget 2000") !=
        std::string::npos);
  // Each root iteration's nodes and calls are the ones umax-trace info gives for that trace.
  const auto infoA = parseInfo(umaxTrace("info " + quote(whole), &status));
  const auto infoB = parseInfo(umaxTrace("info " + quote(centre), &status));
  std::map<int, std::vector<std::string>> rows;
  for (const std::string& line : splitLines(output)) {
    std::smatch match;
    if (std::regex_match(line, match, std::regex(R"(\s*(\d+) \|(.*)\|(.*))"))) {
      std::istringstream words(match[2].str() + " " + match[3].str());
      std::vector<std::string> fields{std::istream_iterator<std::string>(words), {}};
      rows[std::stoi(match[1])] = fields;
    }
  }
  int checked = 0;
  for (const auto& [info, column] : {std::pair{&infoA, 0}, {&infoB, 5}}) {
    for (const auto& [key, value] : *info) {
      if (key.rfind("iteration ", 0) != 0) continue;
      const int draft = std::stoi(key.substr(10));
      REQUIRE(rows.count(draft));
      std::istringstream words(value);  // "nodes N calls C branching B"
      std::string word, nodes, calls;
      words >> word >> nodes >> word >> calls;
      CHECK(rows[draft].at(static_cast<std::size_t>(column)) == nodes);
      CHECK(rows[draft].at(static_cast<std::size_t>(column) + 1) == calls);
      ++checked;
    }
  }
  CHECK(checked >= 6);

  // The first difference: the first jsonl line whose values differ, and the moves on the board there.
  const std::vector<std::string> linesA = splitLines(umaxTrace("jsonl " + quote(whole), &status));
  const std::vector<std::string> linesB = splitLines(umaxTrace("jsonl " + quote(centre), &status));
  std::size_t first = 1;  // B's line 0 is its header
  std::vector<std::string> path;
  std::vector<int> movePly;
  for (; first < linesB.size() && first - 1 < linesA.size(); ++first) {
    const json a = json::parse(linesA[first - 1]), b = json::parse(linesB[first]);
    if (withoutLayout(a) != withoutLayout(b)) break;
    if (a.at("kind") == "move") {
      path.push_back(a.at("move"));
      movePly.push_back(a.at("ply"));
    } else if (a.at("kind") == "score") {
      path.pop_back();
      movePly.pop_back();
    }
  }
  REQUIRE(first < linesB.size());
  const uint64_t event = first - 1;
  std::string pathText;
  for (const std::string& move : path) pathText += (pathText.empty() ? "" : " ") + move;
  CHECK(output.find("first difference: event " + std::to_string(event) + " of A, event " +
                    std::to_string(event) + " of B, ply " +
                    std::to_string(json::parse(linesA[event]).at("ply").get<int>()) +
                    ", path from the root: " + (pathText.empty() ? "(the root)" : pathText) + "\n") !=
        std::string::npos);
  CHECK(event > 0);  // the centre table changes the evals, not the first call

  SECTION("a trace compared with itself has no difference") {
    const std::string same = umaxTrace("compare " + quote(whole) + " " + quote(whole), &status);
    REQUIRE(status == 0);
    CHECK(same.find("first difference: none") != std::string::npos);
    CHECK(same.find("first different move: none") != std::string::npos);
  }
  SECTION("a file that is not a trace is named") {
    const std::string bad = scratchFile("compare-bad.trc");
    std::ofstream(bad, std::ios::binary) << "not a trace";
    const std::string refused = umaxTrace("compare " + quote(whole) + " " + quote(bad), &status);
    CHECK(status == 2);
    CHECK(refused.find(bad) != std::string::npos);
    CHECK(refused.find("not a umax trace file") != std::string::npos);
  }
  std::remove(whole.c_str());
  std::remove(centre.c_str());
}

TEST_CASE("umax-trace compare says a search without the table probes none, not a full window",
          "[trace][lab]") {
  // Without hash every node takes the dummy slot 0, which the format records as a full window:
  // compare names it for what it is.
  int status = -1;
  const std::string whole = umaxTraceTo("record -q --nodes 500", "compare-table.trc");
  const std::string noTable = umaxTraceTo("record -q --nodes 500 --without hash", "compare-no-table.trc");
  const std::string output = umaxTrace("compare " + quote(whole) + " " + quote(noTable), &status);
  INFO(output);
  REQUIRE(status == 0);
  CHECK(output.find("  A: probe miss\n  B: probe: no table\n") != std::string::npos);
  CHECK(output.find("probe full") == std::string::npos);
  std::remove(whole.c_str());
  std::remove(noTable.c_str());
}
