// stats.cpp - one pass over a trace, counting what the search did; a game folder listed, each
// game's move list.
#include "umax/view/stats.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <ostream>
#include <sstream>
#include <tuple>

#include "umax/notation.h"
#include "umax/play/game_record.h"
#include "umax/session.h"
#include "umax/trace/state.h"

namespace umax::trace {

TraceStats computeStats(const TraceReader& reader) {
  TraceStats stats;
  stats.events = reader.eventCount();
  stats.bytes = reader.fileSize();
  SearchState state(reader.header());
  std::vector<Event> events;
  reader.forEachEvent(
      [&](const Event& event, uint64_t, std::size_t chunk) {
        state.apply(event, reader.chunks()[chunk].payloadOffset);
        ++stats.perKind[static_cast<int>(event.kind)];
        stats.hash.count(event);
        stats.maxPly = std::max(stats.maxPly, static_cast<int>(state.stack().size()) - 1);
        // A root iteration starts: its nodes and calls count from here (set right below).
        if (event.kind == EventKind::kIteration && state.stack().size() == 1)
          stats.iterations.push_back({event.value, state.nodes(), state.calls(), 0});
        if (event.kind == EventKind::kCutoff) ++stats.cutoffsPerDraft[state.stack().back().draft];
        // The root's store ends its iteration: what it found.
        if (event.kind == EventKind::kStore && state.stack().size() == 1 && !stats.iterations.empty()) {
          const Frame& root = state.stack().back();
          IterationStats& iteration = stats.iterations.back();
          iteration.completed = true;
          iteration.best = root.best;
          iteration.bestFrom = bestMoveSquare(root.bestFrom);
          iteration.bestTo = bestMoveSquare(root.bestTo);
        }
      },
      events);
  stats.nodes = state.nodes();
  // Each iteration's counts: up to the next one's start (the last one's: to the end).
  for (std::size_t index = 0; index < stats.iterations.size(); ++index) {
    IterationStats& iteration = stats.iterations[index];
    const bool last = index + 1 == stats.iterations.size();
    iteration.nodes = (last ? state.nodes() : stats.iterations[index + 1].nodes) - iteration.nodes;
    iteration.calls = (last ? state.calls() : stats.iterations[index + 1].calls) - iteration.calls;
    const uint64_t before = index > 0 ? stats.iterations[index - 1].nodes : 0;
    iteration.branching = before ? double(iteration.nodes) / double(before) : 0;
  }
  stats.openCalls = state.stack().size();
  return stats;
}

/// a / b, 0 when b is 0.
static double ratio(uint64_t a, uint64_t b) { return b ? double(a) / double(b) : 0.0; }

// What `umax-trace info` prints, one figure a line.
void writeInfo(const TraceReader& reader, std::ostream& out) {
  const TraceStats stats = computeStats(reader);
  const TraceHeader& header = reader.header();
  out << "nodes " << stats.nodes << "\nevents " << stats.events << "\nbytes " << stats.bytes << "\n";
  if (reader.truncated())
    out << (reader.trailingBytes() > 0 ? "extra-bytes yes (" : "truncated yes (") << reader.truncationNote()
        << ")\n";
  if (reader.hasResult() && reader.result().nodes > stats.nodes)
    out << "trimmed yes (the trace keeps the first " << stats.nodes << " of the think's "
        << reader.result().nodes << " nodes, to its size limit; the result is the whole think's)\n";
  else if (stats.openCalls > 0 && !reader.truncated())
    out << "stopped yes (the think was stopped with " << stats.openCalls
        << " calls open; the result is its last completed iteration's)\n";
  out << "position " << (header.fen.empty() ? "start position" : header.fen) << "\n";
  if (!header.moves.empty()) out << "moves " << header.moves << "\n";
  out << "search "
      << (header.variant.isDefault() ? std::string("micro-Max's own (the whole search)")
                                     : "the Lab, " + header.variant.description())
      << "\n";
  if (header.variant.depth)
    out << "budget none (the think ends after the root's iteration of draft " << header.variant.depth
        << ")\n";
  else
    out << "budget " << header.budget << "\n";
  // 2^B window starts, each reading up to 9 slots after it, and the dummy slot 0: 2^B + 9 slots.
  // The original declares A[U] with U = 2^24 + 8 (kHashEntries); its last window's ninth slot, A[U],
  // lies one past the end, and the readable build's table has it.
  out << "hash-table 2^" << header.hashSlotBits << " + 9 slots"
      << (header.hashSlotBits == kHashSlotBits
              ? " (the original's: A[] has 2^24 + 8, its last probe window reads one more past the end)"
              : " (smaller than the original's)")
      << "\n";
  if (reader.hasResult()) {
    const TraceResult& result = reader.result();
    out << "result " << formatThink(result.from, result.to, result.score, static_cast<long>(result.nodes))
        << "\n";
    // A think of a game cut short: its move was chosen, never played.
    if (!result.notPlayed.empty()) out << "not-played yes (" << result.notPlayed << ")\n";
  }
  out << "bytes-per-event " << ratio(stats.bytes, stats.events) << "\n";
  for (int kind = 1; kind < kEventKindCount; ++kind)
    out << "event " << kindName(static_cast<EventKind>(kind)) << " " << stats.perKind[kind] << "\n";
  const HashCounters& hash = stats.hash;
  out << "hash-probes " << hash.probes << "\nhash-hit-rate " << ratio(hash.hits, hash.probes)
      << "\nhash-cutoffs " << hash.hashCutoffs << "\nhash-full-windows " << hash.fullWindows
      << "\nhash-stores " << hash.storesWritten << " written, " << hash.storesRefused << " refused\n";
  for (const auto& [draft, count] : stats.cutoffsPerDraft)
    out << "cutoffs draft " << draft << " " << count << "\n";
  for (const IterationStats& iteration : stats.iterations)
    out << "iteration " << iteration.draft << " nodes " << iteration.nodes << " calls " << iteration.calls
        << " branching " << iteration.branching << "\n";
  out << "max-ply " << stats.maxPly << "\n";
}

std::vector<GamePly> gamePlies(const GameRecord& game) {
  std::vector<GamePly> plies;
  if (game.thinks.empty()) return plies;
  const GameThink& last = game.thinks.back();
  std::vector<std::string> moves = game.recordedMoves;
  if (moves.empty()) {
    std::istringstream before(last.movesBefore);
    moves.assign(std::istream_iterator<std::string>(before), std::istream_iterator<std::string>());
    if (last.finished && last.move != "none" && last.notPlayed.empty()) moves.push_back(last.move);
  }
  for (std::size_t index = 0; index < moves.size(); ++index) {
    GamePly ply;
    ply.ply = static_cast<int>(index) + 1;
    std::tie(ply.moveNumber, ply.white) = play::numberPly(game.fen, ply.ply);
    ply.move = moves[index];
    for (std::size_t think = 0; think < game.thinks.size(); ++think)
      if (game.thinks[think].ply == ply.ply && game.thinks[think].notPlayed.empty())
        ply.think = static_cast<int>(think);
    plies.push_back(std::move(ply));
  }
  return plies;
}

std::string thinkLabel(const GameThink& think) {
  return std::to_string(think.moveNumber) + (think.white ? ". " : "... ") +
         (think.finished ? think.move : std::string("?")) + (think.notPlayed.empty() ? "" : " (not played)");
}

std::string startText(const GameRecord& game) {
  return game.fen.empty() || game.fen == kStartFen ? "the start position" : game.fen;
}

std::string formatGameDir(const GameDir& dir) {
  std::ostringstream out;
  const std::filesystem::path folder(dir.path);
  for (std::size_t index = 0; index < dir.games.size(); ++index) {
    const GameRecord& game = dir.games[index];
    out << "game " << index + 1 << ": " << game.thinks.size() << " thinks, from " << startText(game);
    if (!game.recordedMoves.empty()) out << "; game.txt: " << game.recordedMoves.size() << " plies";
    if (!game.result.empty()) out << ", result " << game.result;
    out << "\n";
    out << "   ply  move    side   played   score      nodes     budget  file\n";
    for (const GameThink& think : game.thinks) {
      char line[160];
      std::snprintf(line, sizeof line, "  %4d  %4d%-3s %-6s %-6s %7s %10s %10lld  ", think.ply,
                    think.moveNumber, think.white ? "." : "...", think.white ? "white" : "black",
                    think.finished ? think.move.c_str() : "?",
                    think.finished ? std::to_string(think.score).c_str() : "-",
                    think.finished ? std::to_string(think.nodes).c_str() : "cut short",
                    static_cast<long long>(think.budget));
      out << line << std::filesystem::path(think.path).lexically_relative(folder).string();
      if (!think.notPlayed.empty()) out << "  not played: " << think.notPlayed;
      out << "\n";
    }
  }
  for (const std::string& refusal : dir.refusals) out << "not read: " << refusal << "\n";
  return out.str();
}

}  // namespace umax::trace
