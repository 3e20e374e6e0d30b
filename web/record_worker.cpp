// The recorder of the web edition, run inside a Web Worker (umax-worker.js):
// the readable engine and the tracer in a WebAssembly instance of their own,
// so that a search never blocks the page, and the page that only views a
// trace never allocates the engine's hash table.
#include <emscripten.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include "umax/engine.h"
#include "umax/notation.h"
#include "umax/position.h"
#include "umax/session.h"
#include "umax/trace/writer.h"
#include "umax/types.h"

namespace {

std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + "\"";
}

/// Thrown from the recorder's progress report when a think passes the page's cap (maxNodes). The
/// web build's search is compiled without exception handling (web/CMakeLists.txt: the stop flag's
/// ThinkAborted is not caught there), so the throw passes through the search's frames to
/// umax_record, which answers without the think's figures; the engine and its trace are dropped.
struct CapReached {
  uint64_t nodes;
  int draft;
};

}  // namespace

extern "C" {

/// Records the think of `nodes` nodes after `fen` (empty: the start position) and `moves` into
/// /trace.trc; returns its result (or its error) as JSON. Progress goes to the page as messages.
/// `without` is the Lab's --without list ("" for micro-Max's own search): the think runs without
/// those ideas and its trace and answer name them. `depth` (0: none) is the Lab's --depth: the
/// think ends after the root's iteration of that draft, with no node budget (`nodes` is then 0).
/// `maxNodes` (0: none) is a cap for the page: once the think has counted that many nodes (seen at
/// its progress reports, every 65,536 nodes) it is stopped, and the answer says so (`stopped`, the
/// nodes counted, `stoppedInDraft`) with none of a finished think's figures (no move, score, depth).
EMSCRIPTEN_KEEPALIVE const char* umax_record(const char* fen, const char* moves, double nodes,
                                             const char* without, double depth, double maxNodes) {
  static std::string answer;
  try {
    if (depth != 0 && (depth != std::floor(depth) || depth < 1 || depth > umax::kMaxIteration - 1))
      throw std::invalid_argument("depth must be a whole number of plies from 1 to " +
                                  std::to_string(umax::kMaxIteration - 1));
    if (depth != 0 && nodes != 0)
      throw std::invalid_argument("nodes and depth exclude each other (a think to a depth has no budget)");
    if (depth == 0 && nodes < 1) throw std::invalid_argument("give a node budget (nodes) or a depth");
    if (maxNodes < 0) throw std::invalid_argument("maxNodes must be 0 (no cap) or a number of nodes");
    auto engine = std::make_unique<umax::Engine>();
    umax::SearchVariant variant;
    if (*without) variant.without = umax::parseWithout(without);
    variant.depth = static_cast<int>(depth);
    engine->setVariant(variant);
    const std::string fenText = fen;
    if (!fenText.empty()) engine->setPosition(umax::parseFen(fenText));
    umax::playMoves(*engine, moves);
    const double start = emscripten_get_now();  // as umax-trace record times it: the think alone
    const umax::ThinkResult result = umax::trace::recordThink(
        *engine, static_cast<long>(nodes), "/trace.trc", fenText, moves, [&](uint64_t counted, int draft) {
          EM_ASM({ postMessage({type : 'progress', nodes : $0, draft : $1}); }, static_cast<double>(counted),
                 draft);
          if (maxNodes > 0 && static_cast<double>(counted) >= maxNodes) throw CapReached{counted, draft};
        });
    answer = "{\"ok\":true,\"from\":" + std::to_string(result.from) + ",\"to\":" + std::to_string(result.to) +
             ",\"score\":" + std::to_string(result.score) + ",\"nodes\":" + std::to_string(result.nodes) +
             ",\"depth\":" + std::to_string(result.depth) +
             ",\"iterations\":" + std::to_string(result.completedIterations) +
             ",\"searchSeconds\":" + std::to_string((emscripten_get_now() - start) / 1000) +
             ",\"bestmove\":" + jsonString(umax::thinkMoveName(result.from, result.to)) +
             ",\"without\":" + jsonString(variant.withoutList()) +
             ",\"depthAsked\":" + std::to_string(variant.depth) + ",\"stopped\":false}";
  } catch (const CapReached& cap) {
    answer = "{\"ok\":true,\"stopped\":true,\"nodes\":" + std::to_string(cap.nodes) +
             ",\"stoppedInDraft\":" + std::to_string(cap.draft) +
             ",\"depthAsked\":" + std::to_string(static_cast<int>(depth)) +
             ",\"maxNodes\":" + std::to_string(static_cast<uint64_t>(maxNodes)) +
             ",\"without\":" + jsonString(without) + "}";
  } catch (const std::exception& failure) {
    answer = "{\"ok\":false,\"error\":" + jsonString(failure.what()) + "}";
  }
  return answer.c_str();
}

}  // extern "C"
