// The trace writer's shortcuts, each held against the slow way it replaces:
// the chunk checksum (CRC-32C, with SSE4.2 or a table) against the standard
// check value and against itself split anywhere; the checkpoints the
// Recorder takes from the engine against the state SearchState rebuilds
// from the trace's own events; a version 1 file (zlib's CRC-32 per chunk)
// read as before; the header's skipped table scan against a full scan; and
// the disk space reserved ahead of the writes, given back at the end.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "support.h"
#include "umax/session.h"
#include "umax/trace/bytes.h"
#include "umax/trace/framing.h"
#include "umax/trace/reader.h"
#include "umax/trace/state.h"
#include "umax/trace/writer.h"

using namespace umax;
using namespace umax::trace;
using namespace umax::test;

namespace {

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

/// Passes every hook on but onEnter, so that the search's onEnter reaches
/// the recorder as SearchObserver's default splits it: onCall, onProbe, then
/// onReturn or onNodeCounted.
class OneHookAtATime final : public SearchObserver {
 public:
  explicit OneHookAtATime(Recorder& recorder) : recorder_(recorder) {}
  void onCall(const NodeCall& call) override { recorder_.onCall(call); }
  void onProbe(const ProbeReport& report, const HashEntry& entry) override {
    recorder_.onProbe(report, entry);
  }
  void onNodeCounted(int count) override { recorder_.onNodeCounted(count); }
  void onIteration(int draft) override { recorder_.onIteration(draft); }
  void onKingCapture(const Move& move, bool bad) override { recorder_.onKingCapture(move, bad); }
  void onCutoff(int best) override { recorder_.onCutoff(best); }
  void onMoveMade(const Move& move, int remaining, bool sneaked) override {
    recorder_.onMoveMade(move, remaining, sneaked);
  }
  void onMoveScored(int score) override { recorder_.onMoveScored(score); }
  void onBestMove(int best, int from, int to) override { recorder_.onBestMove(best, from, to); }
  void onMateProbe() override { recorder_.onMateProbe(); }
  void onStore(uint32_t slot, const HashEntry& before, const HashEntry& after, bool written) override {
    recorder_.onStore(slot, before, after, written);
  }
  void onReturn(int score, int from, int to, int draft) override {
    recorder_.onReturn(score, from, to, draft);
  }

 private:
  Recorder& recorder_;
};

}  // namespace

TEST_CASE("the recorder's onEnter writes the very file its separate hooks write", "[trace]") {
  // kiwipete from a played game: hash cutoffs (onEnter's kReturn) and many chunks.
  const std::string fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
  const std::string fused = scratchFile("fused.trc");
  const std::string split = scratchFile("split.trc");
  const ThinkResult first = recordThink(engineAt(fen, "e1g1"), 20000, fused, fen, "e1g1");
  Engine& engine = engineAt(fen, "e1g1");
  TraceWriter writer(split, makeHeader(engine, 20000, fen, "e1g1"));
  Recorder recorder(writer, engine);
  OneHookAtATime hooks(recorder);
  const ThinkResult second = engine.think(20000, hooks);
  writer.finish({second.score, second.from, second.to, static_cast<uint64_t>(second.nodes), writer.events()});
  CHECK(first.nodes == second.nodes);
  const std::vector<uint8_t> bytes = bytesOf(fused);
  CHECK(bytes.size() > 3 * kChunkBytes);
  CHECK(bytes == bytesOf(split));
  uint64_t hashCutoffs = 0;
  TraceReader(fused).forEach([&](const Event& event, uint64_t) {
    hashCutoffs += event.kind == EventKind::kProbe && event.probe.endsNode;
  });
  CHECK(hashCutoffs > 0);
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
  // Long buffers (a chunk is about 64 KB) take the three-lane path of the hardware CRC.
  std::vector<uint8_t> chunk(70001);
  for (uint8_t& byte : chunk) byte = static_cast<uint8_t>(random());
  for (std::size_t size : {767u, 768u, 769u, 1000u, 4096u, 4103u, 65536u, 65800u, 70001u}) {
    const uint32_t whole = crc32cPortable(chunk.data(), size);
    CHECK(crc32c(chunk.data(), size) == whole);
    CHECK(crc32c(chunk.data() + 5, size - 5, crc32c(chunk.data(), 5)) == whole);
  }
  // A version 1 chunk keeps zlib's CRC-32 (its check value is 0xCBF43926).
  CHECK(crc32Of(digits, 9) == 0xCBF43926u);
  const uint8_t count[4] = {9, 0, 0, 0};
  CHECK(chunkCrc(9, digits, 9, 1) == crc32Of(digits, 9, crc32Of(count, 4)));
  CHECK(chunkCrc(9, digits, 9, 2) == crc32c(digits, 9, crc32c(count, 4)));
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
      {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "", 20000},
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

TEST_CASE("a version 1 trace (zlib's CRC-32 per chunk) is read as before; its checksums are checked",
          "[trace]") {
  const std::string path = scratchFile("version2.trc");
  recordThink(engineAt("", "e2e4"), 3000, path, "", "e2e4");
  const TraceReader current(path);
  REQUIRE(current.header().version == 2);
  REQUIRE(current.chunks().size() > 1);

  // The same file as version 1 would have it: the version field and each
  // chunk's checksum change, nothing else.
  std::vector<uint8_t> bytes = bytesOf(path);
  bytes[8] = 1;  // the version field follows the 8-byte magic
  std::vector<uint8_t> wrongCrc = bytes;
  for (const ChunkInfo& chunk : current.chunks()) {
    std::vector<uint8_t> head;
    writeChunkHead(chunk.events, bytes.data() + chunk.payloadOffset, chunk.payloadBytes, head, 1);
    std::memcpy(bytes.data() + chunk.offset, head.data(), head.size());
  }
  const std::string old = scratchFile("version1.trc");
  writeAll(old, bytes);
  const TraceReader previous(old);
  CHECK(previous.header().version == 1);
  CHECK_FALSE(previous.truncated());
  std::vector<uint8_t> a;
  std::vector<uint8_t> b;
  current.forEach([&](const Event& event, uint64_t) { encodeEvent(event, a); });
  previous.forEach([&](const Event& event, uint64_t) { encodeEvent(event, b); });
  CHECK(a.size() == current.chunks().back().payloadOffset + current.chunks().back().payloadBytes -
                        current.chunks().front().payloadOffset - 16 * (current.chunks().size() - 1));
  CHECK(a == b);
  // Checked chunk by chunk as they are decoded (as large files are), version 1 reads alike.
  std::vector<uint8_t> c;
  const TraceReader lazy(old, ChunkChecks::kOnFirstDecode);
  lazy.forEach([&](const Event& event, uint64_t) { encodeEvent(event, c); });
  CHECK(c == b);

  // Version 1 with version 2's checksums: every chunk is refused, at open or when decoded.
  writeAll(old, wrongCrc);
  CHECK_THROWS_WITH(TraceReader(old), Catch::Contains("chunk checksum mismatch"));
  const TraceReader lazyWrong(old, ChunkChecks::kOnFirstDecode);
  CHECK_THROWS_WITH(lazyWrong.forEach([](const Event&, uint64_t) {}),
                    Catch::Contains("chunk checksum mismatch"));
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

TEST_CASE("a trace keeps no disk space reserved beyond its end, finished or cut", "[trace]") {
  // The writer reserves space in steps of 64 MB ahead of its writes (a
  // file system's work for new blocks, once per step); the file must not
  // keep it. A trace of a few MB would otherwise occupy 64 MB on disk.
  const auto occupied = [](const std::string& path) {
    struct stat info {};
    REQUIRE(::stat(path.c_str(), &info) == 0);
    return std::pair<uint64_t, uint64_t>(static_cast<uint64_t>(info.st_size),
                                         static_cast<uint64_t>(info.st_blocks) * 512);
  };
  const std::string finished = scratchFile("reserve-finished.trc");
  recordThink(engineAt("", "e2e4"), 20000, finished, "", "e2e4");
  const auto [finishedSize, finishedDisk] = occupied(finished);
  CHECK(finishedSize > 2 * kChunkBytes);
  CHECK(finishedDisk < finishedSize + TraceWriter::kReserveStep / 4);
  // Cut: the writer is destroyed without finish(), as when the search throws.
  const std::string cut = scratchFile("reserve-cut.trc");
  {
    Engine& engine = engineAt("", "e2e4");
    TraceWriter writer(cut, makeHeader(engine, 20000, "", "e2e4"));
    Recorder recorder(writer, engine);
    engine.think(20000, recorder);
  }
  const auto [cutSize, cutDisk] = occupied(cut);
  CHECK(cutSize > 2 * kChunkBytes);
  CHECK(cutDisk < cutSize + TraceWriter::kReserveStep / 4);
  CHECK(TraceReader(cut).truncated());
  std::remove(finished.c_str());
  std::remove(cut.c_str());
}
