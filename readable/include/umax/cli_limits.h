/// \file cli_limits.h
/// \brief The bounds every command line states and checks (CLI11 validators):
/// a --fen that is not empty, --fen and --moves of at most kMaxInputText
/// characters, a --nodes budget that is a whole number in range, and any
/// other number an option takes (whole(), decimal(): umax/numbers.h parses).
#pragma once

#include <CLI/CLI.hpp>
#include <climits>
#include <string>

#include "umax/numbers.h"
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

/// A whole number from `least` to `most`, checked by umax::parseWhole (the
/// one parser of every tool): `->check(umax::cli::whole(1, 96))`. A refusal
/// reads "--depth: the value must be a whole number from 1 to 96, not '-1'";
/// `unit` names what is counted ("nodes"), `why` is added to the range.
/// Leading zeros, blanks, '+' and hex are refused, so CLI11's own conversion
/// of an accepted text (base 0) gives the same value.
inline CLI::Validator whole(long long least, long long most, const std::string& unit = "",
                            const std::string& why = "", const std::string& subject = "the value") {
  std::string type = "INT in [" + std::to_string(least) + " - " + std::to_string(most) + "]";
  if (most == LLONG_MAX) type = "INT >= " + std::to_string(least);
  return CLI::Validator(
      [least, most, unit, why, subject](std::string& text) -> std::string {
        std::string refusal;
        if (parseWhole(text, least, most, &refusal, unit)) return "";
        if (!why.empty()) {  // "must be <range> (why), not '...'"
          const std::size_t comma = refusal.find(", not '");
          refusal.insert(comma, " (" + why + ")");
        }
        return subject + " " + refusal;
      },
      type);
}

/// A number (digits, optional fraction and exponent) from `least` to `most`,
/// checked by umax::parseDecimal: NaN, infinities and overflows refused.
inline CLI::Validator decimal(double least, double most, const std::string& unit = "") {
  return CLI::Validator(
      [least, most, unit](std::string& text) -> std::string {
        std::string refusal;
        if (parseDecimal(text, least, most, &refusal, unit)) return "";
        return "the value " + refusal;
      },
      "NUMBER in [" + decimalText(least) + " - " + decimalText(most) + "]");
}

/// --nodes: a whole number from `least` to `most`, said so when it is not
/// ("the budget must be a whole number of nodes from 1 to 100 (why), not 'abc'").
inline CLI::Validator nodeBudget(long least, long most, const std::string& why = "") {
  return whole(least, most, "nodes", why, "the budget");
}

/// --depth: a whole number of plies from 1 to the deepest iteration the root
/// starts (kMaxIteration - 1).
inline CLI::Validator searchDepth() { return whole(1, kMaxIteration - 1, "plies", "", "the depth"); }

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
