/// \file compare.h
/// \brief Two searches side by side: their root iterations, and where their trees first part.
///
/// `umax-trace compare A.trc B.trc` and umax-viz's --compare read two traces (typically the same
/// position searched by micro-Max and by the Lab without one idea) and show each root iteration of
/// both (draft, nodes, calls, effective branching, best move, score), then the first event at
/// which the two searches do something else, with its number in each trace and the moves from the
/// root that lead to it.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "umax/trace/reader.h"
#include "umax/view/stats.h"

namespace umax::trace {

/// What an event says about the search, without what depends on the hash table's layout (slot
/// numbers, keys, locks): its kind, move and values, as one line ("move e2e4 h=2 best-first",
/// "probe hit V=35 D=2 X=e2 Y=e4", "return 35"). Two searches that agree here did the same thing.
/// A probe of a search without the table (`variant` lacks the hash idea) reads "probe: no table".
std::string eventWhat(const Event& event, const SearchVariant& variant = {});

/// The first place where two traces' events part.
struct Divergence {
  uint64_t eventA = 0;               ///< the event's number in A (0-based, as jsonl's "i")
  uint64_t eventB = 0;               ///< and in B (the same while the searches agree)
  int ply = 0;                       ///< the ply of the call it belongs to (in A)
  std::vector<std::string> path;     ///< the moves from the root to that call ("e2e4", ...)
  std::optional<std::string> whatA;  ///< A's event (eventWhat), none if A ended there
  std::optional<std::string> whatB;  ///< B's event, none if B ended there
};

/// Both searches, side by side.
struct TraceComparison {
  TraceStats statsA;                     ///< A's figures (its root iterations)
  TraceStats statsB;                     ///< B's
  std::optional<Divergence> firstEvent;  ///< the first event that differs (none: the same events)
  std::optional<Divergence> firstMove;   ///< the first move made that differs (the trees' shapes)
};

/// Reads both traces once each for their figures and once side by side for the first difference.
/// Throws TraceError for an inconsistent trace.
TraceComparison compareTraces(const TraceReader& a, const TraceReader& b);

/// The name of a trace's search: "micro-Max's own" or "the Lab, without hash".
std::string searchName(const TraceHeader& header);

/// The comparison as `umax-trace compare` prints it: the two searches, a table of their root
/// iterations side by side, the results, and the first differences with their paths.
void writeComparison(const TraceReader& a, const std::string& nameA, const TraceReader& b,
                     const std::string& nameB, const TraceComparison& comparison, std::ostream& out);

}  // namespace umax::trace
