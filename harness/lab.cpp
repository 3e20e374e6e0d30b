// umax-lab: what each idea of micro-Max's search buys, measured (issue 38).
//
// For the whole search and for the search with one idea switched off (the
// Lab's --without, umax/variant.h), and with all of them off:
//  1. nodes to complete depth D, median over an EPD suite's positions
//     (Bratko-Kopec), with the thread's CPU time and the effective branching
//     factor; every think from an empty table with --depth D, so any figure
//     is `umax-probe --engine readable --fen FEN --without IDEA --depth D`;
//  2. tactics: how many positions of a suite (Win At Chess) the engine
//     solves with a node budget (the original's budget: no iteration starts
//     once it is spent, so a think may end well past it);
//  3. strength: games of the whole search against the search without the
//     idea at a node budget per move, from named openings, both colours each.
// It writes a text report on stdout, progress on stderr, and with --page /
// --svg the docs page "What each idea buys" and its plot (scripts/lab.sh).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "lab_rules.h"
#include "umax/engine.h"
#include "umax/notation.h"
#include "umax/position.h"
#include "umax/variant.h"

namespace {

using umax::Engine;
using umax::Idea;
using umax::Position;
using umax::SearchVariant;
using umax::lab::LegalMove;
namespace fs = std::filesystem;

constexpr unsigned kAllIdeas = (1u << umax::kIdeas.size()) - 1;

/// A search measured here: the whole one, one idea off, all off, alpha-beta alone.
struct LabVariant {
  std::string key;    ///< "whole", an idea's --without name, "all", "alpha-beta-only"
  std::string label;  ///< how tables and the plot name it
  unsigned without;   ///< SearchVariant::without
  int topic;          ///< the course topic of its idea (0: none)
  int maxDepth = 0;   ///< the deepest depth measured (set from the options)
  bool lacks(Idea idea) const { return (without & umax::ideaBit(idea)) != 0; }
};

std::vector<LabVariant> makeVariants() {
  std::vector<LabVariant> variants;
  variants.push_back({"whole", "the whole search", 0, 0});
  for (const umax::IdeaName& idea : umax::kIdeas)
    variants.push_back(
        {std::string(idea.name), "without " + std::string(idea.name), umax::ideaBit(idea.idea), idea.topic});
  variants.push_back({"all", "without all seven", kAllIdeas, 0});
  variants.push_back({"alpha-beta-only", "alpha-beta alone (the other six off)",
                      kAllIdeas & ~umax::ideaBit(Idea::kAlphaBeta), 0});
  return variants;
}

double threadSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  return values.size() % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
}

std::string withCommas(double value) {
  const long rounded = std::lround(value);
  std::string digits = std::to_string(rounded < 0 ? -rounded : rounded);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3)
    digits.insert(static_cast<std::size_t>(at), ",");
  return (rounded < 0 ? "-" : "") + digits;
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

/// Runs jobs on `threads` workers; each worker has its own state (engines).
template <class Worker>
void runJobs(const std::string& what, std::vector<std::function<void(Worker&)>>& jobs, int threads) {
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::mutex printing;
  const auto start = std::chrono::steady_clock::now();
  std::string failure;
  auto work = [&] {
    auto worker = std::make_unique<Worker>();
    for (std::size_t job = next++; job < jobs.size(); job = next++) {
      try {
        jobs[job](*worker);
      } catch (const std::exception& error) {
        std::lock_guard lock(printing);
        if (failure.empty()) failure = error.what();
      }
      const std::size_t finished = ++done;
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::lock_guard lock(printing);
      if (finished == jobs.size() || finished % std::max<std::size_t>(1, jobs.size() / 20) == 0)
        std::fprintf(stderr, "umax-lab: %s: %zu of %zu done, %.0f s\n", what.c_str(), finished, jobs.size(),
                     elapsed);
    }
  };
  std::vector<std::thread> pool;
  for (int thread = 0; thread < threads; ++thread) pool.emplace_back(work);
  for (std::thread& thread : pool) thread.join();
  if (!failure.empty()) throw std::runtime_error(what + ": " + failure);
}

// ---------------------------------------------------------------- 1. depth

/// One think's figures at each depth 1..maxDepth of one position.
struct DepthRow {
  std::vector<long> nodes;      ///< [depth]: nodes to complete it
  std::vector<double> seconds;  ///< [depth]: thread CPU time to complete it
};

struct ThinkWorker {
  Engine engine;
};

/// Nodes and CPU time to complete each depth 1..maxDepth from an empty table.
/// With deepening, one think to maxDepth reports every iteration; without it
/// a think to depth D searches D alone, so each depth is a think of its own.
DepthRow measureDepths(Engine& engine, const Position& position, const LabVariant& variant) {
  DepthRow row;
  row.nodes.assign(static_cast<std::size_t>(variant.maxDepth) + 1, 0);
  row.seconds.assign(row.nodes.size(), 0);
  const auto thinkTo = [&](int depth, int fill) {
    engine.clearHashTable();
    engine.setPosition(position);
    engine.setVariant(SearchVariant{variant.without, depth});
    const double start = threadSeconds();
    int filled = fill;  // the depths before `fill` are known
    engine.setIterationListener([&](const umax::IterationReport& report) {
      const double spent = threadSeconds() - start;
      while (filled <= variant.maxDepth && filled <= report.draft) {  // a mate score's draft settles the rest
        row.nodes[static_cast<std::size_t>(filled)] = report.nodes;
        row.seconds[static_cast<std::size_t>(filled)] = spent;
        ++filled;
      }
    });
    const umax::ThinkResult result = engine.think(0);
    engine.setIterationListener({});
    const double spent = threadSeconds() - start;
    while (filled <= depth) {  // not reported (the root answered at once): the whole think's
      row.nodes[static_cast<std::size_t>(filled)] = result.nodes;
      row.seconds[static_cast<std::size_t>(filled)] = spent;
      ++filled;
    }
  };
  if (variant.lacks(Idea::kDeepening)) {
    for (int depth = 1; depth <= variant.maxDepth; ++depth) thinkTo(depth, depth);
  } else {
    thinkTo(variant.maxDepth, 1);
  }
  return row;
}

// ---------------------------------------------------------------- 2. tactics

struct TacticResult {
  bool solved = false;
  std::string move;
  long nodes = 0;
};

TacticResult solve(Engine& engine, const umax::lab::EpdEntry& entry, unsigned without, long budget) {
  engine.clearHashTable();
  engine.setPosition(entry.position);
  engine.setVariant(SearchVariant{without, 0});
  const umax::ThinkResult result = engine.think(budget);
  const LegalMove move{result.from, result.to};
  bool solved = result.hasMove();
  if (!entry.best.empty())
    solved = solved && std::find(entry.best.begin(), entry.best.end(), move) != entry.best.end();
  if (!entry.avoid.empty())
    solved = solved && std::find(entry.avoid.begin(), entry.avoid.end(), move) == entry.avoid.end();
  return {solved, umax::moveName(result.from, result.to), result.nodes};
}

// ---------------------------------------------------------------- 3. games

/// A named opening line, in coordinate moves from the start position.
struct Opening {
  const char* name;
  const char* moves;
};

/// Main lines of common openings, each about level after its last move.
constexpr Opening kOpenings[] = {
    {"Italian Game", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6"},
    {"Ruy Lopez", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6"},
    {"Petroff", "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6 e5f3 f6e4"},
    {"Sicilian Najdorf", "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6"},
    {"French", "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6 c1g5 f8e7"},
    {"Caro-Kann", "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5"},
    {"Queen's Gambit Declined", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7"},
    {"Slav", "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6 b1c3 d5c4"},
    {"King's Indian", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6"},
    {"Nimzo-Indian", "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4 e2e3 e8g8"},
    {"English", "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6 g2g3 d7d5"},
    {"Scandinavian", "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 d2d4 g8f6"},
    {"Queen's Gambit Accepted", "d2d4 d7d5 c2c4 d5c4 g1f3 g8f6 e2e3 e7e6"},
    {"Gruenfeld", "d2d4 g8f6 c2c4 g7g6 b1c3 d7d5 c4d5 f6d5"},
    {"Dutch", "d2d4 f7f5 g2g3 g8f6 f1g2 e7e6 g1f3 f8e7"},
    {"Catalan", "d2d4 g8f6 c2c4 e7e6 g2g3 d7d5 f1g2 f8e7"},
    {"Queen's Indian", "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6 g2g3 c8b7"},
    {"Scotch", "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4 g8f6"},
    {"Four Knights", "e2e4 e7e5 g1f3 b8c6 b1c3 g8f6 f1b5 f8b4"},
    {"Pirc", "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6 g1f3 f8g7"},
    {"Alekhine", "e2e4 g8f6 e4e5 f6d5 d2d4 d7d6 g1f3 c8g4"},
    {"Sicilian Alapin", "e2e4 c7c5 c2c3 g8f6 e4e5 f6d5 d2d4 c5d4"},
    {"London System", "d2d4 d7d5 g1f3 g8f6 c1f4 e7e6 e2e3 c7c5"},
    {"Reti", "g1f3 d7d5 c2c4 e7e6 g2g3 g8f6 f1g2 f8e7"},
};

/// The games' tables: 2^20 slots (12 MB) instead of the original's 2^24.
/// micro-Max's hash keys are relative to the root (every root has J = Z = 1);
/// main() clears every lock before each legality check (line 130), and a
/// think starts with the entries the last check left. Here the whole (small)
/// table is cleared before every check and every think instead: before a
/// check that is the same for the search (an entry with lock 0 is empty),
/// before a think it differs from the original only when the think meets an
/// entry the check left; it costs about a millisecond rather than the 20 ms
/// of a sweep over 16M slots. A think at these budgets stores far fewer
/// entries than 2^20.
constexpr int kGameTableBits = 20;

struct GameWorker {
  Engine players[2];  // [0]: the whole search, [1]: the variant
  Engine rules;       // only its move generator is used
  GameWorker() {
    for (Engine& player : players) player.resizeHashTable(kGameTableBits);
  }
};

struct GameResult {
  double score = 0;  ///< for the whole search: 1, 0.5 or 0
  umax::lab::Outcome outcome = umax::lab::Outcome::kNone;
  int plies = 0;
};

/// Both players' engines play `move` along main()'s path for an entered move:
/// the table's locks cleared (here: the small table cleared, see
/// kGameTableBits), then Engine::checkMove, the legality check by search that
/// plays the move (Engine::playMove would sweep the locks itself, 16M slots
/// of the original's table). The game's own position follows with applyMove,
/// and the boards must agree.
bool playOnBoth(GameWorker& worker, Position& game, umax::lab::GameRecord& record, const LegalMove& move) {
  for (Engine& player : worker.players) {
    player.clearHashTable();
    if (!player.checkMove(move.from, move.to)) return false;
  }
  const Position before = game;
  umax::applyMove(game, move.from, move.to, game.epSquare);
  for (Engine& player : worker.players) {
    const Position mine = player.position();
    for (int square = 0; square < umax::kNoSquare; ++square)
      if (umax::isOnBoard(square) &&
          mine.board[static_cast<std::size_t>(square)] != game.board[static_cast<std::size_t>(square)])
        throw std::runtime_error("the engine's board and the game's differ after " +
                                 umax::moveName(move.from, move.to));
  }
  record.played(before, move, game);
  return true;
}

GameResult playGame(GameWorker& worker, const Opening& opening, bool wholeIsWhite, unsigned without,
                    long budget, int plyCap) {
  Position game = umax::parseFen(umax::kStartFen);
  for (int player = 0; player < 2; ++player) {
    worker.players[player].clearHashTable();
    worker.players[player].setPosition(game);
    worker.players[player].setVariant(SearchVariant{player == 0 ? 0u : without, 0});
  }
  umax::lab::GameRecord record(game);
  std::istringstream moves(opening.moves);
  for (std::string text; moves >> text;) {
    int from = 0;
    int to = 0;
    const std::vector<LegalMove> legal = umax::lab::legalMoves(worker.rules, game);
    if (!umax::parseMove(text, from, to) ||
        std::find(legal.begin(), legal.end(), LegalMove{from, to}) == legal.end() ||
        !playOnBoth(worker, game, record, {from, to}))
      throw std::runtime_error(std::string(opening.name) + ": '" + text + "' is not a legal move there");
  }
  const int wholeSide = wholeIsWhite ? umax::kWhite : umax::kBlack;
  GameResult result;
  for (;;) {
    const umax::lab::Outcome outcome = umax::lab::gameOver(worker.rules, game, record, plyCap);
    if (outcome != umax::lab::Outcome::kNone) {
      result.outcome = outcome;
      result.score = outcome == umax::lab::Outcome::kMate ? (game.side == wholeSide ? 0.0 : 1.0) : 0.5;
      break;
    }
    Engine& mover = worker.players[game.side == wholeSide ? 0 : 1];
    // Keys are relative to the root: the entries of the last legality check
    // belong to another root (main() clears the locks only before each
    // check, so the original's think meets them; here it starts empty).
    mover.clearHashTable();
    const umax::ThinkResult thought = mover.think(budget);
    const std::vector<LegalMove> legal = umax::lab::legalMoves(worker.rules, game);
    const LegalMove move{thought.from, thought.to};
    if (!thought.hasMove() || std::find(legal.begin(), legal.end(), move) == legal.end() ||
        !playOnBoth(worker, game, record, move)) {
      result.outcome = umax::lab::Outcome::kIllegal;  // the mover forfeits
      result.score = game.side == wholeSide ? 0.0 : 1.0;
      break;
    }
  }
  result.plies = record.plies();
  return result;
}

/// A match's figures for the whole search against one variant.
struct MatchFigures {
  int games = 0;
  int wins = 0;
  int draws = 0;
  int losses = 0;
  double score = 0;  ///< points of the whole search
  std::map<std::string, int> outcomes;
  double meanPlies = 0;
};

double eloOf(double fraction) { return -400.0 * std::log10(1.0 / fraction - 1.0); }

/// The Elo difference of a score and its 95% error bar (normal approximation
/// on the per-game scores), as text: "+120 ± 85", or a bound when every game
/// went one way.
std::string eloText(const MatchFigures& match) {
  if (match.games == 0) return "no games";
  const double n = match.games;
  const double mean = match.score / n;
  if (mean <= 0 || mean >= 1)
    return mean >= 1 ? "every game won: no finite estimate" : "every game lost: no finite estimate";
  const double variance = (match.wins * (1 - mean) * (1 - mean) + match.draws * (0.5 - mean) * (0.5 - mean) +
                           match.losses * mean * mean) /
                          n;
  const double margin = 1.96 * std::sqrt(variance / n);
  if (match.wins == 0 && match.losses == 0) return "0 (every game drawn)";
  const double elo = eloOf(mean);
  const double low = mean - margin <= 0 ? -INFINITY : eloOf(mean - margin);
  const double high = mean + margin >= 1 ? INFINITY : eloOf(mean + margin);
  std::string text = std::fabs(elo) < 0.5 ? "0" : (elo > 0 ? "+" : "") + fixed(elo, 0);
  if (std::isinf(low) || std::isinf(high))
    return text + " (95%: " + (std::isinf(low) ? "-inf" : fixed(low, 0)) + " to " +
           (std::isinf(high) ? "+inf" : "+" + fixed(high, 0)) + ")";
  return text + " &plusmn; " + fixed((high - low) / 2, 0);
}

// ---------------------------------------------------------------- output

/// Writes `text` to `path` whole or not at all (a temporary file renamed),
/// refusing to overwrite a file this program did not write (its first line
/// must hold `mark`).
void checkOverwritable(const std::string& path, const std::string& mark) {
  if (fs::exists(path)) {
    std::ifstream old(path);
    std::string first;
    std::getline(old, first);
    std::string second;
    std::getline(old, second);
    if ((first + second).find(mark) == std::string::npos)
      throw std::runtime_error(path + " exists and was not written by umax-lab: not overwritten");
  }
}

void writeWhole(const std::string& path, const std::string& text, const std::string& mark) {
  checkOverwritable(path, mark);
  const std::string temporary = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write " + temporary);
  }
  fs::rename(temporary, path);
}

std::string xmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else
      out += c;
  }
  return out;
}

/// Knuth and Moore's minimal tree of p plies with b moves a node: its leaves.
double minimalTree(double b, int plies) {
  return std::pow(b, std::ceil(plies / 2.0)) + std::pow(b, std::floor(plies / 2.0)) - 1;
}

struct Curve {
  std::string label;
  std::string colour;
  std::vector<double> values;  ///< [depth], 0 where not measured
  bool dashed = false;
};

std::string plotSvg(const std::vector<Curve>& curves, int maxDepth, const std::string& title,
                    const std::string& note) {
  const double width = 990;
  const double height = 520;
  const double left = 80;
  const double right = 560;
  const double top = 50;
  const double bottom = 450;
  double highest = 10;
  for (const Curve& curve : curves)
    for (double value : curve.values) highest = std::max(highest, value);
  const int decades = static_cast<int>(std::ceil(std::log10(highest)));
  const auto x = [&](int depth) { return left + (right - left) * (depth - 1) / std::max(1, maxDepth - 1); };
  const auto y = [&](double value) {
    return bottom - (bottom - top) * std::log10(std::max(1.0, value)) / decades;
  };
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << " " << height << "\" font-family=\"sans-serif\" font-size=\"13\">\n";
  svg << "<desc>" << xmlEscape(note) << "</desc>\n";  // not a comment: "--" may not stand in one
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"" << left << "\" y=\"28\" font-size=\"15\" font-weight=\"bold\">" << xmlEscape(title)
      << "</text>\n";
  for (int decade = 0; decade <= decades; ++decade) {
    const double at = y(std::pow(10.0, decade));
    static const char* const kNames[] = {"1",  "10",  "100",  "1k", "10k", "100k",
                                         "1M", "10M", "100M", "1G", "10G"};
    svg << "<line x1=\"" << left << "\" y1=\"" << at << "\" x2=\"" << right << "\" y2=\"" << at
        << "\" stroke=\"#ddd\"/>\n";
    svg << "<text x=\"" << left - 8 << "\" y=\"" << at + 4 << "\" text-anchor=\"end\">"
        << (decade < 11 ? kNames[decade] : "?") << "</text>\n";
  }
  for (int depth = 1; depth <= maxDepth; ++depth) {
    svg << "<line x1=\"" << x(depth) << "\" y1=\"" << top << "\" x2=\"" << x(depth) << "\" y2=\"" << bottom
        << "\" stroke=\"#eee\"/>\n";
    svg << "<text x=\"" << x(depth) << "\" y=\"" << bottom + 18 << "\" text-anchor=\"middle\">" << depth
        << "</text>\n";
  }
  svg << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << right - left << "\" height=\""
      << bottom - top << "\" fill=\"none\" stroke=\"#888\"/>\n";
  svg << "<text x=\"" << (left + right) / 2 << "\" y=\"" << bottom + 40
      << "\" text-anchor=\"middle\">depth D (the root's last iteration: D-1 full-width plies, then "
         "draft 1)</text>\n";
  svg << "<text transform=\"translate(22," << (top + bottom) / 2
      << ") rotate(-90)\" text-anchor=\"middle\">nodes to complete depth D (median, log scale)</text>\n";
  double legendY = top + 6;
  for (const Curve& curve : curves) {
    std::ostringstream points;
    for (int depth = 1; depth <= maxDepth && depth < static_cast<int>(curve.values.size()); ++depth)
      if (curve.values[static_cast<std::size_t>(depth)] > 0)
        points << x(depth) << "," << y(curve.values[static_cast<std::size_t>(depth)]) << " ";
    const std::string dash = curve.dashed ? " stroke-dasharray=\"6 4\"" : "";
    const std::string stroke = &curve == &curves.front() ? "3" : "2";  // the whole search stands out
    svg << "<polyline fill=\"none\" stroke=\"" << curve.colour << "\" stroke-width=\"" << stroke << "\""
        << dash << " points=\"" << points.str() << "\"><title>" << xmlEscape(curve.label)
        << "</title></polyline>\n";
    if (!curve.dashed)
      for (int depth = 1; depth <= maxDepth && depth < static_cast<int>(curve.values.size()); ++depth)
        if (curve.values[static_cast<std::size_t>(depth)] > 0)
          svg << "<circle cx=\"" << x(depth) << "\" cy=\"" << y(curve.values[static_cast<std::size_t>(depth)])
              << "\" r=\"3\" fill=\"" << curve.colour << "\"/>\n";
    svg << "<line x1=\"" << right + 16 << "\" y1=\"" << legendY << "\" x2=\"" << right + 40 << "\" y2=\""
        << legendY << "\" stroke=\"" << curve.colour << "\" stroke-width=\"2\"" << dash << "/>\n";
    svg << "<text x=\"" << right + 46 << "\" y=\"" << legendY + 4 << "\">" << xmlEscape(curve.label)
        << "</text>\n";
    legendY += 22;
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "umax-lab - what each idea of micro-Max's search buys: nodes and time to depth, tactics solved and "
      "games won, with each idea switched off (umax-probe --without); progress on stderr"};
  std::string depthSuite;
  std::string tacticsSuite;
  int depth = 6;
  int minimaxDepth = 4;
  int tacticsCount = 100;
  long tacticsBudget = 10000;
  long matchBudget = 3000;
  int openings = 24;
  int plyCap = 300;
  int threads = 2;
  std::string pagePath;
  std::string svgPath;
  std::string madeBy;
  std::string sections = "depth,tactics,games";
  app.add_option("--depth-suite", depthSuite, "EPD file for nodes to depth (e.g. data/epd/bk.epd)")
      ->required();
  app.add_option("--tactics-suite", tacticsSuite, "EPD file of tactics with bm/am (e.g. data/epd/wac.epd)")
      ->required();
  app.add_option("--depth", depth, "deepest depth measured (searches with alpha-beta)")
      ->check(CLI::Range(2, 12));
  app.add_option("--minimax-depth", minimaxDepth, "deepest depth measured without alpha-beta")
      ->check(CLI::Range(2, 8));
  app.add_option("--tactics-count", tacticsCount, "the suite's first N positions")
      ->check(CLI::Range(1, 100000));
  app.add_option("--tactics-nodes", tacticsBudget, "node budget per tactics think")
      ->check(CLI::Range(100L, 100000000L));
  app.add_option("--match-nodes", matchBudget, "node budget per move in the games")
      ->check(CLI::Range(100L, 100000000L));
  app.add_option("--openings", openings, "how many of the 24 openings (each played with both colours)")
      ->check(CLI::Range(1, static_cast<int>(std::size(kOpenings))));
  app.add_option("--ply-cap", plyCap, "a game still going after this many plies is a draw")
      ->check(CLI::Range(20, 2000));
  app.add_option("--threads", threads, "worker threads")->check(CLI::Range(1, 64));
  app.add_option("--sections", sections, "which measurements: depth,tactics,games");
  app.add_option("--page", pagePath, "write the docs page (Doxygen markdown) here");
  app.add_option("--svg", svgPath, "write the plot of nodes per depth here");
  app.add_option("--made-by", madeBy, "the command and date that made the page, printed on it");
  CLI11_PARSE(app, argc, argv);
  const bool doDepth = sections.find("depth") != std::string::npos;
  const bool doTactics = sections.find("tactics") != std::string::npos;
  const bool doGames = sections.find("games") != std::string::npos;
  if ((!pagePath.empty() || !svgPath.empty()) && !(doDepth && doTactics && doGames)) {
    std::fprintf(stderr, "umax-lab: --page and --svg need all three sections\n");
    return 2;
  }

  const std::string svgMark = "written by umax-lab";
  const std::string pageMark = "{#page_lab}";
  try {
    // Refused before the measurements, not after them.
    if (!svgPath.empty()) checkOverwritable(svgPath, svgMark);
    if (!pagePath.empty()) checkOverwritable(pagePath, pageMark);
    Engine rules;
    const std::vector<umax::lab::EpdEntry> depthPositions = umax::lab::readEpd(rules, depthSuite);
    std::vector<umax::lab::EpdEntry> tactics = umax::lab::readEpd(rules, tacticsSuite);
    if (static_cast<int>(tactics.size()) > tacticsCount)
      tactics.resize(static_cast<std::size_t>(tacticsCount));
    std::vector<LabVariant> variants = makeVariants();
    for (LabVariant& variant : variants)
      variant.maxDepth = variant.lacks(Idea::kAlphaBeta) ? minimaxDepth : depth;
    // The searches without alpha-beta take longest: their jobs go first, so that the workers end together.
    std::vector<std::size_t> costliestFirst;
    for (int pass = 0; pass < 2; ++pass)
      for (std::size_t v = 0; v < variants.size(); ++v)
        if (variants[v].lacks(Idea::kAlphaBeta) == (pass == 0)) costliestFirst.push_back(v);

    // The positions' mean number of legal moves: b of the reference lines.
    double legalSum = 0;
    for (const auto& entry : depthPositions)
      legalSum += static_cast<double>(umax::lab::legalMoves(rules, entry.position).size());
    const double meanMoves = legalSum / static_cast<double>(depthPositions.size());

    // 1. Nodes to depth.
    std::vector<std::vector<DepthRow>> rows(variants.size(), std::vector<DepthRow>(depthPositions.size()));
    if (doDepth) {
      std::vector<std::function<void(ThinkWorker&)>> jobs;
      for (std::size_t v : costliestFirst)
        for (std::size_t p = 0; p < depthPositions.size(); ++p)
          jobs.push_back([&, v, p](ThinkWorker& worker) {
            rows[v][p] = measureDepths(worker.engine, depthPositions[p].position, variants[v]);
          });
      runJobs("nodes to depth", jobs, threads);
    }
    // Medians per variant and depth.
    std::vector<std::vector<double>> medianNodes(variants.size());
    std::vector<std::vector<double>> medianSeconds(variants.size());
    for (std::size_t v = 0; v < variants.size(); ++v) {
      medianNodes[v].assign(static_cast<std::size_t>(variants[v].maxDepth) + 1, 0);
      medianSeconds[v] = medianNodes[v];
      for (int d = 1; d <= variants[v].maxDepth && doDepth; ++d) {
        std::vector<double> nodes;
        std::vector<double> seconds;
        for (const DepthRow& row : rows[v]) {
          nodes.push_back(static_cast<double>(row.nodes[static_cast<std::size_t>(d)]));
          seconds.push_back(row.seconds[static_cast<std::size_t>(d)]);
        }
        medianNodes[v][static_cast<std::size_t>(d)] = median(nodes);
        medianSeconds[v][static_cast<std::size_t>(d)] = median(seconds);
      }
    }
    const auto ebf = [&](std::size_t v) {
      const int deepest = variants[v].maxDepth;
      const double low = medianNodes[v][static_cast<std::size_t>(deepest - 2)];
      return low > 0 ? std::sqrt(medianNodes[v][static_cast<std::size_t>(deepest)] / low) : 0.0;
    };

    // 2. Tactics.
    std::vector<std::vector<TacticResult>> solved(variants.size(), std::vector<TacticResult>(tactics.size()));
    if (doTactics) {
      std::vector<std::function<void(ThinkWorker&)>> jobs;
      for (std::size_t v : costliestFirst)
        for (std::size_t p = 0; p < tactics.size(); ++p)
          jobs.push_back([&, v, p](ThinkWorker& worker) {
            solved[v][p] = solve(worker.engine, tactics[p], variants[v].without, tacticsBudget);
          });
      runJobs("tactics", jobs, threads);
    }
    const auto solvedCount = [&](std::size_t v) {
      return static_cast<int>(
          std::count_if(solved[v].begin(), solved[v].end(), [](const TacticResult& r) { return r.solved; }));
    };
    const auto medianTacticNodes = [&](std::size_t v) {
      std::vector<double> nodes;
      for (const TacticResult& r : solved[v]) nodes.push_back(static_cast<double>(r.nodes));
      return median(nodes);
    };

    // 3. Games: the whole search against each idea's variant (not the all-off ones).
    std::vector<MatchFigures> matches(variants.size());
    std::vector<std::vector<GameResult>> games(variants.size());
    if (doGames) {
      std::vector<std::function<void(GameWorker&)>> jobs;
      for (std::size_t v = 1; v <= umax::kIdeas.size(); ++v) {
        games[v].resize(static_cast<std::size_t>(openings) * 2);
        for (int o = 0; o < openings; ++o)
          for (int colour = 0; colour < 2; ++colour)
            jobs.push_back([&, v, o, colour](GameWorker& worker) {
              games[v][static_cast<std::size_t>(2 * o + colour)] =
                  playGame(worker, kOpenings[o], colour == 0, variants[v].without, matchBudget, plyCap);
            });
      }
      runJobs("games", jobs, threads);
      for (std::size_t v = 1; v <= umax::kIdeas.size(); ++v) {
        MatchFigures& match = matches[v];
        double plies = 0;
        for (const GameResult& game : games[v]) {
          ++match.games;
          match.score += game.score;
          if (game.score == 1)
            ++match.wins;
          else if (game.score == 0)
            ++match.losses;
          else
            ++match.draws;
          ++match.outcomes[umax::lab::outcomeName(game.outcome)];
          plies += game.plies;
        }
        match.meanPlies = match.games ? plies / match.games : 0;
      }
    }

    // The text report.
    std::ostringstream report;
    report << "positions for depth: " << depthSuite << " (" << depthPositions.size()
           << "), mean legal moves b = " << fixed(meanMoves, 1) << "\n";
    if (doDepth) {
      report << "\nmedian nodes to complete depth D (an empty table each think)\n";
      char line[512];
      std::snprintf(line, sizeof line, "%-40s", "variant");
      report << line;
      for (int d = 1; d <= depth; ++d) {
        std::snprintf(line, sizeof line, "%12s", ("D=" + std::to_string(d)).c_str());
        report << line;
      }
      report << "     EBF\n";
      for (std::size_t v = 0; v < variants.size(); ++v) {
        std::snprintf(line, sizeof line, "%-40s", variants[v].label.c_str());
        report << line;
        for (int d = 1; d <= depth; ++d) {
          const bool has = d <= variants[v].maxDepth;
          std::snprintf(line, sizeof line, "%12s",
                        has ? withCommas(medianNodes[v][static_cast<std::size_t>(d)]).c_str() : "-");
          report << line;
        }
        report << "  " << fixed(ebf(v), 2) << "\n";
      }
      report << "Knuth-Moore minimal tree (leaves), b = " << fixed(meanMoves, 1) << ":";
      for (int d = 1; d <= depth; ++d) report << " " << withCommas(minimalTree(meanMoves, d - 1));
      report << "\n";
    }
    if (doTactics) {
      report << "\ntactics: " << tacticsSuite << ", first " << tactics.size() << " positions, budget "
             << tacticsBudget << " nodes\n";
      for (std::size_t v = 0; v < variants.size(); ++v)
        report << "  " << variants[v].label << ": " << solvedCount(v) << " solved, median nodes "
               << withCommas(medianTacticNodes(v)) << "\n";
    }
    if (doGames) {
      report << "\ngames: the whole search against each variant, " << matchBudget << " nodes per move, "
             << openings << " openings x 2 colours, ply cap " << plyCap << "\n";
      for (std::size_t v = 1; v <= umax::kIdeas.size(); ++v) {
        const MatchFigures& m = matches[v];
        std::string elo = eloText(m);
        const auto at = elo.find("&plusmn;");
        if (at != std::string::npos) elo.replace(at, 8, "+-");
        report << "  vs " << variants[v].label << ": " << m.games << " games, +" << m.wins << " =" << m.draws
               << " -" << m.losses << ", score " << fixed(m.score, 1) << ", Elo " << elo << ", ends:";
        for (const auto& [name, count] : m.outcomes) report << " " << name << " " << count;
        report << ", mean " << fixed(m.meanPlies, 0) << " plies\n";
      }
    }
    std::fputs(report.str().c_str(), stdout);
    std::fflush(stdout);

    if (!svgPath.empty() || !pagePath.empty()) {
      // The plot.
      static const char* const kColours[] = {"#000000", "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e",
                                             "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf"};
      std::vector<Curve> curves;
      for (std::size_t v = 0; v < variants.size(); ++v)
        curves.push_back(
            {variants[v].label + " (EBF " + fixed(ebf(v), 1) + ")", kColours[v % 10], medianNodes[v], false});
      Curve minimal{"Knuth-Moore minimal tree, b = " + fixed(meanMoves, 1), "#000000", {}, true};
      minimal.values.assign(static_cast<std::size_t>(depth) + 1, 0);
      for (int d = 1; d <= depth; ++d)
        minimal.values[static_cast<std::size_t>(d)] = minimalTree(meanMoves, d - 1);
      curves.push_back(minimal);
      const std::string svg = plotSvg(curves, depth,
                                      "Nodes to complete depth D, median of the " +
                                          std::to_string(depthPositions.size()) + " Bratko-Kopec positions",
                                      svgMark + " (scripts/lab.sh); " + madeBy);
      if (!svgPath.empty()) writeWhole(svgPath, svg, svgMark);

      // The page.
      std::ostringstream page;
      const int n = static_cast<int>(tactics.size());
      const std::size_t whole = 0;
      const auto depthOf = [&](std::size_t v) { return variants[v].maxDepth; };
      const auto nodesAt = [&](std::size_t v, int d) { return medianNodes[v][static_cast<std::size_t>(d)]; };
      page << "# What each idea buys {#page_lab}\n\n";
      page << "This page is written by `scripts/lab.sh` (umax-lab): every figure on it is that program's "
              "output from one run, none typed by hand.\n";
      page << "\nMade by: " << madeBy << ".\n\n";
      page << "The course explains micro-Max's search one idea at a time. Here each idea is taken away "
              "(the Lab's `--without NAME`, see umax/variant.h) and the search is measured without it: "
              "how many nodes it needs to finish a depth, how many test positions it solves, and how it "
              "fares in games against the whole search. Every figure names the search it came from: "
              "*the whole search* is micro-Max 3.2 itself, node for node the original (in the games with "
              "a smaller table, see the end of the page); *without X* is the same search with one idea "
              "off.\n\n";
      page << "## The table\n\n";
      page << "Nodes and time: median over the " << depthPositions.size()
           << " Bratko-Kopec positions, each think from an empty table to depth D (`--depth D`: D-1 "
              "full-width plies, then the draft-1 level). Searches without alpha-beta stop at depth "
           << minimaxDepth << ". Tactics: Win At Chess positions 1 to " << n << " solved at a budget of "
           << withCommas(static_cast<double>(tacticsBudget))
           << " nodes (with / without: the whole search's count, then the variant's). Games: the whole "
              "search against the search without the idea, "
           << withCommas(static_cast<double>(matchBudget)) << " nodes per move, " << openings
           << " openings with both colours; score and Elo are the whole search's, so a positive Elo is what "
              "the idea is worth (95% error bar).\n\n";
      page << "| Idea (topic) | Nodes to depth " << minimaxDepth << " | Nodes to depth " << depth
           << " | &times; the whole search's | CPU time to depth " << depth
           << " | EBF | WAC solved, with / without | Games | Score of the whole search | Elo (95%) |\n";
      page << "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
      const auto row = [&](std::size_t v, const std::string& first) {
        const bool deep = depthOf(v) >= depth;
        const int timeDepth = deep ? depth : depthOf(v);
        page << "| " << first << " | " << withCommas(nodesAt(v, minimaxDepth)) << " | "
             << (deep ? withCommas(nodesAt(v, depth)) : "&mdash; (too many)") << " | "
             << (deep ? fixed(nodesAt(v, depth) / nodesAt(whole, depth), 2)
                      : fixed(nodesAt(v, minimaxDepth) / nodesAt(whole, minimaxDepth), 1) + " (at depth " +
                            std::to_string(minimaxDepth) + ")")
             << " | " << fixed(1000 * medianSeconds[v][static_cast<std::size_t>(timeDepth)], 1) << " ms"
             << (deep ? "" : " (depth " + std::to_string(timeDepth) + ")") << " | " << fixed(ebf(v), 2)
             << " | " << solvedCount(whole) << " / " << solvedCount(v) << " | ";
        if (matches[v].games)
          page << matches[v].games << " | " << fixed(matches[v].score, 1) << " (+" << matches[v].wins << " ="
               << matches[v].draws << " &minus;" << matches[v].losses << ") | " << eloText(matches[v])
               << " |\n";
        else
          page << "&mdash; | &mdash; | &mdash; |\n";
      };
      row(whole, "*the whole search* (micro-Max 3.2)");
      for (std::size_t v = 1; v <= umax::kIdeas.size(); ++v) {
        std::string anchor = "lab_" + variants[v].key;
        std::replace(anchor.begin(), anchor.end(), '-', '_');
        row(v, "\\anchor " + anchor + " *without " + variants[v].key + "* (topic " +
                   std::to_string(variants[v].topic) + ")");
      }
      row(variants.size() - 2, "*without all seven*");
      row(variants.size() - 1, "*alpha-beta alone* (the other six off)");
      page << "\nThe last two rows play no games: a search without all seven ideas is minimax to a fixed "
              "depth with a material count, and the table's first columns show why a match against it would "
              "only measure how few plies it reaches.\n\n";

      page << "## Nodes per depth\n\n";
      page << "\\image html lab-nodes.svg \"Median nodes to complete depth D for each search (log scale); "
              "the dashed line is Knuth and Moore's minimal tree\"\n\n";
      page << "The numbers behind the plot (median nodes to complete depth D):\n\n";
      page << "| Search |";
      for (int d = 1; d <= depth; ++d) page << " D = " << d << " |";
      page << " EBF |\n|---|";
      for (int d = 1; d <= depth; ++d) page << "---:|";
      page << "---:|\n";
      for (std::size_t v = 0; v < variants.size(); ++v) {
        page << "| *" << variants[v].label << "* |";
        for (int d = 1; d <= depth; ++d)
          page << " " << (d <= depthOf(v) ? withCommas(nodesAt(v, d)) : "") << " |";
        page << " " << fixed(ebf(v), 2) << " |\n";
      }
      page << "| Knuth-Moore minimal tree, b = " << fixed(meanMoves, 1) << " |";
      for (int d = 1; d <= depth; ++d) page << " " << withCommas(minimalTree(meanMoves, d - 1)) << " |";
      page << " " << fixed(std::sqrt(meanMoves), 2) << " |\n\n";
      page << "EBF, the effective branching factor, is the square root of the ratio of the nodes at the "
              "deepest depth measured to the nodes two depths less (two plies, so that alpha-beta's odd and "
              "even depths do not mix), computed from the medians before rounding: over an even number of "
              "positions a median is the mean of the middle two and may end in .5, which the table rounds. "
              "The minimal tree counts the leaves of a tree of D-1 plies where every "
              "node has b = "
           << fixed(meanMoves, 1)
           << " moves (the positions' mean number of legal moves) and the best move is always searched "
              "first: b^ceil(p/2) + b^floor(p/2) - 1 for p plies. micro-Max counts every node it enters, "
              "the quiescence search's too, so its curves may lie above that line for reasons other than "
              "move order.\n\n";

      const std::size_t allOff = variants.size() - 2;
      const std::size_t alphaBetaOnly = variants.size() - 1;
      std::size_t noAlphaBeta = 1;
      page << "## About 35 to about 6?\n\n";
      page << "Textbooks say a chess position offers about 35 moves, so minimax searches about 35 times "
              "more nodes for each ply, and alpha-beta with a good move order cuts that to about 6 "
              "(the square root). Measured on micro-Max, on these "
           << depthPositions.size() << " positions (b = " << fixed(meanMoves, 1)
           << " legal moves on average):\n\n";
      page << "- *without all seven* (minimax, no quiescence, no table, no ordering): EBF "
           << fixed(ebf(allOff), 1) << ", close to b;\n";
      page << "- *alpha-beta alone* (the window, nothing else: moves in the board scan's order): EBF "
           << fixed(ebf(alphaBetaOnly), 1) << ";\n";
      page << "- *without alpha-beta* (everything else on, but every reply searched with the full window): "
              "EBF "
           << fixed(ebf(noAlphaBeta), 1) << " (depths " << minimaxDepth - 2 << " to " << minimaxDepth
           << "; the quiescence search's captures make the tree wider still);\n";
      page << "- *the whole search*: EBF " << fixed(ebf(whole), 1)
           << ", against sqrt(b) = " << fixed(std::sqrt(meanMoves), 1)
           << " for a perfectly ordered tree.\n\n";

      page << "## What each number means\n\n";
      page << "Each line below is quoted on the idea's topic page.\n\n";
      for (std::size_t v = 1; v <= umax::kIdeas.size(); ++v) {
        const LabVariant& variant = variants[v];
        const bool deep = depthOf(v) >= depth;
        const int d = deep ? depth : minimaxDepth;
        std::ostringstream figure;
        figure << "Figure (without " << variant.key << "): to finish depth " << d << " the search needs "
               << withCommas(nodesAt(v, d)) << " nodes (median), the whole search "
               << withCommas(nodesAt(whole, d)) << " (" << fixed(nodesAt(v, d) / nodesAt(whole, d), 2)
               << " times); it solves " << solvedCount(v) << " of " << n
               << " WAC positions (the whole search " << solvedCount(whole) << "); over " << matches[v].games
               << " games the whole search scores " << fixed(matches[v].score, 1) << " ("
               << eloText(matches[v]) << " Elo).";
        page << figure.str() << "\n\n";
      }
      page << "In the course's words:\n\n";
      page << "- **alpha-beta** (\\ref topic_alpha_beta): the window (alpha, beta) lets a node stop as soon "
              "as "
              "one reply refutes the move (a beta cutoff). Without it every reply is searched, and the node "
              "count grows by about b per ply instead of about its square root.\n";
      page << "- **quiescence** (\\ref topic_quiescence): at draft 1 the node stands pat on its eval and "
              "searches only recaptures: moves onto the square the last move reached (`z`), the only moves "
              "that keep the draft. Without it every move loses a ply and a leaf takes the static eval in "
              "the middle of an exchange, so the search is cheaper per depth but blind to the recapture: the "
              "tactics column shows the cost.\n";
      page << "- **hash** (\\ref topic_hashing): a position met again (by another move order) is answered "
              "from the table, and the stored best move is tried first. Without the table both are lost.\n";
      page << "- **best-first** (\\ref topic_move_sorting): the previous iteration's best move is searched "
              "first, so the window is narrow early and cutoffs come sooner. Without it moves come in the "
              "board scan's order.\n";
      page << "- **deepening** (\\ref topic_iterative_deepening): each node searches drafts 1, 2, ... up to "
              "its depth, so the shallow iterations find the best move that the deeper one tries first. "
              "Without it the node searches its depth at once, in the board scan's order.\n";
      page
          << "- **delayed-gain** (\\ref topic_delayed_gain): v -= v > e makes a gain now worth more than the "
             "same gain later, so the engine takes a win rather than postponing it. Without it scores do "
             "not prefer the quick win; the tree hardly changes (the penalty moves a score by one point), "
             "and the row's games say whether the quicker win is worth anything at this budget.\n";
      page << "- **centre** (\\ref topic_centre_table): the centre-table points, pawn structure and castling "
              "bonus. Without them micro-Max counts material only: most quiet moves score alike, so a first "
              "move that holds the material already cuts and the tree is smaller, but nothing tells the "
              "engine to develop, centralise or castle: the games show what that costs.\n\n";

      page << "## How it was measured\n\n";
      page << "- Positions for nodes and time: the Bratko-Kopec test, 24 positions (`data/epd/bk.epd`, see "
              "`data/epd/README.md`). Each think starts from an empty table (Engine::clearHashTable) with "
              "`--depth D`; a search with deepening reports every root iteration on the way, one without "
              "deepening is one think per depth. Any figure can be repeated with `build/bin/umax-probe "
              "--engine readable --fen FEN --without IDEA --depth D`. A position where a mate score ends the "
              "think early counts the think's nodes for every later depth.\n";
      page << "- Time: the worker thread's CPU time (CLOCK_THREAD_CPUTIME_ID), median over the positions; "
              "the run shares "
           << threads
           << " worker threads with whatever else the machine runs, so "
              "times are rough; node counts do not depend on it.\n";
      page << "- Tactics: Win At Chess (`data/epd/wac.epd`), positions 1 to " << n
           << " of 300, each from an "
              "empty table with a budget of "
           << withCommas(static_cast<double>(tacticsBudget))
           << " nodes: as in micro-Max, no iteration starts once the budget is spent, so a think ends after "
              "the iteration that crossed it (the median think of the whole search counted "
           << withCommas(medianTacticNodes(whole))
           << " nodes). Solved: the move is one of the position's `bm` moves.\n";
      page << "- Games: two engines, the whole search and the variant, play from the position after each "
              "opening's moves (";
      for (int o = 0; o < openings; ++o) page << (o ? ", " : "") << kOpenings[o].name;
      page << "), each opening twice with colours swapped, " << withCommas(static_cast<double>(matchBudget))
           << " nodes per move (the same budget rule). "
              "Every move goes to both engines through Engine::checkMove, main()'s legality check by search "
              "that plays the move. micro-Max's hash keys are relative to the root (every root has J = Z = "
              "1), and main() clears every lock before each legality check, on line 130 "
              "(`F(i,0,U)A[i].K=0;`), "
              "after the think: a "
              "think starts with the entries the last check left (\\ref topic_hash_replacement), which "
              "belong to another root; Engine::playMove does that sweep over the original's 16M slots "
              "(about 20 ms). Here each engine has a table of 2^20 slots (12 MB, far more than a think at "
              "this budget fills), cleared whole before every check and every think (about a millisecond): "
              "before a check that is the same as clearing the locks, and before a think it differs from "
              "the original only when the think meets one of the entries the check left. A move the game's "
              "rules (FIDE's) find illegal would forfeit the "
              "game (the outcomes below say if one did). A game ends in mate or stalemate, a third "
              "repetition, 50 moves "
              "without a capture or pawn move, bare kings (or a single minor piece), or after "
           << plyCap << " plies (a draw).\n";
      page << "- Elo: -400 log10(1/s - 1) for the whole search's score fraction s; the error bar is 1.96 "
              "standard errors of the per-game score, carried through the same formula. With this few games "
              "the bars are wide: an idea whose bar includes 0 is not shown to be worth anything at this "
              "budget.\n";
      page << "- Outcomes of the games:";
      for (std::size_t v = 1; v <= umax::kIdeas.size(); ++v) {
        page << (v > 1 ? ";" : "") << " *without " << variants[v].key << "*";
        for (const auto& [name, count] : matches[v].outcomes) page << " " << name << " " << count;
      }
      page << ".\n";
      if (!pagePath.empty()) writeWhole(pagePath, page.str(), pageMark);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "umax-lab: %s\n", error.what());
    return 1;
  }
  return 0;
}
