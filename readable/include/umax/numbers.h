/// \file numbers.h
/// \brief Numbers typed by a user, parsed once and strictly: the one place
/// every tool (command lines, protocol commands, the viewer's find box)
/// turns text into a number.
///
/// A whole number is an optional '-' and decimal digits, nothing else: no
/// blanks, no '+', no hex, no leading zeros (strtol's base 0 would read
/// "010" as 8, so it is refused rather than read either way). A decimal
/// number adds an optional fraction and exponent ("0.5", "2e-3"); "nan",
/// "inf" and anything that overflows are refused. A value outside the
/// range is refused, never clamped, and the refusal echoes the text as
/// typed ("-1" stays "-1", not 18446744073709551615).
#pragma once

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "umax/session.h"

namespace umax {

/// "a whole number of nodes from 1 to 100" or "a whole number of 0 or more"
/// (`most` at LLONG_MAX), `unit` (such as "nodes") left out when empty.
inline std::string wholeRangeText(long long least, long long most, std::string_view unit = "") {
  std::string text = "a whole number";
  if (!unit.empty()) text += " of " + std::string(unit);
  if (most == LLONG_MAX) return text + (unit.empty() ? " of " : ", ") + std::to_string(least) + " or more";
  return text + " from " + std::to_string(least) + " to " + std::to_string(most);
}

/// The whole number `text` spells if it is one from `least` to `most`;
/// otherwise nothing, and `why` (if given) says "must be <range>, not
/// '<text>'", the text shown as typed (shownText).
inline std::optional<long long> parseWhole(std::string_view text, long long least, long long most,
                                           std::string* why = nullptr, std::string_view unit = "") {
  const auto refuse = [&](std::string_view hint) -> std::optional<long long> {
    if (why)
      *why = "must be " + wholeRangeText(least, most, unit) + ", not '" + shownText(text) + "'" +
             std::string(hint);
    return std::nullopt;
  };
  const bool negative = !text.empty() && text[0] == '-';
  const std::string_view digits = text.substr(negative ? 1 : 0);
  if (digits.empty()) return refuse("");
  for (const char c : digits)
    if (c < '0' || c > '9') return refuse("");
  if (digits.size() > 1 && digits[0] == '0') return refuse(" (leading zeros are not accepted)");
  if (negative && digits == "0") return refuse("");
  // Magnitude with overflow detection: no value is clamped.
  unsigned long long magnitude = 0;
  for (const char c : digits) {
    const auto digit = static_cast<unsigned long long>(c - '0');
    if (magnitude > (ULLONG_MAX - digit) / 10) return refuse("");
    magnitude = magnitude * 10 + digit;
  }
  const unsigned long long limit =
      negative ? static_cast<unsigned long long>(LLONG_MAX) + 1 : static_cast<unsigned long long>(LLONG_MAX);
  if (magnitude > limit) return refuse("");
  const long long value =
      negative ? static_cast<long long>(0ULL - magnitude) : static_cast<long long>(magnitude);
  if (value < least || value > most) return refuse("");
  return value;
}

/// `value` written short: "0.001", "2", "1000000".
inline std::string decimalText(double value) {
  std::string text = std::to_string(value);  // "0.001000": its trailing zeros dropped
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

/// "a number of megabytes from 0 to 100" (`unit` left out when empty).
inline std::string decimalRangeText(double least, double most, std::string_view unit = "") {
  std::string text = "a number";
  if (!unit.empty()) text += " of " + std::string(unit);
  return text + " from " + decimalText(least) + " to " + decimalText(most);
}

/// The number `text` spells (digits with an optional '-', fraction and
/// exponent: "2", "0.5", "1e-3") if it is one from `least` to `most`;
/// otherwise nothing, and `why` (if given) says "must be <range>, not
/// '<text>'". NaN, infinities, hex and overflows are refused.
inline std::optional<double> parseDecimal(std::string_view text, double least, double most,
                                          std::string* why = nullptr, std::string_view unit = "") {
  const auto refuse = [&]() -> std::optional<double> {
    if (why) *why = "must be " + decimalRangeText(least, most, unit) + ", not '" + shownText(text) + "'";
    return std::nullopt;
  };
  std::size_t at = 0;
  const auto digitsAt = [&] {
    const std::size_t start = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
    return at - start;
  };
  if (at < text.size() && text[at] == '-') ++at;
  std::size_t mantissa = digitsAt();
  if (at < text.size() && text[at] == '.') {
    ++at;
    mantissa += digitsAt();
  }
  if (mantissa == 0) return refuse();
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    if (at < text.size() && (text[at] == '-' || text[at] == '+')) ++at;
    if (digitsAt() == 0) return refuse();
  }
  if (at != text.size()) return refuse();
  const std::string copy(text);
  errno = 0;
  const double value = std::strtod(copy.c_str(), nullptr);
  if (!std::isfinite(value) || errno == ERANGE || value < least || value > most) return refuse();
  return value;
}

}  // namespace umax
