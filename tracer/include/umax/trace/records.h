/// \file records.h
/// \brief The byte layout of the records a trace shares between its parts.
///
/// A call's arguments, a hash entry, a move and a probe are written in
/// three places: event records (writer.cpp, compact.cpp), the checkpoints
/// in the footer (state.cpp) and the header (framing.cpp). Each layout is
/// defined once, here; where no check sits between the fields, one list
/// both writes and reads them (callArguments, entryContents). A writer is a
/// RecordWriter or a ByteWriter (bytes.h); the functions are templates,
/// inlined into the recorder by always_inline (measured: GCC otherwise
/// calls some of them out of line, 1.5% more instructions for a traced think).
#pragma once

#include <cstdint>

#include "umax/search_rules.h"
#include "umax/trace/bytes.h"
#include "umax/trace/format.h"

namespace umax::trace {

// ---- the tag byte and the empty entry ----------------------------------------

/// A record's tag byte: the kind in the low 4 bits, `flags` in the high 4.
[[gnu::always_inline]] inline uint8_t recordTag(EventKind kind, int flags) {
  return static_cast<uint8_t>(static_cast<int>(kind) | (flags << 4));
}

/// Reads a record's tag byte: returns its kind (refused unless it is one)
/// and sets `flags` to its high 4 bits.
inline EventKind readTag(ByteReader& read, int& flags) {
  const uint8_t tagByte = read.u8();
  const int kind = tagByte & 15;
  flags = tagByte >> 4;
  if (kind < 1 || kind >= kEventKindCount) read.fail("unknown event kind " + std::to_string(kind));
  return static_cast<EventKind>(kind);
}

/// True if two entries hold the same five fields.
[[gnu::always_inline]] inline bool sameEntry(const HashEntry& a, const HashEntry& b) {
  return a.lock == b.lock && a.score == b.score && a.from == b.from && a.to == b.to && a.draft == b.draft;
}

/// True for an entry with nothing in it (a store record leaves such an
/// entry out: its flag says the slot was empty).
[[gnu::always_inline]] inline bool isEmptyEntry(const HashEntry& entry) {
  return entry.lock == 0 && entry.score == 0 && entry.from == 0 && entry.to == 0 && entry.draft == 0;
}

// ---- NodeCall: the nine arguments of D() -----------------------------------

/// A call's arguments but its side: zz q, zz l, zz e, u32 J, u32 Z, zz E,
/// zz z, zz n, written (`code` a RecordWriter or ByteWriter) or read (a
/// ByteReader) by the one list. An event record keeps the side in its tag
/// byte; the header and the checkpoints write it as a byte before (writeCall).
template <class Code, class Call>
[[gnu::always_inline]] inline void callArguments(Code& code, Call& call) {
  code.zigzag(call.alpha);
  code.zigzag(call.beta);
  code.zigzag(call.eval);
  code.u32(call.hashKey);
  code.u32(call.hashLock);
  code.zigzag(call.epSquare);
  code.zigzag(call.lastTo);
  code.zigzag(call.depth);
}

/// Reads a call's arguments into `call` (its side untouched) and checks E,
/// z and n lie where the search can put them.
inline void readCallArguments(ByteReader& read, NodeCall& call) {
  callArguments(read, call);
  if (call.epSquare < -128 || call.epSquare > kNoSquare || call.lastTo < 0 || call.lastTo > kNoSquare ||
      call.depth < 0 || call.depth > 127)
    read.fail("call argument out of range");
}

/// Writes a whole call: u8 side (8 or 16), then its arguments.
template <class Writer>
[[gnu::always_inline]] inline void writeCall(Writer& write, const NodeCall& call) {
  write.u8(call.side);
  callArguments(write, call);
}

/// Reads what writeCall wrote; the side must be white or black.
inline NodeCall readCall(ByteReader& read) {
  NodeCall call;
  call.side = read.u8();
  if (call.side != kWhite && call.side != kBlack) read.fail("bad side to move");
  readCallArguments(read, call);
  return call;
}

// ---- HashEntry: one slot of the table ---------------------------------------

/// An entry's contents without its lock: zz V, u8 X, u8 Y, u8 D (what a
/// probe record carries: the lock is the probing call's Z), written or read
/// by the one list (as callArguments).
template <class Code, class Entry>
[[gnu::always_inline]] inline void entryContents(Code& code, Entry& entry) {
  code.zigzag(entry.score);
  code.i8(entry.from);
  code.i8(entry.to);
  code.i8(entry.draft);
}

/// Writes a whole entry: u32 K (the lock), then its contents.
template <class Writer>
[[gnu::always_inline]] inline void writeEntry(Writer& write, const HashEntry& entry) {
  write.u32(static_cast<uint32_t>(entry.lock));
  entryContents(write, entry);
}

/// Reads what writeEntry wrote.
inline HashEntry readEntry(ByteReader& read) {
  HashEntry entry;
  read.u32(entry.lock);
  entryContents(read, entry);
  return entry;
}

// ---- MoveRecord: a move being searched --------------------------------------

/// The two layouts of a move.
enum class MoveLayout {
  kEvent,       ///< a kMoveMade record: u8 flags x y u t h, then H, G, F only where the flags say
  kCheckpoint,  ///< a checkpoint's frame: u8 flags x y u t H G F h, every field present
};

/// Writes a move in `layout`.
template <class Writer>
[[gnu::always_inline]] inline void writeMove(Writer& write, const MoveRecord& move, MoveLayout layout) {
  write.u8(move.flags);
  write.u8(move.from);
  write.u8(move.to);
  write.u8(move.piece);
  write.u8(move.victim);
  if (layout == MoveLayout::kEvent) {
    write.u8(move.remaining);
    if (move.flags & kMoveEnPassant) write.u8(move.captureSquare);
    if (move.flags & kMoveCastling) write.u8(move.rookFrom);
    if (move.flags & kMoveHasF) write.u8(move.passedSquare);
  } else {
    write.u8(move.captureSquare);
    write.u8(move.rookFrom);
    write.u8(move.passedSquare);
    write.u8(move.remaining);
  }
}

/// Reads a move written in `layout`; the squares it moves on must be on
/// the board, G and F on the board or the dummy square 128.
inline MoveRecord readMove(ByteReader& read, MoveLayout layout) {
  MoveRecord move;
  move.flags = read.u8();
  move.from = read.u8();
  move.to = read.u8();
  move.piece = read.i8();
  move.victim = read.i8();
  const auto checkFromTo = [&] {
    if (!isOnBoard(move.from) || !isOnBoard(move.to)) read.fail("move square off the board");
  };
  if (layout == MoveLayout::kEvent) {
    move.remaining = read.u8();
    checkFromTo();
    move.captureSquare = (move.flags & kMoveEnPassant) ? read.u8() : move.to;
    move.rookFrom = (move.flags & kMoveCastling) ? read.u8() : kNoSquare;
    move.passedSquare = (move.flags & kMoveHasF) ? read.u8() : kNoSquare;
  } else {
    move.captureSquare = read.u8();
    move.rookFrom = read.u8();
    move.passedSquare = read.u8();
    move.remaining = read.u8();
    checkFromTo();
  }
  if (!isOnBoard(move.captureSquare) || move.rookFrom > kNoSquare || move.passedSquare > kNoSquare ||
      ((move.flags & kMoveCastling) && !isOnBoard(move.rookFrom)))
    read.fail("move square out of range");
  return move;
}

// ---- ProbeReport: where a call's hash slot is --------------------------------

/// A probe's outcome and whether it ended the node, as 3 bits (an event
/// record's tag flags, a checkpoint's byte).
inline int probeBits(const ProbeReport& probe) {
  return static_cast<int>(probe.outcome) | (probe.endsNode ? 4 : 0);
}

/// Writes the window a probe walked: varint first slot, u8 slots probed.
template <class Writer>
[[gnu::always_inline]] inline void writeProbeWindow(Writer& write, const ProbeReport& probe) {
  write.varint(probe.firstSlot);
  write.u8(probe.slotsProbed);
}

/// Reads a probe written as probeBits and writeProbeWindow, and works out
/// the slot it settled on (0, the dummy, when the window was full).
/// `minimumProbed` is 1 for a probe that happened, 0 for a frame not yet probed.
inline ProbeReport readProbe(ByteReader& read, int bits, int minimumProbed) {
  if ((bits & 3) > 2 || bits > 7) read.fail("bad probe flags");
  ProbeReport probe;
  probe.outcome = static_cast<ProbeOutcome>(bits & 3);
  probe.endsNode = (bits & 4) != 0;
  const uint64_t first = read.varint();
  if (first > static_cast<uint64_t>(kHashSlotMask)) read.fail("probe slot out of range");
  probe.firstSlot = static_cast<uint32_t>(first);
  probe.slotsProbed = read.u8();
  if (probe.slotsProbed < minimumProbed || probe.slotsProbed > kProbeSlots)
    read.fail("bad number of slots probed");
  probe.slot = probe.outcome == ProbeOutcome::kFull ? 0 : probe.firstSlot + probe.slotsProbed;
  return probe;
}

}  // namespace umax::trace
