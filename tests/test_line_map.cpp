// The line map (readable/line_map.json): every code line of the original is
// mapped to readable lines that exist, to a topic, and to an annotation.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "support.h"
#include "umax/search_observer.h"

using namespace umax::test;
using nlohmann::json;

namespace {

std::string rstrip(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

const json& lineMap() {
  static const json map = json::parse(readFile(sourcePath("readable/line_map.json")));
  return map;
}

}  // namespace

TEST_CASE("the line map maps every code line of the original, in order, with its text", "[line-map]") {
  const json& map = lineMap();
  REQUIRE(map.at("format") == "umax-line-map");
  REQUIRE(map.at("version") == 2);
  const std::string source = readFile(sourcePath(map.at("minimal_source")));
  const auto sourceLines = splitLines(source);
  const std::set<int> expected = codeLinesOf(source);
  CHECK(expected.size() > 100);

  std::set<int> mapped;
  int previous = 0;
  for (const json& entry : map.at("lines")) {
    const int line = entry.at("line");
    CAPTURE(line);
    CHECK(line > previous);
    previous = line;
    mapped.insert(line);
    REQUIRE(line >= 1);
    REQUIRE(line <= static_cast<int>(sourceLines.size()));
    CHECK(entry.at("code").get<std::string>() == rstrip(sourceLines[line - 1]));
    CHECK(entry.at("note").get<std::string>().size() > 20);
    CHECK(!entry.at("readable").empty());
  }
  CHECK(mapped == expected);
}

TEST_CASE("every readable line named by the line map exists, exactly once", "[line-map]") {
  std::map<std::string, std::vector<std::string>> files;
  int resolved = 0;
  for (const json& entry : lineMap().at("lines")) {
    for (const json& place : entry.at("readable")) {
      const std::string file = place.at("file");
      const std::string match = place.at("match");
      CAPTURE(entry.at("line").get<int>(), file, match);
      if (!files.count(file)) files[file] = splitLines(readFile(sourcePath(file)));
      int found = 0;
      for (const auto& line : files[file]) found += line.find(match) != std::string::npos;
      CHECK(found == 1);
      resolved += found == 1;
    }
  }
  CHECK(resolved > 100);
}

TEST_CASE("every topic of the walkthrough is used and every topic named is known", "[line-map]") {
  std::set<std::string> known;
  for (const json& topic : lineMap().at("topics")) known.insert(topic.at("id").get<std::string>());
  CHECK(known.size() == 18);
  std::set<std::string> used;
  for (const json& entry : lineMap().at("lines")) {
    const std::string topic = entry.at("topic");
    CAPTURE(entry.at("line").get<int>(), topic);
    CHECK(known.count(topic) == 1);
    used.insert(topic);
    for (const json& also : entry.value("also", json::array())) {
      CHECK(known.count(also.get<std::string>()) == 1);
      used.insert(also.get<std::string>());
    }
  }
  CHECK(used == known);
}

TEST_CASE("the variable index names every one-letter identifier of D()", "[line-map]") {
  std::set<std::string> names;
  for (const json& variable : lineMap().at("variables")) {
    CHECK(!variable.at("readable").get<std::string>().empty());
    CHECK(!variable.at("meaning").get<std::string>().empty());
    names.insert(variable.at("name").get<std::string>());
  }
  for (const char* name : {"k", "q", "l", "e", "J", "Z", "E", "z", "n", "j", "r", "m", "v", "d", "h",
                           "i", "F", "G", "t", "p", "u", "x", "y", "X", "Y", "H", "B", "a", "A", "b",
                           "T", "N", "K", "L", "Q", "O", "I", "M", "S", "V", "C", "w", "o", "U"}) {
    CAPTURE(name);
    CHECK(names.count(name) == 1);
  }
}

TEST_CASE("every search site of the tracer names lines of both builds", "[line-map][trace]") {
  // The trace events name the SearchSite that produced them (1..13, see
  // readable/include/umax/search_observer.h); the visualizer and the docs
  // turn a site into lines through this table.
  const json& map = lineMap();
  const std::set<int> codeLineSet = codeLinesOf(readFile(sourcePath(map.at("minimal_source"))));
  std::set<int> ids;
  std::map<std::string, std::vector<std::string>> files;
  for (const json& site : map.at("sites")) {
    const int id = site.at("id");
    CAPTURE(id);
    CHECK(ids.insert(id).second);
    CHECK(!site.at("name").get<std::string>().empty());
    CHECK(site.at("description").get<std::string>().size() > 20);
    // A site has lines in the original unless the map says it has none
    // ("no_line_in_original": true, for an event the original has no
    // statement for); then it has none. So a site cannot lose its lines by
    // mistake.
    const bool noLineInOriginal = site.value("no_line_in_original", false);
    CHECK(site.at("minimal_lines").empty() == noLineInOriginal);
    for (const json& line : site.at("minimal_lines")) CHECK(codeLineSet.count(line.get<int>()) == 1);
    // The line whose note the Source panel shows, when not the first: one of the site's lines.
    if (site.contains("note_line")) {
      const int noteLine = site.at("note_line");
      CHECK(std::count(site.at("minimal_lines").begin(), site.at("minimal_lines").end(), noteLine) == 1);
    }
    CHECK(!site.at("readable").empty());
    for (const json& place : site.at("readable")) {
      const std::string file = place.at("file");
      const std::string match = place.at("match");
      CAPTURE(file, match);
      if (!files.count(file)) files[file] = splitLines(readFile(sourcePath(file)));
      int found = 0;
      for (const auto& text : files[file]) found += text.find(match) != std::string::npos;
      CHECK(found == 1);
    }
  }
  // Every site of the event schema is in the map (those of format 6's kinds, with the hash
  // cutoff, always: they name the original's lines), or, for a kind added since, the viewer finds
  // it at its hook's call in search.cpp (LineMap::load): exactly one line calls it.
  std::set<int> expected{static_cast<int>(umax::SearchSite::kHashCutoff)};
  const std::vector<std::string> search = splitLines(readFile(sourcePath("readable/src/search.cpp")));
  const auto callsOf = [&](const std::string& hook) {
    int calls = 0;
    for (const auto& text : search)
      calls += text.find("hooks<Observer>()." + hook + "(") != std::string::npos;
    return calls;
  };
#define UMAX_TEST_SITE(kind, site, record, name, hook, parameters) \
  expected.insert(site);                                           \
  CHECK((ids.count(site) == 1 ||                                   \
         (site > static_cast<int>(umax::SearchSite::kReturn) && callsOf(#hook) == 1)));
  UMAX_SEARCH_EVENTS(UMAX_TEST_SITE)
#undef UMAX_TEST_SITE
  for (const int id : ids) CHECK(expected.count(id) == 1);  // no site the schema does not have
}

TEST_CASE("the mate-probe and king-capture sites say the scores and squares of the search",
          "[line-map][docs]") {
  // The Source panel's header at the mate probe said it tells "checkmate (-infinity)"; line 103 gives a
  // mated side -I/2 (the fifth reader). The king-capture site names line 70's y-E<2&E-y<2: E itself too.
  std::map<std::string, std::string> description;
  for (const json& site : lineMap().at("sites")) description[site.at("name")] = site.at("description");
  CHECK(description.at("mate-probe").find("(-infinity)") == std::string::npos);
  CHECK(description.at("mate-probe").find("checkmate (-I/2 = -40000") != std::string::npos);
  CHECK(description.at("king-capture").find("lands on or next to the square a castling king passed") !=
        std::string::npos);
  // Its note is line 70's, which sets m = I for both (a castling refused captures nothing: line 69's
  // note, the victim's price, said "material" at the castling example; the seventh reader).
  for (const json& site : lineMap().at("sites"))
    if (site.at("name") == "king-capture") {
      const int noteLine = site.value("note_line", site.at("minimal_lines").front().get<int>());
      const std::vector<std::string> original =
          splitLines(readFile(sourcePath(lineMap().at("minimal_source"))));
      CHECK(original.at(static_cast<std::size_t>(noteLine - 1)).find("m=I") != std::string::npos);
    }
}
