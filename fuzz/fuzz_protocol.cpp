// fuzz_protocol: the xboard and UCI front ends (umax_play) on arbitrary
// command streams. The first byte picks the protocol (even: xboard, odd:
// UCI), the rest is what the GUI "sends". A session must end at end of
// input, never crash, hang or trip a sanitizer, and answer every line it
// refuses with an error line in its protocol's form. Thinks run inline with
// a small fixed budget; one game (one 200 MB table) serves every input and is
// set back to main()'s start with an empty table (the original's size) before each.
#include <cstdint>
#include <sstream>
#include <string>

#include "umax/play/game.h"
#include "umax/play/protocol.h"

namespace {

/// Nodes per think: small, so that an input costs milliseconds (the budget
/// only stops new iterations, as in the original).
constexpr long kFuzzBudget = 500;

umax::play::Game& game() {
  static umax::play::Game instance;
  return instance;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto protocol = (data[0] & 1) ? umax::play::Protocol::kUci : umax::play::Protocol::kXboard;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data + 1), size - 1));
  std::ostringstream out;
  umax::play::SessionOptions options;
  options.fixedNodes = kFuzzBudget;
  options.threaded = false;
  options.game = &game();
  game().setHashMegabytes(umax::play::kDefaultHashMegabytes);  // memory / Hash of the last input undone
  if (umax::play::runProtocol(protocol, in, out, options) != 0) __builtin_trap();
  return 0;
}
