// umax-probe: one search in either build, one line out, so that any position
// can be compared between the original and the readable build from a shell.
#include <CLI/CLI.hpp>
#include <iostream>

#include "engines.h"
#include "umax/cli_limits.h"
#include "umax/session.h"
#include "umax/tool_output.h"

int main(int argc, char** argv) {
  umax::checkStandardOutput();
  CLI::App app{
      "umax-probe - run one search in the original (minimal) or the readable build and print\n"
      "  bestmove <from><to> score <int> nodes <int>\n"
      "Without --moves the search starts from an empty hash table; with --moves each move goes\n"
      "through the original's legality-check path and the search starts from the table it leaves."};
  std::string build = "readable";
  std::string fen;
  std::string moves;
  long nodes = 0;
  std::string without;
  int depth = 0;
  app.add_option("--engine", build, "minimal or readable")->check(CLI::IsMember({"minimal", "readable"}));
  app.add_option("--fen", fen, "position (default: the start position, set up as main() does)")
      ->check(umax::cli::fenText());
  app.add_option("--moves", moves, "moves to play first, e.g. \"e2e4 e7e5\"")->check(umax::cli::movesText());
  // A budget of 1 is spent by the root's own node count: the original then
  // starts no iteration and prints its uninitialized score m (a different
  // one each run). From 2 on, the first iteration always runs.
  app.add_option("--nodes", nodes,
                 "node budget: no new iteration starts after it; at least 2 (with 1 the root's own node "
                 "spends it, no iteration starts, and the original's score is uninitialized memory)")
      ->check(umax::cli::nodeBudget(
          2, 2000000000L, "with 1 the original starts no iteration and its score is uninitialized memory"));
  app.add_option("--without", without,
                 "the Lab: switch ideas of the search off, comma-separated: " + umax::ideaNames() +
                     " (or all); readable build only")
      ->check(umax::cli::ideaList());
  app.add_option("--depth", depth,
                 "end the think after the root's iteration of draft D, with no node budget (readable build "
                 "only; replaces --nodes)")
      ->check(umax::cli::searchDepth());
  CLI11_PARSE(app, argc, argv);
  if (!app.count("--nodes") && !depth) {
    std::cerr << "umax-probe: give --nodes N (a node budget) or --depth D\n";
    return 2;
  }
  if (app.count("--nodes") && depth) {
    std::cerr << "umax-probe: --nodes and --depth exclude each other (--depth has no budget)\n";
    return 2;
  }

  try {
    umax::SearchVariant variant;
    if (app.count("--without")) variant.without = umax::parseWithout(without);
    variant.depth = depth;
    auto engine = umax::makeEngine(build);
    engine->setVariant(variant);
    umax::setUpGame(*engine, fen, moves);
    const umax::ThinkResult result = engine->think(nodes);
    std::cout << umax::formatThink(result.from, result.to, result.score, result.nodes)
              << umax::variantSuffix(variant, result.depth) << "\n";
  } catch (const std::exception& error) {
    std::cerr << "umax-probe: " << error.what() << "\n";
    return 2;
  }
  return umax::finishOutput("umax-probe");
}
