// protocol_support.h - helpers of the protocol tests: a session driven
// in-process through string streams, and the lines it answered.
#pragma once

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engines.h"
#include "support.h"
#include "umax/play/game.h"
#include "umax/play/protocol.h"

namespace umax::test {

/// One game (one engine, 270 MB) shared by the in-process protocol tests;
/// each session sets it back to main()'s start with an empty table.
inline play::Game& sharedGame() {
  static play::Game game;
  return game;
}

/// Runs a whole session on `input` without threads (each think runs to its
/// budget before the next line is read) and returns everything it wrote.
inline std::string converse(play::Protocol protocol, const std::string& input, long fixedNodes = 0,
                            const std::string& traceDir = "") {
  play::SessionOptions options;
  options.fixedNodes = fixedNodes;
  options.traceDir = traceDir;
  options.threaded = false;
  options.game = &sharedGame();
  sharedGame().setHashMegabytes(play::kDefaultHashMegabytes);  // a test's Hash / memory ends with its session
  std::istringstream in(input);
  std::ostringstream out;
  play::runProtocol(protocol, in, out, options);
  return out.str();
}

/// An output stream that calls `onLine` with each whole line as it is
/// written (for a session without threads: on the session's own thread, so
/// the callback sees the game as it is at that line).
class LineWatcher : public std::streambuf {
 public:
  explicit LineWatcher(std::function<void(const std::string&)> onLine) : onLine_(std::move(onLine)) {}
  const std::string& all() const { return all_; }

 protected:
  int overflow(int c) override {
    if (c == EOF) return 0;
    all_ += static_cast<char>(c);
    if (c == '\n') {
      onLine_(line_);
      line_.clear();
    } else {
      line_ += static_cast<char>(c);
    }
    return c;
  }

 private:
  std::function<void(const std::string&)> onLine_;
  std::string line_;
  std::string all_;
};

/// converse(), calling `onLine` with every line the session writes, when it writes it.
inline std::string converseWatching(play::Protocol protocol, const std::string& input,
                                    const std::function<void(const std::string&)>& onLine,
                                    long fixedNodes = 0) {
  play::SessionOptions options;
  options.fixedNodes = fixedNodes;
  options.threaded = false;
  options.game = &sharedGame();
  sharedGame().setHashMegabytes(play::kDefaultHashMegabytes);
  std::istringstream in(input);
  LineWatcher watcher(onLine);
  std::ostream out(&watcher);
  play::runProtocol(protocol, in, out, options);
  return watcher.all();
}

/// How many slots of the game's hash table hold a lock (a position).
inline long lockedSlots(const play::Game& game) {
  const std::span<const HashEntry> table = const_cast<play::Game&>(game).engine().hashTable();
  long locked = 0;
  for (const HashEntry& entry : table) locked += entry.lock != 0;
  return locked;
}

/// The lines of `output` that start with `prefix`, the prefix cut off.
inline std::vector<std::string> linesAfter(const std::string& output, const std::string& prefix) {
  std::vector<std::string> found;
  for (const std::string& line : splitLines(output))
    if (line.rfind(prefix, 0) == 0) found.push_back(line.substr(prefix.size()));
  return found;
}

/// True if some line of `output` is exactly `line`.
inline bool hasLine(const std::string& output, const std::string& line) {
  for (const std::string& each : splitLines(output))
    if (each == line) return true;
  return false;
}

/// The moves of `output`'s lines after `prefix` ("move ", "bestmove "):
/// each line's first four characters.
inline std::vector<std::string> movesAfter(const std::string& output, const std::string& prefix) {
  std::vector<std::string> moves = linesAfter(output, prefix);
  for (std::string& move : moves) move = move.substr(0, 4);
  return moves;
}

/// The original's own game loop, think then play, for `plies` plies from main()'s start.
inline std::vector<std::string> originalSelfPlay(std::string_view build, int plies, long budget) {
  auto engine = makeEngine(build);
  engine->reset();
  std::vector<std::string> moves;
  for (int ply = 0; ply < plies; ++ply) {
    const ThinkResult result = engine->think(budget);
    if (!engine->playMove(result.from, result.to)) break;
    moves.push_back(squareName(result.from) + squareName(result.to));
  }
  return moves;
}

/// The original's think after each of `moves`, played in turn from main()'s
/// start (each entered move, then its reply), each think of `budget` nodes.
inline std::vector<ThinkResult> originalThinks(std::initializer_list<const char*> moves, long budget) {
  auto original = makeEngine("minimal");
  original->reset();
  std::vector<ThinkResult> thinks;
  for (const char* move : moves) {
    int from;
    int to;
    REQUIRE(parseMove(move, from, to));
    REQUIRE(original->playMove(from, to));
    thinks.push_back(original->think(budget));
    REQUIRE(original->playMove(thinks.back().from, thinks.back().to));
  }
  return thinks;
}

/// The original's reply to each of `moves` (originalThinks' moves), as "e7e5".
inline std::vector<std::string> originalReplies(std::initializer_list<const char*> moves, long budget) {
  std::vector<std::string> replies;
  for (const ThinkResult& reply : originalThinks(moves, budget))
    replies.push_back(squareName(reply.from) + squareName(reply.to));
  return replies;
}

/// Runs umax-readable (with `flags`) on what the shell commands `feed` print
/// through a pipe (printf, and sleep for lines that come while it thinks),
/// killed after `timeoutSeconds`; checks that it exits with 0 and returns
/// its output.
inline std::string pipeSession(const std::string& feed, int timeoutSeconds, const std::string& flags = "") {
  int status = -1;
  const std::string output =
      runCommand("(" + feed + ") | timeout " + std::to_string(timeoutSeconds) + " '" +
                     binPath("umax-readable") + "'" + (flags.empty() ? "" : " " + flags),
                 &status);
  CHECK(status == 0);
  return output;
}

/// umax-readable on pipes, driven line by line as a GUI drives it: each
/// line is sent when the engine's answers so far call for it, not after a
/// fixed sleep, so that a loaded machine (a slow start, a starved think)
/// changes when things happen but not what the session shows.
class PipedEngine {
 public:
  /// Starts umax-readable with `flags` (words separated by blanks).
  explicit PipedEngine(const std::string& flags) {
    std::signal(SIGPIPE, SIG_IGN);  // an engine gone is seen as a failed write, not a killed test
    int toEngine[2];
    int fromEngine[2];
    REQUIRE(pipe(toEngine) == 0);
    REQUIRE(pipe(fromEngine) == 0);
    std::vector<std::string> words{binPath("umax-readable")};
    std::istringstream split(flags);
    for (std::string word; split >> word;) words.push_back(word);
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      dup2(toEngine[0], 0);
      dup2(fromEngine[1], 1);
      for (int fd : {toEngine[0], toEngine[1], fromEngine[0], fromEngine[1]}) close(fd);
      std::vector<char*> argv;
      for (std::string& word : words) argv.push_back(word.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(toEngine[0]);
    close(fromEngine[1]);
    to_ = toEngine[1];
    from_ = fromEngine[0];
  }
  PipedEngine(const PipedEngine&) = delete;
  PipedEngine& operator=(const PipedEngine&) = delete;
  ~PipedEngine() {
    if (to_ >= 0) close(to_);
    if (from_ >= 0) close(from_);
    if (pid_ > 0 && !reaped_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }

  /// Writes `line` and a newline; false if the engine is gone.
  bool send(const std::string& line) {
    const std::string data = line + "\n";
    return write(to_, data.data(), data.size()) == static_cast<ssize_t>(data.size());
  }

  /// The next line (after those already awaited) that `accept` takes, read
  /// within `timeoutSeconds`; nullopt if none came (timeout or end of output).
  std::optional<std::string> await(const std::function<bool(const std::string&)>& accept,
                                   double timeoutSeconds = 120) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
    for (;;) {
      while (next_ < lines_.size())
        if (accept(lines_[next_++])) return lines_[next_ - 1];
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now())
              .count();
      if (left <= 0 || !readSome(static_cast<int>(left))) return std::nullopt;
    }
  }
  /// await() for the line `exact`.
  bool awaitLine(const std::string& exact, double timeoutSeconds = 120) {
    return await([&exact](const std::string& line) { return line == exact; }, timeoutSeconds).has_value();
  }

  /// Closes the engine's input, reads the rest of its output and returns its
  /// exit status (-1 if it had not exited within `timeoutSeconds`: then killed).
  int finish(double timeoutSeconds = 60) {
    close(to_);
    to_ = -1;
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
    while (std::chrono::steady_clock::now() < end &&
           readSome(static_cast<int>(
               std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now())
                   .count()))) {
    }
    int status = 0;
    for (;;) {
      const pid_t done = waitpid(pid_, &status, WNOHANG);
      if (done == pid_) break;
      if (std::chrono::steady_clock::now() >= end) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        reaped_ = true;
        return -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    reaped_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  /// Everything the engine wrote so far, one line each.
  std::string output() const {
    std::string all;
    for (const std::string& line : lines_) all += line + "\n";
    return all + partial_;
  }

 private:
  /// Reads what the engine has written within `milliseconds`; false at the end of its output or on a timeout.
  bool readSome(int milliseconds) {
    pollfd ready{from_, POLLIN, 0};
    if (poll(&ready, 1, std::max(0, milliseconds)) <= 0) return false;
    char buffer[4096];
    const ssize_t count = read(from_, buffer, sizeof buffer);
    if (count <= 0) return false;
    for (ssize_t index = 0; index < count; ++index) {
      if (buffer[index] == '\n') {
        lines_.push_back(partial_);
        partial_.clear();
      } else {
        partial_ += buffer[index];
      }
    }
    return true;
  }

  pid_t pid_ = -1;
  int to_ = -1;
  int from_ = -1;
  bool reaped_ = false;
  std::vector<std::string> lines_;
  std::size_t next_ = 0;
  std::string partial_;
};

/// Checks that `output` holds `answer` and `reply`, the answer first (given
/// while the engine thought); returns where the reply starts.
inline std::size_t checkAnsweredBefore(const std::string& output, const std::string& answer,
                                       const std::string& reply) {
  const std::size_t answered = output.find(answer);
  const std::size_t replied = output.find(reply);
  REQUIRE(answered != std::string::npos);
  REQUIRE(replied != std::string::npos);
  CHECK(answered < replied);
  return replied;
}

/// Checks what a session that asked for a table smaller than the original's
/// (`megabytes`) shows: one note after `notePrefix` saying the thinks are no
/// longer node-identical, a table of 2^`slotBits` window starts within that size.
inline void checkSmallerTable(const std::string& output, const std::string& notePrefix, int slotBits,
                              std::size_t megabytes) {
  const std::vector<std::string> notes = linesAfter(output, notePrefix);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("no longer node-identical") != std::string::npos);
  const Engine& engine = sharedGame().engine();
  CHECK(engine.hashSlotBits() == slotBits);
  CHECK(engine.hashTableBytes() <= megabytes << 20);
}

/// Checks that the last of `notes` says the original's table is back and that the game has it.
inline void checkOriginalTableBack(const std::vector<std::string>& notes) {
  REQUIRE(!notes.empty());
  CHECK(notes.back().find("the original's table, thinks node-identical") != std::string::npos);
  CHECK(sharedGame().engine().hashSlotBits() == kHashSlotBits);
}

/// How many depths of the thinking lines `depths` repeat the one before
/// (lines sent when the root's best move changed within an iteration);
/// checks that none goes back to a shallower depth.
inline int repeatedDepths(const std::vector<int>& depths) {
  int repeated = 0;
  for (std::size_t index = 1; index < depths.size(); ++index) {
    CHECK(depths[index] >= depths[index - 1]);
    repeated += depths[index] == depths[index - 1];
  }
  return repeated;
}

}  // namespace umax::test
