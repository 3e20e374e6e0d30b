/// \file variant.h
/// \brief The Lab: the ideas of micro-Max's search that `--without NAME` switches
/// off, and `--depth D`, a think that ends after the root's iteration of draft D.
///
/// Each idea is one statement of search.cpp, read there as
/// `if (without<kLab>(Idea::kHash))`: the default search (kLab = false)
/// compiles as if the test were absent, so it stays node for node the
/// original's and as fast. A think with any idea off or a --depth runs the
/// Lab's instantiation of the same search (Engine::setVariant).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace umax {

/// One idea of the search (topic in brackets).
enum class Idea : uint8_t {
  kAlphaBeta,    ///< the window: every reply searched inside (alpha, beta), cutoffs (topic 7)
  kQuiescence,   ///< stand pat and the recapture search at draft 1 (topic 8)
  kHash,         ///< the hash table: probe, store, hash move (topics 12, 13)
  kBestFirst,    ///< the best move sneaked in first, the scan from its square (topic 11)
  kDeepening,    ///< internal iterative deepening: drafts 1, 2, ... up to the depth (topic 10)
  kDelayedGain,  ///< the delayed-gain penalty v -= v > e and its window correction (topic 17)
  kCentre,       ///< the positional terms: centre table, pawn structure, castling bonus (topic 15)
};

/// An idea's command-line name and what switching it off does.
struct IdeaName {
  Idea idea;              ///< the idea
  std::string_view name;  ///< its name in --without
  std::string_view off;   ///< the search without it, in one line
  int topic;              ///< the course topic that explains it
};

/// The seven ideas, in the order the course meets them.
inline constexpr std::array<IdeaName, 7> kIdeas = {{
    {Idea::kAlphaBeta, "alpha-beta",
     "every reply searched with the full window (minimax: no cutoff but a king capture)", 7},
    {Idea::kQuiescence, "quiescence",
     "every move loses a ply (h = d-1): no capture search at draft 1, a leaf takes the static eval", 8},
    {Idea::kHash, "hash", "no hash table: no probe, no store, no hash move", 12},
    {Idea::kBestFirst, "best-first",
     "no move sneaked in first (neither the last iteration's best nor the hash move), the scan from a8", 11},
    {Idea::kDeepening, "deepening",
     "each node searches its requested draft at once, without the iterations below it", 10},
    {Idea::kDelayedGain, "delayed-gain", "no v -= v > e penalty and no window correction for it", 17},
    {Idea::kCentre, "centre",
     "material only: no centre-table points (nor the pawn-structure and castling terms of the same sum)", 15},
}};

/// The bit of an idea in SearchVariant::without.
constexpr unsigned ideaBit(Idea idea) { return 1u << static_cast<unsigned>(idea); }

/// Which ideas a think goes without, and where its root stops deepening.
struct SearchVariant {
  /// Ideas switched off, one ideaBit() each; 0: the whole search.
  unsigned without = 0;
  /// 0: the node budget ends the think, as in the original. D >= 1: the
  /// think ends after the root's iteration of draft D, whatever the budget.
  int depth = 0;

  /// True when the idea is switched off.
  constexpr bool lacks(Idea idea) const { return (without & ideaBit(idea)) != 0; }
  /// True for micro-Max's own search: nothing off, the budget ends the think.
  constexpr bool isDefault() const { return without == 0 && depth == 0; }
  /// "the whole search", or "without hash, best-first" (the names in kIdeas'
  /// order), plus ", to depth D" when a depth is set.
  std::string description() const;
  /// The --without list: "" or "hash,best-first" (kIdeas' order).
  std::string withoutList() const;

  /// Same switches and depth.
  bool operator==(const SearchVariant&) const = default;
};

/// Parses a --without list: names of kIdeas separated by commas ("all" for
/// all seven). Throws std::invalid_argument naming the bad name and the good
/// ones; an empty list or an empty name is refused too.
unsigned parseWithout(std::string_view list);

/// "alpha-beta, quiescence, hash, best-first, deepening, delayed-gain, centre".
std::string ideaNames();

}  // namespace umax
