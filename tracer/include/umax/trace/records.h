/// \file records.h
/// \brief The byte layout of the records a trace shares between its parts.
///
/// A call's arguments and a hash entry are written in event records, the
/// checkpoints (state.cpp) and the header (framing.cpp); one list both
/// writes and reads each (callArguments, entryContents), through a
/// RecordWriter or ByteWriter (bytes.h) or a ByteReader. always_inline:
/// GCC otherwise calls some out of line, 1.5% more instructions when tracing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "umax/search_rules.h"
#include "umax/trace/bytes.h"
#include "umax/trace/format.h"

namespace umax::trace {

/// A tag's low 4 bits for a kind numbered this or higher: the kind is
/// kExtendedKind plus the byte after the tag. Kinds 1 to 14 take one byte,
/// kinds 15 to 255 (EventKind's range) two: room for 241 more.
inline constexpr int kExtendedKind = 15;

/// A record's tag byte: the kind in the low 4 bits, `flags` in the high 4
/// (a kind numbered below kExtendedKind: every kind's record but through writeTag).
[[gnu::always_inline]] constexpr uint8_t recordTag(EventKind kind, int flags) {
  return static_cast<uint8_t>(static_cast<int>(kind) | (flags << 4));
}

/// Writes the tag of a record of any kind: recordTag's byte, or for a kind
/// numbered kExtendedKind or more the tag kExtendedKind | flags << 4 and
/// the byte kind - kExtendedKind.
template <class Code>
[[gnu::always_inline]] inline void writeTag(Code& write, EventKind kind, int flags) {
  const int number = static_cast<int>(kind);
  if (number < kExtendedKind) return write.u8(recordTag(kind, flags));
  write.u8(kExtendedKind | flags << 4);
  write.u8(number - kExtendedKind);
}

/// An entry's five fields as two words: lock and score, then X, Y and D
/// (the padding byte after them masked off), so that the recorder compares
/// entries without a branch per field (callgrind: the stores of a traced
/// think ran about 20 fewer instructions each than with operator==).
struct EntryWords {
  uint64_t lockAndScore;  ///< the lock K and the score V, as they lie in the entry
  uint32_t moveAndDraft;  ///< X, Y and D, the padding byte masked off
};
/// `entry` as EntryWords.
[[gnu::always_inline]] inline EntryWords entryWords(const HashEntry& entry) {
  static_assert(sizeof(HashEntry) == 12 && offsetof(HashEntry, score) == 4 &&
                offsetof(HashEntry, from) == 8 && offsetof(HashEntry, to) == 9 &&
                offsetof(HashEntry, draft) == 10);
  EntryWords words;
  std::memcpy(&words.lockAndScore, &entry, 8);
  std::memcpy(&words.moveAndDraft, reinterpret_cast<const char*>(&entry) + 8, 4);
  words.moveAndDraft &= 0xffffffu;
  return words;
}

/// True if two entries hold the same five fields.
[[gnu::always_inline]] inline bool sameEntry(const HashEntry& a, const HashEntry& b) {
  const EntryWords x = entryWords(a), y = entryWords(b);
  return ((x.lockAndScore ^ y.lockAndScore) | (x.moveAndDraft ^ y.moveAndDraft)) == 0;
}

/// True for an entry with nothing in it (a store record leaves such an
/// entry out: its flag says the slot was empty).
[[gnu::always_inline]] inline bool isEmptyEntry(const HashEntry& entry) {
  const EntryWords x = entryWords(entry);
  return (x.lockAndScore | x.moveAndDraft) == 0;
}

// ---- NodeCall: the nine arguments of D() -----------------------------------

/// A call's arguments but its side: zz q, zz l, zz e, u32 J, u32 Z, zz E,
/// zz z, zz n, written (`code` a RecordWriter or ByteWriter) or read (a
/// ByteReader) by the one list. An event record keeps the side in its tag
/// byte; the header and the checkpoints write it as a byte before.
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

/// Checks a call read back: the side white or black, E, z and n where the search can put them.
inline void checkCall(ByteReader& read, const NodeCall& call) {
  if (call.side != kWhite && call.side != kBlack) read.fail("bad side to move");
  if (call.epSquare < -128 || call.epSquare > kNoSquare || call.lastTo < 0 || call.lastTo > kNoSquare ||
      call.depth < 0 || call.depth > 127)
    read.fail("call argument out of range");
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

/// Writes a kMoveMade record's move: u8 flags x y u t h, then H, G, F only where the flags say.
template <class Writer>
[[gnu::always_inline]] inline void writeMove(Writer& write, const MoveRecord& move) {
  for (const int field : {int{move.flags}, move.from, move.to, move.piece, move.victim, move.remaining})
    write.u8(field);
  if (move.flags & kMoveEnPassant) write.u8(move.captureSquare);
  if (move.flags & kMoveCastling) write.u8(move.rookFrom);
  if (move.flags & kMoveHasF) write.u8(move.passedSquare);
}

/// Checks the squares a move moves on are on the board, G and F on the
/// board or the dummy square 128 (G on the board for a castling).
inline void checkMoveSquares(ByteReader& read, const MoveRecord& move) {
  if (!isOnBoard(move.from) || !isOnBoard(move.to)) read.fail("move square off the board");
  if (!isOnBoard(move.captureSquare) || move.rookFrom > kNoSquare || move.passedSquare > kNoSquare ||
      ((move.flags & kMoveCastling) && !isOnBoard(move.rookFrom)))
    read.fail("move square out of range");
}

/// Reads what writeMove wrote and checks its squares.
inline MoveRecord readMove(ByteReader& read) {
  MoveRecord move;
  move.flags = read.u8();
  move.from = read.u8();
  move.to = read.u8();
  move.piece = read.i8();
  move.victim = read.i8();
  move.remaining = read.u8();
  move.captureSquare = (move.flags & kMoveEnPassant) ? read.u8() : move.to;
  move.rookFrom = (move.flags & kMoveCastling) ? read.u8() : kNoSquare;
  move.passedSquare = (move.flags & kMoveHasF) ? read.u8() : kNoSquare;
  checkMoveSquares(read, move);
  return move;
}

// ---- ProbeReport: where a call's hash slot is --------------------------------

/// A probe's outcome and whether it ended the node, as 3 bits (an event
/// record's tag flags, a checkpoint's byte).
inline int probeBits(const ProbeReport& probe) {
  return static_cast<int>(probe.outcome) | (probe.endsNode ? 4 : 0);
}

}  // namespace umax::trace
