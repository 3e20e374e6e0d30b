// The verbatim original: its hash, its size, its "under 2,000 characters".
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <regex>
#include <vector>

#include "../docs/snippet_filter.h"
#include "support.h"

using namespace umax::test;

namespace {

constexpr const char* kReferenceSha256 = "a3280a00a0cbdf3bcb58c9b4eae13496af0649f6ed0054b7921dc029c389f939";

/// Non-whitespace characters outside /* */ comments.
int countCodeCharacters(const std::string& source) {
  int count = 0;
  for (std::size_t index = 0; index < source.size(); ++index) {
    if (source.compare(index, 2, "/*") == 0) {
      const auto end = source.find("*/", index + 2);
      REQUIRE(end != std::string::npos);
      index = end + 1;
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(source[index]))) ++count;
  }
  return count;
}

}  // namespace

TEST_CASE("the minimal source is byte for byte the published micro-Max 3.2", "[source]") {
  const std::string path = sourcePath("minimal/micro-max.c");
  int status = -1;
  const std::string output = runCommand("sha256sum '" + path + "'", &status);
  REQUIRE(status == 0);
  CHECK(output.substr(0, 64) == kReferenceSha256);

  // When the shared reference copy sits beside the repository, compare bytes too.
  const std::string reference = sourcePath("../shared/reference/micro-max-3.2.c");
  if (std::filesystem::exists(reference)) CHECK(readFile(path) == readFile(reference));
}

TEST_CASE("the original has 133 lines and 1,971 non-blank characters outside comments", "[source]") {
  const std::string source = readFile(sourcePath("minimal/micro-max.c"));
  CHECK(std::count(source.begin(), source.end(), '\n') == 133);
  CHECK(countCodeCharacters(source) == 1971);
  CHECK(countCodeCharacters(source) < 2000);
}

namespace {

/// Leading spaces of a line.
std::size_t indentOf(const std::string& line) { return line.find_first_not_of(' '); }

bool isBlank(const std::string& line) { return line.find_first_not_of(" \t") == std::string::npos; }

}  // namespace

namespace {

/// The `// Step N.` headings of a file, in file order.
std::vector<int> stepsOf(const std::string& file) {
  const std::regex heading(R"(^\s*// Step (\d+)\. )");
  std::vector<int> steps;
  for (const auto& line : splitLines(readFile(sourcePath(file)))) {
    std::smatch match;
    if (std::regex_search(line, match, heading)) steps.push_back(std::stoi(match[1]));
  }
  return steps;
}

}  // namespace

TEST_CASE("the search numbers its steps 1..N in reading order: search.cpp with moves.h's generator",
          "[source]") {
  // search.cpp runs Steps 1-4, hands the moves of Steps 5-7 (moves.h) to
  // Steps 8-16, and ends with 17-19; moves.h also has the make and undo
  // that Steps 11 and 14 call, which name their step without a heading.
  const std::vector<int> search = stepsOf("readable/src/search.cpp");
  const std::vector<int> generator = stepsOf("readable/src/moves.h");
  REQUIRE(!search.empty());
  REQUIRE(!generator.empty());
  // In reading order: search.cpp up to the first step the generator has,
  // then the generator, then the rest of search.cpp.
  std::vector<int> steps;
  for (int step : search)
    if (step < generator.front()) steps.push_back(step);
  steps.insert(steps.end(), generator.begin(), generator.end());
  for (int step : search)
    if (step > generator.front()) steps.push_back(step);
  CHECK(steps.size() == search.size() + generator.size());
  for (std::size_t index = 0; index < steps.size(); ++index) {
    CAPTURE(index);
    CHECK(steps[index] == static_cast<int>(index) + 1);
  }

  // Every step the observer's sites name exists.
  const std::regex reference(R"(Steps? (\d+))");
  for (const auto& line : splitLines(readFile(sourcePath("readable/include/umax/search_observer.h")))) {
    for (auto it = std::sregex_iterator(line.begin(), line.end(), reference); it != std::sregex_iterator();
         ++it) {
      CAPTURE(line);
      CHECK(std::stoi((*it)[1]) <= static_cast<int>(steps.size()));
    }
  }
}

TEST_CASE("search.cpp is the search alone: no tracing call, no speed line, at most 500 lines", "[source]") {
  const auto lines = splitLines(readFile(sourcePath("readable/src/search.cpp")));
  CHECK(lines.size() <= 500);
  for (std::size_t index = 0; index < lines.size(); ++index) {
    const std::string& line = lines[index];
    CAPTURE(index + 1, line);
    for (const char* word :
         {"observer_", "prefetch", "always_inline", "__attribute__", "UndoCheck", "register"})
      CHECK(line.find(word) == std::string::npos);
  }
}

TEST_CASE("every hook statement of search.cpp has the one form the docs leave out", "[source]") {
  // `hooks<Observer>().event(...);`, alone on its line(s): the snippet filter
  // takes it out from its start to its `;`. The template parameter Observer
  // appears nowhere else but in a template's head and the recursive calls.
  const auto lines = splitLines(readFile(sourcePath("readable/src/search.cpp")));
  int statements = 0;
  for (std::size_t index = 0; index < lines.size(); ++index) {
    const std::string& line = lines[index];
    if (!std::regex_search(line, std::regex("\\bObserver\\b")) || line.compare(indentOf(line), 2, "//") == 0)
      continue;
    if (line.find("template <class Observer>") != std::string::npos ||
        line.find("template <class Observer, bool kLab>") != std::string::npos)
      continue;
    CAPTURE(index + 1, line);
    if (line.compare(indentOf(line), 18, "hooks<Observer>().") == 0) {
      ++statements;
      CHECK(line.find("hooks<", indentOf(line) + 1) == std::string::npos);  // one hook per statement
      continue;
    }
    // A recursive call or a call of a step: search<Observer, kLab>,
    // searchMove<Observer, kLab>... (the Lab's instantiation, variant.h),
    // or leaveNode<Observer>.
    CHECK(line.find("hooks<") == std::string::npos);
    CHECK((line.find("<Observer>(") != std::string::npos ||
           line.find("<Observer, kLab>(") != std::string::npos));
  }
  // One per search site but the four that the entry hook tells (call, probe,
  // hash cutoff, node counted), the store's copy of the slot before it, and
  // the memory hint of Step 11.
  CHECK(statements >= 12);
  // The filter leaves none of them.
  const std::string filtered = umax::docs::withoutTracing(readFile(sourcePath("readable/src/search.cpp")));
  CHECK(filtered.find("hooks<") == std::string::npos);
  CHECK(!std::regex_search(filtered, std::regex("\\bObserver\\b")));
  CHECK(filtered.find("<kLab>") == std::string::npos);
}

TEST_CASE("snippet markers of the readable sources come in pairs at the indent of their code", "[source]") {
  for (const char* file : {"readable/src/search.cpp", "readable/src/moves.h", "readable/src/engine.cpp",
                           "readable/src/classic.cpp", "readable/src/position.cpp",
                           "readable/include/umax/types.h", "readable/include/umax/search_rules.h"}) {
    CAPTURE(file);
    const auto lines = splitLines(readFile(sourcePath(file)));
    const std::regex marker(R"(^\s*// \[([a-z-]+)\]$)");
    std::map<std::string, int> seen;
    for (std::size_t index = 0; index < lines.size(); ++index) {
      std::smatch match;
      if (!std::regex_match(lines[index], match, marker)) continue;
      ++seen[match[1]];
      // A marker sits at the indent of the code beside it: the next or the
      // previous non-blank line (not at a trailing comment's column).
      std::size_t before = index;
      while (before > 0 && isBlank(lines[before - 1])) --before;
      std::size_t after = index + 1;
      while (after < lines.size() && isBlank(lines[after])) ++after;
      CAPTURE(index + 1, lines[index]);
      const std::size_t indent = indentOf(lines[index]);
      CHECK(((before > 0 && indentOf(lines[before - 1]) == indent) ||
             (after < lines.size() && indentOf(lines[after]) == indent)));
    }
    for (const auto& [name, count] : seen) {
      CAPTURE(name);
      CHECK(count == 2);
    }
  }
}

TEST_CASE("the search's rules are stated once, in search_rules.h, not restated elsewhere", "[source]") {
  // The forms each rule had before it was named there: a copy of one of them
  // in the engine, the tracer, play/ or the visualizer could drift from it.
  const std::vector<std::pair<std::string, std::regex>> restated = {
      {"the lock's castling term: castlingLockTerm", std::regex(R"(rookFrom\s*-\s*kNoSquare)")},
      {"the skipped square: skippedSquare", std::regex(R"(\(\s*[\w.]*from\s*\+\s*[\w.]*to\s*\)\s*/\s*2)")},
      {"the stand pat: iterationStartBest", std::regex(R"(>\s*(1|kQuiescenceDraft)\s*\?\s*-kInfinity)")},
      {"the remaining depth: remainingDepth", std::regex(R"(-\s*\(\s*[\w.]*to\s*!=\s*[\w.]*lastTo\s*\))")},
      {"the delayed-gain penalty: withDelayedGainPenalty",
       std::regex(R"((-=|-\s*\()\s*[\w.]+\s*>\s*[\w.]*eval\b)")},
      {"the reply's window: replyWindow", std::regex(R"(beta\s*-\s*\(\s*[\w.]*beta\s*>\s*[\w.]*eval)")},
      {"the bound bits: withoutBoundBits",
       std::regex(R"(from\)?\s*&\s*~(kExactBits|kOffBoard|\(kLowerBoundBit))")},
      {"the probe's window: probedEntry", std::regex(R"(<\s*kProbeSlots\s*;)")},
      {"the e.p. victim: enPassantVictimSquare", std::regex(R"(to\s*\^\s*(16|kRowStep)\b)")},
  };
  int files = 0;
  for (const char* folder : {"readable", "tracer", "play", "visualizer/src"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(sourcePath(folder))) {
      const std::string path = entry.path().string();
      if (!entry.is_regular_file() || (!path.ends_with(".cpp") && !path.ends_with(".h"))) continue;
      if (path.ends_with("search_rules.h")) continue;
      ++files;
      const auto lines = splitLines(readFile(path));
      for (std::size_t index = 0; index < lines.size(); ++index) {
        const std::string code = lines[index].substr(0, lines[index].find("//"));  // comments may quote them
        for (const auto& [rule, form] : restated) {
          CAPTURE(path, index + 1, lines[index], rule);
          CHECK_FALSE(std::regex_search(code, form));
        }
      }
    }
  }
  CHECK(files > 50);
}
