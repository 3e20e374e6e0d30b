// protocol.cpp - the read loop of a protocol session: one line at a time
// until quit or end of input, each read in bounded pieces.
#include "umax/play/protocol.h"

#include <memory>

#include "session.h"

namespace umax::play {

std::unique_ptr<Session> makeXboardSession(std::ostream& out, const SessionOptions& options);
std::unique_ptr<Session> makeUciSession(std::ostream& out, const SessionOptions& options);

bool readBoundedLine(std::istream& in, std::string& line, std::size_t& length, std::size_t limit) {
  line.clear();
  length = 0;
  // Pieces of at most 1 KiB: what is kept never exceeds limit + 1 characters,
  // the rest of an overlong line is only counted.
  char piece[1024];
  bool any = false;
  for (;;) {
    in.get(piece, sizeof piece, '\n');
    const auto count = static_cast<std::size_t>(in.gcount());
    if (count > 0) {
      any = true;
      length += count;
      if (line.size() <= limit) line.append(piece, std::min(count, limit + 1 - line.size()));
    }
    if (in.eof()) return any;
    if (in.fail()) {
      // get() stored nothing: either the line end is next, or the stream broke.
      in.clear();
      if (in.peek() != '\n') return any;
    }
    if (in.peek() == '\n') {
      in.ignore();
      return true;
    }
  }
}

int runProtocol(Protocol protocol, std::istream& in, std::ostream& out, const SessionOptions& options,
                std::string_view firstLine) {
  // Untied: a read would otherwise flush `out` (std::cin is tied to
  // std::cout) from this thread while the thinking thread writes to it under
  // the session's lock. A stream is not safe from two threads: that flush
  // once sent a `move` line twice, and the GUI took the second as the next
  // move. Every line the session sends is flushed as it is sent.
  in.tie(nullptr);
  std::unique_ptr<Session> session =
      protocol == Protocol::kXboard ? makeXboardSession(out, options) : makeUciSession(out, options);
  if (!firstLine.empty() && !session->take(std::string(firstLine), firstLine.size())) return 0;
  std::string line;
  std::size_t length = 0;
  while (readBoundedLine(in, line, length, kMaxCommandLength))
    if (!session->take(line, length)) return 0;
  session->endOfInput();  // end of input: a think in progress is abandoned
  return 0;
}

}  // namespace umax::play
