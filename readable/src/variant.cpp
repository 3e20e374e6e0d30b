// variant.cpp - the Lab's names: parsing --without and describing a variant.
#include "umax/variant.h"

#include <algorithm>
#include <stdexcept>

namespace umax {

std::string ideaNames() {
  std::string names;
  for (const IdeaName& entry : kIdeas) names += (names.empty() ? "" : ", ") + std::string(entry.name);
  return names;
}

unsigned parseWithout(std::string_view list) {
  if (list.empty())
    throw std::invalid_argument("the list is empty; the ideas are: " + ideaNames() + " (or all)");
  unsigned without = 0;
  for (std::size_t start = 0; start <= list.size();) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string_view name = list.substr(start, comma - start);
    start = comma + 1;
    if (name == "all") {
      for (const IdeaName& entry : kIdeas) without |= ideaBit(entry.idea);
      continue;
    }
    bool known = false;
    for (const IdeaName& entry : kIdeas) {
      if (entry.name == name) {
        without |= ideaBit(entry.idea);
        known = true;
      }
    }
    if (!known) {
      // Show what was typed, cut and with anything unprintable as '?'.
      std::string shown;
      for (const char c : name.substr(0, 40)) shown += (c >= 32 && c < 127) ? c : '?';
      throw std::invalid_argument((name.empty() ? std::string("an empty name") : "'" + shown + "'") +
                                  " is not an idea of the search; the ideas are: " + ideaNames() +
                                  " (or all)");
    }
  }
  return without;
}

std::string SearchVariant::withoutList() const {
  std::string names;
  for (const IdeaName& entry : kIdeas)
    if (lacks(entry.idea)) names += (names.empty() ? "" : ",") + std::string(entry.name);
  return names;
}

std::string SearchVariant::description() const {
  std::string text = without ? "without " : "the whole search";
  bool first = true;
  for (const IdeaName& entry : kIdeas) {
    if (!lacks(entry.idea)) continue;
    text += (first ? "" : ", ") + std::string(entry.name);
    first = false;
  }
  if (depth) text += ", to depth " + std::to_string(depth);
  return text;
}

}  // namespace umax
