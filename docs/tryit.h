// tryit.h - the one form of a runnable "Try it" block, shared by the page
// generator (which renders it) and the test suite (which runs it).
//
// In a page template or README.md, a Try-it block is a fenced block whose
// info string is `console`:
//
//   ```console
//   $ build/bin/umax-readable --fen "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1" --think --nodes 1000
//   bestmove f7g7 score 39999 nodes 138
//   ```
//
// Each line starting with "$ " is a command, run by `sh` from a folder where
// build/bin/ holds the programs (and with build/bin on PATH); the lines after
// it, up to the next command, are what it prints (stdout and stderr
// together). A line holding only "..." stands for any number of lines, so a
// page may quote just the part it talks about; trailing blanks are ignored.
#pragma once
#include <sstream>
#include <string>
#include <vector>

namespace umax::docs {

/// One command of a Try-it block and the output the page shows for it.
struct TryCommand {
  std::string command;              ///< the shell command, without "$ "
  std::vector<std::string> output;  ///< expected lines; "..." matches any run of lines
};

/// One ```console block of a page.
struct TryBlock {
  int line = 0;  ///< 1-based line of the opening fence in its file
  std::vector<TryCommand> commands;
};

/// The "..." line of an expected output: any number of lines.
inline constexpr const char* kAnyLines = "...";

inline std::string trimRight(std::string text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.pop_back();
  return text;
}

/// The Try-it blocks of a text, in order. A block with text before its
/// first command, or with no command, is an error (std::runtime_error).
inline std::vector<TryBlock> parseTryBlocks(const std::string& text) {
  std::vector<TryBlock> blocks;
  std::istringstream lines(text);
  TryBlock* open = nullptr;
  int number = 0;
  for (std::string raw; std::getline(lines, raw);) {
    ++number;
    const std::string line = trimRight(raw);
    if (!open) {
      if (line == "```console") {
        blocks.push_back({number, {}});
        open = &blocks.back();
      }
      continue;
    }
    if (line == "```") {
      if (open->commands.empty())
        throw std::runtime_error("line " + std::to_string(open->line) +
                                 ": a console block without a command");
      open = nullptr;
    } else if (line.rfind("$ ", 0) == 0) {
      open->commands.push_back({line.substr(2), {}});
    } else if (open->commands.empty()) {
      throw std::runtime_error("line " + std::to_string(number) + ": output before the first '$ ' command");
    } else {
      open->commands.back().output.push_back(line);
    }
  }
  if (open) throw std::runtime_error("line " + std::to_string(open->line) + ": a console block never closed");
  return blocks;
}

/// Does `actual` (lines, trailing blanks ignored) match `expected`, where a
/// "..." line matches any run of lines, possibly empty?
inline bool outputMatches(const std::vector<std::string>& expected, std::size_t e,
                          const std::vector<std::string>& actual, std::size_t a) {
  if (e == expected.size()) return a == actual.size();
  if (expected[e] == kAnyLines) {
    for (std::size_t skip = a; skip <= actual.size(); ++skip)
      if (outputMatches(expected, e + 1, actual, skip)) return true;
    return false;
  }
  return a < actual.size() && trimRight(actual[a]) == trimRight(expected[e]) &&
         outputMatches(expected, e + 1, actual, a + 1);
}

}  // namespace umax::docs
