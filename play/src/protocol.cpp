// protocol.cpp - the read loop of a protocol session: one line at a time
// until quit or end of input, each read in bounded pieces.
#include "umax/play/protocol.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

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

namespace {

/// A line read, with its length (readBoundedLine) and when it was read.
struct ReadLine {
  std::string text;
  std::size_t length = 0;
  std::chrono::steady_clock::time_point arrival;
  std::string command;  // its first word ("" if blank or refused)
};

/// The first word of a clean line ("" for a line cleanLine refuses).
std::string commandOf(const std::string& raw, std::size_t length) {
  std::string line = raw;
  std::string why;
  if (!cleanLine(line, length, why)) return "";
  std::string command;
  std::string rest;
  splitCommand(line, command, rest);
  return command;
}

/// Lines that only start or stop a think, or ask about it (InboxState).
bool onlyThink(const std::string& command) {
  for (const char* word : {"position", "go", "stop", "ponderhit", "isready", "."})
    if (command == word) return true;
  return false;
}

/// The lines the reader thread has read and the session has not yet taken.
class Inbox {
 public:
  void put(ReadLine line) {
    {
      std::lock_guard lock(mutex_);
      count(line, 1);
      lines_.push_back(std::move(line));
    }
    ready_.notify_one();
  }
  /// The lines not yet handled, the one being handled included.
  InboxState state() {
    std::lock_guard lock(mutex_);
    return {others_ == 0, goes_};
  }
  /// The line last taken has been handled.
  void handled() {
    std::lock_guard lock(mutex_);
    count(current_, -1);
    current_ = {};
  }
  void close() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    ready_.notify_one();
  }
  /// The next line; false once the input has ended and every line was taken.
  bool take(ReadLine& line) {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [this] { return !lines_.empty() || closed_; });
    if (lines_.empty()) return false;
    line = lines_.front();
    current_ = std::move(lines_.front());
    lines_.pop_front();
    return true;
  }

 private:
  void count(const ReadLine& line, int sign) {
    if (line.command.empty()) return;  // a blank or refused line changes nothing
    if (!onlyThink(line.command)) others_ += sign;
    if (line.command == "go") goes_ += sign;
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<ReadLine> lines_;
  ReadLine current_;  // the line being handled (text "": none)
  int others_ = 0;    // lines not yet handled that are not onlyThink
  int goes_ = 0;      // ... that are go
  bool closed_ = false;
};

}  // namespace

int runProtocol(Protocol protocol, std::istream& in, std::ostream& out, const SessionOptions& options,
                std::string_view firstLine) {
  // Untied: a read would otherwise flush `out` (std::cin is tied to
  // std::cout) from the reading thread while the thinking thread writes to it under
  // the session's lock. A stream is not safe from two threads: that flush
  // once sent a `move` line twice, and the GUI took the second as the next
  // move. Every line the session sends is flushed as it is sent.
  in.tie(nullptr);
  std::unique_ptr<Session> session =
      protocol == Protocol::kXboard ? makeXboardSession(out, options) : makeUciSession(out, options);
  if (!firstLine.empty() && !session->take(std::string(firstLine), firstLine.size())) return 0;
  std::string line;
  std::size_t length = 0;
  if (!options.threaded) {
    // Without threads each line is handled before the next is read (a
    // think runs to its end first): the tests' sessions, node for node.
    while (readBoundedLine(in, line, length, kMaxCommandLength))
      if (!session->take(line, length)) return 0;
    session->endOfInput();  // end of input: a think in progress is abandoned
    return 0;
  }
  // A thread of its own reads the input, so that a line is stamped when it
  // arrives (a think's clock counts from there) and `quit` (or the end of
  // input) is seen while earlier lines are still handled: the table's work
  // for later thinks then stops (Session::endSoon), and the engine is gone
  // within xboard's grace (xboard 4.9 kills an engine 1 s after `quit`),
  // not after a sweep of the 16M locks that no think would use. It reads
  // nothing after `quit`, so it has ended when the session does.
  // (Shared with the reader: should handling a line throw, the reader is
  // left to its blocking read, and what it uses stays.)
  std::shared_ptr<Session> shared = std::move(session);
  auto inbox = std::make_shared<Inbox>();
  std::thread reader([&in, inbox, shared] {
    std::string text;
    std::size_t size = 0;
    while (readBoundedLine(in, text, size, kMaxCommandLength)) {
      const auto arrival = std::chrono::steady_clock::now();
      std::string command = commandOf(text, size);
      if (!command.empty() && shared->answerAtOnce(command, inbox->state())) continue;
      const bool quit = command == "quit";
      inbox->put({text, size, arrival, std::move(command)});
      if (quit) {
        shared->endSoon();
        inbox->close();
        return;
      }
    }
    shared->endSoon();  // the GUI is gone: no think will be played
    inbox->close();
  });
  ReadLine next;
  bool quit = false;
  try {
    while (!quit && inbox->take(next)) {
      quit = !shared->take(next.text, next.length, next.arrival);
      inbox->handled();
    }
  } catch (...) {
    reader.detach();
    throw;
  }
  reader.join();                    // it stops at the quit it read, or at the end of input
  if (!quit) shared->endOfInput();  // end of input: a think in progress is abandoned
  return 0;
}

}  // namespace umax::play
