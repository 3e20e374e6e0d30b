// umax-readable: the readable micro-Max. Without options it speaks the
// original's stdin/stdout interface; with --think it prints one result line;
// with --xboard or --uci (or when the first line read is `xboard` or `uci`)
// it speaks a chess GUI's protocol.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "umax/classic.h"
#include "umax/cli_limits.h"
#include "umax/engine.h"
#include "umax/numbers.h"
#include "umax/play/protocol.h"
#include "umax/session.h"
#include "umax/tool_output.h"
#include "umax/trace/writer.h"

namespace {

/// stdin with its first line already read: a FILE that gives those bytes
/// again, then the rest of stdin, so the classic interface sees every byte.
struct ReplayedInput {
  std::string head;
  std::size_t served = 0;
};

ssize_t readReplayed(void* cookie, char* buffer, size_t size) {
  auto* input = static_cast<ReplayedInput*>(cookie);
  if (input->served < input->head.size()) {
    const std::size_t count = std::min(size, input->head.size() - input->served);
    std::memcpy(buffer, input->head.data() + input->served, count);
    input->served += count;
    return static_cast<ssize_t>(count);
  }
  return static_cast<ssize_t>(std::fread(buffer, 1, size, stdin));
}

/// Bytes of a first line read before deciding: far more than "xboard" or
/// "uci" with blanks, so that an overlong line is never kept whole.
constexpr std::size_t kFirstLineLimit = 4096;

/// Reads stdin's first line (bytes up to and including '\n', at most
/// kFirstLineLimit of them) without losing any: what is not read stays in stdin.
std::string readFirstLine() {
  std::string line;
  int c;
  while (line.size() < kFirstLineLimit && (c = std::getc(stdin)) != EOF) {
    line += static_cast<char>(c);
    if (c == '\n') break;
  }
  return line;
}

/// The first line without its line end and blanks.
std::string trimmed(const std::string& line) {
  const std::size_t start = line.find_first_not_of(" \t");
  const std::size_t end = line.find_last_not_of(" \t\r\n");
  return start == std::string::npos || end == std::string::npos ? "" : line.substr(start, end - start + 1);
}

/// The smallest --trace-limit above 0, in megabytes (about a kilobyte).
constexpr double kLeastTraceLimit = 0.001;

/// The program; main() adds the one-line message when memory runs out.
int run(int argc, char** argv) {
  CLI::App app{
      "umax-readable - micro-Max 3.2 rewritten for readers, node for node the same search.\n"
      "Without options: the original interface (board on stdout; type a move like e2e4,\n"
      "or an empty line to let it think and move). With --xboard or --uci, or when the\n"
      "first line read is `xboard` or `uci` (input not a terminal): a chess engine for GUIs."};
  std::string fen;
  std::string moves;
  long nodes = umax::kNodeLimit;
  bool think = false;
  int perftDepth = 0;
  bool divide = false;
  std::string tracePath;
  bool xboard = false;
  bool uci = false;
  std::string traceDir;
  int hashBits = umax::kHashSlotBits;
  app.add_option("--fen", fen,
                 "start from this position (default: the start position, set up as main() does)")
      ->check(umax::cli::fenText());
  app.add_option("--moves", moves, "moves to play first, e.g. \"e2e4 e7e5\" (each checked for legality)")
      ->check(umax::cli::movesText());
  auto* nodesOption =
      app.add_option(
             "--nodes", nodes,
             "node budget of a think: no new iteration starts after it (default: the original's 10000000); "
             "with --xboard/--uci every think uses it, whatever the clock says")
          ->check(umax::cli::nodeBudget(1, 2000000000L));
  app.add_flag("--think", think, "think once and print: bestmove <from><to> score <int> nodes <int>");
  auto* perftOption =
      app.add_option("--perft", perftDepth,
                     "count the leaves of the legal-move tree D plies deep: perft <D> <count>")
          ->check(umax::cli::whole(1, 12, "plies"));
  app.add_flag("--divide", divide, "with --perft: first one line per root move, <move> <count>")
      ->needs(perftOption);
  app.add_option(
         "--trace", tracePath,
         "record the think into this trace file (implies --think; read it with umax-trace); the file grows "
         "with the nodes searched (umax-trace info prints its bytes), so give a --nodes budget")
      ->excludes(perftOption);
  bool force = false;
  app.add_flag("--force", force,
               "with --trace: overwrite a file that is not a trace, or replace a symbolic link (never "
               "followed)");
  auto* hashBitsOption =
      app.add_option(
             "--hash-bits", hashBits,
             "a hash table of 2^K + 9 slots, K from " + std::to_string(umax::kMinHashSlotBits) + " to " +
                 std::to_string(umax::kHashSlotBits) + " (default " + std::to_string(umax::kHashSlotBits) +
                 ": the original's); a smaller one makes other positions share slots, so thinks are no "
                 "longer the original's (a --trace records the table's size); with --xboard/--uci use "
                 "their Hash / memory instead")
          ->check(umax::cli::whole(umax::kMinHashSlotBits, umax::kHashSlotBits));
  auto* xboardOption = app.add_flag("--xboard", xboard, "speak xboard / CECP v2 on stdin/stdout");
  auto* uciOption = app.add_flag("--uci", uci, "speak UCI on stdin/stdout")->excludes(xboardOption);
  app.add_option("--trace-dir", traceDir,
                 "with --xboard/--uci: record every think of the game into DIR/game-NNN/MMM-white.trc "
                 "(or -black), with DIR/game-NNN/game.txt listing the moves");
  double traceLimit = umax::play::kDefaultTraceLimitMegabytes;
  auto* traceLimitOption =
      app.add_option("--trace-limit", traceLimit,
                     "with --trace-dir: trim each think's trace to about this many MB (0: whole thinks); the "
                     "trace keeps the root's first iterations whole and the think's result")
          ->check(CLI::Validator(
              [](std::string& text) -> std::string {
                // 0 keeps whole thinks; a positive limit must name at least a kilobyte (1e-9 MB would
                // round to 0 bytes, which means "no limit").
                std::string refusal;
                const std::optional<double> megabytes = umax::parseDecimal(text, 0, 1.0e6, &refusal);
                if (megabytes && (*megabytes == 0 || *megabytes >= kLeastTraceLimit)) return "";
                return "the value must be 0 (whole thinks) or a number of megabytes from 0.001 to 1000000, "
                       "not '" +
                       umax::shownText(text) + "'";
              },
              "0 or NUMBER in [0.001 - 1000000]"))
          ->capture_default_str();
  std::string without;
  int depth = 0;
  app.add_option(
         "--without", without,
         "the Lab: switch ideas of the search off for every think, comma-separated: " + umax::ideaNames() +
             " (or all); the classic interface, --think, --trace and --xboard/--uci alike")
      ->check(umax::cli::ideaList());
  auto* depthOption =
      app.add_option(
             "--depth", depth,
             "every think ends after the root's iteration of draft D, with no node budget (instead of "
             "--nodes and the clock)")
          ->check(umax::cli::searchDepth())
          ->excludes(nodesOption);
  CLI11_PARSE(app, argc, argv);
  umax::SearchVariant variant;
  if (!without.empty()) variant.without = umax::parseWithout(without);
  variant.depth = depth;
  (void)depthOption;

  // A chess GUI starts its engine and sends `xboard` or `uci` first.
  std::unique_ptr<ReplayedInput> replayed;
  std::FILE* classicInput = stdin;
  const bool protocolChosen = xboard || uci;
  if (!protocolChosen && !think && tracePath.empty() && perftDepth == 0 && fen.empty() && moves.empty() &&
      !isatty(fileno(stdin))) {
    replayed = std::make_unique<ReplayedInput>();
    replayed->head = readFirstLine();
    const std::string first = trimmed(replayed->head);
    xboard = first == "xboard";
    uci = first == "uci";
    if (!xboard && !uci) {
      classicInput = fopencookie(replayed.get(), "r", {readReplayed, nullptr, nullptr, nullptr});
      if (!classicInput) classicInput = stdin;
    }
  }
  if (xboard || uci) {
    if (!fen.empty() || !moves.empty() || think || perftDepth > 0 || !tracePath.empty() ||
        hashBitsOption->count() > 0) {
      std::cerr << "umax-readable: --xboard/--uci take only --nodes, --trace-dir and --trace-limit (the hash "
                   "size comes from UCI's Hash or xboard's memory)\n";
      return 2;
    }
    umax::play::SessionOptions options;
    options.fixedNodes = nodesOption->count() > 0 ? nodes : 0;
    options.variant = variant;
    options.traceDir = traceDir;
    options.traceLimitBytes = static_cast<uint64_t>(traceLimit * 1048576.0);
    const int status =
        umax::play::runProtocol(xboard ? umax::play::Protocol::kXboard : umax::play::Protocol::kUci, std::cin,
                                std::cout, options, replayed ? trimmed(replayed->head) : "");
    // A GUI leaves by closing its end of the pipe (xboard does when the other engine of a match
    // crashed): the session is over, and nobody is left to tell. Any other failed write is an error.
    if (umax::standardOutputError() ==
        std::string("cannot write to standard output: ") + std::strerror(EPIPE))
      return status;
    return umax::finishOutput("umax-readable", status);
  }
  if (!traceDir.empty() || traceLimitOption->count() > 0) {
    std::cerr << "umax-readable: --trace-dir and --trace-limit need --xboard or --uci (a single think takes "
                 "--trace FILE)\n";
    return 2;
  }

  // The hash table is 200 MB: not on the stack. A --hash-bits table is mapped at its size from
  // the start (the original's never is); the moves' legality checks store into it, as main() does.
  std::unique_ptr<umax::Engine> engine;
  try {
    engine = std::make_unique<umax::Engine>(hashBits);
    engine->setVariant(variant);
    if (!fen.empty()) engine->setPosition(umax::parseFen(fen));
    umax::playMoves(*engine, moves);
  } catch (const std::bad_alloc&) {
    throw;  // main()'s one-line "out of memory" message
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
    return umax::finishOutput("umax-readable");
  }
  if (think || !tracePath.empty()) {
    umax::ThinkResult result;
    try {
      if (!tracePath.empty()) umax::trace::checkTraceTarget(tracePath, force);
      result = tracePath.empty() ? engine->think(nodes)
                                 : umax::trace::recordThink(*engine, nodes, tracePath, fen, moves);
    } catch (const std::exception& error) {
      std::cerr << "umax-readable: " << error.what() << "\n";
      return 2;
    }
    std::cout << umax::formatThink(result.from, result.to, result.score, result.nodes)
              << umax::variantSuffix(variant, result.depth) << "\n";
    return umax::finishOutput("umax-readable");
  }
  (void)uciOption;
  return umax::finishOutput(
      "umax-readable",
      umax::runClassicInterface(*engine, classicInput, umax::checkedStandardOutputFile(), stderr, nodes));
}

}  // namespace

int main(int argc, char** argv) {
  umax::checkStandardOutput();
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc& error) {  // the hash table, or any allocation: a message, not an abort
    std::cerr << "umax-readable: out of memory: " << error.what() << "\n";
    return 2;
  }
}
