// umax-readable: the readable micro-Max. Without options it speaks the
// original's stdin/stdout interface; with --think it prints one result line.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <memory>

#include "umax/classic.h"
#include "umax/engine.h"
#include "umax/session.h"
#include "umax/trace/writer.h"

int main(int argc, char** argv) {
  CLI::App app{
      "umax-readable - micro-Max 3.2 rewritten for readers, node for node the same search.\n"
      "Without options: the original interface (board on stdout; type a move like e2e4,\n"
      "or an empty line to let it think and move)."};
  std::string fen;
  std::string moves;
  long nodes = umax::kNodeLimit;
  bool think = false;
  int perftDepth = 0;
  bool divide = false;
  std::string tracePath;
  app.add_option("--fen", fen,
                 "start from this position (default: the start position, set up as main() does)");
  app.add_option("--moves", moves, "moves to play first, e.g. \"e2e4 e7e5\" (each checked for legality)");
  app.add_option(
         "--nodes", nodes,
         "node budget of a think: no new iteration starts after it (default: the original's 10000000)")
      ->check(CLI::Range(1L, 2000000000L));
  app.add_flag("--think", think, "think once and print: bestmove <from><to> score <int> nodes <int>");
  auto* perftOption =
      app.add_option("--perft", perftDepth,
                     "count the leaves of the legal-move tree D plies deep: perft <D> <count>")
          ->check(CLI::Range(1, 12));
  app.add_flag("--divide", divide, "with --perft: first one line per root move, <move> <count>")
      ->needs(perftOption);
  app.add_option(
         "--trace", tracePath,
         "record the think into this trace file (implies --think; read it with umax-trace); about 65 bytes "
         "per node, so give a --nodes budget")
      ->excludes(perftOption);
  CLI11_PARSE(app, argc, argv);

  auto engine = std::make_unique<umax::Engine>();  // the hash table is 200 MB: not on the stack
  try {
    if (!fen.empty()) engine->setPosition(umax::parseFen(fen));
    umax::playMoves(*engine, moves);
  } catch (const std::exception& error) {
    std::cerr << "umax-readable: " << error.what() << "\n";
    return 2;
  }

  if (perftDepth > 0) {
    std::vector<umax::PerftMove> rootMoves;
    const long leaves = engine->perft(perftDepth, divide ? &rootMoves : nullptr);
    for (const auto& move : rootMoves)
      std::cout << umax::moveName(move.from, move.to) << " " << move.leaves << "\n";
    std::cout << "perft " << perftDepth << " " << leaves << "\n";
    return 0;
  }
  if (think || !tracePath.empty()) {
    umax::ThinkResult result;
    try {
      result = tracePath.empty() ? engine->think(nodes)
                                 : umax::trace::recordThink(*engine, nodes, tracePath, fen, moves);
    } catch (const std::exception& error) {
      std::cerr << "umax-readable: " << error.what() << "\n";
      return 2;
    }
    std::cout << umax::formatThink(result.from, result.to, result.score, result.nodes) << "\n";
    return 0;
  }
  return umax::runClassicInterface(*engine, stdin, stdout, stderr, nodes);
}
