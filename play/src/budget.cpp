// budget.cpp - a GUI's clock turned into the node budget the original understands.
#include "umax/play/budget.h"

#include <algorithm>
#include <cstdio>

namespace umax::play {
namespace {

long nodesFor(double seconds, double nodesPerSecond) {
  const double nodes = seconds * nodesPerSecond;
  return static_cast<long>(
      std::clamp(nodes, static_cast<double>(kMinClockBudget), static_cast<double>(kMaxBudget)));
}

std::string describe(const char* what, double seconds, double nodesPerSecond) {
  char text[128];
  std::snprintf(text, sizeof text, "%s %.3f s at %.0f nodes/s", what, seconds, nodesPerSecond);
  return text;
}

}  // namespace

double moveTimeStop(double moveSeconds, double afterThink) {
  const double stop = moveSeconds - kMoveTimeMarginSeconds - kMoveTimeMarginShare * moveSeconds - afterThink;
  return std::max(0.25 * moveSeconds, stop);  // never less than a quarter of T
}

Budget chooseBudget(const TimeControl& control, double nodesPerSecond) {
  Budget budget;
  budget.depth = control.depth;
  if (control.fixedNodes > 0) {
    budget.nodes = std::min(control.fixedNodes, kMaxBudget);
    budget.reason = "fixed " + std::to_string(budget.nodes) + " nodes";
  } else if (control.infinite) {
    budget.nodes = kMaxBudget;
    budget.reason = "infinite: until stop";
  } else if (control.moveSeconds > 0) {
    // A fixed time per move: the stop flag before it with a margin (the GUI
    // allows no more), and the soft share of that as the budget.
    budget.hardSeconds = moveTimeStop(control.moveSeconds, control.afterThink);
    budget.planSeconds = budget.hardSeconds;
    budget.nodes = nodesFor(kSoftShare * budget.hardSeconds, nodesPerSecond);
    char stop[48];
    std::snprintf(stop, sizeof stop, " (stop at %.3f s)", budget.hardSeconds);
    budget.reason = describe("move time", control.moveSeconds, nodesPerSecond) + stop;
  } else if (control.timeLeft >= 0) {
    const int movesLeft = control.movesToGo > 0 ? control.movesToGo : kAssumedMovesLeft;
    // The reserve for the moves' fixed costs never takes more than half of
    // the clock (one slow set-up, such as a loaded machine's, once took it
    // all: t = 0 and a token think with 30 s left).
    const double reserved =
        std::min(movesLeft * std::max(0.0, control.reservePerMove), kMaxReservedShare * control.timeLeft);
    const double usable = control.timeLeft - reserved;
    double perMove = std::max(0.0, usable + (movesLeft - 1) * control.increment) / (movesLeft + 2);
    // With some time left, a think never gets less than a share of it.
    if (control.timeLeft >= kFloorFromSeconds) perMove = std::max(perMove, control.timeLeft / kFloorMoves);
    budget.nodes = nodesFor(kSoftShare * perMove / std::max(1.0, control.overshoot), nodesPerSecond);
    // The hard limit: t itself (an iteration still running then could not
    // finish in its time: it is stopped at the planned time), or sooner
    // when how late an earlier stopped move went out (the unwinding and a
    // loaded machine's scheduling: up to 0.4 s at a load of 15 to 20 on two
    // cores) and kUnseenLateness (the pipes) would carry the move past 1.2 t;
    // never below t / 4, and never more than a quarter of what is usable
    // (it must not run the clock out).
    const double hard = std::max(
        0.25 * perMove, std::min(perMove, kHardFactor * perMove - control.afterThink - kUnseenLateness));
    budget.hardSeconds = std::max(0.001, std::min(hard, 0.25 * usable));
    budget.planSeconds = std::min(perMove, budget.hardSeconds);
    budget.reason = describe("clock: t =", perMove, nodesPerSecond);
  } else if (control.depth > 0) {
    budget.nodes = kMaxBudget;
    budget.reason = "depth " + std::to_string(control.depth);
  } else {
    budget.nodes = 10000000;  // the original's own budget
    budget.reason = "no limit given: the original's 10000000 nodes";
  }
  return budget;
}

}  // namespace umax::play
