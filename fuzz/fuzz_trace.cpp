// fuzz_trace: the trace reader, the replay model, the statistics and the
// call tree on arbitrary bytes. Every input must either be refused with a
// TraceError or be read, replayed and summed up, without a crash, a hang or
// a sanitizer report. Each input is tried twice:
//  1. as it is: a file of these bytes (framing, checksums, footer, trailer);
//  2. repaired: the input's header is kept (with its checksum made right) and
//     the bytes after it become the records of one chunk with the right
//     count and checksum and no footer. Random records then get past the
//     checksums and reach the checks that matter most: SearchState refusing
//     event sequences the search cannot produce. (A chunk keeps
//     the records up to the first that does not fit the search: its records
//     cannot be read without the state they change.)
// The reader maps files, so the bytes go to a file in /dev/shm first.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "umax/trace/bytes.h"
#include "umax/trace/compact.h"
#include "umax/trace/framing.h"
#include "umax/trace/reader.h"
#include "umax/trace/replay.h"
#include "umax/view/call_tree.h"
#include "umax/view/navigator.h"
#include "umax/view/stats.h"

namespace {

using namespace umax::trace;

const std::string& inputPath() {
  static const std::string path = "/dev/shm/umax-fuzz-trace-" + std::to_string(::getpid()) + ".trc";
  return path;
}

void tryFile(const uint8_t* data, size_t size) {
  std::FILE* file = std::fopen(inputPath().c_str(), "wb");
  if (!file) return;
  std::fwrite(data, 1, size, file);
  std::fclose(file);
  try {
    const TraceReader reader(inputPath());
    Replay replay(reader);
    replay.seek(reader.eventCount());
    replay.seek(reader.eventCount() / 2);
    replay.stepBack();
    Navigator(replay).nextCutoff();
    computeStats(reader);
    const CallTree tree(reader);
    if (reader.eventCount() > 0) tree.callAt(reader.eventCount() - 1);
  } catch (const TraceError&) {
    // refused with a message: what a damaged file must get
  }
}

uint32_t loadU32(const uint8_t* at) {
  uint32_t value;
  std::memcpy(&value, at, 4);
  return value;  // little-endian host (x86), as the format
}

/// The input with its header's checksum fixed and the rest framed as one
/// chunk of whole records; empty if the input has no plausible header.
std::vector<uint8_t> repaired(const uint8_t* data, size_t size) {
  if (size < 16 || std::memcmp(data, kMagic, sizeof kMagic) != 0) return {};
  const uint32_t length = loadU32(data + 12);
  if (length > size - 16) return {};
  std::vector<uint8_t> file(data, data + 16 + length);
  ByteWriter write(file);
  write.u32(crc32c(data + 8, 8 + std::size_t{length}));  // version, length and fields
  const uint8_t* records = data + 16 + length;
  const uint8_t* end = data + size;
  const uint8_t* at = records;
  uint32_t count = 0;
  Event event;
  try {
    // Version 3 records need the search's state to be read: a decoder from
    // the header keeps it (and stops at the first record that does not fit).
    TraceHeader header;
    readHeader(file.data(), file.size(), header);
    RecordDecoder decoder(header);
    while (at < end && count < 100000) {
      const uint8_t* next = decoder.decode(at, end, event, 0);
      if (!next) break;
      at = next;
      ++count;
    }
  } catch (const TraceError&) {
  }
  const auto payload = static_cast<uint32_t>(at - records);
  if (payload > kMaxChunkPayload) return {};
  writeChunkHead(count, records, payload, file);
  file.insert(file.end(), records, records + payload);
  return file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tryFile(data, size);
  const std::vector<uint8_t> file = repaired(data, size);
  if (!file.empty()) tryFile(file.data(), file.size());
  return 0;
}
