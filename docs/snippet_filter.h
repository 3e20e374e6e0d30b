// snippet_filter.h - the sources as the walkthrough shows them: the search
// without its hooks.
//
// The readable search reports each step to an observer when it is
// compiled for one (Observer other than NoObserver: see the tools page), and
// asks memory for what it will read; both go through one seam, a statement
// of the form
//
//   hooks<Observer>().onIteration(node.draft);               (readable/src/search.cpp)
//
// that may run on over several lines to its `;`. Those statements are there
// for the tracer and for speed, not for the algorithm, so the docs build
// gives Doxygen's \snippet a copy of each source with them taken out, and
// with them the debug build's `assert(...);` statements (checks of
// invariants, not steps of the search). The template line
// `template <class Observer>` (or `<class Observer, bool kLab>`), the `<Observer>`
// or `<Observer, kLab>` of the recursive call, the `<kLab>` of the Lab's
// switches (`without<kLab>(Idea::kHash)` reads as `without(Idea::kHash)`), the
// `<false>` of a call of the untraced search (`search<false>(...)` reads as
// `search(...)`) and the forced-inline attributes are dropped, since the
// untraced search is the one being explained; the lines a call continues on move left with it.
#pragma once
#include <algorithm>
#include <sstream>
#include <string>
#include <string_view>
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
  static const std::string kHook = "hooks<Observer>().";
  static const std::string kAssert = "assert(";
  std::vector<std::string> lines;
  std::istringstream in(source);
  for (std::string line; std::getline(in, line);) lines.push_back(line);

  std::ostringstream out;
  int openParens = 0;                           // of the statement so far
  std::size_t shift = 0;                        // columns its aligned continuation lines move left
  std::size_t alignColumn = std::string::npos;  // where those lines start
  for (std::size_t index = 0; index < lines.size(); ++index) {
    const std::string& line = lines[index];
    const std::string text = trimmed(line);
    if (text == "template <class Observer>" || text == "template <class Observer, bool kLab>") continue;
    if (text.rfind(kHook, 0) == 0 || text.rfind(kAssert, 0) == 0) {  // a hook or assert, to its `;`
      while (index < lines.size() && !endsStatement(lines[index])) ++index;
      continue;
    }
    std::string kept = line;
    // Lines that continue an open parenthesis and were aligned just after it
    // move left by what was taken out before it; lines with a plain
    // continuation indent stay where they are.
    if (openParens > 0) {
      if (kept.find_first_not_of(' ') == alignColumn) kept.erase(0, std::min(shift, alignColumn));
    } else {
      shift = 0;
      alignColumn = std::string::npos;
    }
    const int before = openParens;
    std::size_t removed = 0;
    for (const std::string_view word :
         {"[[gnu::always_inline]] ", "<Observer>", "<Observer, kLab>", "<kLab>"})
      for (auto at = kept.find(word); at != std::string::npos; at = kept.find(word)) {
        kept.erase(at, word.size());
        removed += word.size();
      }
    for (auto at = kept.find("search<false>("); at != std::string::npos; at = kept.find("search<false>(")) {
      kept.erase(at + 6, 7);  // "<false>"
      removed += 7;
    }
    for (const char c : line.substr(0, line.find("//"))) openParens += (c == '(') - (c == ')');
    openParens = std::max(openParens, 0);
    if (before == 0 && openParens > 0) {
      // The column just after the last parenthesis the line leaves open, in the original line.
      int depth = 0;
      for (std::size_t at = line.size(); at-- > 0;) {
        depth += (line[at] == ')') - (line[at] == '(');
        if (depth < 0) {
          alignColumn = at + 1;
          break;
        }
      }
      shift = removed;
    }
    out << kept << "\n";
  }
  return out.str();
}

}  // namespace umax::docs
