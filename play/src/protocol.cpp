// protocol.cpp - the read loop of a protocol session: one line at a time
// until quit or end of input.
#include "umax/play/protocol.h"

#include <memory>

#include "session.h"

namespace umax::play {

std::unique_ptr<Session> makeXboardSession(std::ostream& out, const SessionOptions& options);
std::unique_ptr<Session> makeUciSession(std::ostream& out, const SessionOptions& options);

int runProtocol(Protocol protocol, std::istream& in, std::ostream& out, const SessionOptions& options,
                std::string_view firstLine) {
  std::unique_ptr<Session> session =
      protocol == Protocol::kXboard ? makeXboardSession(out, options) : makeUciSession(out, options);
  if (!firstLine.empty() && !session->handle(std::string(firstLine))) return 0;
  std::string line;
  while (std::getline(in, line))
    if (!session->handle(line)) return 0;
  session->endOfInput();  // end of input: a think in progress is abandoned
  return 0;
}

}  // namespace umax::play
