// snippet_filter.h - the sources as the walkthrough shows them: the search
// without its hooks.
//
// The readable search reports each step to a SearchObserver when it is
// compiled with kTraced = true (see the tools page), and asks memory for
// what it will read; both go through one seam, a statement of the form
//
//   hooks<kTraced>().iteration(node.draft);                  (readable/src/search.cpp)
//
// that may run on over several lines to its `;`. Those statements are there
// for the tracer and for speed, not for the algorithm, so the docs build
// gives Doxygen's \snippet a copy of each source with them taken out. Two
// older forms of a tracing statement are taken out too:
//
//   if constexpr (kTraced) observer_->onIteration(draft);     one line, or
//   if constexpr (kTraced) {                                   a block whose
//     ...                                                      closing brace
//   }                                                          stands alone
//
// and an `if constexpr (kTraced)` alone on its line, followed by one statement. The template line `template
// <bool kTraced>` and the
// `<kTraced>` of the recursive call are dropped, since the untraced search is
// the one being explained.
#pragma once
#include <sstream>
#include <string>
#include <vector>

namespace umax::docs {

inline std::string trimmed(const std::string& line) {
  const auto first = line.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const auto last = line.find_last_not_of(" \t\r");
  return line.substr(first, last - first + 1);
}

inline bool endsStatement(const std::string& line) {
  const std::string text = trimmed(line);
  return !text.empty() && text.back() == ';';
}

/// `source` without its tracing statements (see the file comment).
inline std::string withoutTracing(const std::string& source) {
  static const std::string kGuard = "if constexpr (kTraced)";
  static const std::string kHook = "hooks<kTraced>().";
  std::vector<std::string> lines;
  std::istringstream in(source);
  for (std::string line; std::getline(in, line);) lines.push_back(line);

  std::ostringstream out;
  for (std::size_t index = 0; index < lines.size(); ++index) {
    const std::string& line = lines[index];
    const std::string text = trimmed(line);
    if (text == "template <bool kTraced>") continue;
    if (text.rfind(kHook, 0) == 0) {  // a hook statement, to its `;`
      while (index < lines.size() && !endsStatement(lines[index])) ++index;
      continue;
    }
    if (text.rfind(kGuard, 0) == 0) {
      const std::string rest = trimmed(text.substr(kGuard.size()));
      if (rest == "{") {
        // A block: skip to the closing brace at the same indentation.
        const std::string indent = line.substr(0, line.find_first_not_of(" \t"));
        while (++index < lines.size() && lines[index] != indent + "}") {
        }
      } else {
        // One statement, on this line or running on to the next ones.
        if (rest.empty()) ++index;
        while (index < lines.size() && !endsStatement(lines[index])) ++index;
      }
      continue;
    }
    std::string kept = line;
    // Forced inlining is for speed (see the performance page), not the algorithm.
    for (auto at = kept.find("[[gnu::always_inline]] "); at != std::string::npos;
         at = kept.find("[[gnu::always_inline]] "))
      kept.erase(at, 23);
    for (auto at = kept.find("<kTraced>"); at != std::string::npos; at = kept.find("<kTraced>"))
      kept.erase(at, 9);
    out << kept << "\n";
  }
  return out.str();
}

}  // namespace umax::docs
