// format.cpp - encoding and decoding of trace event records.
#include "umax/trace/format.h"

#include <zlib.h>

#include <sstream>

#include "umax/trace/bytes.h"

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

uint32_t crc32Of(const uint8_t* data, std::size_t size, uint32_t start) {
  uLong crc = start;
  while (size > 0) {  // zlib takes a uInt length
    const uInt part = size > (1u << 30) ? (1u << 30) : static_cast<uInt>(size);
    crc = crc32(crc, data, part);
    data += part;
    size -= part;
  }
  return static_cast<uint32_t>(crc);
}

uint32_t chunkCrc(uint32_t events, const uint8_t* payload, std::size_t size) {
  const uint8_t count[4] = {static_cast<uint8_t>(events), static_cast<uint8_t>(events >> 8),
                            static_cast<uint8_t>(events >> 16), static_cast<uint8_t>(events >> 24)};
  return crc32Of(payload, size, crc32Of(count, sizeof count));
}

namespace {

uint8_t tag(EventKind kind, int flags) { return static_cast<uint8_t>(static_cast<int>(kind) | (flags << 4)); }

bool isEmpty(const HashEntry& entry) {
  return entry.lock == 0 && entry.score == 0 && entry.from == 0 && entry.to == 0 && entry.draft == 0;
}

}  // namespace

uint8_t* encodeEvent(const Event& event, uint8_t* out) {
  RecordWriter write{out};
  switch (event.kind) {
    case EventKind::kCall: {
      const NodeCall& call = event.call;
      write.u8(tag(event.kind, call.side == kBlack ? 1 : 0));
      write.zigzag(call.alpha);
      write.zigzag(call.beta);
      write.zigzag(call.eval);
      write.u32(call.hashKey);
      write.u32(call.hashLock);
      write.zigzag(call.epSquare);
      write.zigzag(call.lastTo);
      write.zigzag(call.depth);
      break;
    }
    case EventKind::kProbe: {
      const ProbeReport& probe = event.probe;
      write.u8(tag(event.kind, static_cast<int>(probe.outcome) | (probe.endsNode ? 4 : 0)));
      write.varint(probe.firstSlot);
      write.u8(probe.slotsProbed);
      if (probe.outcome == ProbeOutcome::kHit) {
        write.zigzag(event.entry.score);
        write.u8(event.entry.from);
        write.u8(event.entry.to);
        write.u8(event.entry.draft);
      }
      break;
    }
    case EventKind::kNodeCounted:
    case EventKind::kMateProbe:
      write.u8(tag(event.kind, 0));
      break;
    case EventKind::kIteration:
      write.u8(tag(event.kind, 0));
      write.u8(event.value);
      break;
    case EventKind::kKingCapture:
      write.u8(tag(event.kind, event.badCastling ? 1 : 0));
      write.u8(event.move.from);
      write.u8(event.move.to);
      break;
    case EventKind::kCutoff:
    case EventKind::kMoveScored:
      write.u8(tag(event.kind, 0));
      write.zigzag(event.value);
      break;
    case EventKind::kMoveMade: {
      const MoveRecord& move = event.move;
      write.u8(tag(event.kind, 0));
      write.u8(move.flags);
      write.u8(move.from);
      write.u8(move.to);
      write.u8(move.piece);
      write.u8(move.victim);
      write.u8(move.remaining);
      if (move.flags & kMoveEnPassant) write.u8(move.captureSquare);
      if (move.flags & kMoveCastling) write.u8(move.rookFrom);
      if (move.flags & kMoveHasF) write.u8(move.rookTo);
      break;
    }
    case EventKind::kBestMove:
      write.u8(tag(event.kind, 0));
      write.zigzag(event.best);
      write.u8(event.bestFrom);
      write.u8(event.bestTo);
      break;
    case EventKind::kStore: {
      const bool emptyBefore = isEmpty(event.before);
      write.u8(tag(event.kind, (event.written ? 1 : 0) | (emptyBefore ? 2 : 0)));
      write.varint(event.slot);
      if (!emptyBefore) write.entry(event.before);
      if (event.written) write.entry(event.after);
      break;
    }
    case EventKind::kReturn:
      write.u8(tag(event.kind, 0));
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

const uint8_t* decodeEvent(const uint8_t* data, const uint8_t* end, Event& event, uint64_t offset) {
  ByteReader read(data, end, offset, "event record");
  try {
    const uint8_t tagByte = read.u8();
    const int kind = tagByte & 15;
    const int flags = tagByte >> 4;
    if (kind < 1 || kind >= kEventKindCount) read.fail("unknown event kind " + std::to_string(kind));
    event = Event{};
    event.kind = static_cast<EventKind>(kind);
    switch (event.kind) {
      case EventKind::kCall: {
        NodeCall& call = event.call;
        if (flags > 1) read.fail("bad call flags");
        call.side = (flags & 1) ? kBlack : kWhite;
        call.alpha = read.int32();
        call.beta = read.int32();
        call.eval = read.int32();
        call.hashKey = read.u32();
        call.hashLock = read.u32();
        call.epSquare = read.int32();
        call.lastTo = read.int32();
        call.depth = read.int32();
        if (call.epSquare < -128 || call.epSquare > kNoSquare || call.lastTo < 0 || call.lastTo > kNoSquare ||
            call.depth < 0 || call.depth > 127)
          read.fail("call argument out of range");
        break;
      }
      case EventKind::kProbe: {
        ProbeReport& probe = event.probe;
        if ((flags & 3) > 2 || flags > 7) read.fail("bad probe flags");
        probe.outcome = static_cast<ProbeOutcome>(flags & 3);
        probe.endsNode = (flags & 4) != 0;
        const uint64_t first = read.varint();
        if (first > static_cast<uint64_t>(kHashSlotMask)) read.fail("probe slot out of range");
        probe.firstSlot = static_cast<uint32_t>(first);
        probe.slotsProbed = read.u8();
        if (probe.slotsProbed < 1 || probe.slotsProbed > kProbeSlots) read.fail("bad number of slots probed");
        probe.slot = probe.outcome == ProbeOutcome::kFull ? 0 : probe.firstSlot + probe.slotsProbed;
        if (probe.outcome == ProbeOutcome::kHit) {
          event.entry.score = read.int32();
          event.entry.from = read.i8();
          event.entry.to = read.i8();
          event.entry.draft = read.i8();
        }
        break;
      }
      case EventKind::kNodeCounted:
      case EventKind::kMateProbe:
        break;
      case EventKind::kIteration:
        event.value = read.u8();
        break;
      case EventKind::kKingCapture:
        event.badCastling = (flags & 1) != 0;
        event.move.from = read.u8();
        event.move.to = read.u8();
        if (!isOnBoard(event.move.from) || !isOnBoard(event.move.to)) read.fail("move square off the board");
        break;
      case EventKind::kCutoff:
      case EventKind::kMoveScored:
        event.value = read.int32();
        break;
      case EventKind::kMoveMade: {
        MoveRecord& move = event.move;
        move.flags = read.u8();
        move.from = read.u8();
        move.to = read.u8();
        move.piece = read.i8();
        move.victim = read.i8();
        move.remaining = read.u8();
        if (!isOnBoard(move.from) || !isOnBoard(move.to)) read.fail("move square off the board");
        move.captureSquare = (move.flags & kMoveEnPassant) ? read.u8() : move.to;
        move.rookFrom = (move.flags & kMoveCastling) ? read.u8() : kNoSquare;
        move.rookTo = (move.flags & kMoveHasF) ? read.u8() : kNoSquare;
        if (!isOnBoard(move.captureSquare) || move.rookFrom > kNoSquare || move.rookTo > kNoSquare ||
            ((move.flags & kMoveCastling) && !isOnBoard(move.rookFrom)))
          read.fail("move square out of range");
        break;
      }
      case EventKind::kBestMove:
        event.best = read.int32();
        event.bestFrom = read.i8();
        event.bestTo = read.i8();
        break;
      case EventKind::kStore: {
        if (flags > 3) read.fail("bad store flags");
        event.written = (flags & 1) != 0;
        const uint64_t slot = read.varint();
        if (slot >= static_cast<uint64_t>(kHashEntries)) read.fail("store slot out of range");
        event.slot = static_cast<uint32_t>(slot);
        if (!(flags & 2)) event.before = read.entry();
        event.after = event.written ? read.entry() : event.before;
        break;
      }
      case EventKind::kReturn:
        event.best = read.int32();
        event.bestFrom = read.i8();
        event.bestTo = read.i8();
        event.draft = read.i8();
        break;
    }
  } catch (const TruncatedData&) {
    return nullptr;
  }
  return read.here();
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
      static constexpr const char* kOutcomes[] = {"miss", "hit", "full"};
      text << " " << kOutcomes[static_cast<int>(event.probe.outcome)] << " first=" << event.probe.firstSlot
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
      text << " " << squareName(event.move.from) << squareName(event.move.to)
           << (event.badCastling ? " bad-castling" : "");
      break;
    case EventKind::kCutoff:
    case EventKind::kMoveScored:
      text << " " << event.value;
      break;
    case EventKind::kMoveMade: {
      const MoveRecord& m = event.move;
      text << " " << squareName(m.from) << squareName(m.to) << " u=" << m.piece << " t=" << m.victim
           << " h=" << m.remaining;
      if (m.flags & kMoveSneaked) text << " best-first";
      if (m.flags & kMoveEnPassant) text << " ep H=" << squareName(m.captureSquare);
      if (m.flags & kMoveCastling) text << " castling G=" << squareName(m.rookFrom);
      if (m.flags & kMoveHasF) text << " F=" << squareName(m.rookTo);
      if (m.flags & kMovePromotion) text << " promotion";
      break;
    }
    case EventKind::kBestMove:
      text << " m=" << event.best << " " << squareName(event.bestFrom & 0x77)
           << squareName(event.bestTo & 0x77);
      break;
    case EventKind::kStore:
      text << " slot=" << event.slot << (event.written ? " written" : " refused")
           << " V=" << event.after.score << " D=" << int(event.after.draft);
      break;
    case EventKind::kReturn:
      text << " " << event.best << " d=" << event.draft;
      break;
    default:
      break;
  }
  return text.str();
}

}  // namespace umax::trace
