/// \file pv.h
/// \brief The principal variation as far as the hash table gives it.
#pragma once

#include <string>

#include "umax/engine.h"

namespace umax::play {

/// Follows the best moves stored in the engine's hash table from the game
/// position, as the search's probes would find them (same keys, locks and
/// windows), for at most `maxPlies` plies, and stops at the first position
/// the table does not hold or whose stored move is not legal. Reads only
/// public accessors of the engine. Returns coordinate moves, space-separated.
std::string principalVariation(const Engine& engine, int maxPlies = 20);

/// The draft the hash table holds for the game position's root (0 if none).
int rootDraft(const Engine& engine);

}  // namespace umax::play
