/// \file format.h
/// \brief The umax trace file format, version 8: events of one search, in a file.
///
/// A trace holds every event of one think of the readable build (see
/// umax/search_observer.h): each call of the search, each hash probe, each
/// move made and scored, each hash store, each return.
///
/// \section trace_layout File layout (all integers little-endian)
/// \verbatim
///   header   "UMAXTRC\0"  magic, 8 bytes
///            u32 version (8)   u32 header length L (bytes after this field)
///            L bytes: the header fields (see TraceHeader, written in order):
///              u32 line-map version, i64 budget, u32 start node count N0,
///              root call: u8 side, zz alpha, zz beta, zz eval, u32 J, u32 Z,
///                         zz E, zz z, zz n
///              129 bytes board (micro-Max's b[]), zz e.p. char O, zz eval Q,
///              str FEN, str moves   (str = varint length + bytes)
///              u8 B: the hash table has 2^B + 9 slots (24: the original's;
///                12 to 23: a smaller table, Engine::resizeHashTable)
///              varint K, then K initial hash entries: u32 slot, u32 lock,
///                zz score, u8 X, u8 Y, u8 D (the locked slots at search start)
///              u8 the Lab's ideas switched off (SearchVariant::without, one
///                ideaBit each; 0: micro-Max's own search), u8 --depth D (0: none)
///            u32 CRC-32C of every header byte after the magic (version,
///            length and the L bytes)
///   chunks   repeated: "CHNK" u32 payload bytes P, u32 events E, u32 CRC-32C
///            of E (4 bytes) and the payload, then P bytes holding E event records
///   footer   "FOOT" u32 length F, F bytes: varint chunk count, per chunk
///            varint file offset, varint first event, varint nodes before it;
///            then the result (zz score, u8 from, u8 to, varint nodes,
///            varint events, str why the move was not played: "" when it was,
///            or the think was no game's) and one checkpoint per chunk
///            (saveCheckpoint, state.h);
///            u32 CRC-32C of the F bytes
///   trailer  u64 offset of "FOOT", "UMAXEND\0"
/// \endverbatim
/// `varint` is LEB128 (7 bits per byte, low first); `zz` is a zigzag varint
/// (0,-1,1,-2,... -> 0,1,2,3,...); CRC-32C is Castagnoli's (crc32c()). A
/// record is a tag byte (the EventKind in the low 4 bits, flags in the high
/// 4; low bits 15: the kind is 15 plus the next byte, writeTag) and the
/// fields compact.h lists. A writer that dies mid-search leaves
/// the chunks it had flushed: the reader reads them to the last whole record.
///
/// This code reads and writes version 8 only and refuses any other version
/// by name (the versions before, and what each added, are told on
/// \ref page_recording); code whose event schema (UMAX_SEARCH_EVENTS) is
/// not the layout's writes and reads a version made from its schema instead
/// (formatVersion). The records of a think of the Lab (some idea switched
/// off) leave out what its variant's rules predict (search_rules.h).
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "umax/engine.h"
#include "umax/search_observer.h"

namespace umax::trace {

/// The 8 bytes every trace file starts with.
inline constexpr char kMagic[8] = {'U', 'M', 'A', 'X', 'T', 'R', 'C', '\0'};
/// The 8 bytes every complete trace file ends with.
inline constexpr char kEndMagic[8] = {'U', 'M', 'A', 'X', 'E', 'N', 'D', '\0'};
/// The 4 bytes that start every chunk.
inline constexpr char kChunkMagic[4] = {'C', 'H', 'N', 'K'};
/// The 4 bytes that start the footer.
inline constexpr char kFooterMagic[4] = {'F', 'O', 'O', 'T'};
/// The version of the file's layout (the sections above, the records of
/// compact.h), raised by hand when it changes.
inline constexpr uint32_t kLayoutVersion = 8;
/// The rows of UMAX_SEARCH_EVENTS as one string: each kind, its site and
/// record numbers, its name and its hook's parameters, what a trace file
/// and its exports hold of the event schema.
#define UMAX_TRACE_SCHEMA_ROW(kind, site, record, name, hook, parameters) kind site record name parameters;
/// The tokens given, as a string literal (UMAX_TRACE_TEXT's second step).
#define UMAX_TRACE_TEXT_OF(...) #__VA_ARGS__
/// The tokens given, macros expanded first, as a string literal.
#define UMAX_TRACE_TEXT(...) UMAX_TRACE_TEXT_OF(__VA_ARGS__)
/// FNV-1a of `text` with its white space left out, and in a parameter list
/// each parameter's name: a parameter renamed is the same schema, a
/// parameter of another type (a field of a kind's generic record) is not.
constexpr uint32_t schemaFingerprint(std::string_view text) {
  uint32_t hash = 2166136261u;
  const auto add = [&hash](std::string_view part) {
    for (const char c : part)
      if (c != ' ' && c != '\t' && c != '\n') hash = (hash ^ static_cast<uint8_t>(c)) * 16777619u;
  };
  const auto inName = [](char c) {
    return c == '_' || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
  };
  bool inList = false;  // between a '(' and its ')'
  while (!text.empty()) {
    const std::size_t cut = text.find_first_of(inList ? ",)" : "(");
    std::string_view part = text.substr(0, cut);
    if (inList) {  // a parameter: its type, without its name
      while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
      while (!part.empty() && inName(part.back())) part.remove_suffix(1);
    }
    add(part);
    if (cut == std::string_view::npos) break;
    add(text.substr(cut, 1));
    inList = text[cut] != ')';
    text.remove_prefix(cut + 1);
  }
  return hash;
}
/// The fingerprint of the event schema this code reads and writes.
inline constexpr uint32_t kSchemaFingerprint =
    schemaFingerprint(UMAX_TRACE_TEXT(UMAX_SEARCH_EVENTS(UMAX_TRACE_SCHEMA_ROW)));
/// The fingerprint of the event schema kLayoutVersion was made for (the
/// twelve kinds of formats 6 to 8); it becomes kSchemaFingerprint when
/// kLayoutVersion goes up.
inline constexpr uint32_t kLayoutSchema = 0x52c50384u;
/// The bit of a format version made for another event schema than the layout's.
inline constexpr uint32_t kOtherSchemaBit = 0x80000000u;
/// The format version of a trace of layout `layout` whose event schema has
/// the fingerprint `schema`: the layout's number with the layout's schema;
/// with any other (a kind added, a row changed) kOtherSchemaBit, the layout
/// in bits 24-30 and the fingerprint's low 24 bits. So a change of the
/// schema changes the version without anyone editing a number, and a
/// trace of one schema is refused by the code of another.
constexpr uint32_t formatVersion(uint32_t layout, uint32_t schema) {
  return schema == kLayoutSchema ? layout : kOtherSchemaBit | layout << 24 | (schema & 0xffffffu);
}
/// The format version this code writes and the only one it reads.
inline constexpr uint32_t kFormatVersion = formatVersion(kLayoutVersion, kSchemaFingerprint);
/// A format version as the tools name it: "8", or "8 with event schema 0xe8692e".
std::string versionName(uint32_t version);
/// A chunk is flushed once its payload reaches this many bytes.
inline constexpr std::size_t kChunkBytes = 64 * 1024;
/// The largest payload a reader accepts in one chunk (a record never
/// straddles chunks, so a chunk is at most kChunkBytes + one record).
inline constexpr std::size_t kMaxChunkPayload = kChunkBytes + 256;

/// The event kinds of a trace: the rows of UMAX_SEARCH_EVENTS
/// (umax/search_observer.h, which says what adding one takes), numbered as
/// their records are; what the tracer does with each is in
/// tracer/src/event_kinds.cpp. Event says which fields each kind fills.
#define UMAX_TRACE_KIND_ENUMERATOR(kind, site, record, name, hook, parameters) kind = record,

/// What an event is.
enum class EventKind : uint8_t { UMAX_SEARCH_EVENTS(UMAX_TRACE_KIND_ENUMERATOR) };

/// Makes a count of one from a row of UMAX_SEARCH_EVENTS.
#define UMAX_TRACE_KIND_ONE(kind, site, record, name, hook, parameters) +1

/// One past the largest EventKind (the kinds are numbered 1, 2, ...).
inline constexpr int kEventKindCount = 1 UMAX_SEARCH_EVENTS(UMAX_TRACE_KIND_ONE);
static_assert(kEventKindCount <= 256, "a kind's record number is one byte at most (writeTag)");

/// One value per event kind, from {number, value} rows made of
/// UMAX_SEARCH_EVENTS; a number no row has holds `missing`.
template <class Value>
class KindTable {
 public:
  /// One row's value.
  struct Row {
    int number;   ///< the kind's tag number
    Value value;  ///< what the table holds for it
  };
  /// Lays `rows` out by kind number.
  template <std::size_t kRows>
  constexpr KindTable(const Row (&rows)[kRows], Value missing) : values_{} {
    values_.fill(missing);
    for (const Row& row : rows) values_[static_cast<std::size_t>(row.number)] = row.value;
  }
  /// The value for `kind` (`missing` for a number no row has).
  constexpr Value operator[](EventKind kind) const {
    const auto number = static_cast<std::size_t>(kind);
    return number < values_.size() ? values_[number] : values_[0];
  }

 private:
  std::array<Value, kEventKindCount> values_;
};

/// The name of an event kind ("call", "probe", ...), as the tools print it.
std::string_view kindName(EventKind kind);

/// The name of a probe's outcome: "miss", "hit" or "full".
std::string_view outcomeName(ProbeOutcome outcome);

/// The search site (line-map id) that produces an event of this kind; a
/// probe that ends its node comes from kHashCutoff.
SearchSite siteOf(EventKind kind, bool probeEndsNode = false);

/// Bits of a MoveMade record's flag byte.
enum MoveFlag : uint8_t {
  kMoveSneaked = 1,     ///< sneaked in: the previous iteration's best move, tried first (jsonl: bestFirst)
  kMoveEnPassant = 2,   ///< captures e.p.: the victim is not on y
  kMoveCastling = 4,    ///< a castling: the rook moves from G to F
  kMoveHasF = 8,        ///< F is a square (a castling's passed square or a pawn's skipped one)
  kMovePromotion = 16,  ///< a pawn reaching the last rank becomes a queen
};

/// A move as a trace records it.
struct MoveRecord {
  uint8_t flags = 0;         ///< MoveFlag bits
  int from = 0;              ///< x
  int to = 0;                ///< y
  int piece = 0;             ///< u, the moving piece's code (with its virgin bit)
  int victim = 0;            ///< t, the captured piece's code or 0
  int captureSquare = 0;     ///< H
  int rookFrom = kNoSquare;  ///< G: castling rook's corner, else 128
  /// F, as the engine's Move::passedSquare: the square a castling king
  /// passes (where its rook lands) or a double-stepping pawn skips, else 128;
  /// the reply's e.p. square E. `umax-trace jsonl` prints it as "F".
  int passedSquare = kNoSquare;
  int remaining = 0;  ///< h, the depth the reply is searched to
  /// The same move in every field.
  bool operator==(const MoveRecord&) const = default;
};

/// The most values a kind without a record layout of its own can report (fields.h).
inline constexpr int kMaxRowValues = 4;

/// One decoded event. Only the fields of its kind are meaningful.
struct Event {
  EventKind kind = EventKind::kCall;  ///< what happened; says which fields below hold it
  NodeCall call;                      ///< kCall
  ProbeReport probe;                  ///< kProbe
  HashEntry entry;                    ///< kProbe: the entry found (on a hit)
  MoveRecord move;                    ///< kMoveMade; kKingCapture uses from/to
  bool badCastling = false;           ///< kKingCapture
  int value = 0;                      ///< kIteration: draft; kCutoff, kMoveScored: score
  int best = 0;                       ///< kBestMove, kReturn: score
  int bestFrom = 0;                   ///< kBestMove, kReturn: X
  int bestTo = 0;                     ///< kBestMove, kReturn: Y (flag bits kept)
  int draft = 0;                      ///< kReturn: d as the search has it (see completedDraft)
  uint32_t slot = 0;                  ///< kStore
  bool written = false;               ///< kStore
  HashEntry before;                   ///< kStore
  HashEntry after;                    ///< kStore
  /// A kind without a layout of its own (fields.h): its row's values, in order.
  std::array<int64_t, kMaxRowValues> values{};
  /// The same values in every field.
  bool operator==(const Event&) const = default;
};

/// What the next call is searched for: the move the open call made (from
/// kMoveMade until kMoveScored) or its mate probe (kMateProbe). The
/// call tree, the chrome export and the navigator name a call by it.
struct CallCause {
  MoveRecord move;         ///< the move made, while `moveMade`
  bool moveMade = false;   ///< a move is on the board: the next call replies to it
  bool mateProbe = false;  ///< the next call is the mate probe, after a null move
  /// Notes what `event` says about the next call.
  void see(const Event& event) {
    if (event.kind == EventKind::kMoveMade) {
      move = event.move;
      moveMade = true;
    } else if (event.kind == EventKind::kMoveScored) {
      moveMade = false;
    } else if (event.kind == EventKind::kMateProbe) {
      mateProbe = true;
    }
  }
  /// The next call has begun: it caused it.
  void clear() { moveMade = mateProbe = false; }
};

/// The draft a call completed, from the `d` its kReturn record carries: a
/// call answered from the hash table returns the stored D itself; any other
/// leaves its loop through `while (d++ < n ...)`, one past the draft it
/// stored (D=1 returns d=2, a mate's D=99 returns 100), so d - 1.
constexpr int completedDraft(int returnedDraft, bool answeredByHash) {
  return answeredByHash ? returnedDraft : returnedDraft - 1;
}

/// An event as one line of text, for tools and tests: its kind, then its fields as `umax-trace
/// jsonl` names them ("move move=e2e4 x=100 y=68 ..."; a return's d as "dLoop").
std::string toString(const Event& event);

/// What the header of a trace says.
struct TraceHeader {
  uint32_t version = kFormatVersion;  ///< format version of the file
  uint32_t lineMapVersion = 0;        ///< version of readable/line_map.json the sites refer to
  int64_t budget = 0;                 ///< node budget of the think
  uint32_t startNodes = 0;            ///< N at the start of the think (the budget trick: 1e7 - budget)
  NodeCall root;                      ///< the root call's arguments
  Position position;                  ///< the game state searched (board, side, O as stored, Q)
  std::string fen;                    ///< the FEN the user gave (empty: main()'s start)
  std::string moves;                  ///< the moves played before the think
  /// Slots that held a position (lock != 0) when the search started.
  std::vector<std::pair<uint32_t, HashEntry>> initialEntries;
  /// log2 of the table's probe-window starts (Engine::hashSlotBits; 24: the original's).
  int hashSlotBits = kHashSlotBits;
  /// The Lab's switches the think ran with (Engine::setVariant; SearchVariant{}: micro-Max's own search).
  SearchVariant variant;
  /// The table's slots: 2^hashSlotBits + 9, as the readable build allocates them.
  uint32_t hashSlots() const { return (uint32_t{1} << hashSlotBits) + kProbeSlots; }
  /// umax::firstProbeSlot in this trace's table, as Engine::firstProbeSlot.
  uint32_t firstProbeSlot(int side, int epSquare, uint32_t hashKey) const {
    return umax::firstProbeSlot(side, epSquare, hashKey, (uint32_t{1} << hashSlotBits) - 1);
  }
};

/// What the footer says about the result.
struct TraceResult {
  int score = 0;        ///< the root's score
  int from = 0;         ///< best move's from-square (K)
  int to = 0;           ///< best move's to-square (L)
  uint64_t nodes = 0;   ///< nodes counted by the search
  uint64_t events = 0;  ///< events in the file
  /// Why the move chosen was never played, for a think of a game cut short ("quit", "end of
  /// input", "'usermove' arrived", ...); "" when it was played, or the think was no game's.
  std::string notPlayed;
};
/// The longest reason TraceResult::notPlayed a trace holds (a longer one is cut).
inline constexpr std::size_t kMaxNotPlayedText = 200;

/// A trace that cannot be read: what is wrong and where (byte offset).
class TraceError : public std::runtime_error {
 public:
  /// A problem at byte `offset` of the file (named in the message).
  TraceError(const std::string& what, uint64_t offset)
      : std::runtime_error(what + " (at byte " + std::to_string(offset) + ")"), offset_(offset) {}
  /// A problem with the file as a whole (it cannot be opened, it is empty, ...).
  explicit TraceError(const std::string& what) : std::runtime_error(what) {}
  /// Byte offset of the problem in the file.
  uint64_t offset() const { return offset_; }

 private:
  uint64_t offset_ = 0;
};

/// The longest record an event can need.
inline constexpr std::size_t kMaxRecordBytes = 64;

/// CRC-32C (Castagnoli) of a byte range, continuing from `crc` (0 to start): Intel's ISA-L
/// (crc32_iscsi: the crc32 instruction where the CPU has it), or crc32cPortable where the
/// library is not (the web edition).
uint32_t crc32c(const uint8_t* data, std::size_t size, uint32_t crc = 0);
/// The same CRC-32C a byte at a time from a table, on any CPU.
uint32_t crc32cPortable(const uint8_t* data, std::size_t size, uint32_t crc = 0);
/// A chunk frame's checksum: CRC-32C over its event count (u32) and payload.
uint32_t chunkCrc(uint32_t events, const uint8_t* payload, std::size_t size);

}  // namespace umax::trace
