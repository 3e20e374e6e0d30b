// The recorder of the web edition, run inside a Web Worker (umax-worker.js):
// the readable engine and the tracer in a WebAssembly instance of their own,
// so that a search never blocks the page, and the page that only views a
// trace never allocates the engine's hash table.
#include <emscripten.h>

#include <cstdio>
#include <memory>
#include <string>

#include "umax/engine.h"
#include "umax/notation.h"
#include "umax/position.h"
#include "umax/session.h"
#include "umax/trace/writer.h"

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

}  // namespace

extern "C" {

/// Records the think of `nodes` nodes after `fen` (empty: the start position) and `moves` into
/// /trace.trc; returns its result (or its error) as JSON. Progress goes to the page as messages.
/// `without` is the Lab's --without list ("" for micro-Max's own search): the think runs without
/// those ideas and its trace and answer name them.
EMSCRIPTEN_KEEPALIVE const char* umax_record(const char* fen, const char* moves, double nodes,
                                             const char* without) {
  static std::string answer;
  try {
    auto engine = std::make_unique<umax::Engine>();
    umax::SearchVariant variant;
    if (*without) variant.without = umax::parseWithout(without);
    engine->setVariant(variant);
    const std::string fenText = fen;
    if (!fenText.empty()) engine->setPosition(umax::parseFen(fenText));
    umax::playMoves(*engine, moves);
    const double start = emscripten_get_now();  // as umax-trace record times it: the think alone
    const umax::ThinkResult result = umax::trace::recordThink(
        *engine, static_cast<long>(nodes), "/trace.trc", fenText, moves, [](uint64_t counted, int draft) {
          EM_ASM({ postMessage({type : 'progress', nodes : $0, draft : $1}); }, static_cast<double>(counted),
                 draft);
        });
    answer = "{\"ok\":true,\"from\":" + std::to_string(result.from) + ",\"to\":" + std::to_string(result.to) +
             ",\"score\":" + std::to_string(result.score) + ",\"nodes\":" + std::to_string(result.nodes) +
             ",\"depth\":" + std::to_string(result.depth) +
             ",\"iterations\":" + std::to_string(result.completedIterations) +
             ",\"searchSeconds\":" + std::to_string((emscripten_get_now() - start) / 1000) +
             ",\"bestmove\":" + jsonString(umax::thinkMoveName(result.from, result.to)) +
             ",\"without\":" + jsonString(variant.withoutList()) + "}";
  } catch (const std::exception& failure) {
    answer = "{\"ok\":false,\"error\":" + jsonString(failure.what()) + "}";
  }
  return answer.c_str();
}

}  // extern "C"
