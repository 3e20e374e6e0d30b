// The "Try it" blocks of the walkthrough (docs/pages/*.md) and the README's
// example session are commands a reader types: the suite runs every one of
// them and compares what it prints with what the page shows, so a change in
// engine output (a node count, a score, a message) fails here until the
// page is updated. The block format is defined once, in docs/tryit.h.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

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

/// The file a `umax-trace record` command writes (what follows " -o "), or "" for other commands.
std::string recordedFile(const std::string& command) {
  if (command.find("umax-trace record") == std::string::npos) return "";
  const auto at = command.find(" -o ");
  if (at == std::string::npos) return "(no -o)";
  std::string file = command.substr(at + 4);
  return file.substr(0, file.find_first_of(" `,;)"));
}

/// A trace a page tells the reader to record lands in the build folder or /tmp, never among the sources.
bool outsideTheSources(const std::string& file) {
  return file.rfind("build/", 0) == 0 || file.rfind("/tmp/", 0) == 0;
}

/// The docs build's worked examples (their traces, pages and exercises.tsv), else those of a fresh run of
/// umax-docexamples into `scratch`.
fs::path examplesDir(const fs::path& scratch) {
  fs::path examples = fs::path(UMAX_BIN_DIR).parent_path() / "docs" / "examples";
  if (fs::exists(examples / "exercises.tsv")) return examples;
  const fs::path program = fs::path(UMAX_BIN_DIR) / "umax-docexamples";
  INFO("neither the docs build's examples nor " << program << " (cmake --build build --target docs)");
  REQUIRE(fs::exists(program));
  examples = scratch / "examples";
  int status = -1;
  runCommand("'" + program.string() + "' --umax-trace '" + UMAX_BIN_DIR + "/umax-trace' --out '" +
                 examples.string() + "' --viz no 2>&1",
             &status);
  REQUIRE(status == 0);
  return examples;
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
        const std::string recorded = recordedFile(command.command);
        if (!recorded.empty()) CHECK(outsideTheSources(recorded));
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

TEST_CASE("every exercise's command prints the answer the docs build worked out from its trace",
          "[docs][tryit][exercises]") {
  // The docs build's examples (its traces and exercises.tsv), else a fresh run of umax-docexamples.
  const fs::path scratch = fs::temp_directory_path() / ("umax-exercises-" + std::to_string(::getpid()));
  const fs::path examples = examplesDir(scratch);
  // Commands are written for the repository root: build/bin and build/docs/examples.
  const fs::path dir = scratch / "root";
  fs::create_directories(dir / "build" / "docs");
  fs::create_directory_symlink(fs::absolute(UMAX_BIN_DIR), dir / "build" / "bin");
  fs::create_directory_symlink(fs::absolute(examples), dir / "build" / "docs" / "examples");
  std::map<std::string, int> perPage;
  int count = 0;
  for (const std::string& row : linesOf(readFile((examples / "exercises.tsv").string()))) {
    std::vector<std::string> fields;
    std::istringstream cells(row);
    for (std::string cell; std::getline(cells, cell, '\t');) fields.push_back(cell);
    // page, question, command, then the pieces of output that show the answer (all of them).
    REQUIRE(fields.size() >= 4);
    const std::string& page = fields[0];
    const std::string& command = fields[2];
    CAPTURE(page, fields[1], command);
    ++perPage[page];
    ++count;
    int status = -1;
    const std::string output = runCommand("cd '" + dir.string() + "' && " + command + " 2>&1", &status);
    INFO("output:\n" << output);
    REQUIRE(status == 0);
    for (std::size_t piece = 3; piece < fields.size(); ++piece) {
      const std::string& expected = fields[piece];
      CAPTURE(expected);
      REQUIRE(!expected.empty());
      // The expected piece, not part of a longer number ("nodes":36 in "nodes":368, 1 in 21).
      const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
      bool found = false;
      for (auto at = output.find(expected); at != std::string::npos && !found;
           at = output.find(expected, at + 1)) {
        const char before = at > 0 ? output[at - 1] : '\n';
        const char after = at + expected.size() < output.size() ? output[at + expected.size()] : '\n';
        found = !(digit(expected.back()) && digit(after)) && !(digit(expected.front()) && digit(before));
      }
      CHECK(found);
    }
  }
  fs::remove_all(scratch);
  // Each topic page (01 to 18) ends with one to three of them.
  int pages = 0;
  for (const auto& entry : fs::directory_iterator(sourcePath("docs/pages"))) {
    const std::string name = entry.path().filename().string();
    if (name.size() < 3 || name[2] != '-' || name.substr(0, 2) < "01" || name.substr(0, 2) > "18") continue;
    const std::string text = readFile(entry.path().string());
    const auto at = text.find("\n@umax-example ");
    REQUIRE(at != std::string::npos);
    const std::string example = text.substr(at + 15, text.find('@', at + 15) - at - 15);
    CAPTURE(name, example);
    CHECK(text.find("\n@umax-example " + example + "-exercises@") != std::string::npos);
    CHECK(perPage[example] >= 1);
    CHECK(perPage[example] <= 3);
    ++pages;
  }
  CHECK(pages == 18);
  CHECK(count >= 18);
}

TEST_CASE("every worked example's recording command writes its trace where the docs build keeps it",
          "[docs][tryit][exercises]") {
  const fs::path scratch = fs::temp_directory_path() / ("umax-examples-" + std::to_string(::getpid()));
  const fs::path examples = examplesDir(scratch);
  int commands = 0;
  for (const auto& entry : fs::directory_iterator(examples)) {
    if (entry.path().extension() != ".md") continue;
    for (const std::string& line : linesOf(readFile(entry.path().string()))) {
      const std::string file = recordedFile(line);
      if (file.empty()) continue;
      CAPTURE(entry.path().filename().string(), line);
      ++commands;
      // A trace of the examples folder, where the page tells the reader to open it from.
      CHECK(file.rfind("build/docs/examples/", 0) == 0);
      CHECK(fs::exists(examples / fs::path(file).filename()));
    }
  }
  fs::remove_all(scratch);
  CHECK(commands >= 18);
}
