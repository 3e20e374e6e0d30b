// snippet_filter.h - the sources as the walkthrough shows them: the search
// without its tracing statements.
//
// The readable search reports each step to a SearchObserver when it is
// compiled with kTraced = true (see the tools page). Those statements are
// there for the tracer, not for the algorithm, so the docs build gives
// Doxygen's \snippet a copy of each source with them taken out. A tracing
// statement has one of two forms (readable/src/engine.cpp keeps to them):
//
//   if constexpr (kTraced) observer_->onIteration(draft);     one line, or
//   if constexpr (kTraced) {                                   a block whose
//     ...                                                      closing brace
//   }                                                          stands alone
//
// An `if constexpr (kTraced)` alone on its line, followed by one statement,
// is taken out too. The template line `template <bool kTraced>` and the
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
  std::vector<std::string> lines;
  std::istringstream in(source);
  for (std::string line; std::getline(in, line);) lines.push_back(line);

  std::ostringstream out;
  for (std::size_t index = 0; index < lines.size(); ++index) {
    const std::string& line = lines[index];
    const std::string text = trimmed(line);
    if (text == "template <bool kTraced>") continue;
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
    for (auto at = kept.find("<kTraced>"); at != std::string::npos; at = kept.find("<kTraced>"))
      kept.erase(at, 9);
    out << kept << "\n";
  }
  return out.str();
}

}  // namespace umax::docs
