/// \file budget.h
/// \brief From a GUI's time control to the node budget of a think.
///
/// The original's only limit is a node budget (no new iteration once it is
/// spent). A clock is turned into one with the measured speed, after
/// Fairy-Max: per move t = (time left + (moves left - 1) x increment) /
/// (moves left + 2), 40 moves assumed when the control does not say; the
/// soft limit 0.6 t (no new iteration after it) becomes the budget, no
/// iteration starts that would end after t (its time guessed from the last
/// two), and a timer raises the stop flag at t, so that the move reaches
/// the GUI before 1.2 t (kHardFactor). Two measured
/// corrections keep the clock: the fixed cost of every move (the time from a
/// command's arrival to its search) is reserved for the moves left, at most
/// half of the clock, and the budget is divided by the overshoot (a think
/// finishes the iteration it started, so it searches more than its budget).
/// With 10 s or more left, t is never below 1/60 of the time left.
#pragma once

#include <string>

namespace umax::play {

/// Everything that limits one think.
struct TimeControl {
  long fixedNodes = 0;        ///< nodes per think (go nodes, --nodes); wins over everything else
  int depth = 0;              ///< sd / go depth: stop after this iteration (0: none)
  double moveSeconds = 0;     ///< st / go movetime: exactly this long per move (0: none)
  bool infinite = false;      ///< go infinite: until stop
  double timeLeft = -1;       ///< our clock in seconds (-1: no clock)
  int movesToGo = 0;          ///< moves until the next time control (0: unknown, 40 assumed)
  double increment = 0;       ///< seconds added per move
  double reservePerMove = 0;  ///< fixed cost of a move on our clock besides the search (seconds)
  double overshoot = 1;       ///< nodes searched per node of budget, measured (the last iteration overruns)
  double afterThink = 0;      ///< seconds a move goes out after the stop flag is raised (measured lateness)
};

/// The budget chosen for a think, and why.
struct Budget {
  long nodes = 0;          ///< the node budget passed to the search
  int depth = 0;           ///< depth limit (0: none)
  double hardSeconds = 0;  ///< raise the stop flag this long after the command arrived (0: never)
  double planSeconds = 0;  ///< the planned time: no iteration starts that would end after it (0: none)
  std::string reason;      ///< e.g. "fixed 100000 nodes" or "clock: t = 1.23 s at 812345 nodes/s"
};

/// Largest budget a think accepts (the engine counts nodes in an int).
inline constexpr long kMaxBudget = 2000000000L;
/// Smallest budget a clock gives: iteration 1 looks at no move, so a think
/// needs a few dozen nodes to have one; 1,000 take about a millisecond.
inline constexpr long kMinClockBudget = 1000;
/// Moves assumed left when the time control does not say.
inline constexpr int kAssumedMovesLeft = 40;
/// The soft limit (no new iteration) as a share of the time per move.
inline constexpr double kSoftShare = 0.6;
/// The most a move may take, as a multiple of the time per move t: no move
/// takes more than 20% over its planned share. The timer stops the search
/// at t (an iteration still running then is stopped at the planned time),
/// sooner if the measured lateness of a stopped move and kUnseenLateness
/// would carry the move past kHardFactor x t. (The limit was 3 t: the first
/// move of a 5-minute game took 21 s, depth 6 started after depth 5 and was
/// cut there; then 1.2 t, and under load a stopped move went out up to
/// 0.4 s later.) The time plan (Budget::planSeconds) starts no iteration
/// that would end past t, so the timer rarely strikes.
inline constexpr double kHardFactor = 1.2;
/// The part of a move's time (as the GUI counts it) that the engine cannot
/// see, in seconds: the GUI's line reaching it and its move reaching the
/// GUI, each a process woken on a possibly loaded machine. The hard limit of
/// a clock think comes this much sooner, beside the measured lateness.
inline constexpr double kUnseenLateness = 0.05;
/// The most of the clock reserved for the fixed costs of the moves left.
inline constexpr double kMaxReservedShare = 0.5;
/// With at least kFloorFromSeconds on the clock, the time per move t is at
/// least the time left / kFloorMoves, whatever the reserve and the moves to go.
inline constexpr double kFloorFromSeconds = 10;
inline constexpr double kFloorMoves = 60;
/// A fixed time per move T is a limit the GUI enforces: the reply must come
/// before it, so the stop flag is raised at T less this margin (and less the
/// measured cost of playing the move after the think).
inline constexpr double kMoveTimeMarginSeconds = 0.1;
/// ... and less this share of T (a loaded machine answers late).
inline constexpr double kMoveTimeMarginShare = 0.05;

/// When the stop flag is raised for a fixed time per move of `moveSeconds`,
/// counted from the command's arrival, when the move costs `afterThink` more.
double moveTimeStop(double moveSeconds, double afterThink);

/// The budget for `control` at `nodesPerSecond`.
Budget chooseBudget(const TimeControl& control, double nodesPerSecond);

}  // namespace umax::play
