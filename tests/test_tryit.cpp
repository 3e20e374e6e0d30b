// The "Try it" blocks of the walkthrough (docs/pages/*.md) and the README's
// example session are commands a reader types: the suite runs every one of
// them and compares what it prints with what the page shows, so a change in
// engine output (a node count, a score, a message) fails here until the
// page is updated. The block format is defined once, in docs/tryit.h.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>

#include "../docs/tryit.h"
#include "support.h"

using namespace umax::test;
using umax::docs::outputMatches;
using umax::docs::parseTryBlocks;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

/// The files whose console blocks are run: every page template and the README.
std::map<std::string, std::string> documents() {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(sourcePath("docs/pages")))
    if (entry.path().extension() == ".md")
      files["docs/pages/" + entry.path().filename().string()] = readFile(entry.path().string());
  // From the README, its "An example session" section (other sections show
  // commands whose output includes timings).
  const std::string readme = readFile(sourcePath("README.md"));
  const auto start = readme.find("\n## An example session\n");
  REQUIRE(start != std::string::npos);
  files["README.md"] = readme.substr(start, readme.find("\n## ", start + 1) - start);
  return files;
}

/// A scratch folder where `build/bin` is the build's bin folder, as in the
/// project root the pages are written for.
fs::path scratchFor(const std::string& document) {
  std::string name = document;
  for (char& c : name)
    if (c == '/' || c == '.') c = '_';
  const fs::path dir = fs::temp_directory_path() / ("umax-tryit-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir / "build");
  fs::create_directory_symlink(fs::absolute(UMAX_BIN_DIR), dir / "build" / "bin");
  return dir;
}

}  // namespace

TEST_CASE("a Try-it output matches only what the page shows, with ... for left-out lines", "[docs][tryit]") {
  const std::vector<std::string> actual = {"a", "b", "c", "d"};
  CHECK(outputMatches({"a", "b", "c", "d"}, 0, actual, 0));
  CHECK(outputMatches({"a", "...", "d"}, 0, actual, 0));
  CHECK(outputMatches({"...", "d"}, 0, actual, 0));
  CHECK(outputMatches({"a", "b", "c", "d", "..."}, 0, actual, 0));
  CHECK_FALSE(outputMatches({"a", "b", "c"}, 0, actual, 0));         // a line left out without "..."
  CHECK_FALSE(outputMatches({"a", "x", "...", "d"}, 0, actual, 0));  // a changed line
  CHECK_FALSE(outputMatches({"...", "c"}, 0, actual, 0));            // the wrong last line
  CHECK(outputMatches({"a  "}, 0, {"a"}, 0));                        // trailing blanks do not count

  const auto blocks = parseTryBlocks("text\n```console\n$ echo hi\nhi\n$ true\n```\nmore\n");
  REQUIRE(blocks.size() == 1);
  REQUIRE(blocks[0].commands.size() == 2);
  CHECK(blocks[0].commands[0].command == "echo hi");
  CHECK(blocks[0].commands[0].output == std::vector<std::string>{"hi"});
  CHECK(blocks[0].commands[1].output.empty());
  CHECK_THROWS(parseTryBlocks("```console\nhi\n```\n"));  // output before any command
  CHECK_THROWS(parseTryBlocks("```console\n$ true\n"));   // never closed
}

TEST_CASE("every Try it command of the walkthrough and the README prints what the page shows",
          "[docs][tryit]") {
  int commands = 0;
  std::set<std::string> withTryIt;
  for (const auto& [document, text] : documents()) {
    const auto blocks = parseTryBlocks(text);
    if (blocks.empty()) continue;
    withTryIt.insert(document);
    // The commands of one document run in order, in one folder: a block may
    // read the trace an earlier one recorded.
    const fs::path dir = scratchFor(document);
    for (const auto& block : blocks) {
      for (const auto& command : block.commands) {
        CAPTURE(document, block.line, command.command);
        {
          std::ofstream script(dir / "command.sh");
          script << command.command << "\n";
        }
        int status = -1;
        const std::string output = runCommand("cd '" + dir.string() + "' && PATH='" + UMAX_BIN_DIR +
                                                  "':\"$PATH\" timeout 120 sh command.sh 2>&1",
                                              &status);
        INFO("real output:\n" << output);
        CHECK(status != 124);  // timed out
        CHECK(outputMatches(command.output, 0, linesOf(output), 0));
        ++commands;
      }
    }
    fs::remove_all(dir);
  }
  fs::remove_all(fs::temp_directory_path() / ("umax-tryit-" + std::to_string(::getpid())));
  // Every topic page (01 to 18) and the README have at least one.
  CHECK(withTryIt.count("README.md") == 1);
  for (int topic = 1; topic <= 18; ++topic) {
    char prefix[32];
    std::snprintf(prefix, sizeof prefix, "docs/pages/%02d-", topic);
    bool found = false;
    for (const auto& document : withTryIt) found |= document.rfind(prefix, 0) == 0;
    CAPTURE(topic);
    CHECK(found);
  }
  CHECK(commands >= 30);
  WARN("Try-it commands run: " << commands);
}
