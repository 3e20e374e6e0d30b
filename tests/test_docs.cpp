// The walkthrough (docs/): every code line of the original is explained by a
// page, and every \snippet a page uses names a block that exists in its
// source file. Read from the sources, so it holds without building the docs.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "../docs/snippet_filter.h"
#include "engines.h"
#include "support.h"
#include "umax/engine.h"
#include "umax/notation.h"
#include "umax/session.h"
#include "umax/variant.h"

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

TEST_CASE("every Doxygen snippet command of the walkthrough names a block its source file marks", "[docs]") {
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
  CHECK(files.count("readable/src/search.cpp") == 1);
  CHECK(files.count("readable/src/moves.h") == 1);
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
  const std::string command =
      binPath("umax-docgen") + " --line-map " + sourcePath("readable/line_map.json") + " --source " +
      sourcePath("minimal/micro-max.c") + " --pages " + sourcePath("docs/pages") + " --out " + out.string() +
      " --trace-figure '' --tools umax-trace=no --snippet-root " + sourcePath("") + " 2>&1";
  const std::string output = runCommand(command, &status);
  INFO(output);
  REQUIRE(status == 0);

  // Each quoted block has a caption just above it that names its file and
  // the lines between its markers, so a reader finds it in the file itself.
  int captioned = 0;
  for (const auto& use : snippetUses(pageTemplates())) {
    CAPTURE(use.page, use.file, use.block);
    const std::string page = readFile((out / use.page).string());
    const std::regex caption("<div class=\"umax-snippet-source\">" + use.file +
                             R"(, lines (\d+)&ndash;(\d+)(?: \(Steps? [0-9, ;&a-z]+\))?</div>\n\\snippet )" +
                             use.file + " " + use.block + "\n");
    std::smatch match;
    REQUIRE(std::regex_search(page, match, caption));
    std::vector<std::string> source;
    std::istringstream lines(readFile(sourcePath(use.file)));
    for (std::string line; std::getline(lines, line);) source.push_back(line);
    const std::size_t first = std::stoul(match[1]);
    const std::size_t last = std::stoul(match[2]);
    REQUIRE((first >= 2 && last < source.size() && first <= last));
    const std::string marker = "// [" + use.block + "]";
    CHECK(source[first - 2].find(marker) != std::string::npos);  // the line before the first
    CHECK(source[last].find(marker) != std::string::npos);       // the line after the last
    ++captioned;
  }
  CHECK(captioned >= 30);

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

  // The course: the topics as subpages in the line map's order, and each
  // topic page says where it stands.
  const std::string course = readFile((out / "00-course.md").string());
  std::size_t previous = 0;
  int number = 0;
  for (const auto& topic : map.at("topics")) {
    std::string name = "topic_";
    for (char c : topic.at("id").get<std::string>()) name += c == '-' ? '_' : c;
    CAPTURE(name);
    const auto at = course.find("\\subpage " + name + "\n");
    REQUIRE(at != std::string::npos);
    CHECK(at > previous);
    previous = at;
    const std::string& page = pageOfTopic[topic.at("id").get<std::string>()];
    CHECK(page.find("<b>Topic " + std::to_string(++number) + " of 18</b>") != std::string::npos);
    CHECK(page.find("**What you will see.**") != std::string::npos);
  }
  fs::remove_all(out);
}

TEST_CASE("the page generator refuses a topic page without its course parts", "[docs]") {
  // Each topic page needs its navigation, its "What you will see" paragraph,
  // a worked example and a runnable Try it; take one away and docgen stops.
  const fs::path pages = fs::temp_directory_path() / ("umax-docgen-pages-" + std::to_string(::getpid()));
  const fs::path out = pages.string() + "-out";
  const std::pair<std::string, std::string> removals[] = {{"@umax-course-nav@", "@umax-course-nav@"},
                                                          {"**What you will see.**", "What you will see"},
                                                          {"@umax-example ", "worked example"},
                                                          {"```console", "Try it"}};
  for (const auto& [part, message] : removals) {
    CAPTURE(part);
    fs::remove_all(pages);
    fs::copy(sourcePath("docs/pages"), pages);
    std::string page = readFile((pages / "07-alpha-beta.md").string());
    for (auto at = page.find("\n" + part); at != std::string::npos; at = page.find("\n" + part))
      page.replace(at + 1, part.size(), "removed ");
    {
      std::ofstream file(pages / "07-alpha-beta.md");
      file << page;
    }
    int status = -1;
    const std::string output =
        runCommand(binPath("umax-docgen") + " --line-map " + sourcePath("readable/line_map.json") +
                       " --source " + sourcePath("minimal/micro-max.c") + " --pages " + pages.string() +
                       " --out " + out.string() + " 2>&1",
                   &status);
    INFO(output);
    CHECK(status == 1);
    CHECK(output.find("07-alpha-beta.md") != std::string::npos);
    CHECK(output.find(message) != std::string::npos);
  }
  fs::remove_all(pages);
  fs::remove_all(out);
}
#endif

TEST_CASE("the variable index gives ranges of one array that do not overlap", "[docs]") {
  // "o[0..16]" and "o[16..23]" in one meaning would give o[16] two jobs.
  const json map = json::parse(readFile(sourcePath("readable/line_map.json")));
  const std::regex range(R"(([a-zA-Z])\[(\d+)\.\.(\d+)\])");
  int ranges = 0;
  for (const auto& variable : map.at("variables")) {
    const std::string meaning = variable.at("meaning");
    std::map<std::string, std::vector<std::pair<int, int>>> byArray;
    for (auto it = std::sregex_iterator(meaning.begin(), meaning.end(), range); it != std::sregex_iterator();
         ++it)
      byArray[(*it)[1]].push_back({std::stoi((*it)[2]), std::stoi((*it)[3])});
    for (const auto& [array, spans] : byArray)
      for (std::size_t a = 0; a < spans.size(); ++a)
        for (std::size_t b = a + 1; b < spans.size(); ++b) {
          CAPTURE(variable.at("name").get<std::string>(), array, spans[a], spans[b]);
          CHECK((spans[a].second < spans[b].first || spans[b].second < spans[a].first));
          ++ranges;
        }
  }
  CHECK(ranges >= 3);  // o[] has three parts
}

TEST_CASE("the snippets the pages quote show the search without its tracing statements", "[docs]") {
  // Doxygen reads the copies docgen makes with docs/snippet_filter.h.
  const auto uses = snippetUses(pageTemplates());
  int tracedBefore = 0;
  for (const auto& use : uses) {
    CAPTURE(use.page, use.file, use.block);
    const std::string original = readFile(sourcePath(use.file));
    const std::string filtered = umax::docs::withoutTracing(original);
    auto block = [&](const std::string& text) {
      const std::string marker = "// [" + use.block + "]";
      const auto first = text.find(marker);
      const auto second = text.find(marker, first + marker.size());
      REQUIRE(second != std::string::npos);
      return text.substr(first, second - first);
    };
    tracedBefore += block(original).find("hooks<Observer>()") != std::string::npos;
    // The algorithm only: no tracing, no speed line.
    for (const char* hidden : {"observer_", "<Observer", "class Observer", "hooks<", "prefetch", "UndoCheck",
                               "always_inline", "stop_", "Abort", "<false>"}) {
      CAPTURE(hidden);
      CHECK(block(filtered).find(hidden) == std::string::npos);
    }
    // Nor a debug build's assert (a static_assert checks a formula the page shows).
    std::istringstream lines(block(filtered));
    for (std::string line; std::getline(lines, line);) {
      CAPTURE(line);
      const auto first = line.find_first_not_of(' ');
      CHECK((first == std::string::npos || line.compare(first, 7, "assert(") != 0));
    }
  }
  CHECK(tracedBefore >= 5);  // the filter has something to take out
  // The pages Doxygen made, when the docs were built before the tests (as
  // scripts/test.sh does): no topic page shows a tracing statement.
  const fs::path html = fs::path(UMAX_BIN_DIR).parent_path() / "docs" / "html";
  int topicPages = 0;
  if (fs::exists(html))
    for (const auto& entry : fs::directory_iterator(html))
      if (entry.path().filename().string().rfind("topic_", 0) == 0 && entry.path().extension() == ".html") {
        CAPTURE(entry.path().string());
        const std::string page = readFile(entry.path().string());
        CHECK(page.find("observer_") == std::string::npos);
        CHECK(page.find("&lt;Observer") == std::string::npos);
        CHECK(page.find("hooks&lt;") == std::string::npos);
        ++topicPages;
      }
  if (topicPages == 0) WARN("the docs are not built: only the filtered sources were checked");
  // The algorithm itself stays: the recursion, the cutoff, the store.
  const std::string engine = umax::docs::withoutTracing(readFile(sourcePath("readable/src/search.cpp")));
  CHECK(engine.find("score = -search(") != std::string::npos);
  CHECK(engine.find("return Verdict::kStop;") != std::string::npos);
  CHECK(engine.find("entry.lock = static_cast<int32_t>(node.hashLock);") != std::string::npos);
}

TEST_CASE("the snippet filter takes out hook and assert statements and nothing else", "[docs]") {
  const std::string source =
      "template <class Observer>\n"
      "int Engine::search(int side) {\n"
      "  hooks<Observer>().call(side);\n"
      "  int best = 0;\n"
      "  hooks<Observer>().probe(report,\n"
      "                         entry);\n"
      "  assert(best == 0 &&\n"
      "         side != 0);\n"
      "  best = -search<Observer>(side,\n"
      "                           best);\n"
      "  best = -search<Observer>(\n"
      "      side, best);\n"
      "  if (search<false>(side,\n"
      "                    best) == 0) return 1;\n"
      "  return best;\n"
      "}\n";
  CHECK(umax::docs::withoutTracing(source) ==
        "int Engine::search(int side) {\n"
        "  int best = 0;\n"
        "  best = -search(side,\n"
        "                 best);\n"
        "  best = -search(\n"
        "      side, best);\n"
        "  if (search(side,\n"
        "             best) == 0) return 1;\n"
        "  return best;\n"
        "}\n");
  // A source without tracing comes back unchanged.
  const std::string plain = "int f() {\n  if (x) {\n    y();\n  }\n  return 0;\n}\n";
  CHECK(umax::docs::withoutTracing(plain) == plain);
}

TEST_CASE("the virgin bit is on every back-rank piece of main()'s board, as the course says", "[docs]") {
  // The glossary, the flag-bit page and types.h's comment (quoted on topic 1) define it as an
  // unmoved back-rank piece, never a pawn; "a king or rook that has not moved" was once said.
  const umax::Position start = umax::makeEngine("minimal")->position();  // the board line 119 builds
  int carriers = 0;
  for (int square = 0; square < umax::kBoardSize; ++square) {
    if (!umax::isOnBoard(square)) continue;
    const int piece = start.board[static_cast<std::size_t>(square)];
    const int type = piece & umax::kTypeMask;
    const bool backRank = square < 8 || (square >= 0x70 && square < 0x78);
    CAPTURE(square, piece);
    CHECK(((piece & umax::kVirgin) != 0) == (backRank && type != umax::kEmpty));
    if (type == umax::kUpwardPawn || type == umax::kDownwardPawn) CHECK((piece & umax::kVirgin) == 0);
    carriers += (piece & umax::kVirgin) != 0;
  }
  CHECK(carriers == 16);
  const std::string types = readFile(sourcePath("readable/include/umax/types.h"));
  CHECK(types.find("The virgin bit marks a\n/// back-rank piece that has not moved") != std::string::npos);
  CHECK(types.find("king or rook that has not moved") == std::string::npos);
  CHECK(readFile(sourcePath("docs/pages/33-flags.md")).find("a back-rank piece that has not moved") !=
        std::string::npos);
}

TEST_CASE("after a castling the next root gets the square the king passed as E, as the pages say", "[docs]") {
  // Topic 4 and the glossary once said O holds 128 (-128 as a char) after every move but a double
  // step; line 87 (O=F) hands on the square a castling king passed too (the third reader).
  for (const std::string name : {"minimal", "readable"}) {
    CAPTURE(name);
    auto engine = umax::makeEngine(name);
    umax::playMoves(*engine, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6");
    CHECK(engine->position().epSquare == -128);  // after moves without a double step
    umax::playMoves(*engine, "e1g1");
    CHECK(engine->position().epSquare == 0x75);  // f1, 117: where the king passed
    umax::playMoves(*engine, "d7d5");
    CHECK(engine->position().epSquare == 0x23);  // d6: the square the double step skipped
  }
  const std::string topic = readFile(sourcePath("docs/pages/04-en-passant.md"));
  CHECK(topic.find("after a castling the square the\nking passed (f1, 117, after e1g1)") !=
        std::string::npos);
  CHECK(topic.find("After a move without a double step `O` holds 128") == std::string::npos);
  CHECK(readFile(sourcePath("docs/pages/19-glossary.md"))
            .find("the square the king passed if it was a castling (117, f1, after e1g1)") !=
        std::string::npos);
}

TEST_CASE("the flag-bit page says where the legality check's K and L are used after all", "[docs]") {
  // The third reader: row z = 9 said "the K and L it leaves there are not used". After an illegal
  // move the check's line 110 leaves its best, a8a8 (no move beats the best at that root), and an
  // empty line's think is answered from the table before its own line 110: main() checks that a8a8.
  umax::Engine engine;
  CHECK_FALSE(engine.playMove(0x64, 0x44 - 16));  // e2e5: illegal
  const umax::ThinkResult result = engine.think(10'000'000);
  CHECK(result.nodes == 0);
  CHECK(result.from == 0);
  CHECK(result.to == 0);  // a8a8, which the next check refuses
  CHECK_FALSE(engine.playMove(result.from, result.to));
  const std::string flags = readFile(sourcePath("docs/pages/33-flags.md"));
  CHECK(flags.find("are not used") == std::string::npos);
  CHECK(flags.find("are what main() checks next if an empty line's think is answered from the table") !=
        std::string::npos);
  CHECK(readFile(sourcePath("docs/pages/21-quirks.md")).find("the check refuses a8a8") != std::string::npos);
}

namespace {
/// Follows every call of a think: for each call of depth 2 or more whose draft-1 iteration
/// stands pat (a cutoff before any move, not a king capture's), whether it searched draft 2.
class StandPatWatch final : public umax::SearchObserver {
 public:
  int deepStandPats = 0;   // calls of depth >= 2 that stood pat at draft 1
  int goneOnToDraft2 = 0;  // of those, the calls that then searched draft 2
  int shallowReturns = 0;  // calls of depth 1 that stood pat and returned their eval
  void onCall(const umax::NodeCall& call) override { calls_.push_back({call.depth, call.eval, 0, 0, false}); }
  void onIteration(int draft) override {
    Call& call = calls_.back();
    if (call.standPat && draft == 2) ++goneOnToDraft2;
    call.draft = draft;
    call.moves = 0;
  }
  void onMoveMade(const umax::Move&, int, bool) override { ++calls_.back().moves; }
  void onCutoff(int best) override {
    Call& call = calls_.back();
    if (call.draft != 1 || call.moves != 0 || best > umax::kInfinity / 4) return;
    CHECK(best == call.eval);  // the stand pat: the best it starts with is its eval
    call.standPat = true;
    if (call.depth >= 2) ++deepStandPats;
  }
  void onReturn(int score, int, int, int) override {
    const Call call = calls_.back();
    calls_.pop_back();
    if (call.standPat && call.depth == 1) {
      CHECK(score == call.eval);
      ++shallowReturns;
    }
  }

 private:
  struct Call {
    int depth, eval, draft, moves;
    bool standPat;
  };
  std::vector<Call> calls_;
};
}  // namespace

TEST_CASE("a stand pat ends the draft-1 iteration, and only a call of depth 1 returns, as the glossary says",
          "[docs]") {
  // The fourth reader: the glossary said a call that stands pat "returns without a move". Line 71's
  // goto C ends the iteration; the deepening loop (line 53) then goes on to draft 2 if n >= 2.
  umax::Engine engine;
  engine.setPosition(umax::parseFen("4k3/8/2n5/3p4/4P3/2N5/8/4K3 w - - 0 1"));
  StandPatWatch watch;
  const umax::ThinkResult result = engine.think(2000, watch);
  CHECK(result.nodes == 4820);  // topic 8's exchange, as its Try it prints
  CHECK(watch.shallowReturns > 1000);
  CHECK(watch.deepStandPats > 10);
  CHECK(watch.goneOnToDraft2 == watch.deepStandPats);
  const std::string glossary = readFile(sourcePath("docs/pages/19-glossary.md"));
  CHECK(glossary.find("if that already reaches beta it returns without a move") == std::string::npos);
  CHECK(glossary.find("a call of depth 1 then returns its eval, a deeper call goes on to draft 2") !=
        std::string::npos);
  CHECK(glossary.find("a call fails high when its last iteration does (a deeper draft may follow one that") !=
        std::string::npos);
}

TEST_CASE(
    "castling past a pawn's attack is refused only with a piece of ours behind the square, as Quirks says",
    "[docs]") {
  // The fourth reader: the quirks page said the pawn's capture onto the passed square "finds none"
  // (its victim is looked for one row further, line 67). With a piece of the castling side on f2
  // that capture exists and line 70 refuses the castling.
  const auto castles = [](const std::string& name, const char* fen) {
    auto engine = umax::makeEngine(name);
    engine->setPosition(umax::parseFen(fen));
    int from = 0;
    int to = 0;
    REQUIRE(umax::parseMove("e1g1", from, to));
    return engine->playMove(from, to);
  };
  for (const std::string name : {"minimal", "readable"}) {
    CAPTURE(name);
    CHECK(castles(name, "4k3/8/8/8/8/8/6p1/4K2R w K - 0 1"));         // g2 hits f1: accepted
    CHECK_FALSE(castles(name, "4k3/8/8/8/8/8/5Np1/4K2R w K - 0 1"));  // a white knight on f2: refused
    CHECK(castles(name, "4k3/8/8/8/8/8/5np1/4K2R w K - 0 1"));        // a black one there: accepted
  }
  const std::string quirks = readFile(sourcePath("docs/pages/21-quirks.md"));
  CHECK(quirks.find("looks for its victim one row further, so it finds none") == std::string::npos);
  CHECK(quirks.find("it finds none there unless a piece of the castling side stands on it") !=
        std::string::npos);
  CHECK(quirks.find("61 leaves more than FIDE.") == std::string::npos);
  CHECK(quirks.find("61 more than FIDE's rules with queen promotions only (4,074,224)") != std::string::npos);
}

TEST_CASE("every step off the board sets bit 3 or bit 7, as the 0x88 board page says", "[docs]") {
  // Topic 2: a step right past the h-file or left past the a-file lands in columns 8 to 15 (leftwards
  // in the row above the one aimed at), a step off the top or bottom (past no side) gives a number
  // below 0 or from 128 up, and y, a char, holds every one of them as a negative number (the page
  // once said "at least 128" of the char). Checked
  // for every step vector of the original's o[] (line 26) from every real square.
  const int steps[] = {-16, -15, -17, 1, 16, 15, 17, 14, 18, 31, 33, -1, -14, -18, -31, -33};
  int offBoard = 0;
  for (int row = 0; row < 8; ++row)
    for (int file = 0; file < 8; ++file)
      for (int step : steps) {
        const int x = 16 * row + file;
        const int y = x + step;
        const int dy = (step + 8 + 128) / 16 - 8;  // the step's rows (-2 to 2) and files (-2 to 2)
        const int dx = step - 16 * dy;
        const bool off = row + dy < 0 || row + dy > 7 || file + dx < 0 || file + dx > 7;
        CAPTURE(x, step);
        CHECK(((y & 0x88) != 0) == off);
        if (!off) continue;
        ++offBoard;
        const bool side = file + dx < 0 || file + dx > 7;
        if (!side) {  // off the top or bottom only
          CHECK((y < 0 || y >= 128));
          CHECK(static_cast<signed char>(y) < 0);            // line 38: char y
          CHECK((static_cast<signed char>(y) & 0x80) != 0);  // bit 7
        }
        if (side) {
          CHECK((y & 15) >= 8);  // off a side: columns 8 to 15
          // Leftwards in the row above the one the step aims at, rightwards in that row.
          if (y >= 0 && y < 128) CHECK(y / 16 == row + dy - (file + dx < 0 ? 1 : 0));
        }
      }
  CHECK(offBoard > 100);
  const std::string page = readFile(sourcePath("docs/pages/02-board.md"));
  CHECK(page.find("walking right past the h-file or left past the a-file lands in columns 8 to 15") !=
        std::string::npos);
  CHECK(page.find("negative or at\nleast 128") == std::string::npos);
  CHECK(page.find("0x77 + 16 = 135 is stored as -121, 0x87") != std::string::npos);
  CHECK(static_cast<signed char>(0x77 + 16) == -121);
}

TEST_CASE("y+r+1&S finds the last rank for every pawn step, and its +1 settles two edge cases", "[docs]") {
  // Topic 6 once said a black pawn's next step from rank 1 "reaches 128 or more" and that the +1
  // "keeps one edge case out" (white's capture onto a7). A black capture onto a1 with +15 reaches
  // only 0x7F = 127: the +1 also makes that one a promotion (the fifth reader).
  std::set<std::pair<int, int>> differ;
  for (int x = 0; x < 128; ++x) {
    if (x & 0x88) continue;
    for (int step : {-16, -15, -17, 16, 15, 17}) {
      const int y = x + step;
      if (y & 0x88) continue;
      const bool lastRank = step < 0 ? y < 0x08 : y >= 0x70;
      CAPTURE(x, step);
      CHECK((((y + step + 1) & 128) != 0) == lastRank);  // line 80
      if ((((y + step) & 128) != 0) != lastRank) differ.insert({y, step});
    }
  }
  CHECK(differ == std::set<std::pair<int, int>>{{0x10, -17}, {0x70, 15}});
  for (const std::string name : {"minimal", "readable"}) {  // b2xa1 promotes, in both builds
    CAPTURE(name);
    auto engine = umax::makeEngine(name);
    engine->setPosition(umax::parseFen("4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1"));
    int from = 0;
    int to = 0;
    REQUIRE(umax::parseMove("b2a1", from, to));
    REQUIRE(engine->playMove(from, to));
    CHECK(engine->position().board[0x70] == (16 | 7));  // a black queen
  }
  const std::string page = readFile(sourcePath("docs/pages/06-promotion.md"));
  CHECK(page.find("reaches 128 or more") == std::string::npos);
  CHECK(page.find("captures onto a1 (0x70)\nwith +15 would give 0x7F = 127") != std::string::npos);
}

TEST_CASE("the figures give the reply's window and the probe's start as the code has them", "[docs]") {
  // Topic 7's figure gave the reply's alpha as -l (line 82: -l-(l>e)) and said a hit "deep enough"
  // returns V (line 47 also needs its bound to settle the window); topic 10's gave the resumed draft
  // as the stored one (line 48: n-1 when it was deep enough). The fifth reader.
  const std::string source = readFile(sourcePath("minimal/micro-max.c"));
  REQUIRE(source.find("v=-D(24-k,-l-(l>e),m>q?-m:-q,-e-v-i,") != std::string::npos);
  REQUIRE(source.find("d=n-1;") != std::string::npos);
  const std::string alphaBeta = readFile(sourcePath("docs/pages/07-alpha-beta.md"));
  CHECK(alphaBeta.find("-D(24-k, -l, ") == std::string::npos);
  CHECK(alphaBeta.find("v = -D(24-k, -l-(l>e), -max(q,m),") != std::string::npos);
  CHECK(alphaBeta.find("(hit deep enough: return V)") == std::string::npos);
  const std::string deepening = readFile(sourcePath("docs/pages/10-iterative-deepening.md"));
  CHECK(deepening.find("probe: d = stored draft\\n(n-1 if it was deep enough)") != std::string::npos);
}

TEST_CASE("the glossary's fail low is an iteration's, as its fail high is", "[docs]") {
  // It said a call fails low when "every move was tried": at draft 1 only recaptures are (line 73),
  // and an iteration that fails low may be followed by a deeper one (the fifth reader).
  const std::string glossary = readFile(sourcePath("docs/pages/19-glossary.md"));
  CHECK(glossary.find("every move was tried") == std::string::npos);
  CHECK(glossary.find("| fail low | An iteration whose best score stays at or below alpha") !=
        std::string::npos);
  CHECK(glossary.find("| fail high | An iteration whose best score reaches beta") != std::string::npos);
}

TEST_CASE("the board scan x=x+9&~M of the move-generation page visits the 64 real squares", "[docs]") {
  // The page said "all 128 board bytes" once; the scan skips the right half.
  std::set<int> visited;
  int x = 0;
  do {
    CHECK((x & 0x88) == 0);
    visited.insert(x);
    x = (x + 9) & ~0x88;
  } while (x != 0 && visited.size() < 200);
  CHECK(visited.size() == 64);
  const std::string page = readFile(sourcePath("docs/pages/03-move-generation.md"));
  CHECK(page.find("128 board bytes") == std::string::npos);
  CHECK(page.find("64 squares") != std::string::npos);
}

TEST_CASE("the node counts the course gives for the original's own budget are the think's", "[docs][.slow]") {
  // Topic 18: an empty line after 1. e4 thinks with the original's budget of 10,000,000 nodes, and
  // counts far more (the last iteration runs to its end); topic 18 and the README say how many.
  auto engine = std::make_unique<umax::Engine>();
  umax::playMoves(*engine, "e2e4");
  const umax::ThinkResult result = engine->think(10'000'000);
  CHECK(result.nodes == 72'643'997);
  const std::string page = readFile(sourcePath("docs/pages/18-legality-interface.md"));
  CHECK(page.find("counts 72,643,997 nodes") != std::string::npos);
  CHECK(page.find("plays " + umax::thinkMoveName(result.from, result.to) + " (score " +
                  std::to_string(result.score) + ", 72643997 nodes)") != std::string::npos);
}

TEST_CASE("the Source panel's header at the mate probe names the probe's own line", "[docs][line-map]") {
  // The header shows the first original line of the event's site: for the mate probe it once was
  // line 102 (C:, the mate-score test), above the probe's call on line 103.
  const json map = json::parse(readFile(sourcePath("readable/line_map.json")));
  const std::string source = readFile(sourcePath(map.at("minimal_source")));
  std::vector<std::string> lines;
  std::istringstream in(source);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  bool found = false;
  for (const json& site : map.at("sites"))
    if (site.at("name") == "mate-probe") {
      found = true;
      const int first = site.at("minimal_lines").front();
      CAPTURE(first);
      REQUIRE(first >= 1);
      REQUIRE(static_cast<std::size_t>(first) <= lines.size());
      CHECK(lines[static_cast<std::size_t>(first - 1)].find("-D(24-k,-I,I,0,J,Z,S,S,1)") !=
            std::string::npos);
    }
  CHECK(found);
}

TEST_CASE("the Lab page and its plot are there and linked, and each idea's topic page quotes its row",
          "[docs][lab-page]") {
  // docs/pages/31-lab.md and docs/images/lab-nodes.svg are scripts/lab.sh's
  // output (umax-lab). The main page links the page; Doxygen fails the docs
  // build on a missing image or an unknown \ref. Each idea's topic page links
  // its row (\anchor lab_NAME) and quotes the row's figure line word for word,
  // so a new run of lab.sh with other figures fails here until they are
  // quoted again.
  const std::string page = readFile(sourcePath("docs/pages/31-lab.md"));
  CHECK(page.rfind("# What each idea buys {#page_lab}\n", 0) == 0);
  CHECK(page.find("This page is written by `scripts/lab.sh`") != std::string::npos);
  CHECK(page.find("Made by: `scripts/lab.sh --page` on ") != std::string::npos);
  CHECK(page.find("\\image html lab-nodes.svg ") != std::string::npos);
  CHECK(readFile(sourcePath("docs/pages/00-index.md")).find("\\ref page_lab") != std::string::npos);
  const std::string svg = readFile(sourcePath("docs/images/lab-nodes.svg"));
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(svg.find("<desc>written by umax-lab") != std::string::npos);
  CHECK(svg.find("<!--") ==
        std::string::npos);  // a comment may not hold the "--" of the command it would quote
  CHECK(svg.find("Knuth-Moore minimal tree") != std::string::npos);
  CHECK(svg.find(">the whole search (EBF ") != std::string::npos);
  CHECK(svg.find("</svg>") != std::string::npos);
  const auto pages = pageTemplates();
  for (const umax::IdeaName& idea : umax::kIdeas) {
    const std::string name(idea.name);
    std::string anchor = "lab_" + name;
    std::replace(anchor.begin(), anchor.end(), '-', '_');
    CAPTURE(name);
    CHECK(svg.find(">without " + name + " (EBF ") != std::string::npos);  // a curve per idea, named
    CHECK(page.find("| \\anchor " + anchor + " *without " + name + "* (topic " + std::to_string(idea.topic) +
                    ")") != std::string::npos);
    const std::string start = "\nFigure (without " + name + "): ";
    const auto at = page.find(start);
    REQUIRE(at != std::string::npos);
    const std::string figure = page.substr(at + 1, page.find('\n', at + 1) - at - 1);
    char prefix[8];
    std::snprintf(prefix, sizeof prefix, "%02d-", idea.topic);
    const auto topic = std::find_if(pages.begin(), pages.end(),
                                    [&](const auto& entry) { return entry.first.rfind(prefix, 0) == 0; });
    REQUIRE(topic != pages.end());
    CAPTURE(topic->first, figure);
    CHECK(topic->second.find("\\ref " + anchor) != std::string::npos);
    CHECK(topic->second.find(figure) != std::string::npos);
  }
}
