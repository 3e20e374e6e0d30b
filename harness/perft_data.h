/// \file perft_data.h
/// \brief The perft tables of tests/data (perft.tsv, perft-extra.tsv), read once for the suite and the bench.
#pragma once

#include <string>
#include <vector>

namespace umax {

/// One row of a perft table: a position, a depth and its leaf counts.
struct PerftRow {
  std::string id;      ///< the row's name (a position may have several depths)
  std::string fen;     ///< the position
  int depth = 0;       ///< plies
  long queenOnly = 0;  ///< the oracle's FIDE count with queen promotions only
  long umax = -1;      ///< the count under micro-Max's castling rule, -1 if the table has no such column

  /// The count micro-Max must give when the table says it: the micro-Max
  /// column if there is one, else the queen-only count.
  long umaxOrQueenOnly() const { return umax >= 0 ? umax : queenOnly; }
};

/// Reads a perft table: a header line, then tab-separated rows of id, FEN,
/// depth, FIDE count, queen-only count and, optionally, micro-Max's count.
/// \throws std::runtime_error naming the file (and the row) if it cannot be
/// read or a row is malformed.
std::vector<PerftRow> readPerftRows(const std::string& path);

}  // namespace umax
