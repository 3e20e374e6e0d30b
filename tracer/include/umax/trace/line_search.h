/// \file line_search.h
/// \brief Finding the call a line of moves reaches, in the call tree.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "umax/trace/replay.h"

namespace umax::trace {

/// The first call (in call order) reached from the root by playing `moves`
/// (pairs of 0x88 squares), each move a call of the one before: the root
/// for an empty line; nothing if the search never followed the line.
std::optional<uint32_t> findLine(const CallTree& tree, const std::vector<std::pair<int, int>>& moves);

}  // namespace umax::trace
