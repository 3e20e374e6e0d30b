// umax-replay: replays a game that the readable build played (for example
// through xboard) in both builds, along the original main()'s path, and
// checks that each build, given the same moves and node budget, chooses every
// move the game shows. This is how scripts/match.sh shows that the minimal
// build, which speaks no protocol, would have drawn the very same games.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engines.h"
#include "umax/cli_limits.h"
#include "umax/session.h"
#include "umax/tool_output.h"

namespace {

/// One ply of the game as the protocol log gives it.
struct Ply {
  std::string text;  ///< as played, e.g. "e2e4" or "e7e8q"
  int from = 0;
  int to = 0;
};

/// Splits the game into plies; a promotion keeps its letter in `text`.
/// Throws std::runtime_error for a token that is not a coordinate move.
std::vector<Ply> parseGame(const std::string& moves) {
  std::vector<Ply> plies;
  std::istringstream stream(moves);
  std::string token;
  while (stream >> token) {
    Ply ply{token};
    if (token.size() < 4 || token.size() > 5 || !umax::parseMove(token.substr(0, 4), ply.from, ply.to))
      throw std::runtime_error("ply " + std::to_string(plies.size() + 1) + " '" + token +
                               "' is not a move like e2e4 or e7e8q");
    plies.push_back(ply);
  }
  return plies;
}

/// The original represents only promotions to a queen (xboard writes them
/// with a trailing 'q'); any other piece letter cannot be replayed.
bool representable(const Ply& ply) { return ply.text.size() == 4 || ply.text[4] == 'q'; }

/// Replays the game in each engine: on the side's turns it thinks with the
/// budget and compares, then every ply goes through playMove (main()'s
/// path for a move, entered or thought up). Returns the number of
/// mismatches; prints one line per thought-up move.
int replay(std::vector<std::unique_ptr<umax::AnyEngine>>& engines, const std::vector<Ply>& plies, int ourSide,
           long budget, bool verbose) {
  int mismatches = 0;
  int thinks = 0;
  for (std::size_t index = 0; index < plies.size(); ++index) {
    const Ply& ply = plies[index];
    const bool ours = static_cast<int>(index % 2) == ourSide;
    if (!representable(ply)) {
      std::cout << "ply " << index + 1 << " " << ply.text
                << ": an under-promotion the original cannot represent; replay stops here\n";
      break;
    }
    std::string line = "ply " + std::to_string(index + 1) + " " + ply.text + ":";
    for (auto& engine : engines) {
      if (ours) {
        const umax::ThinkResult result = engine->think(budget);
        const bool same = result.from == ply.from && result.to == ply.to;
        line += " " + std::string(engine->name()) + " " +
                umax::formatThink(result.from, result.to, result.score, result.nodes).substr(9) +
                (same ? "" : " MISMATCH");
        if (!same) ++mismatches;
      }
      if (!engine->playMove(ply.from, ply.to)) {
        std::cout << line << " " << engine->name() << " refuses this move; replay stops here\n";
        return mismatches + 1;
      }
    }
    if (ours) {
      ++thinks;
      if (verbose || line.find("MISMATCH") != std::string::npos) std::cout << line << "\n";
    }
  }
  std::cout << "replayed " << thinks << " thinks of " << (ourSide == 0 ? "white" : "black") << " at "
            << budget << " nodes in " << engines.size() << " build(s): "
            << (mismatches == 0 ? "every move equal" : std::to_string(mismatches) + " mismatches") << "\n";
  return mismatches;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "umax-replay - replay a game in the original (minimal) and the readable build, as the\n"
      "original's main() would play it: on the given side's turns think with the node budget and\n"
      "check that the move equals the one the game shows; every move is then entered through the\n"
      "legality-check path. Exit status 0 when every move is equal, 1 otherwise."};
  std::string moves;
  std::string side = "white";
  std::string build = "both";
  long nodes = 0;
  bool verbose = false;
  app.add_option("--moves", moves, "the game's moves from the start, e.g. \"e2e4 e7e5 g1f3\"")->required();
  app.add_option("--side", side, "the side whose moves were thought up with the budget")
      ->check(CLI::IsMember({"white", "black"}));
  app.add_option("--engine", build, "minimal, readable or both")
      ->check(CLI::IsMember({"minimal", "readable", "both"}));
  app.add_option("--nodes", nodes, "node budget of each think")
      ->required()
      ->check(umax::cli::nodeBudget(1, 2000000000L));
  app.add_flag("-v,--verbose", verbose, "print every think, not only mismatches");
  CLI11_PARSE(app, argc, argv);

  try {
    const std::vector<Ply> plies = parseGame(moves);
    std::vector<std::unique_ptr<umax::AnyEngine>> engines;
    if (build != "readable") engines.push_back(umax::makeEngine("minimal"));
    if (build != "minimal") engines.push_back(umax::makeEngine("readable"));
    for (auto& engine : engines) engine->reset();
    return umax::finishOutput("umax-replay",
                              replay(engines, plies, side == "white" ? 0 : 1, nodes, verbose) == 0 ? 0 : 1);
  } catch (const std::exception& error) {
    std::cerr << "umax-replay: " << error.what() << "\n";
    return 2;
  }
}
