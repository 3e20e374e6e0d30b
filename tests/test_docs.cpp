// The walkthrough (docs/): every code line of the original is explained by a
// page, and every \snippet a page uses names a block that exists in its
// source file. Read from the sources, so it holds without building the docs.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "support.h"

using namespace umax::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

/// The walkthrough's page templates, by file name.
std::map<std::string, std::string> pageTemplates() {
  std::map<std::string, std::string> pages;
  for (const auto& entry : fs::directory_iterator(sourcePath("docs/pages")))
    if (entry.path().extension() == ".md")
      pages[entry.path().filename().string()] = readFile(entry.path().string());
  return pages;
}

/// Topic -> the page that lists it with a `@umax-listing TOPIC@` line (the
/// generator puts all of the topic's lines of the original on that page).
std::map<std::string, std::string> listedTopics(const std::map<std::string, std::string>& pages) {
  std::map<std::string, std::string> listed;
  const std::regex directive(R"(^@umax-listing ([a-z-]+)@[ \t\r]*$)");
  for (const auto& [name, text] : pages) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      std::smatch match;
      if (std::regex_match(line, match, directive)) listed[match[1]] = name;
    }
  }
  return listed;
}

struct SnippetUse {
  std::string page;
  std::string file;
  std::string block;
};

std::vector<SnippetUse> snippetUses(const std::map<std::string, std::string>& pages) {
  std::vector<SnippetUse> uses;
  const std::regex command(R"([\\@]snippet(?:lineno|doc|\{[a-z,]*\})?[ \t]+(\S+)[ \t]+(\S+))");
  for (const auto& [name, text] : pages)
    for (auto it = std::sregex_iterator(text.begin(), text.end(), command); it != std::sregex_iterator();
         ++it)
      uses.push_back({name, (*it)[1], (*it)[2]});
  return uses;
}

/// How many lines of `source` consist of the marker `// [block]` alone.
int markerCount(const std::string& source, const std::string& block) {
  int count = 0;
  std::istringstream lines(source);
  const std::string marker = "// [" + block + "]";
  for (std::string line; std::getline(lines, line);) {
    const auto first = line.find_first_not_of(" \t");
    const auto last = line.find_last_not_of(" \t\r");
    if (first != std::string::npos && line.substr(first, last - first + 1) == marker) ++count;
  }
  return count;
}

}  // namespace

TEST_CASE("every code line of the original is explained by a walkthrough page", "[docs]") {
  const json map = json::parse(readFile(sourcePath("readable/line_map.json")));
  const std::string source = readFile(sourcePath(map.at("minimal_source")));
  const auto pages = pageTemplates();
  REQUIRE(pages.size() >= 18);
  const auto listed = listedTopics(pages);

  std::map<int, std::string> topicOfLine;
  for (const auto& line : map.at("lines")) topicOfLine[line.at("line").get<int>()] = line.at("topic");

  const std::set<int> codeLines = codeLinesOf(source);
  REQUIRE(codeLines.size() == 109);
  int explained = 0;
  for (int number : codeLines) {
    CAPTURE(number);
    const auto topic = topicOfLine.find(number);
    REQUIRE(topic != topicOfLine.end());  // a line the map does not know has no page
    CAPTURE(topic->second);
    const auto page = listed.find(topic->second);
    CHECK(page != listed.end());  // its topic has no page listing it
    if (page != listed.end()) ++explained;
  }
  CHECK(explained == static_cast<int>(codeLines.size()));

  // One page per topic of the line map, and no page lists an unknown topic.
  std::set<std::string> topics;
  for (const auto& topic : map.at("topics")) topics.insert(topic.at("id").get<std::string>());
  CHECK(topics.size() == 18);
  for (const auto& topic : topics) {
    CAPTURE(topic);
    CHECK(listed.count(topic) == 1);
  }
  for (const auto& [topic, page] : listed) {
    CAPTURE(topic, page);
    CHECK(topics.count(topic) == 1);
  }
}

TEST_CASE("every \\snippet of the walkthrough names a block its source file marks", "[docs]") {
  const auto uses = snippetUses(pageTemplates());
  REQUIRE(uses.size() >= 30);
  std::set<std::string> files;
  for (const auto& use : uses) {
    CAPTURE(use.page, use.file, use.block);
    files.insert(use.file);
    // Paths are relative to the project root (the Doxyfile's EXAMPLE_PATH).
    REQUIRE(fs::exists(sourcePath(use.file)));
    // Doxygen takes the lines between the first two markers.
    CHECK(markerCount(readFile(sourcePath(use.file)), use.block) == 2);
  }
  // The readable code shown comes from more than one place: the search, the
  // vocabulary, the position set-up and the play loop.
  CHECK(files.count("readable/src/engine.cpp") == 1);
  CHECK(files.count("readable/include/umax/types.h") == 1);
  CHECK(files.count("readable/src/position.cpp") == 1);
  CHECK(files.count("readable/src/classic.cpp") == 1);
}

// Needs the generator, which is built only with the docs (UMAX_BUILD_DOCS).
#if defined(UMAX_BUILD_DOCS)
TEST_CASE("the generated pages highlight every code line of the original on its topic's page", "[docs]") {
  // Runs the page generator the docs build runs, into a scratch folder, and
  // reads its output: each code line must be a highlighted line of the
  // listing on the page of its topic, and have a row in that page's table.
  const json map = json::parse(readFile(sourcePath("readable/line_map.json")));
  const fs::path out = scratchFile("docgen");
  fs::remove_all(out);
  int status = -1;
  const std::string command = binPath("umax-docgen") + " --line-map " + sourcePath("readable/line_map.json") +
                              " --source " + sourcePath("minimal/micro-max.c") + " --pages " +
                              sourcePath("docs/pages") + " --out " + out.string() +
                              " --trace-figure '' --tools umax-trace=no 2>&1";
  const std::string output = runCommand(command, &status);
  INFO(output);
  REQUIRE(status == 0);

  std::map<std::string, std::string> pageOfTopic;
  for (const auto& [topic, page] : listedTopics(pageTemplates()))
    pageOfTopic[topic] = readFile((out / page).string());
  const std::set<int> codeLines = codeLinesOf(readFile(sourcePath(map.at("minimal_source"))));
  int highlighted = 0;
  for (const auto& line : map.at("lines")) {
    const int number = line.at("line");
    const std::string topic = line.at("topic");
    CAPTURE(number, topic);
    REQUIRE(pageOfTopic.count(topic) == 1);
    const std::string& page = pageOfTopic[topic];
    const bool inListing =
        page.find("<span class=\"umax-own\" id=\"l" + std::to_string(number) + "\"") != std::string::npos;
    const bool inTable =
        page.find("<tr><td class=\"umax-ln\">" + std::to_string(number) + "</td>") != std::string::npos;
    CHECK(inListing);
    CHECK(inTable);
    if (inListing && inTable && codeLines.count(number)) ++highlighted;
  }
  CHECK(highlighted == static_cast<int>(codeLines.size()));
  fs::remove_all(out);
}
#endif
