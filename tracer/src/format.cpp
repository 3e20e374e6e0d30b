// format.cpp - encoding and decoding of trace event records.
#include "umax/trace/format.h"

#include <array>
#include <cstring>
#include <sstream>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

#include "umax/trace/records.h"

namespace umax::trace {

std::string_view kindName(EventKind kind) {
  switch (kind) {
    case EventKind::kCall:
      return "call";
    case EventKind::kProbe:
      return "probe";
    case EventKind::kNodeCounted:
      return "node";
    case EventKind::kIteration:
      return "iteration";
    case EventKind::kKingCapture:
      return "king-capture";
    case EventKind::kCutoff:
      return "cutoff";
    case EventKind::kMoveMade:
      return "move";
    case EventKind::kMoveScored:
      return "score";
    case EventKind::kBestMove:
      return "best";
    case EventKind::kMateProbe:
      return "mate-probe";
    case EventKind::kStore:
      return "store";
    case EventKind::kReturn:
      return "return";
  }
  return "unknown";
}

std::string_view outcomeName(ProbeOutcome outcome) {
  switch (outcome) {
    case ProbeOutcome::kMiss:
      return "miss";
    case ProbeOutcome::kHit:
      return "hit";
    case ProbeOutcome::kFull:
      return "full";
  }
  return "?";
}

SearchSite siteOf(EventKind kind, bool probeEndsNode) {
  switch (kind) {
    case EventKind::kCall:
      return SearchSite::kCall;
    case EventKind::kProbe:
      return probeEndsNode ? SearchSite::kHashCutoff : SearchSite::kProbe;
    case EventKind::kNodeCounted:
      return SearchSite::kNodeCounted;
    case EventKind::kIteration:
      return SearchSite::kIteration;
    case EventKind::kKingCapture:
      return SearchSite::kKingCapture;
    case EventKind::kCutoff:
      return SearchSite::kCutoff;
    case EventKind::kMoveMade:
      return SearchSite::kMoveMade;
    case EventKind::kMoveScored:
      return SearchSite::kMoveScored;
    case EventKind::kBestMove:
      return SearchSite::kBestMove;
    case EventKind::kMateProbe:
      return SearchSite::kMateProbe;
    case EventKind::kStore:
      return SearchSite::kStore;
    case EventKind::kReturn:
      return SearchSite::kReturn;
  }
  return SearchSite::kCall;
}

// ---- CRC-32C -----------------------------------------------------------------
//
// CRC-32C (Castagnoli; iSCSI, ext4, SSE4.2's crc32 instruction): reflected
// polynomial 0x82F63B78, register started at and finished with all ones.
// Every checksum of the format is one: the instruction takes 8 bytes a
// cycle where zlib's CRC-32 spent about 26 instructions per event.

namespace {

constexpr uint32_t kCastagnoli = 0x82F63B78u;

/// The byte-at-a-time table of the portable CRC-32C.
constexpr std::array<uint32_t, 256> crc32cTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t byte = 0; byte < 256; ++byte) {
    uint32_t crc = byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (kCastagnoli & (0u - (crc & 1u)));
    table[byte] = crc;
  }
  return table;
}

constexpr std::array<uint32_t, 256> kCrc32cTable = crc32cTable();

#if defined(__x86_64__)
/// a(x) * b(x) modulo the Castagnoli polynomial, both reflected (bit 31 holds x^0).
uint32_t multiplyModP(uint32_t a, uint32_t b) {
  uint32_t product = 0;
  for (uint32_t bit = 1u << 31; bit != 0; bit >>= 1) {
    if (a & bit) product ^= b;
    b = (b & 1u) ? (b >> 1) ^ kCastagnoli : b >> 1;  // b *= x
  }
  return product;
}

/// What `bytes` zero bytes do to a CRC register: the factor x^(8 bytes) mod P
/// (multiplyModP(factor, state) is the register after them).
uint32_t zeroBytesFactor(std::size_t bytes) {
  uint32_t power = 1u << 31;   // x^0
  uint32_t square = 1u << 23;  // x^8: one byte
  for (; bytes != 0; bytes >>= 1, square = multiplyModP(square, square))
    if (bytes & 1) power = multiplyModP(power, square);
  return power;
}

/// Below this many bytes one lane is as fast as three.
constexpr std::size_t kThreeLaneMinimum = 768;

/// The next 8 bytes as one word.
inline uint64_t loadWord64(const uint8_t* data) {
  uint64_t word;
  std::memcpy(&word, data, sizeof word);
  return word;
}

/// CRC-32C with SSE4.2's crc32 instruction, 8 bytes at a time. The
/// instruction takes 3 cycles but can start every cycle, so a long buffer
/// is cut into three lanes computed side by side, then joined: the CRC
/// register is linear, so the first lane's register, moved on past one
/// lane of zero bytes, plus the second's is the register after two lanes;
/// moved on again, plus the third's, it is the register of the whole.
__attribute__((target("sse4.2"))) uint32_t crc32cHardware(const uint8_t* data, std::size_t size,
                                                          uint32_t crc) {
  uint64_t state = ~crc;
  if (size >= kThreeLaneMinimum) {
    const std::size_t lane = size / 24 * 8;  // bytes per lane, whole words
    uint64_t second = 0;
    uint64_t third = 0;
    for (const uint8_t* end = data + lane; data != end; data += 8) {
      state = _mm_crc32_u64(state, loadWord64(data));
      second = _mm_crc32_u64(second, loadWord64(data + lane));
      third = _mm_crc32_u64(third, loadWord64(data + 2 * lane));
    }
    const uint32_t pastLane = zeroBytesFactor(lane);
    const uint32_t firstTwo =
        multiplyModP(pastLane, static_cast<uint32_t>(state)) ^ static_cast<uint32_t>(second);
    state = multiplyModP(pastLane, firstTwo) ^ static_cast<uint32_t>(third);
    data += 2 * lane;
    size -= 3 * lane;
  }
  for (; size >= 8; data += 8, size -= 8) state = _mm_crc32_u64(state, loadWord64(data));
  auto narrow = static_cast<uint32_t>(state);
  for (; size > 0; ++data, --size) narrow = _mm_crc32_u8(narrow, *data);
  return ~narrow;
}

/// The CRC-32C this machine computes fastest: the instruction if the CPU has it.
using Crc32cFunction = uint32_t (*)(const uint8_t*, std::size_t, uint32_t);
const Crc32cFunction kCrc32c = __builtin_cpu_supports("sse4.2") ? crc32cHardware : crc32cPortable;
#endif

}  // namespace

uint32_t crc32cPortable(const uint8_t* data, std::size_t size, uint32_t crc) {
  crc = ~crc;
  for (; size > 0; ++data, --size) crc = (crc >> 8) ^ kCrc32cTable[(crc ^ *data) & 0xFFu];
  return ~crc;
}

uint32_t crc32c(const uint8_t* data, std::size_t size, uint32_t crc) {
#if defined(__x86_64__)
  return kCrc32c(data, size, crc);
#else
  return crc32cPortable(data, size, crc);
#endif
}

uint32_t chunkCrc(uint32_t events, const uint8_t* payload, std::size_t size) {
  const uint8_t count[4] = {static_cast<uint8_t>(events), static_cast<uint8_t>(events >> 8),
                            static_cast<uint8_t>(events >> 16), static_cast<uint8_t>(events >> 24)};
  return crc32c(payload, size, crc32c(count, sizeof count));
}

uint8_t* encodeEvent(const Event& event, uint8_t* out) {
  RecordWriter write{out};
  switch (event.kind) {
    case EventKind::kCall: {
      const NodeCall& call = event.call;
      write.u8(recordTag(event.kind, call.side == kBlack ? 1 : 0));
      writeCallArguments(write, call);
      break;
    }
    case EventKind::kProbe: {
      const ProbeReport& probe = event.probe;
      write.u8(recordTag(event.kind, probeBits(probe)));
      writeProbeWindow(write, probe);
      if (probe.outcome == ProbeOutcome::kHit) writeEntryContents(write, event.entry);
      break;
    }
    case EventKind::kNodeCounted:
    case EventKind::kMateProbe:
      write.u8(recordTag(event.kind, 0));
      break;
    case EventKind::kIteration:
      write.u8(recordTag(event.kind, 0));
      write.u8(event.value);
      break;
    case EventKind::kKingCapture:
      write.u8(recordTag(event.kind, event.badCastling ? 1 : 0));
      write.u8(event.move.from);
      write.u8(event.move.to);
      break;
    case EventKind::kCutoff:
    case EventKind::kMoveScored:
      write.u8(recordTag(event.kind, 0));
      write.zigzag(event.value);
      break;
    case EventKind::kMoveMade:
      write.u8(recordTag(event.kind, 0));
      writeMove(write, event.move, MoveLayout::kEvent);
      break;
    case EventKind::kBestMove:
      write.u8(recordTag(event.kind, 0));
      write.zigzag(event.best);
      write.u8(event.bestFrom);
      write.u8(event.bestTo);
      break;
    case EventKind::kStore: {
      const bool emptyBefore = isEmptyEntry(event.before);
      write.u8(recordTag(event.kind, (event.written ? 1 : 0) | (emptyBefore ? 2 : 0)));
      write.varint(event.slot);
      if (!emptyBefore) writeEntry(write, event.before);
      if (event.written) writeEntry(write, event.after);
      break;
    }
    case EventKind::kReturn:
      write.u8(recordTag(event.kind, 0));
      write.zigzag(event.best);
      write.u8(event.bestFrom);
      write.u8(event.bestTo);
      write.u8(event.draft);
      break;
  }
  return write.at;
}

void encodeEvent(const Event& event, std::vector<uint8_t>& out) {
  uint8_t record[kMaxRecordBytes];
  out.insert(out.end(), record, encodeEvent(event, record));
}

bool sameEvent(const Event& a, const Event& b) {
  uint8_t x[kMaxRecordBytes];
  uint8_t y[kMaxRecordBytes];
  const uint8_t* xEnd = encodeEvent(a, x);
  const uint8_t* yEnd = encodeEvent(b, y);
  return xEnd - x == yEnd - y && std::memcmp(x, y, static_cast<std::size_t>(xEnd - x)) == 0;
}

std::string toString(const Event& event) {
  std::ostringstream text;
  text << kindName(event.kind);
  switch (event.kind) {
    case EventKind::kCall: {
      const NodeCall& c = event.call;
      text << " k=" << c.side << " q=" << c.alpha << " l=" << c.beta << " e=" << c.eval << " J=" << c.hashKey
           << " Z=" << c.hashLock << " E=" << c.epSquare << " z=" << c.lastTo << " n=" << c.depth;
      break;
    }
    case EventKind::kProbe: {
      text << " " << outcomeName(event.probe.outcome) << " first=" << event.probe.firstSlot
           << " probed=" << event.probe.slotsProbed << " slot=" << event.probe.slot;
      if (event.probe.outcome == ProbeOutcome::kHit)
        text << " V=" << event.entry.score << " D=" << int(event.entry.draft)
             << " X=" << int(event.entry.from) << " Y=" << int(event.entry.to);
      if (event.probe.endsNode) text << " ends-node";
      break;
    }
    case EventKind::kIteration:
      text << " d=" << event.value;
      break;
    case EventKind::kKingCapture:
      text << " " << moveName(event.move.from, event.move.to) << (event.badCastling ? " bad-castling" : "");
      break;
    case EventKind::kCutoff:
    case EventKind::kMoveScored:
      text << " " << event.value;
      break;
    case EventKind::kMoveMade: {
      const MoveRecord& m = event.move;
      text << " " << moveName(m.from, m.to) << " u=" << m.piece << " t=" << m.victim << " h=" << m.remaining;
      if (m.flags & kMoveSneaked) text << " best-first";
      if (m.flags & kMoveEnPassant) text << " ep H=" << squareName(m.captureSquare);
      if (m.flags & kMoveCastling) text << " castling G=" << squareName(m.rookFrom);
      if (m.flags & kMoveHasF) text << " F=" << squareName(m.rookTo);
      if (m.flags & kMovePromotion) text << " promotion";
      break;
    }
    case EventKind::kBestMove:
      text << " m=" << event.best << " " << bestMoveName(event.bestFrom, event.bestTo);
      break;
    case EventKind::kStore:
      text << " slot=" << event.slot << (event.written ? " written" : " refused")
           << " V=" << event.after.score << " D=" << int(event.after.draft);
      break;
    case EventKind::kReturn:
      text << " " << event.best << " d=" << event.draft
           << " (the loop counter: one past the draft completed, unless the table answered)";
      break;
    default:
      break;
  }
  return text.str();
}

}  // namespace umax::trace
