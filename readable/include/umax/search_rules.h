/// \file search_rules.h
/// \brief The search's rules that a reader of its trace must know, each stated once.
///
/// The search (readable/src/search.cpp) applies these rules; the trace
/// recorder and the trace reader (tracer/) replay them from the events, so
/// that a trace can leave out what follows from them, and play/ reads the
/// principal variation back from the hash table with them. All of them call
/// the functions below: a rule changed here changes for all of them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "umax/hash_table.h"
#include "umax/types.h"
#include "umax/variant.h"

namespace umax {

// [hash-words]
/// Size of the hash-key table T[]. // micro-Max: T[1035]
inline constexpr int kKeyTableSize = 1035;
/// Entries of T[] below this stay zero; main() fills from M = 136 on.
inline constexpr int kFirstRandomKey = 136;
/// The hash-key table T[] every engine holds: main() fills it from M = 136
/// on with `random()>>9`, from glibc's random() never seeded, so it is the
/// same in every run. A trace's reader derives keys and locks from it.
const std::array<int8_t, kKeyTableSize>& standardKeyTable();
/// The salt that selects a piece's key word in T[] (for J). // micro-Max: J(0)
inline constexpr int kKeySalt = 0;
/// The salt that selects its lock word, 8 bytes further on (for Z). // micro-Max: J(8)
inline constexpr int kLockSalt = 8;
/// Bytes of T[] between the key words of two piece types. // micro-Max: S in K(A,B)
inline constexpr int kKeyTypeStride = 128;
/// Hash key and lock of a root (a think or a legality check): the search
/// adds each move's change to them, so the start value only has to be the
/// same every time. // micro-Max: J = Z = 1 in D(k,-I,I,Q,1,1,O,8,0)
inline constexpr uint32_t kRootHashCode = 1;

/// Reads four bytes of the key table as one little-endian int, as the
/// original's `*(int*)(T+...)` does on the x86 it ran on.
inline int32_t loadWord(const int8_t* bytes) {
  const auto byte = [bytes](int index) { return static_cast<uint32_t>(static_cast<uint8_t>(bytes[index])); };
  return static_cast<int32_t>(byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24);
}

/// The word of `piece` on square `offset` (+ salt) in the key table `keys`:
/// offset square, +8 for white, +128 per type. // micro-Max: K(A,B)
inline int32_t hashWord(const std::array<int8_t, kKeyTableSize>& keys, int offset, int piece) {
  return loadWord(&keys[offset + (piece & kWhite) + kKeyTypeStride * (piece & kTypeMask)]);
}

/// How a move changes a hash key (kKeySalt) or lock (kLockSalt): the word of
/// the piece arriving on the to-square, less the mover's word on its
/// from-square and the victim's on the capture square, in wrapping arithmetic.
/// // micro-Max: J(A) = K(y+A,b[y])-K(x+A,u)-K(H+A,t)
inline uint32_t hashChange(const std::array<int8_t, kKeyTableSize>& keys, int salt, int from, int to,
                           int captureSquare, int piece, int victim, int arriving) {
  return static_cast<uint32_t>(hashWord(keys, to + salt, arriving)) -
         static_cast<uint32_t>(hashWord(keys, from + salt, piece)) -
         static_cast<uint32_t>(hashWord(keys, captureSquare + salt, victim));
}
// [hash-words]

// [probe-window]
/// The slot before a probe's window of 9: (k*E ^ J) & mask, where the mask
/// is the table's slot count less one: U-9 = 2^24 - 1 for micro-Max's own
/// table (kHashSlotMask), smaller for a --hash-bits table. The one formula:
/// the engine and a trace's header pass their table's mask.
/// // micro-Max: j=(k*E^J)&U-9
inline uint32_t firstProbeSlot(int side, int epSquare, uint32_t hashKey, uint32_t slotMask) {
  return (static_cast<uint32_t>(side * epSquare) ^ hashKey) & slotMask;
}

/// Step 1, the probe: of the kProbeSlots slots after `firstSlot` in `table`,
/// the first that is empty or holds `lock`; the dummy slot 0 (always empty)
/// if other positions hold them all. `table` is the engine's, or a reader's
/// read-only view of it. // micro-Max: W((h=A[++j].K)&&h-Z&&--i); a+=i?j:0
template <class Table>
inline auto& probedEntry(Table& table, uint32_t firstSlot, uint32_t lock) {
  uint32_t slot = firstSlot;
  for (int tries = 0; tries < kProbeSlots; ++tries) {
    auto& entry = table[++slot];
    if (entry.lock == 0 || static_cast<uint32_t>(entry.lock) == lock) return entry;
  }
  return table[kDummySlot];
}
// [probe-window]
// (loadWord is spelled out byte by byte: GCC turns this form into one
// 4-byte load, a loop it leaves as a loop.)

/// Bit of a best-move to-byte (Y): the move is not a castling, so it may be
/// searched first in the next iteration.
inline constexpr int kNotCastlingBit = 128;
/// Bit of Y while the best move is waiting to be searched first ("sneaked in").
inline constexpr int kSneakBit = 8;
/// The flag bits of a best-move to-byte (not castling, sneak). // micro-Max: M in Y&~M
inline constexpr int kBestToFlags = kNotCastlingBit | kSneakBit;
/// Shift that moves kNotCastlingBit onto kSneakBit. // micro-Max: Y>>4
inline constexpr int kNotCastlingToSneak = 4;
static_assert((kNotCastlingBit >> kNotCastlingToSneak) == kSneakBit);
/// The colour and type bits of a piece code: `& kColourAndType` strips the
/// virgin bit. // micro-Max: u&31
inline constexpr int kColourAndType = kColourMask | kTypeMask;
static_assert(kColourAndType == 31);
/// The draft at which a node is a quiescence search: it may stand pat on the
/// static eval, and only recaptures get a reply searched. // micro-Max: d>1
inline constexpr int kQuiescenceDraft = 1;

/// a + b, a - b and -a in wrapping arithmetic: the same as the plain
/// operators for every value a search produces (so the search's code is the
/// same), while the extreme values a damaged or made-up trace may hold wrap
/// instead of overflowing when a trace reader applies the rules below.
constexpr int wrappingSum(int a, int b) {
  return static_cast<int>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
/// See wrappingSum.
constexpr int wrappingDifference(int a, int b) {
  return static_cast<int>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}
/// See wrappingSum.
constexpr int wrappingNegation(int a) { return wrappingDifference(0, a); }

// [rules]
/// Step 2, a hash hit: the stored score ends the node if it was searched at
/// least as deep as asked and its bound settles the window (a lower bound at
/// or above beta, an upper bound at or below alpha, or an exact score).
constexpr bool storedScoreSettles(const HashEntry& entry, int depth, int alpha, int beta) {
  return entry.draft >= depth && (entry.score >= beta || (entry.from & kUpperBoundBit)) &&
         (entry.score <= alpha || (entry.from & kLowerBoundBit));
}

/// Step 2: the draft a hit that does not end the node deepens from: the
/// stored one, but at most one below the depth asked for.
constexpr int hitStartDraft(int storedDraft, int depth) {
  return storedDraft >= depth ? depth - 1 : storedDraft;
}

/// Step 2: the best move's from-square in a stored from-byte X: the byte
/// without its bound bits. // micro-Max: X&=~M
constexpr int withoutBoundBits(int storedFrom) { return storedFrom & ~kExactBits; }

/// Step 2: the best-move hint a hit starts from: the stored to-byte, but
/// none for a draft-0 start. // micro-Max: Y=d?Y:0
constexpr int hitStartBestTo(int draft, int storedTo) { return draft ? storedTo : 0; }

/// Step 4: the best score an iteration starts from. At the quiescence draft
/// the node may "stand pat" on its static eval; deeper, best starts at
/// -infinity: the side to move has to play one of its moves. // micro-Max: m=d>1?-I:e
constexpr int iterationStartBest(int draft, int eval) { return draft > kQuiescenceDraft ? -kInfinity : eval; }

/// Step 4: the previous best move is sneaked in (searched first) unless it
/// castles: its not-castling bit is copied onto the sneak bit. // micro-Max: Y|=8&Y>>4
constexpr int withSneakBit(int bestTo) { return bestTo | (kSneakBit & (bestTo >> kNotCastlingToSneak)); }

/// Step 6: an e.p. capture's victim stands one row behind the skipped square
/// (row 2 <-> 3 or 5 <-> 4). // micro-Max: H=y^16
constexpr int enPassantVictimSquare(int to) { return to ^ kRowStep; }

/// Steps 6-7: the square a two-square step passes over (F): a pawn's double
/// step leaves it as the e.p. square, a castling king's step puts its rook
/// there. The generator finds it as the ray's first square.
constexpr int skippedSquare(int from, int to) { return (from + to) / 2; }

/// Step 7: the corner of a castling's rook, on the king's side of the step:
/// the h-file for +1, the a-file for -1. // micro-Max: G=(x|7)-(r>>1&7)
constexpr int castlingCorner(int kingFrom, int step) {
  return (kingFrom | kFileMask) - ((step >> 1) & kFileMask);
}

/// Step 8: the capture's material gain i: 99 times the victim's value, 0
/// for no capture. A king's value is -1, so taking it makes the gain
/// negative: that is how a king capture is recognised. // micro-Max: i=99*w[t&7]
constexpr int captureGain(int victim) {
  return kValueScale * kPieceValue[static_cast<std::size_t>(victim & kTypeMask)];
}

/// Step 10: the depth h left to the reply: a move to the previous move's
/// destination (a recapture) keeps the full draft, any other loses a ply, so
/// at the quiescence draft only recaptures get a reply. // micro-Max: h=d-(y!=z)
constexpr int remainingDepth(int draft, int to, int lastTo) { return draft - (to != lastTo); }

/// Step 11: a pawn whose next step would leave the board has reached the
/// last rank and becomes a queen. The +1 does two things: a white capture
/// onto a7 (0x10 - 17 = -1) does not count as a promotion, and a black capture
/// onto a1 (0x70 + 15 = 0x7f) does. // micro-Max: y+r+1&S
constexpr bool promotes(int type, int to, int step) {
  return type <= kDownwardPawn && ((to + step + 1) & kNoSquare);
}

/// Step 11: the piece that stands on the to-square once the move is made:
/// the mover without its virgin bit, a queen if the pawn promotes.
constexpr int arrivingPiece(int piece, bool promoted) {
  return (piece & kColourAndType) | (promoted ? kQueen : 0);
}

/// Step 11 for a move known only by its squares (a trace's, a hash entry's,
/// a GUI's): a pawn that promotes moves one square, so its step is to - from
/// (a double step, two steps, never reaches the last rank).
constexpr bool promotesBySquares(int piece, int from, int to) {
  return promotes(typeOf(piece), to, to - from);
}

/// Steps 8 and 11: a move's whole material gain i: the capture's, plus the
/// promotion bonus C if the pawn becomes a queen (the pawn is not
/// subtracted). The search adds the bonus in Step 11, after Step 8 has
/// tested the capture's gain for a king capture. // micro-Max: i+=C
constexpr int materialGain(int victim, bool promoted) {
  return captureGain(victim) + (promoted ? kPromotionBonus : 0);
}

/// Step 12: the hash lock's castling term: G - S, the castling rook's corner
/// less the dummy square, 0 for any other move. It tells a castling apart
/// from the king's plain step to the same square. // micro-Max: Z+J(8)+G-S
constexpr uint32_t castlingLockTerm(int rookFrom) { return static_cast<uint32_t>(rookFrom - kNoSquare); }

/// Step 16: a new best move's to-byte, marked unless the move castles. // micro-Max: Y=y|S&G
constexpr int bestMoveTo(int to, int rookFrom) { return to | (kNotCastlingBit & rookFrom); }

/// Step 17: a mate score holds at any depth, so it is stored with kMateDraft.
constexpr bool isMateScore(int score) { return score > kMateBound || score < -kMateBound; }

/// Step 17: the draft an iteration's best score `best` is stored with (Step
/// 18): kMateDraft for a mate score, else the draft searched.
constexpr int storedDraft(int draft, int best) { return isMateScore(best) ? kMateDraft : draft; }

/// The moves to the mate a mate score announces, + when the side to move
/// mates, - when it is mated. The mate probe gives the mated side -I/2, and
/// on the way up the delayed-gain penalty takes a point off at each of the
/// winner's nodes, so I/2 - |score| + 1 counts plies.
constexpr int mateInMoves(int score) {
  const int plies = kInfinity / 2 - (score > 0 ? score : -score) + 1;
  return score > 0 ? (plies + 1) / 2 : -((plies + 1) / 2);
}

/// Step 18: the stored from-byte: the best move's from-square with the bound
/// bits (above alpha: a lower bound; below beta: an upper bound; both: exact).
constexpr int storedFrom(int bestFrom, int best, int alpha, int beta) {
  return bestFrom | kLowerBoundBit * (best > alpha) | kUpperBoundBit * (best < beta);
}
// [rules]

// [deepens-again]
/// Step 4: whether another iteration follows the one to `draft`: while the
/// draft is below the depth asked for; at the root of a think, also while
/// nodes remain in the budget and the next draft stays below kMaxIteration.
/// // micro-Max: W(d++<n|z==8&N<1e7&d<98)
constexpr bool deepensAgain(int draft, int depth, int lastTo, int nodes) {
  return draft < depth || (lastTo == kThinkMarker && nodes < kNodeLimit && draft + 1 < kMaxIteration);
}
// [deepens-again]

// [reply-window]
/// The window (alpha, beta) a node passes to a reply.
struct Window {
  int alpha;  ///< q
  int beta;   ///< l
};

/// Step 12: the reply's window, the node's turned round: (-beta,
/// -max(best, alpha)). When beta exceeds the eval e, the reply's alpha is one
/// lower, -beta-1: the delayed-gain penalty takes a point off the reply's
/// score afterwards, so the reply must tell scores down to -(beta+1) apart.
/// // micro-Max: D(24-k,-l-(l>e),m>q?-m:-q,...)
constexpr Window replyWindow(int alpha, int beta, int eval, int best) {
  return {wrappingDifference(wrappingNegation(beta), beta > eval),
          wrappingNegation(best > alpha ? best : alpha)};
}

/// Step 12: a move's score, the reply's turned round, less the delayed-gain
/// penalty: one point off a score better than the eval e, so that a gain now
/// beats the same gain later. // micro-Max: v-=v>e
constexpr int withDelayedGainPenalty(int score, int eval) { return wrappingDifference(score, score > eval); }
// [reply-window]

// [mate-probe]
/// Step 17: the arguments of the mate probe, the search that tells mate
/// from stalemate, made for a side that has no move that keeps its king.
/// The opponent moves as if that side had passed (a null move): a quiescence search from a neutral eval of 0
/// with the full window, no e.p. square and no previous move (z = S matches no to-square, so every move gets
/// h = 0 and only king captures count); side, key and lock are the node's. // micro-Max:
/// D(24-k,-I,I,0,J,Z,S,S,1)
struct MateProbeCall {
  int alpha = -kInfinity;        ///< q
  int beta = kInfinity;          ///< l
  int eval = 0;                  ///< e
  int epSquare = kNoSquare;      ///< E
  int lastTo = kNoSquare;        ///< z
  int depth = kQuiescenceDraft;  ///< n
};
/// The mate probe's call (see MateProbeCall).
inline constexpr MateProbeCall kMateProbeCall{};

/// Step 17: the node's best after the mate probe returned `score`: minus
/// half of it, -I/2 (mated) if the probe took the king, else about 0
/// (stalemate). // micro-Max: -D(24-k,-I,I,0,J,Z,S,S,1)/2
constexpr int mateProbeBest(int score) { return wrappingNegation(score) / 2; }
// [mate-probe]

// [lab-rules]
// ---- The Lab's rules (umax/variant.h) ----------------------------------------
// The same rules for a search with ideas switched off (`--without NAME`,
// `--depth D`): each is the rule above unless the variant switches its idea
// off. search.cpp's Lab lines and a trace reader of a Lab think both apply
// them; with SearchVariant{} each is the default rule.

/// Step 4 (Lab): the draft a node's first iteration starts after. Without
/// deepening: one below the depth asked for (at a think's root, one below
/// --depth D), so the loop runs once, at that depth; else `draft` as Steps
/// 1-2 left it.
constexpr int firstDraft(const SearchVariant& variant, int draft, int depth, int lastTo) {
  if (!variant.lacks(Idea::kDeepening)) return draft;
  const int target = lastTo == kThinkMarker ? variant.depth : depth;
  return target - 1 > draft ? target - 1 : draft;
}

/// Step 4 (Lab): whether another iteration follows the one to `draft`:
/// --depth D ends a think's root after draft D, whatever the node count;
/// any other node (and a root without --depth) as deepensAgain.
constexpr bool deepensAgain(const SearchVariant& variant, int draft, int depth, int lastTo, int nodes) {
  if (lastTo == kThinkMarker && variant.depth) return draft < variant.depth;
  return deepensAgain(draft, depth, lastTo, nodes);
}

/// Step 4 (Lab): where the iteration's board scan starts (B): the previous
/// best move's from-square; without best-first, a8 (square 0).
constexpr int boardScanStart(const SearchVariant& variant, int bestFrom) {
  return variant.lacks(Idea::kBestFirst) ? 0 : bestFrom;
}

/// Step 4 (Lab): the best move's to-byte as an iteration starts: with its
/// sneak bit (withSneakBit); without best-first, as it is (nothing sneaked in).
constexpr int iterationBestTo(const SearchVariant& variant, int bestTo) {
  return variant.lacks(Idea::kBestFirst) ? bestTo : withSneakBit(bestTo);
}

/// Step 10 (Lab): the depth h left to the reply: remainingDepth; without
/// quiescence, every move loses a ply (no recapture keeps the draft).
constexpr int remainingDepth(const SearchVariant& variant, int draft, int to, int lastTo) {
  return variant.lacks(Idea::kQuiescence) ? draft - 1 : remainingDepth(draft, to, lastTo);
}

/// Step 11 (Lab): a move's positional points v (centre table, pawn
/// structure, castling bonus); without the centre table, 0: material only.
constexpr int positionalPoints(const SearchVariant& variant, int positional) {
  return variant.lacks(Idea::kCentre) ? 0 : positional;
}

/// Step 12 (Lab): the reply's window. replyWindow; without the delayed-gain
/// penalty, no correction for it (alpha -beta); without alpha-beta, the full
/// window (-I, I) whatever the node's: only a king capture cuts.
constexpr Window replyWindow(const SearchVariant& variant, int alpha, int beta, int eval, int best) {
  if (variant.lacks(Idea::kAlphaBeta)) return {-kInfinity, kInfinity};
  Window window = replyWindow(alpha, beta, eval, best);
  if (variant.lacks(Idea::kDelayedGain)) window.alpha = wrappingNegation(beta);
  return window;
}

/// Step 12 (Lab): a move's score from the reply's turned round:
/// withDelayedGainPenalty; without the delayed-gain penalty, as it is.
constexpr int withDelayedGainPenalty(const SearchVariant& variant, int score, int eval) {
  return variant.lacks(Idea::kDelayedGain) ? score : withDelayedGainPenalty(score, eval);
}

/// Steps 1 and 18 (Lab): whether the node uses the hash table: without it,
/// its slot is the dummy slot 0 (it always looks empty) and nothing is stored.
constexpr bool usesHashTable(const SearchVariant& variant) { return !variant.lacks(Idea::kHash); }
// [lab-rules]

}  // namespace umax
