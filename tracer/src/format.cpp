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

namespace {

#define UMAX_TRACE_KIND_NAME(kind, number, name, site) {number, name},
#define UMAX_TRACE_KIND_SITE(kind, number, name, site) {number, SearchSite::site},

/// A row's value, indexed by the kind's number.
template <class Value>
struct ByKind {
  int number;
  Value value;
};

/// The rows of UMAX_TRACE_EVENT_KINDS laid out by kind number.
template <class Value, std::size_t kRows>
constexpr std::array<Value, kEventKindCount> byKind(const ByKind<Value> (&rows)[kRows], Value missing) {
  std::array<Value, kEventKindCount> table{};
  table.fill(missing);
  for (const ByKind<Value>& row : rows) table[static_cast<std::size_t>(row.number)] = row.value;
  return table;
}

constexpr ByKind<std::string_view> kNameRows[] = {UMAX_TRACE_EVENT_KINDS(UMAX_TRACE_KIND_NAME)};
constexpr ByKind<SearchSite> kSiteRows[] = {UMAX_TRACE_EVENT_KINDS(UMAX_TRACE_KIND_SITE)};
constexpr auto kNames = byKind(kNameRows, std::string_view("unknown"));
constexpr auto kSites = byKind(kSiteRows, SearchSite::kCall);

bool isKind(EventKind kind) {
  return static_cast<int>(kind) >= 1 && static_cast<int>(kind) < kEventKindCount;
}

}  // namespace

std::string_view kindName(EventKind kind) {
  return isKind(kind) ? kNames[static_cast<std::size_t>(kind)] : "unknown";
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
  if (kind == EventKind::kProbe && probeEndsNode) return SearchSite::kHashCutoff;
  return isKind(kind) ? kSites[static_cast<std::size_t>(kind)] : SearchSite::kCall;
}

// ---- CRC-32C -----------------------------------------------------------------
//
// CRC-32C (Castagnoli; iSCSI, ext4, SSE4.2's crc32 instruction): reflected
// polynomial 0x82F63B78, register started at and finished with all ones.
// On x86-64 the crc32 instruction takes 8 bytes at a time; elsewhere (the
// web edition) a 256-entry table takes one byte at a time.

namespace {

/// The byte-at-a-time table of the portable CRC-32C.
constexpr std::array<uint32_t, 256> crc32cTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t byte = 0; byte < 256; ++byte) {
    uint32_t crc = byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
    table[byte] = crc;
  }
  return table;
}

constexpr std::array<uint32_t, 256> kCrc32cTable = crc32cTable();

#if defined(__x86_64__)
/// CRC-32C with SSE4.2's crc32 instruction, 8 bytes at a time.
__attribute__((target("sse4.2"))) uint32_t crc32cHardware(const uint8_t* data, std::size_t size,
                                                          uint32_t crc) {
  uint64_t state = ~crc;
  for (; size >= 8; data += 8, size -= 8) {
    uint64_t word;
    std::memcpy(&word, data, sizeof word);
    state = _mm_crc32_u64(state, word);
  }
  auto narrow = static_cast<uint32_t>(state);
  for (; size > 0; ++data, --size) narrow = _mm_crc32_u8(narrow, *data);
  return ~narrow;
}

const bool kHasCrc32Instruction = __builtin_cpu_supports("sse4.2");
#endif

}  // namespace

uint32_t crc32cPortable(const uint8_t* data, std::size_t size, uint32_t crc) {
  crc = ~crc;
  for (; size > 0; ++data, --size) crc = (crc >> 8) ^ kCrc32cTable[(crc ^ *data) & 0xFFu];
  return ~crc;
}

uint32_t crc32c(const uint8_t* data, std::size_t size, uint32_t crc) {
#if defined(__x86_64__)
  if (kHasCrc32Instruction) return crc32cHardware(data, size, crc);
#endif
  return crc32cPortable(data, size, crc);
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
    default:  // the kinds without fields
      write.u8(recordTag(event.kind, 0));
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
