/// \file cli_limits.h
/// \brief The bounds every command line states and checks (CLI11 validators):
/// a --fen that is not empty, --fen and --moves of at most kMaxInputText
/// characters, a --nodes budget that is a whole number in range.
#pragma once

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdlib>
#include <string>

#include "umax/session.h"

namespace umax::cli {

/// --fen: not empty (leave the option out for the start position), at most kMaxInputText characters.
inline CLI::Validator fenText() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (text.empty()) return "the FEN is empty (leave --fen out for the start position)";
        if (text.size() > kMaxInputText)
          return "the FEN is " + std::to_string(text.size()) + " characters long, at most " +
                 std::to_string(kMaxInputText) + " are accepted";
        return "";
      },
      "FEN of at most 65536 characters");
}

/// --moves: at most kMaxInputText characters.
inline CLI::Validator movesText() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (text.size() > kMaxInputText)
          return "the moves are " + std::to_string(text.size()) + " characters long, at most " +
                 std::to_string(kMaxInputText) + " are accepted";
        return "";
      },
      "at most 65536 characters");
}

/// --nodes: a whole number from `least` to `most`, said so when it is not.
inline CLI::Validator nodeBudget(long least, long most, const std::string& why = "") {
  return CLI::Validator(
      [least, most, why](std::string& text) -> std::string {
        const std::string range = "a whole number of nodes from " + std::to_string(least) + " to " +
                                  std::to_string(most) + (why.empty() ? "" : " (" + why + ")");
        char* end = nullptr;
        errno = 0;
        const long long value = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || errno == ERANGE)
          return "the budget must be " + range + ", not '" + shownText(text) + "'";
        if (value < least || value > most) return "the budget " + text + " is outside the range: " + range;
        return "";
      },
      "INT in [" + std::to_string(least) + " - " + std::to_string(most) + "]");
}

/// --depth: a whole number of plies from 1 to the deepest iteration the root
/// starts (kMaxIteration - 1).
inline CLI::Validator searchDepth() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const std::string range = "a whole number of plies from 1 to " + std::to_string(kMaxIteration - 1);
        char* end = nullptr;
        errno = 0;
        const long long value = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || errno == ERANGE)
          return "the depth must be " + range + ", not '" + shownText(text) + "'";
        if (value < 1 || value >= kMaxIteration)
          return "the depth " + text + " is outside the range: " + range;
        return "";
      },
      "INT in [1 - " + std::to_string(kMaxIteration - 1) + "]");
}

/// --without: names of the search's ideas (variant.h), refused with the list
/// of good ones.
inline CLI::Validator ideaList() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          parseWithout(text);
        } catch (const std::invalid_argument& error) {
          return error.what();
        }
        return "";
      },
      "IDEA[,IDEA...]");
}

}  // namespace umax::cli
