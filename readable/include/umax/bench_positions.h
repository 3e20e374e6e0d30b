/// \file bench_positions.h
/// \brief The positions the bench programs time (umax-bench, umax-trace-bench): one list for both.
#pragma once

namespace umax {

/// A position the benches search from.
struct BenchPosition {
  const char* name;  ///< a short label for the tables the benches print
  const char* fen;   ///< the position
  bool traced;       ///< also timed traced by umax-trace-bench (six of the ten)
};

/// Ten positions from opening to endgame; with umax-bench's default budget
/// each search visits well over a million nodes.
inline constexpr BenchPosition kBenchPositions[] = {
    {"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", true},
    {"after e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", false},
    {"italian", "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3", true},
    {"sicilian", "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", false},
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", true},
    {"middlegame", "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10", true},
    {"open centre", "r1bq1rk1/ppp2ppp/2n2n2/3pp3/1bPP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 6", false},
    {"rook ending", "8/5pk1/6p1/8/3R4/6P1/r4PK1/8 w - - 0 40", true},
    {"pawn race", "8/1p6/8/8/8/8/6P1/k6K w - - 0 1", false},
    {"queen ending", "6k1/5p2/6p1/8/8/6P1/5PK1/3Q1q2 w - - 0 50", true},
};

}  // namespace umax
