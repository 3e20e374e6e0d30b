// fuzz_seek: the visualizer's seek path on damaged traces. umax-viz opens a
// large trace with its chunks checked when first decoded (a damaged record
// then surfaces while seeking), and moves the cursor through the replay
// model and the navigator only (app.cpp). This fuzzer does the same:
//  - the trace: a sound one (a short recorded think, made once) with the
//    input's first bytes written over it at an offset the input chooses,
//    or, when the input says so, the input itself as the file;
//  - the moves: the rest of the input, one byte each: a seek to a share of
//    the trace, a step forward or back, or a navigator jump (step over,
//    step out, next cutoff, hash hit or iteration, previous iteration, a
//    node by number, a line of moves), with and without the indexes.
// Every move must end with the cursor in the trace or with a TraceError,
// after which the replay must still seek (as the visualizer's next key
// does); anything else (a crash, another exception, a sanitizer report, a
// cursor outside the trace) is a finding. The reader maps files, so the
// bytes go to a file in /dev/shm first.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "umax/engine.h"
#include "umax/position.h"
#include "umax/trace/reader.h"
#include "umax/trace/replay.h"
#include "umax/trace/writer.h"
#include "umax/view/navigator.h"

namespace {

using namespace umax;
using namespace umax::trace;

std::string scratchPath(const char* name) {
  return "/dev/shm/umax-fuzz-seek-" + std::to_string(::getpid()) + "-" + name + ".trc";
}

/// The bytes of a sound trace of a short think (after 1. e4, 3,000 nodes: a few chunks).
const std::vector<uint8_t>& soundTrace() {
  static const std::vector<uint8_t> bytes = [] {
    const std::string path = scratchPath("sound");
    auto engine = std::make_unique<Engine>();
    engine->setPosition(parseFen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"));
    recordThink(*engine, 3000, path, "", "");
    std::FILE* file = std::fopen(path.c_str(), "rb");
    std::vector<uint8_t> read;
    for (int byte; file && (byte = std::fgetc(file)) != EOF;) read.push_back(static_cast<uint8_t>(byte));
    if (file) std::fclose(file);
    std::remove(path.c_str());
    if (read.empty()) std::abort();
    return read;
  }();
  return bytes;
}

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "fuzz_seek: %s\n", what);
  std::abort();
}

/// One move of the cursor, chosen by `code`; `argument` gives its target.
void move(Replay& replay, Navigator& navigator, uint8_t code, uint8_t argument) {
  const uint64_t count = replay.eventCount();
  switch (code % 10) {
    case 0:
      replay.seek(count * argument / 255);
      if (replay.cursor() != count * argument / 255) finding("seek landed elsewhere");
      break;
    case 1:
      replay.stepForward();
      break;
    case 2:
      replay.stepBack();
      break;
    case 3:
      navigator.stepOver();
      break;
    case 4:
      navigator.stepOut();
      break;
    case 5:
      navigator.nextCutoff();
      break;
    case 6:
      navigator.nextHashHit();
      break;
    case 7:
      code & 0x80 ? navigator.previousIteration() : navigator.nextIteration();
      break;
    case 8:
      navigator.findNode(argument * 13u);
      break;
    default:
      navigator.findLine({{0x64, 0x44}, {argument & 0x77, (argument * 7) & 0x77}});
      break;
  }
  if (replay.cursor() > count) finding("the cursor left the trace");
}

void drive(const std::string& path, const uint8_t* moves, std::size_t size) {
  try {
    const TraceReader reader(path, ChunkChecks::kOnFirstDecode);
    Replay replay(reader);
    Navigator navigator(replay);
    navigator.limitScan(5000);  // as the visualizer does (with a smaller limit): no scan for ever
    for (std::size_t at = 0; at + 1 < size && at < 64; at += 2) {
      try {
        move(replay, navigator, moves[at], moves[at + 1]);
      } catch (const TraceError&) {
        // A seek goes back to the start, a navigator's scan leaves the cursor.
        if (replay.cursor() > reader.eventCount())
          finding("a damaged chunk left the cursor outside the trace");
        replay.seek(0);  // the visualizer's next key: the replay must still work
        if (replay.cursor() != 0) finding("the replay does not seek after a damaged chunk");
      }
    }
  } catch (const TraceError&) {
    // refused at open: what a damaged file may get
  }
}

void writeFile(const std::string& path, const uint8_t* data, std::size_t size) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) return;
  std::fwrite(data, 1, size, file);
  std::fclose(file);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  static const std::string path = scratchPath("input");
  // data[0] bit 0: the input is the file; else data[1..2] an offset into the
  // sound trace and data[3] how many of the following bytes go over it there.
  if (data[0] & 1) {
    writeFile(path, data + 1, size - 1);
    drive(path, data + 1, size - 1);
    return 0;
  }
  std::vector<uint8_t> bytes = soundTrace();
  const std::size_t offset = (static_cast<std::size_t>(data[1]) << 8 | data[2]) * bytes.size() / 65536;
  const std::size_t patch = std::min<std::size_t>({data[3], size - 4, bytes.size() - offset});
  std::memcpy(bytes.data() + offset, data + 4, patch);
  writeFile(path, bytes.data(), bytes.size());
  drive(path, data + 4 + patch, size - 4 - patch);
  return 0;
}
