// The trace writer's shortcuts, each held against the slow way it replaces:
// the chunk checksum (CRC-32C, with SSE4.2 or a table) against the standard
// check value and against itself split anywhere; the checkpoints the
// Recorder takes from the engine against the state SearchState rebuilds
// from the trace's own events; older versions refused, the version under
// the header's checksum; and the header's skipped table scan against a full scan.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support.h"
#include "umax/session.h"
#include "umax/staged_writer.h"
#include "umax/trace/bytes.h"
#include "umax/trace/compact.h"
#include "umax/trace/export.h"
#include "umax/trace/fields.h"
#include "umax/trace/framing.h"
#include "umax/trace/reader.h"
#include "umax/trace/replay.h"
#include "umax/trace/state.h"
#include "umax/trace/writer.h"
#include "umax/view/hash_history.h"
#include "umax/view/view_state.h"

using namespace umax;
using namespace umax::trace;
using namespace umax::test;

namespace {

/// Kiwipete: castlings, e.p. captures, promotions and hash cutoffs in a few thousand nodes.
constexpr const char* kKiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Ends `writer`'s trace with the result of the think it recorded.
// Counts an event read back that differs from what the search reported;
// the first one fails the test with both.
void countMismatch(const Event& read, const Event& reported, uint64_t at, uint64_t& mismatches) {
  if (read == reported) return;
  if (mismatches == 0)
    FAIL_CHECK("event " << at << ": read " << toString(read) << ", reported " << toString(reported));
  ++mismatches;
}

void finishWith(TraceWriter& writer, const ThinkResult& result) {
  writer.finish(
      {result.score, result.from, result.to, static_cast<uint64_t>(result.nodes), writer.events(), ""});
}

std::vector<uint8_t> bytesOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void writeAll(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

/// One engine for every recording here (each allocates a 268 MB table).
Engine& engineAt(const std::string& fen, const std::string& moves) {
  static const auto engine = std::make_unique<Engine>();
  engine->clearHashTable();
  engine->setPosition(parseFen(fen.empty() ? std::string(kStartFen) : fen));
  playMoves(*engine, moves);
  return *engine;
}

/// Forwards every hook to the recorder and keeps the event each hook
/// describes, as a trace reader must give it back.
class EventWitness final : public SearchObserver {
 public:
  explicit EventWitness(Recorder& recorder) : recorder_(recorder) {}
  std::vector<Event> events;
  uint64_t returns = 0;  ///< the returns the search told
  uint64_t nodes = 0;    ///< the nodes it counted

  void onEnter(const NodeCall& call, const ProbeReport& report, const HashEntry& entry,
               int nodeCount) override {
    recorder_.onEnter(call, report, entry, nodeCount);
    entering_ = true;  // the events below, one by one; a hash cutoff's return is the recorder's already
    SearchObserver::onEnter(call, report, entry, nodeCount);
    entering_ = false;
  }
  void onCall(const NodeCall& call) override { add(EventKind::kCall).call = call; }
  void onProbe(const ProbeReport& report, const HashEntry& entry) override {
    Event& event = add(EventKind::kProbe);
    event.probe = report;
    if (report.outcome == ProbeOutcome::kHit) {
      event.entry = entry;
      event.entry.lock = 0;  // a probe record leaves out the lock: it is the call's Z
    }
  }
  void onNodeCounted(int) override {
    add(EventKind::kNodeCounted);
    if (++nodes == raiseAt_ && stop_) *stop_ = true;
  }
  /// Raises `stop` as it hears the `node`th node counted (1-based).
  void raiseAt(std::atomic<bool>& stop, uint64_t node) {
    stop_ = &stop;
    raiseAt_ = node;
  }
  void onIteration(int draft) override {
    recorder_.onIteration(draft);
    add(EventKind::kIteration).value = draft;
  }
  void onKingCapture(int from, int to, bool bad) override {
    recorder_.onKingCapture(from, to, bad);
    Event& event = add(EventKind::kKingCapture);
    event.move.from = from;
    event.move.to = to;
    event.badCastling = bad;
  }
  void onCutoff(int best) override {
    recorder_.onCutoff(best);
    add(EventKind::kCutoff).value = best;
  }
  void onMoveMade(const Move& move, int remaining, bool sneaked) override {
    recorder_.onMoveMade(move, remaining, sneaked);
    add(EventKind::kMoveMade).move = recordOf(move, remaining, sneaked);
  }
  void onMoveScored(int score) override {
    recorder_.onMoveScored(score);
    add(EventKind::kMoveScored).value = score;
  }
  void onBestMove(int best, int from, int to) override {
    recorder_.onBestMove(best, from, to);
    Event& event = add(EventKind::kBestMove);
    event.best = best;
    event.bestFrom = static_cast<int8_t>(from);
    event.bestTo = static_cast<int8_t>(to);
  }
  void onMateProbe() override {
    recorder_.onMateProbe();
    add(EventKind::kMateProbe);
  }
  void onStore(uint32_t slot, const HashEntry& before, const HashEntry& after, bool written) override {
    recorder_.onStore(slot, before, after, written);
    Event& event = add(EventKind::kStore);
    event.slot = slot;
    event.written = written;
    event.before = before;
    event.after = written ? after : before;
  }
  void onReturn(int score, int from, int to, int draft) override {
    if (!entering_) recorder_.onReturn(score, from, to, draft);
    ++returns;
    Event& event = add(EventKind::kReturn);
    event.best = score;
    event.bestFrom = static_cast<int8_t>(from);
    event.bestTo = static_cast<int8_t>(to);
    event.draft = static_cast<int8_t>(draft);
  }

 private:
  Event& add(EventKind kind) {
    Event& event = events.emplace_back();
    event.kind = kind;
    return event;
  }
  Recorder& recorder_;
  bool entering_ = false;  // in onEnter: its events go to the recorder through it
  std::atomic<bool>* stop_ = nullptr;
  uint64_t raiseAt_ = 0;
};

/// How many records of a trace wrote out a value their state predicts
/// (kExplicitValues, kExplicitMove, kStoreAfterFollows), and how many stores
/// wrote out the slot's previous entry (a call below had overwritten it).
struct Spelled {
  uint64_t predictionsMissed = 0;
  uint64_t previousEntries = 0;
};

Spelled spelledOut(const TraceReader& reader) {
  Spelled spelled;
  for (std::size_t chunk = 0; chunk < reader.chunks().size(); ++chunk) {
    const ChunkInfo& info = reader.chunks()[chunk];
    RecordDecoder decoder(reader.header());
    std::size_t size = 0;
    const uint8_t* checkpoint = reader.checkpoint(chunk, size);
    decoder.restore(checkpoint, size, 0);
    const uint8_t* at = reader.data() + info.payloadOffset;
    const uint8_t* end = at + info.payloadBytes;
    Event event;
    while (at != end) {
      const int kind = *at & 15;
      const int flags = *at >> 4;
      switch (static_cast<EventKind>(kind)) {
        case EventKind::kCall:
        case EventKind::kMoveScored:
        case EventKind::kBestMove:
        case EventKind::kReturn:
          spelled.predictionsMissed += (flags & kExplicitValues) != 0;
          break;
        case EventKind::kMoveMade:
          spelled.predictionsMissed += (flags >> 1) == kExplicitMove;
          break;
        case EventKind::kStore:
          spelled.predictionsMissed += (flags & kStoreAfterFollows) != 0;
          spelled.previousEntries += ((flags >> 1) & 3) == kBeforeFollows;
          break;
        default:
          break;
      }
      at = decoder.decode(at, end, event, 0);
      REQUIRE(at);
    }
  }
  return spelled;
}

}  // namespace

TEST_CASE("a trace gives back every event the search tells, returns included, stopped or not", "[trace]") {
  // The events the search tells a witness (which passes them on to the
  // recorder), read back from the trace: from every 25th test position
  // (mates, stalemates, promotions, endings), each thought twice with the
  // same budget, to its end and stopped halfway (the witness raises the stop
  // flag as it hears a node counted, as a progress display's callback does:
  // the flag is read right after that node is counted). The stopped think
  // tells the whole one's first events, and no return for the calls still
  // open. (Stopped at the recorder's first progress report, 65,536 nodes on,
  // each stopped think cost as much as twenty whole ones.)
  const auto& positions = testPositions();
  int compared = 0;
  int aborted = 0;
  uint64_t returns = 0;
  for (std::size_t index = 0; index < positions.size(); index += 25) {
    const std::string& fen = positions[index].fen;
    std::vector<Event> whole;  // the events of the think run to its end
    uint64_t wholeNodes = 0;
    for (const bool stopped : {false, true}) {
      CAPTURE(fen, stopped);
      const long budget = 3000;
      const std::string path = scratchFile("returns.trc");
      Engine& engine = engineAt(fen, "");
      std::atomic<bool> stop{false};
      engine.setStopFlag(&stop);
      TraceWriter writer(path, makeHeader(engine, budget, fen, ""));
      Recorder recorder(writer, engine);
      EventWitness witness(recorder);
      if (stopped) witness.raiseAt(stop, wholeNodes / 2 + 1);
      const ThinkResult result = engine.think(budget, witness);
      engine.setStopFlag(nullptr);
      finishWith(writer, result);
      returns += witness.returns;
      const TraceReader reader(path);
      REQUIRE(reader.eventCount() == witness.events.size());
      uint64_t mismatches = 0;
      reader.forEach([&](const Event& event, uint64_t at) {
        if (event == witness.events[at]) return;
        if (mismatches++ == 0)
          FAIL_CHECK("event " << at << ": read " << toString(event) << ", told "
                              << toString(witness.events[at]));
      });
      CHECK(mismatches == 0);
      std::remove(path.c_str());
      ++compared;
      if (!stopped) {
        whole = std::move(witness.events);
        wholeNodes = witness.nodes;
        continue;
      }
      // Stopped right after its node was counted (the root's, if that is the only one): the
      // whole think's events up to that one, with fewer returns.
      CHECK(result.aborted);
      aborted += result.aborted;
      CHECK(witness.nodes == wholeNodes / 2 + 1);
      REQUIRE(witness.events.size() < whole.size());
      CHECK(std::equal(witness.events.begin(), witness.events.end(), whole.begin()));
      CHECK(witness.events.back().kind == EventKind::kNodeCounted);
      const auto wholeReturns = std::count_if(
          whole.begin(), whole.end(), [](const Event& event) { return event.kind == EventKind::kReturn; });
      CHECK(witness.returns < static_cast<uint64_t>(wholeReturns));
    }
  }
  CHECK(compared >= 50);
  CHECK(aborted >= 10);
  CHECK(returns > 10000);
}

TEST_CASE("the recorder hears a call's entry through onEnter only", "[trace]") {
  const std::string path = scratchFile("entry-told.trc");
  Engine& engine = engineAt("", "");
  TraceWriter writer(path, makeHeader(engine, 1000, "", ""));
  Recorder recorder(writer, engine);
  CHECK_THROWS_WITH(recorder.onCall(writer.root()), Catch::Contains("onEnter"));
  CHECK_THROWS_WITH(recorder.onProbe(ProbeReport{}, HashEntry{}), Catch::Contains("onEnter"));
  CHECK_THROWS_WITH(recorder.onNodeCounted(1), Catch::Contains("onEnter"));
  CHECK(writer.events() == 0);                  // nothing was written
  std::remove(partialTracePath(path).c_str());  // never finished: never renamed to `path`
}

TEST_CASE("the trace format's version goes with its event schema", "[trace]") {
  // The version is made from the rows of UMAX_SEARCH_EVENTS: the layout's
  // number for its own schema, another for any other, with no number edited.
  const std::string schema = UMAX_TRACE_TEXT(UMAX_SEARCH_EVENTS(UMAX_TRACE_SCHEMA_ROW));
  CHECK(kSchemaFingerprint == schemaFingerprint(schema));
  CHECK(kFormatVersion == formatVersion(kLayoutVersion, kSchemaFingerprint));
  CHECK(formatVersion(kLayoutVersion, kLayoutSchema) == kLayoutVersion);
  CHECK(versionName(kLayoutVersion) == std::to_string(kLayoutVersion));
  // A row added, a kind renamed or renumbered: another version, of none of the layouts so far;
  // white space alone is no change.
  std::set<uint32_t> versions;
  for (const std::string& other : {schema + "kDummy 14 13 \"dummy\";",
                                   std::string(schema).replace(schema.find("\"return\""), 8, "\"retour\""),
                                   std::string(schema).replace(schema.find(" 12 \"return\""), 3, " 13"),
                                   std::string("kCall 1 1 \"call\";")}) {
    const uint32_t version = formatVersion(kLayoutVersion, schemaFingerprint(other));
    CAPTURE(other, versionName(version));
    CHECK(version != kFormatVersion);
    CHECK(version > kLayoutVersion);
    CHECK(versionName(version).starts_with(std::to_string(kLayoutVersion) + " with event schema 0x"));
    versions.insert(version);
  }
  CHECK(versions.size() == 4);
  CHECK(schemaFingerprint(" kCall\t1 1\n\"call\";") == schemaFingerprint("kCall 1 1 \"call\";"));
  // A parameter renamed is the same schema; a parameter of another type, or one more, is not.
  const uint32_t dummy = schemaFingerprint("kDummy 14 13 \"dummy\" (int a, bool b);");
  CHECK(schemaFingerprint("kDummy 14 13 \"dummy\" (int draft, bool seen);") == dummy);
  CHECK(schemaFingerprint("kDummy 14 13 \"dummy\" (int a, int b);") != dummy);
  CHECK(schemaFingerprint("kDummy 14 13 \"dummy\" (int a, bool b, int c);") != dummy);
  CHECK(schemaFingerprint("kDummy 14 13 \"dummy\" (const Move& a, bool b);") != dummy);
  // The layout's number goes into the version too.
  CHECK(formatVersion(kLayoutVersion + 1, kSchemaFingerprint ^ 1) !=
        formatVersion(kLayoutVersion, kSchemaFingerprint ^ 1));
  // A trace of another schema is refused, and so is a trace of the layout's number by code of
  // another schema (a version derived from the schema is always higher than the layout's).
  TraceHeader header = makeHeader(engineAt("", ""), 1000, "", "");
  header.version = formatVersion(kLayoutVersion, kSchemaFingerprint ^ 1);
  std::vector<uint8_t> bytes;
  writeHeader(header, bytes);
  TraceHeader read;
  CHECK_THROWS_WITH(readHeader(bytes.data(), bytes.size(), read),
                    Catch::Contains("trace format version " + versionName(header.version)) &&
                        Catch::Contains("a build with other event kinds wrote it"));
}

TEST_CASE("a kind numbered from 15 on takes a second tag byte, and the reader reads its number", "[trace]") {
  // Kinds 1 to 14 keep their one-byte tag (every trace so far); 15 to 255 fit behind the escape.
  uint8_t bytes[4] = {};
  RecordWriter write{bytes};
  writeTag(write, EventKind::kStore, 3);
  CHECK(write.at == bytes + 1);
  CHECK(bytes[0] == recordTag(EventKind::kStore, 3));
  write.at = bytes;
  writeTag(write, static_cast<EventKind>(kExtendedKind + 5), 3);
  CHECK(write.at == bytes + 2);
  CHECK(bytes[0] == (kExtendedKind | 3 << 4));
  CHECK(bytes[1] == 5);
  // No kind 20 exists: the reader names the number it read behind the escape.
  const TraceHeader header;
  RecordDecoder decoder(header);
  Event event;
  CHECK_THROWS_WITH(decoder.decode(bytes, bytes + 2, event, 0), Catch::Contains("unknown event kind 20"));
  CHECK(kEventKindCount <= kExtendedKind);  // every kind so far has a one-byte tag
}

TEST_CASE("every event kind whose hook has parameters prints fields in the jsonl export", "[trace]") {
  // Each kind's line holds "i", "kind", "ply" and "site", then its fields:
  // a kind whose hook reports values must print some (a kind the export
  // forgets prints none; a kind without a layout of its own, each of its
  // row's fields), a kind without any prints none. Every kind with
  // values must occur in these thinks (a new kind adds a think that has it).
  struct Row {
    std::string_view name;
    bool values;
    EventKind kind;
  };
#define UMAX_TEST_KIND_ROW(kind, site, record, name, hook, parameters) \
  Row{name, std::string_view(#parameters) != "()", EventKind::kind},
  const Row rows[] = {UMAX_SEARCH_EVENTS(UMAX_TEST_KIND_ROW)};
#undef UMAX_TEST_KIND_ROW
  std::map<std::string, std::set<int>> keysOf;  // per kind name, the key counts of its lines
  const std::pair<std::string, std::string> thinks[] = {{kKiwipete, "e1g1"},
                                                        {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", ""}};
  for (const auto& [fen, moves] : thinks) {
    const std::string path = scratchFile("kinds.trc");
    recordThink(engineAt(fen, moves), 20000, path, fen, moves);
    std::ostringstream out;
    writeJsonLines(TraceReader(path), out);
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("{\"i\":", 0) != 0) continue;  // a header line
      const std::size_t at = line.find("\"kind\":\"") + 8;
      const std::string kind = line.substr(at, line.find('"', at) - at);
      int keys = 0;
      for (std::size_t quote = line.find("\":"); quote != std::string::npos;
           quote = line.find("\":", quote + 1))
        ++keys;
      keysOf[kind].insert(keys);
    }
    std::remove(path.c_str());
  }
  for (const Row& row : rows) {
    CAPTURE(row.name);
    const auto seen = keysOf.find(std::string(row.name));
    if (!row.values) {
      if (seen != keysOf.end()) CHECK(*seen->second.rbegin() == 4);
      continue;
    }
    REQUIRE(seen != keysOf.end());
    CHECK(*seen->second.begin() > 4);
    // A kind without a layout of its own prints each of its row's fields.
    if (!hasOwnLayout(row.kind)) CHECK(seen->second == std::set<int>{4 + kKindFields[row.kind].count});
  }
}

TEST_CASE("a writer lends its chunk cursor to one recorder at a time and gets it back where it was left",
          "[trace]") {
  const std::string fen = kKiwipete;
  const std::string whole = scratchFile("lent-whole.trc");
  const std::string lent = scratchFile("lent.trc");
  const ThinkResult first = recordThink(engineAt(fen, ""), 5000, whole, fen, "");
  Engine& engine = engineAt(fen, "");
  TraceWriter writer(lent, makeHeader(engine, 5000, fen, ""));
  ThinkResult second;
  {
    Recorder recorder(writer, engine);
    CHECK_THROWS_AS(Recorder(writer, engine), std::logic_error);  // the cursor is out already
    second = engine.think(5000, recorder);
    CHECK(writer.events() > 0);  // read through the lent cursor
  }
  // The recorder is gone: the writer finishes from where it left the cursor,
  // and the cursor can be lent again.
  const uint64_t events = writer.events();
  CHECK_NOTHROW(Recorder(writer, engine));
  CHECK(writer.events() == events);
  finishWith(writer, second);
  CHECK(first.nodes == second.nodes);
  CHECK(TraceReader(lent).eventCount() == events);
  const std::vector<uint8_t> bytes = bytesOf(whole);
  CHECK(bytes.size() > kChunkBytes);
  CHECK(bytes == bytesOf(lent));
  std::remove(whole.c_str());
  std::remove(lent.c_str());
}
TEST_CASE("CRC-32C gives the standard check value, in both implementations and split anywhere",
          "[trace][crc]") {
  // The check value of CRC-32C (RFC 3720's iSCSI CRC; the CRC catalogue's
  // "CRC-32/ISCSI"): the CRC of the nine ASCII digits "123456789".
  const auto* digits = reinterpret_cast<const uint8_t*>("123456789");
  CHECK(crc32c(digits, 9) == 0xE3069283u);
  CHECK(crc32cPortable(digits, 9) == 0xE3069283u);
  CHECK(crc32c(digits, 0) == 0u);

  std::mt19937 random(14);
  std::vector<uint8_t> data(300);
  for (uint8_t& byte : data) byte = static_cast<uint8_t>(random());
  for (std::size_t size = 0; size <= data.size(); size += 7) {
    const uint32_t whole = crc32cPortable(data.data(), size);
    CHECK(crc32c(data.data(), size) == whole);
    const std::size_t split = size == 0 ? 0 : random() % size;
    CHECK(crc32c(data.data() + split, size - split, crc32c(data.data(), split)) == whole);
  }
  // Long buffers, as long as a chunk (about 64 KB).
  std::vector<uint8_t> chunk(70001);
  for (uint8_t& byte : chunk) byte = static_cast<uint8_t>(random());
  for (std::size_t size : {767u, 768u, 769u, 1000u, 4096u, 4103u, 65536u, 65800u, 70001u}) {
    const uint32_t whole = crc32cPortable(chunk.data(), size);
    CHECK(crc32c(chunk.data(), size) == whole);
    CHECK(crc32c(chunk.data() + 5, size - 5, crc32c(chunk.data(), 5)) == whole);
  }
  // A chunk's checksum covers its event count, then its records.
  const uint8_t count[4] = {9, 0, 0, 0};
  CHECK(chunkCrc(9, digits, 9) == crc32c(digits, 9, crc32c(count, 4)));
}

TEST_CASE("each chunk's checkpoint, taken while recording, is the state the trace's events rebuild",
          "[trace]") {
  struct Think {
    const char* fen;
    const char* moves;
    long budget;
  };
  // A game whose legality checks left entries in the table, castlings, e.p.
  // and promotions (kiwipete), a mate (one chunk: the think ends early) and
  // a promotion race.
  const Think thinks[] = {
      {"", "d2d4 d7d5 c2c4 e7e6", 20000},
      {kKiwipete, "", 20000},
      {"7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", "", 20000},
      {"8/2P5/8/8/8/8/5k2/K7 w - - 0 1", "", 20000},
  };
  int index = 0;
  std::size_t checked = 0;
  std::size_t deep = 0;
  for (const Think& think : thinks) {
    CAPTURE(think.fen, think.moves);
    const std::string path = scratchFile("checkpoints-" + std::to_string(index++) + ".trc");
    recordThink(engineAt(think.fen, think.moves), think.budget, path, think.fen, think.moves);
    const TraceReader reader(path);
    const std::vector<ChunkInfo>& chunks = reader.chunks();
    SearchState state(reader.header());
    std::size_t chunk = 0;
    uint64_t event = 0;
    const auto compare = [&] {
      std::size_t size = 0;
      const uint8_t* stored = reader.checkpoint(chunk, size);
      std::vector<uint8_t> rebuilt;
      state.save(rebuilt);
      CAPTURE(chunk, event);
      CHECK(std::vector<uint8_t>(stored, stored + size) == rebuilt);
      deep += state.stack().size() > 3;
      ++checked;
      ++chunk;
    };
    reader.forEach([&](const Event& decoded, uint64_t offset) {
      if (chunk < chunks.size() && chunks[chunk].firstEvent == event) compare();
      state.apply(decoded, offset);
      ++event;
    });
    CHECK(chunk == chunks.size());
  }
  CHECK(checked > 20);
  CHECK(deep > 10);  // the checkpoints hold real stacks, not only the root
}

TEST_CASE("traces of versions 1 to 7 are refused naming their version, and the checksum covers it",
          "[trace]") {
  // The committed seeds of fuzz_trace are real traces of the older versions.
  // (Version 2 differs from version 1 in its chunks' checksums only.)
  std::vector<uint8_t> version2 = bytesOf(sourcePath("fuzz/corpus/fuzz_trace/seed1.trc"));
  version2[8] = 2;
  writeAll(scratchFile("version2.trc"), version2);
  for (const auto& [path, version] : {std::pair{sourcePath("fuzz/corpus/fuzz_trace/seed1.trc"), 1},
                                      {scratchFile("version2.trc"), 2},
                                      {sourcePath("fuzz/corpus/fuzz_trace/seed9-v3-mate.trc"), 3},
                                      {sourcePath("fuzz/corpus/fuzz_trace/seed12-v4-300-nodes.trc"), 4},
                                      {sourcePath("fuzz/corpus/fuzz_trace/seed17-v5-300-nodes.trc"), 5},
                                      {sourcePath("fuzz/corpus/fuzz_trace/seed22-v6-300-nodes.trc"), 6},
                                      {sourcePath("fuzz/corpus/fuzz_trace/seed41-v7-after-moves.trc"), 7}}) {
    REQUIRE(bytesOf(path)[8] == version);
    CHECK_THROWS_WITH(TraceReader(path),
                      Catch::Contains("trace format version " + std::to_string(version) +
                                      " is not supported (this build reads version " +
                                      versionName(kFormatVersion) + " only: record the think again)"));
  }
  // A header written as the next version with its own right checksum, its
  // version byte then set to this one's: the checksum covers the version,
  // so it is refused.
  TraceHeader header = makeHeader(engineAt("", "e2e4"), 3000, "", "e2e4");
  header.version = kFormatVersion + 1;
  std::vector<uint8_t> bytes;
  writeHeader(header, bytes);
  TraceHeader read;
  CHECK_THROWS_WITH(readHeader(bytes.data(), bytes.size(), read),
                    Catch::Contains("version " + versionName(kFormatVersion + 1) + " is not supported") &&
                        Catch::Contains("damaged"));
  for (int shift = 0; shift < 32; shift += 8)
    bytes[8 + shift / 8] = static_cast<uint8_t>(kFormatVersion >> shift);
  CHECK_THROWS_WITH(readHeader(bytes.data(), bytes.size(), read),
                    Catch::Contains("header checksum mismatch"));
  header.version = kFormatVersion;
  std::vector<uint8_t> right;
  writeHeader(header, right);
  CHECK_NOTHROW(readHeader(right.data(), right.size(), read));
  // And so does it the length field (one more byte of fields, the same checksum).
  right[12] ^= 1;
  CHECK_THROWS(readHeader(right.data(), right.size(), read));
}

TEST_CASE("a trace of a smaller table records its size and reads back that table's slots",
          "[trace][header][hash]") {
  // 2^12 + 9 slots: probes start at (k*E ^ J) & 0xFFF, and positions meet in the slots. The
  // think of the course's replacement example (umax-trace record --moves "e2e4 c7c5" --nodes 8000
  // --hash-bits 12), from main()'s start.
  const auto engine = std::make_unique<Engine>();
  engine->resizeHashTable(kMinHashSlotBits);
  playMoves(*engine, "e2e4 c7c5");  // the legality checks store into the small table
  const std::string path = scratchFile("small-table.trc");
  TraceWriter writer(path, makeHeader(*engine, 8000, "", "e2e4 c7c5"));
  Recorder recorder(writer, *engine);
  EventWitness witness(recorder);
  const ThinkResult result = engine->think(8000, witness);
  finishWith(writer, result);

  const TraceReader reader(path);
  REQUIRE(reader.header().hashSlotBits == kMinHashSlotBits);
  REQUIRE(reader.header().hashSlots() == (uint32_t{1} << kMinHashSlotBits) + kProbeSlots);
  CHECK_FALSE(reader.header().initialEntries.empty());
  REQUIRE(reader.eventCount() == witness.events.size());
  // Every event as the search reported it: each probe's first slot is the
  // small table's (the original's mask would give other slots).
  uint64_t mismatches = 0;
  uint64_t beyondSmallMask = 0;
  HashCounters counted;
  HashHistory history(reader.header(), reader.eventCount());
  reader.forEach([&](const Event& event, uint64_t at) {
    countMismatch(event, witness.events[at], at, mismatches);
    if (event.kind == EventKind::kProbe)
      beyondSmallMask += event.probe.firstSlot > (uint32_t{1} << kMinHashSlotBits) - 1;
    counted.count(event);
    history.add(event, at);
  });
  history.finish();
  CHECK(mismatches == 0);
  CHECK(beyondSmallMask == 0);
  // The table shares slots: another position's entry is overwritten (none in the original's table).
  CHECK(counted.storesReplaced > 0);
  // The view model's counters at the last event are the events' own.
  const HashCounters view = hashCountersAt(reader, reader.eventCount());
  CHECK(view.storesRefused == counted.storesRefused);
  CHECK(view.storesReplaced == counted.storesReplaced);
  CHECK(view.storesWritten == counted.storesWritten);
  // The hash history after the last event holds what the engine's table
  // holds after the think, slot for slot (slot 0, the dummy, is emptied by the search).
  const std::span<const HashEntry> table = engine->hashTable();
  REQUIRE(table.size() >= reader.header().hashSlots());
  uint64_t differing = 0;
  uint64_t filled = 0;
  for (uint32_t slot = 1; slot < reader.header().hashSlots(); ++slot) {
    const HashEntry held = history.entryAt(slot, reader.eventCount());
    const HashEntry& real = table[slot];
    filled += real.lock != 0;
    if (held.lock != real.lock || (real.lock != 0 && (held.score != real.score || held.from != real.from ||
                                                      held.to != real.to || held.draft != real.draft))) {
      if (differing == 0)
        FAIL_CHECK("slot " << slot << ": history lock " << held.lock << ", table " << real.lock);
      ++differing;
    }
  }
  CHECK(differing == 0);
  CHECK(filled > 1000);
  std::remove(path.c_str());
}

TEST_CASE("A header skips the table scan only while no search has run since the table was cleared",
          "[trace][header]") {
  // Counts the locked slots the slow way: what makeHeader lists when it scans.
  const auto lockedSlots = [](const Engine& engine) {
    std::size_t locked = 0;
    for (const HashEntry& entry : engine.hashTable()) locked += entry.lock != 0;
    return locked;
  };
  Engine& engine = engineAt("", "");
  CHECK(engine.hashTableUnused());
  CHECK(lockedSlots(engine) == 0);
  CHECK(makeHeader(engine, 1000, "", "").initialEntries.empty());

  engine.think(1000);  // stores
  CHECK_FALSE(engine.hashTableUnused());
  const std::size_t locked = lockedSlots(engine);
  CHECK(locked > 0);
  CHECK(makeHeader(engine, 1000, "", "").initialEntries.size() == locked);

  // A legality check stores too (playMoves goes through it).
  Engine& played = engineAt("", "e2e4");
  CHECK_FALSE(played.hashTableUnused());
  CHECK(makeHeader(played, 1000, "", "e2e4").initialEntries.size() == lockedSlots(played));
  CHECK(lockedSlots(played) > 0);

  played.clearHashTable();
  CHECK(played.hashTableUnused());
  CHECK(lockedSlots(played) == 0);
}

TEST_CASE(
    "a trace cut short keeps every chunk written before the cut, with or without the writer's destructor",
    "[trace]") {
  // Full chunks go to the file in runs of whole blocks (StagedWriter). A cut
  // file must be the finished file's first bytes, readable up to its last whole chunk.
  const std::string finished = scratchFile("cut-finished.trc");
  recordThink(engineAt("", "e2e4"), 20000, finished, "", "e2e4");
  const std::vector<uint8_t> whole = bytesOf(finished);
  const TraceReader all(finished);
  REQUIRE(all.chunks().size() > 12);
  const auto isPrefix = [&whole](const std::vector<uint8_t>& part) {
    return part.size() <= whole.size() && std::equal(part.begin(), part.end(), whole.begin());
  };
  {  // the search throws: the file holds every full chunk
    const std::string cut = scratchFile("cut-thrown.trc");
    {
      Engine& engine = engineAt("", "e2e4");
      TraceWriter writer(cut, makeHeader(engine, 20000, "", "e2e4"));
      Recorder recorder(writer, engine);
      engine.think(20000, recorder);
    }  // no finish(): only the chunk being filled is lost, in the partial trace beside `cut`
    CHECK_FALSE(std::filesystem::exists(cut));  // never renamed into place
    const TraceReader reader(partialTracePath(cut));
    CHECK(reader.truncated());
    CHECK(reader.chunks().size() + 1 == all.chunks().size());
    CHECK(isPrefix(bytesOf(partialTracePath(cut))));
    std::remove(partialTracePath(cut).c_str());
  }
  {  // the process dies (_exit at the first progress report, 65,536 nodes):
     // no destructor, no flush; the chunks of the runs written so far stay readable
    const std::string cut = scratchFile("cut-died.trc");
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      Engine& engine = engineAt("", "e2e4");
      recordThink(engine, 20000, cut, "", "e2e4", [](uint64_t, int) { ::_exit(0); });
      ::_exit(1);  // never reached: the think goes past 65,536 nodes
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    CHECK_FALSE(std::filesystem::exists(cut));
    const std::vector<uint8_t> bytes = bytesOf(partialTracePath(cut));
    CHECK(isPrefix(bytes));
    const TraceReader reader(partialTracePath(cut));
    CHECK(reader.truncated());
    // At 65,536 of 92,432 nodes the runs of 64, 128 and 256 KiB are in the file.
    CHECK(reader.chunks().size() >= 4);
    CHECK(reader.chunks().size() + 1 < all.chunks().size());
    std::remove(partialTracePath(cut).c_str());
  }
  std::remove(finished.c_str());
}

TEST_CASE("a staged writer's file holds every byte in order, whatever its runs, flushed anywhere",
          "[trace]") {
  // Pieces of random sizes, some copied in (append), some written at end(), with flushes between:
  // the file is the bytes given, in runs of up to 1 MiB or 64 KiB, or each piece at once.
  const std::string path = scratchFile("staged.bin");
  for (const std::size_t longestRun : {StagedWriter::kLongestRun, std::size_t{65536}, std::size_t{0}}) {
    CAPTURE(longestRun);
    std::mt19937 random(7);
    std::vector<uint8_t> expected;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    REQUIRE(fd >= 0);
    {
      StagedWriter file(fd, 70000, longestRun);
      for (int piece = 0; piece < 300; ++piece) {
        std::vector<uint8_t> bytes(random() % 70000);
        for (uint8_t& byte : bytes) byte = static_cast<uint8_t>(random());
        if (piece % 2) {
          file.append(bytes.data(), bytes.size());
        } else {
          std::memcpy(file.end(), bytes.data(), bytes.size());
          file.advance(bytes.size());
        }
        expected.insert(expected.end(), bytes.begin(), bytes.end());
        if (piece % 97 == 0) {
          file.flush();
          CHECK(bytesOf(path) == expected);
        }
      }
    }  // the destructor flushes
    ::close(fd);
    CHECK(expected.size() > 8'000'000);  // many runs of 1 MiB
    CHECK(bytesOf(path) == expected);
  }
  std::remove(path.c_str());
}

// ---- format version 3: what the state predicts is left out (compact.h) ----

TEST_CASE("a version 3 trace gives back every event the search reported, and predicts all but the inputs",
          "[trace]") {
  const auto& positions = testPositions();
  uint64_t events = 0;
  uint64_t bytes = 0;
  uint64_t previousEntries = 0;
  for (std::size_t index = 0; index < positions.size(); index += 15) {
    const std::string& fen = positions[index].fen;
    CAPTURE(fen);
    const std::string path = scratchFile("compact-" + std::to_string(index) + ".trc");
    Engine& engine = engineAt(fen, "");
    TraceWriter writer(path, makeHeader(engine, 4000, fen, ""));
    Recorder recorder(writer, engine);
    EventWitness witness(recorder);
    const ThinkResult result = engine.think(4000, witness);
    finishWith(writer, result);

    const TraceReader reader(path);
    REQUIRE(reader.header().version == kFormatVersion);
    REQUIRE(reader.eventCount() == witness.events.size());
    uint64_t mismatches = 0;
    reader.forEach(
        [&](const Event& event, uint64_t at) { countMismatch(event, witness.events[at], at, mismatches); });
    CHECK(mismatches == 0);
    // Every prediction held: a record holds only what the state cannot know.
    const Spelled spelled = spelledOut(reader);
    CHECK(spelled.predictionsMissed == 0);
    previousEntries += spelled.previousEntries;
    events += reader.eventCount();
    bytes += reader.fileSize();
  }
  INFO(events << " events in " << bytes << " bytes; " << previousEntries
              << " stores found a stranger's entry");
  CHECK(events > 500000);
  CHECK(static_cast<double>(bytes) / static_cast<double>(events) < 2.5);
}

TEST_CASE("a value the state does not predict is written out and read back as it was", "[trace]") {
  // A made-up think: each hook gets a value the predictions miss, and the
  // trace must still give back exactly what the hooks were told.
  Engine& engine = engineAt("", "");
  const TraceHeader header = makeHeader(engine, 1000, "", "");
  const std::string path = scratchFile("compact-explicit.trc");
  TraceWriter writer(path, header);
  Recorder recorder(writer, engine);
  EventWitness witness(recorder);

  const NodeCall root = header.root;
  ProbeReport rootProbe;
  rootProbe.firstSlot = firstProbeSlot(root.side, root.epSquare, root.hashKey, kHashSlotMask);
  rootProbe.slotsProbed = 3;  // not the usual 1: a count byte follows
  rootProbe.slot = rootProbe.firstSlot + 3;
  witness.onEnter(root, rootProbe, HashEntry{}, 1);
  witness.onIteration(1);
  // e2-e4 with a depth left that Step 10 would not give it (1 - 1 = 0): the whole move is written out.
  Move move;
  move.from = 100;
  move.to = 68;
  move.captureSquare = 68;
  move.piece = engine.position().board[100];
  move.type = static_cast<int8_t>(typeOf(move.piece));
  move.step = -kRowStep;
  move.passedSquare = 84;
  witness.onMoveMade(move, 5, false);
  // A reply whose window is not the one Step 12 passes, answered from the table.
  NodeCall reply;
  reply.side = kBlack;
  reply.alpha = 7;
  reply.beta = 9;
  reply.eval = -3;
  reply.hashKey = 12345;
  reply.hashLock = 67890;
  reply.epSquare = 84;
  reply.lastTo = 68;
  reply.depth = 5;
  ProbeReport replyProbe;
  replyProbe.firstSlot = firstProbeSlot(reply.side, reply.epSquare, reply.hashKey, kHashSlotMask);
  replyProbe.slotsProbed = 1;
  replyProbe.slot = replyProbe.firstSlot + 1;
  replyProbe.outcome = ProbeOutcome::kHit;
  replyProbe.endsNode = true;
  HashEntry found{67890, -40, 8 | 20, 36, 6};
  witness.onEnter(reply, replyProbe, found, 2);             // its return: the entry's values
  witness.onMoveScored(123);                                // not 40 - 1
  witness.onBestMove(123, 100, 68);                         // Y without the not-castling bit
  const HashEntry stranger{555, 17, 3, 4, 2};               // the slot held another position's entry
  const HashEntry stored{777, 123, 100, 68, 1};             // not the lock and bound bits Step 18 writes
  witness.onStore(rootProbe.slot, stranger, stored, true);  // the root's next iteration would follow
  writer.finish({123, 100, 68, 1, writer.events(), ""});

  const TraceReader reader(path);
  REQUIRE(reader.eventCount() == witness.events.size());
  reader.forEach([&](const Event& event, uint64_t at) {
    CAPTURE(at, toString(event), toString(witness.events[at]));
    CHECK(event == witness.events[at]);
  });
  const Spelled spelled = spelledOut(reader);
  CHECK(spelled.predictionsMissed == 5);  // the move, the reply, the score, the best move, the store
  CHECK(spelled.previousEntries == 1);
}

TEST_CASE("the predictions wrap a damaged trace's extreme values instead of overflowing", "[trace]") {
  // Values no search produces, as a made-up or damaged file may hold them
  // (the sanitized suite would stop at a signed overflow).
  Frame parent;
  parent.call.side = kWhite;
  parent.call.alpha = INT32_MIN;
  parent.call.beta = INT32_MIN;
  parent.call.eval = INT32_MIN;
  parent.best = INT32_MIN;
  parent.moveOnBoard = true;
  parent.move.from = 100;
  parent.move.to = 68;
  parent.move.captureSquare = 68;
  parent.move.rookFrom = kNoSquare;
  parent.move.passedSquare = kNoSquare;
  NodeCall reply;
  REQUIRE(predictChild(parent, reply, SearchVariant{}));
  CHECK(reply.alpha == INT32_MIN);  // -INT32_MIN wraps to itself; beta > eval is false
  CHECK(reply.beta == INT32_MIN);
  CHECK(reply.eval == INT32_MIN);
  parent.childScore = INT32_MIN;
  parent.call.eval = 0;
  CHECK(predictedScore(parent, SearchVariant{}) == INT32_MIN);  // -INT32_MIN wraps; it is not > 0
  CHECK(wrappingSum(INT32_MAX, 1) == INT32_MIN);
  // Every value a search produces is left alone.
  parent.call.alpha = -80000;
  parent.call.beta = 80000;
  parent.call.eval = 35;
  parent.best = 120;
  REQUIRE(predictChild(parent, reply, SearchVariant{}));
  CHECK(reply.alpha == -80001);
  CHECK(reply.beta == -120);
  CHECK(reply.eval == -35);
}

// ---- the Lab: a think without some idea, recorded (format version 6) ----

namespace {

/// The variants the Lab's traces are checked with: each idea switched off
/// alone, a few together, --depth alone and with ideas off.
std::vector<SearchVariant> labVariants() {
  std::vector<SearchVariant> variants;
  for (const IdeaName& idea : kIdeas) variants.push_back({ideaBit(idea.idea), 0});
  variants.push_back({ideaBit(Idea::kBestFirst) | ideaBit(Idea::kDelayedGain) | ideaBit(Idea::kCentre), 0});
  variants.push_back({0, 4});
  variants.push_back({ideaBit(Idea::kDeepening), 3});
  variants.push_back({ideaBit(Idea::kHash) | ideaBit(Idea::kQuiescence), 3});
  variants.push_back({parseWithout("all"), 3});
  return variants;
}

/// The Lab's think of `fen` from an empty table, untraced (the engine keeps the variant).
ThinkResult labThink(const std::string& fen, const SearchVariant& variant, long budget) {
  Engine& engine = engineAt(fen, "");
  engine.setVariant(variant);
  const ThinkResult result = engine.think(budget);
  engine.setVariant({});
  return result;
}

}  // namespace

TEST_CASE("a think of the Lab is recorded as the Lab searched it, for every idea switched off",
          "[trace][lab]") {
  // For each variant and position: the trace's events are the ones the
  // Lab's search told a witness (its returns too: the recorder works them
  // out by the variant's rules), every record left out what the variant's
  // rules predict, the replay ends with the think's score and node count,
  // which are the untraced Lab think's, and each chunk's checkpoint is the
  // state the events rebuild.
  const auto& positions = testPositions();
  const long budget = 1500;
  for (const SearchVariant& variant : labVariants()) {
    CAPTURE(variant.description());
    int differs = 0;  // positions where the variant's search is not the default's
    for (std::size_t index = 0; index < positions.size(); index += 60) {
      const std::string& fen = positions[index].fen;
      CAPTURE(fen);
      const ThinkResult untraced = labThink(fen, variant, budget);
      const ThinkResult whole = labThink(fen, {}, budget);
      differs += untraced.nodes != whole.nodes || untraced.score != whole.score;

      const std::string path = scratchFile("lab.trc");
      Engine& engine = engineAt(fen, "");
      engine.setVariant(variant);
      TraceWriter writer(path, makeHeader(engine, budget, fen, ""));
      Recorder recorder(writer, engine);
      EventWitness witness(recorder);
      const ThinkResult traced = engine.think(budget, witness);
      engine.setVariant({});
      finishWith(writer, traced);
      CHECK(traced.nodes == untraced.nodes);
      CHECK(traced.score == untraced.score);
      CHECK(traced.from == untraced.from);
      CHECK(traced.to == untraced.to);

      const TraceReader reader(path);
      CHECK(reader.header().variant == variant);
      CHECK(reader.header().startNodes == (variant.depth ? 0u : static_cast<uint32_t>(kNodeLimit - budget)));
      REQUIRE(reader.eventCount() == witness.events.size());
      uint64_t mismatches = 0;
      reader.forEach(
          [&](const Event& event, uint64_t at) { countMismatch(event, witness.events[at], at, mismatches); });
      CHECK(mismatches == 0);
      CHECK(spelledOut(reader).predictionsMissed == 0);

      SearchState state(reader.header());
      std::size_t chunk = 0;
      uint64_t applied = 0;
      reader.forEach([&](const Event& event, uint64_t offset) {
        if (chunk < reader.chunks().size() && reader.chunks()[chunk].firstEvent == applied) {
          std::size_t size = 0;
          const uint8_t* stored = reader.checkpoint(chunk, size);
          std::vector<uint8_t> rebuilt;
          state.save(rebuilt);
          CAPTURE(chunk);
          CHECK(std::vector<uint8_t>(stored, stored + size) == rebuilt);
          ++chunk;
        }
        state.apply(event, offset);
        ++applied;
      });
      REQUIRE(state.finished());
      CHECK(state.rootScore() == traced.score);
      CHECK(state.nodes() == static_cast<uint64_t>(traced.nodes));
      std::remove(path.c_str());
    }
    CHECK(differs > 0);
  }
}

TEST_CASE("a think of the Lab's trace replays with its own rules: the default's refuse it", "[trace][lab]") {
  // Read with the header's variant replaced by the whole search, a trace of
  // the Lab without best-first (no sneak bit) or without deepening (a draft
  // that does not go up by one) no longer fits: the variant is what makes
  // its replay right, not a field the reader ignores.
  for (const char* without : {"deepening", "delayed-gain"}) {
    CAPTURE(without);
    const std::string path = scratchFile("lab-header.trc");
    Engine& engine = engineAt("", "e2e4");
    engine.setVariant({parseWithout(without), 0});
    recordThink(engine, 2000, path, "", "e2e4");
    engine.setVariant({});
    std::vector<uint8_t> bytes = bytesOf(path);
    const TraceReader reader(path);
    REQUIRE_NOTHROW(reader.forEach([](const Event&, uint64_t) {}));
    TraceHeader header = reader.header();
    header.variant = {};
    std::vector<uint8_t> defaultHeader;
    writeHeader(header, defaultHeader);
    std::vector<uint8_t> original;
    writeHeader(reader.header(), original);
    REQUIRE(defaultHeader.size() == original.size());  // the variant's bytes, not the layout, differ
    std::copy(defaultHeader.begin(), defaultHeader.end(), bytes.begin());
    const std::string relabelled = scratchFile("lab-relabelled.trc");
    writeAll(relabelled, bytes);
    bool refused = false;
    try {
      const TraceReader wrong(relabelled, ChunkChecks::kAtOpen);
      SearchState state(wrong.header());
      wrong.forEach([&](const Event& event, uint64_t offset) { state.apply(event, offset); });
      // Read with the default's rules the events differ from the Lab's.
      refused = !(state.finished() && state.rootScore() == reader.result().score);
      if (!refused) {
        std::vector<Event> right, read;
        reader.forEach([&](const Event& event, uint64_t) { right.push_back(event); });
        wrong.forEach([&](const Event& event, uint64_t) { read.push_back(event); });
        refused = right != read;
      }
    } catch (const TraceError&) {
      refused = true;
    }
    CHECK(refused);
    std::remove(path.c_str());
    std::remove(relabelled.c_str());
  }
}

TEST_CASE("each kind's fields are read from its row, and a generic record reads back its values", "[trace]") {
  // The row's parameter list names the fields (the exports' keys) and their types.
  const FieldList& capture = kKindFields[EventKind::kKingCapture];
  REQUIRE(capture.count == 3);
  CHECK(capture.numbers);
  CHECK(capture.fields[0].name == "from");
  CHECK(capture.fields[0].type == FieldType::kInteger);
  CHECK(capture.fields[1].name == "to");
  CHECK(capture.fields[2].name == "badCastling");
  CHECK(capture.fields[2].type == FieldType::kBool);
  CHECK(kKindFields[EventKind::kMateProbe].count == 0);
  CHECK(kKindFields[EventKind::kMateProbe].numbers);
  const FieldList& store = kKindFields[EventKind::kStore];  // (uint32_t slot, const HashEntry& before, ...)
  REQUIRE(store.count == 4);
  CHECK(store.fields[0].type == FieldType::kInteger);
  CHECK(store.fields[1].name == "before");
  CHECK(store.fields[1].type == FieldType::kOther);
  CHECK_FALSE(store.numbers);  // no generic record: kStore has a layout of its own
  CHECK(parseFields("(int a, bool b, uint32_t c, int d, int e)").count == 5);
  CHECK_FALSE(parseFields("(int a, bool b, uint32_t c, int d, int e)").numbers);  // more than Event holds
  // What writeFieldValues writes, readFieldValues reads back, negative and large values too.
  uint8_t bytes[64] = {};
  RecordWriter write{bytes};
  writeFieldValues(write, -70000, 0x9abcdef0u, true);
  ByteReader read(bytes, write.at, 0, "record");
  std::array<int64_t, kMaxRowValues> values{};
  readFieldValues(read, capture, values);
  CHECK(values == std::array<int64_t, kMaxRowValues>{-70000, 0x9abcdef0, 1, 0});
  CHECK(read.here() == write.at);
  ByteReader refused(bytes, write.at, 0, "record");
  CHECK_THROWS_WITH(readFieldValues(refused, store, values), Catch::Contains("layout of its own"));
  // The kinds of format 6 have their own layouts; a kind numbered after them has none.
  CHECK(hasOwnLayout(EventKind::kCall));
  CHECK(hasOwnLayout(EventKind::kReturn));
  CHECK_FALSE(hasOwnLayout(static_cast<EventKind>(static_cast<int>(EventKind::kReturn) + 1)));
}
