// perft_data.cpp - reads the perft tables of tests/data.
#include "perft_data.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace umax {

std::vector<PerftRow> readPerftRows(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the perft table '" + path + "'");
  std::vector<PerftRow> rows;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream fields(line);
    PerftRow row;
    std::string depth, standard, queenOnly, umax;
    std::getline(fields, row.id, '\t');
    std::getline(fields, row.fen, '\t');
    std::getline(fields, depth, '\t');
    std::getline(fields, standard, '\t');
    std::getline(fields, queenOnly, '\t');
    try {
      row.depth = std::stoi(depth);
      row.queenOnly = std::stol(queenOnly);
      if (std::getline(fields, umax, '\t')) row.umax = std::stol(umax);
    } catch (const std::exception&) {
      throw std::runtime_error("'" + path + "': bad row: " + line);
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace umax
