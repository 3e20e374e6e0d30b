// The walkthrough's reading aids (docs/prose.h, umax-docprose): glossary
// links at each term's first use, a board beside every FEN, the whole
// listing, screenshots that open at full size, and the search of the prose.
// The first cases check the functions on small inputs; the others check the
// pages Doxygen made, when the docs were built before the tests (as
// scripts/test.sh does).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "../docs/prose.h"
#include "support.h"

using namespace umax::test;
using nlohmann::json;
namespace fs = std::filesystem;
namespace prose = umax::docs::prose;

namespace {

fs::path htmlDir() { return fs::path(UMAX_BIN_DIR).parent_path() / "docs" / "html"; }

/// The built pages (index, page_*, topic_*), or none if the docs are not
/// built: then a warning says what the test leaves `unchecked`.
std::map<std::string, std::string> builtPages(const std::string& unchecked) {
  std::map<std::string, std::string> pages;
  if (fs::exists(htmlDir())) {
    for (const auto& entry : fs::directory_iterator(htmlDir())) {
      const std::string name = entry.path().filename().string();
      if (entry.path().extension() == ".html" &&
          (name == "index.html" || name.rfind("page_", 0) == 0 || name.rfind("topic_", 0) == 0))
        pages[name] = readFile(entry.path().string());
    }
  }
  if (pages.empty()) WARN("the docs are not built: " << unchecked);
  return pages;
}

/// The page `name` of `pages`, which must be there.
const std::string& builtPage(const std::map<std::string, std::string>& pages, const std::string& name) {
  REQUIRE(pages.count(name) == 1);
  return pages.at(name);
}

std::vector<prose::Term> terms() {
  return prose::glossaryTerms(readFile(sourcePath("docs/pages/19-glossary.md")));
}

/// A board's key: placement, side, castling, e.p. (not the move counters).
std::string fenKey(const std::string& fen) {
  std::istringstream in(fen);
  std::string a, b, c, d;
  in >> a >> b >> c >> d;
  return a + " " + b + " " + c + " " + d;
}

/// The pieces an SVG board draws, square -> piece, and the side it says.
std::map<std::string, char> piecesOf(const std::string& svg, char& side) {
  std::map<std::string, char> pieces;
  static const std::regex piece(R"re(data-square="([a-h][1-8])" data-piece="([pnbrqkPNBRQK])")re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), piece); it != std::sregex_iterator(); ++it)
    pieces[(*it)[1]] = (*it)[2].str()[0];
  static const std::regex sideAttr(R"re(data-side="([wb])")re");
  std::smatch match;
  side = std::regex_search(svg, match, sideAttr) ? match[1].str()[0] : '?';
  return pieces;
}

std::map<std::string, char> piecesOf(const prose::Fen& fen) {
  std::map<std::string, char> pieces;
  for (int index = 0; index < 64; ++index)
    if (fen.squares[static_cast<std::size_t>(index)] != '.')
      pieces[std::string(1, static_cast<char>('a' + index % 8)) + std::to_string(8 - index / 8)] =
          fen.squares[static_cast<std::size_t>(index)];
  return pieces;
}

}  // namespace

TEST_CASE("the glossary linker links a term's first use in prose, not in code or headings", "[docs][prose]") {
  const std::string glossary =
      "| term | meaning | where it matters |\n| --- | --- | --- |\n"
      "| stand pat | Returning the eval. | \\ref topic_quiescence |\n"
      "| node | One call. | \\ref topic_alpha_beta |\n"
      "| node budget | Nodes for a think. | \\ref topic_iterative_deepening |\n"
      "| ply | One move. | \\ref topic_alpha_beta |\n"
      "| e.p. square (`E`) | The skipped square (see \\ref page_quirks). | \\ref topic_en_passant |\n";
  const auto list = prose::glossaryTerms(glossary);
  REQUIRE(list.size() == 5);
  CHECK(list[4].slug == "glossary_e_p_square_e");
  CHECK(list[4].definition == "The skipped square (see the quirks page).");
  CHECK(list[4].forms.front() == "e.p. square");
  CHECK(list[0].slug == "glossary_stand_pat");
  const std::string html =
      "<div class=\"textblock\"><h2>Stand pat</h2><p>Code <code>stand pat</code> first, then\n"
      "a <b>stand\npat</b> and again stand pat. The node budget is 5 plies; a node is a call.</p></div>";
  const std::string linked = prose::linkGlossary(html, list, "g.html");
  CHECK(linked.find("<h2>Stand pat</h2>") != std::string::npos);
  CHECK(linked.find("<code>stand pat</code>") != std::string::npos);
  CHECK(linked.find("<b><a class=\"umax-gloss\" href=\"g.html#glossary_stand_pat\" title=\"Returning the "
                    "eval.\">stand\n"
                    "pat</a></b> and again stand pat") != std::string::npos);
  CHECK(linked.find("#glossary_node_budget\" title=\"Nodes for a think.\">node budget</a>") !=
        std::string::npos);
  CHECK(linked.find("#glossary_node\" title=\"One call.\">node</a> is a call") != std::string::npos);
  CHECK(linked.find("#glossary_ply\" title=\"One move.\">plies</a>") != std::string::npos);
  // Anchors for the links, in front of every term.
  const std::string anchored = prose::glossaryWithAnchors(glossary);
  CHECK(anchored.find("| \\anchor glossary_stand_pat stand pat |") != std::string::npos);
  CHECK(prose::glossaryTerms(anchored).size() == 5);
  CHECK(prose::glossaryTerms(anchored)[0].name == "stand pat");
}

TEST_CASE("a board diagram carries every square's 0x88 number, in hex, in the square's corner",
          "[docs][prose]") {
  prose::Fen fen;
  REQUIRE(prose::parseFen("8/8/8/8/3N4/8/8/4K3 w - - 0 1", fen));
  const std::string svg = prose::boardSvg(fen);
  // Each square's number as micro-Max numbers it: 16 * row + file, a8 = 00, d4 = 43, h1 = 77; drawn
  // at the square's top left (x = 16 + 26 * file + 1, y = 16 + 26 * row + 7).
  static const std::regex number(
      R"re(<text class="umax-hex" x="(\d+)" y="(\d+)"[^>]*>([0-9a-f]{2})</text>)re");
  std::map<std::string, std::pair<int, int>> at;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), number); it != std::sregex_iterator(); ++it)
    at[(*it)[3].str()] = {std::stoi((*it)[1].str()), std::stoi((*it)[2].str())};
  CHECK(at.size() == 64);
  CHECK(at.count("08") == 0);            // the right half of each row is no square of the board
  CHECK(at["00"] == std::pair(17, 23));  // a8
  CHECK(at["43"] == std::pair(16 + 26 * 3 + 1, 16 + 26 * 4 + 7));  // d4, the knight's square
  CHECK(at["77"] == std::pair(16 + 26 * 7 + 1, 16 + 26 * 7 + 7));  // h1
}

TEST_CASE("a board diagram draws the FEN's pieces on their squares", "[docs][prose]") {
  const std::string text =
      "after 1. e4 (rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1) or 8/8/9/8/8/8/8/8 w - -";
  const auto found = prose::fensIn(text);
  REQUIRE(found.size() == 1);  // the second has a rank of nine squares
  prose::Fen fen;
  REQUIRE(prose::parseFen(found[0].second, fen));
  char side = 0;
  const auto pieces = piecesOf(prose::boardSvg(fen), side);
  CHECK(pieces.size() == 32);
  CHECK(pieces.at("e4") == 'P');
  CHECK(pieces.count("e2") == 0);
  CHECK(pieces.at("e8") == 'k');
  CHECK(pieces.at("a1") == 'R');
  CHECK(pieces == piecesOf(fen));
  CHECK(side == 'b');
  // Each side's glyph: Black's solid (U+265A..265F), White's the outline (U+2654..2659) over a solid
  // one filled white. A white-filled solid king showed White's king black in Chromium (DejaVu Sans).
  const std::string svg = prose::boardSvg(fen);
  static const std::regex glyph(R"re(data-piece="([pnbrqkPNBRQK])">&#(\d+);)re");
  int glyphs = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), glyph); it != std::sregex_iterator(); ++it) {
    const char piece = (*it)[1].str()[0];
    const int code = std::stoi((*it)[2].str());
    const int first = std::isupper(static_cast<unsigned char>(piece)) != 0 ? 9812 : 9818;
    CAPTURE(piece, code);
    CHECK(code == first + static_cast<int>(std::string("kqrbnp").find(
                              static_cast<char>(std::tolower(static_cast<unsigned char>(piece))))));
    ++glyphs;
  }
  CHECK(glyphs == 32);
  const std::string html =
      "<div class=\"textblock\"><p>The position <code>" + found[0].second + "</code>.</p></div>";
  const std::string drawn = prose::addBoards(html);
  CHECK(drawn.find("</p><div class=\"umax-boards\"><div class=\"umax-board\"><svg") != std::string::npos);
}

TEST_CASE("the line map gives every line of the original a topic or marks it plain", "[docs][prose]") {
  const json map = json::parse(readFile(sourcePath("readable/line_map.json")));
  const std::string source = readFile(sourcePath("minimal/micro-max.c"));
  const auto lines = splitLines(source);
  const auto code = codeLinesOf(source);
  std::set<std::string> topics;
  for (const json& topic : map.at("topics")) topics.insert(topic.at("id"));
  std::map<int, int> seen;
  for (const json& entry : map.at("lines")) ++seen[entry.at("line").get<int>()];
  REQUIRE(map.contains("plain_lines"));
  for (const json& group : map.at("plain_lines")) {
    CHECK(!group.at("why").get<std::string>().empty());
    if (group.contains("topic")) CHECK(topics.count(group.at("topic")) == 1);
    for (const json& line : group.at("lines")) {
      const int number = line.get<int>();
      CAPTURE(number);
      ++seen[number];
      CHECK(code.count(number) == 0);  // plain: a comment or a blank line, never code
    }
  }
  CHECK(lines.size() == 133);
  for (int number = 1; number <= static_cast<int>(lines.size()); ++number) {
    CAPTURE(number);
    CHECK(seen[number] == 1);
  }
}

TEST_CASE("the outline of the search names every step of the sources' comments", "[docs][prose]") {
  auto steps = prose::stepComments(readFile(sourcePath("readable/src/search.cpp")));
  for (const auto& [number, text] : prose::stepComments(readFile(sourcePath("readable/src/moves.h"))))
    steps.emplace(number, text);
  std::set<int> outlined;
  for (const auto& step : prose::outlineSteps()) {
    CAPTURE(step.number);
    CHECK(steps.count(step.number) == 1);
    CHECK(outlined.insert(step.number).second);
  }
  CHECK(outlined.size() == 19);
  CHECK(steps.at(1) == "Look the position up in the hash table.");
}

TEST_CASE("every glossary term's first use on every built page is a link to its entry", "[docs][prose]") {
  const auto pages = builtPages("only the linker itself was checked");
  if (pages.empty()) return;
  const auto list = terms();
  CHECK(list.size() >= 30);
  std::map<std::string, const prose::Term*> bySlug;
  for (const auto& term : list) bySlug[term.slug] = &term;
  static const std::regex link(
      R"re(<a class="umax-gloss" href="page_glossary.html#([a-z0-9_]+)" title="[^"]*">([^<]*)</a>)re");
  int links = 0;
  for (const auto& [name, html] : pages) {
    if (name == "page_glossary.html") continue;
    CAPTURE(name);
    // The page without the glossary's links, and where they were.
    std::string plain;
    struct Linked {
      std::size_t begin, end;
      std::string slug;
    };
    std::vector<Linked> linked;
    std::size_t from = 0;
    for (auto it = std::sregex_iterator(html.begin(), html.end(), link); it != std::sregex_iterator(); ++it) {
      plain += html.substr(from, static_cast<std::size_t>(it->position()) - from);
      linked.push_back({plain.size(), plain.size() + (*it)[2].length(), (*it)[1]});
      plain += (*it)[2];
      from = static_cast<std::size_t>(it->position() + it->length());
      CHECK(bySlug.count((*it)[1]) == 1);
      ++links;
    }
    plain += html.substr(from);
    const auto text = prose::proseText(plain, prose::proseRanges(plain, prose::textblock(plain)));
    for (const auto& term : list) {
      CAPTURE(term.name);
      for (const auto& use : prose::usesOf(text, term)) {
        const std::size_t begin = text.at[use.begin], end = text.at[use.end - 1] + 1;
        // A use inside another (longer) term's link does not count.
        const auto other = std::find_if(linked.begin(), linked.end(), [&](const Linked& l) {
          return l.slug != term.slug && begin < l.end && l.begin < end;
        });
        if (other != linked.end()) continue;
        const bool isLink = std::any_of(linked.begin(), linked.end(), [&](const Linked& l) {
          return l.slug == term.slug && l.begin == begin && l.end == end;
        });
        CAPTURE(plain.substr(begin, end - begin));
        CHECK(isLink);
        break;
      }
    }
  }
  CHECK(links >= 200);
}

TEST_CASE("every glossary entry has its anchor and a link to where it matters that resolves",
          "[docs][prose]") {
  const auto pages = builtPages("the glossary's links were not checked");
  if (pages.empty()) return;
  const std::string& glossary = builtPage(pages, "page_glossary.html");
  for (const auto& term : terms()) {
    CAPTURE(term.name);
    const auto anchor = glossary.find("id=\"" + term.slug + "\"");
    REQUIRE(anchor != std::string::npos);
    const auto rowEnd = glossary.find("</tr>", anchor);
    const std::string row = glossary.substr(anchor, rowEnd - anchor);
    const auto lastCell = row.rfind("<td");
    static const std::regex href(R"re(href="([a-z_]+\.html)(?:#([A-Za-z0-9_]+))?")re");
    std::smatch match;
    const std::string cell = row.substr(lastCell);
    REQUIRE(std::regex_search(cell, match, href));
    CAPTURE(match[0].str());
    CHECK(fs::exists(htmlDir() / match[1].str()));
    if (match[2].matched)
      CHECK(readFile((htmlDir() / match[1].str()).string()).find("id=\"" + match[2].str() + "\"") !=
            std::string::npos);
  }
}

TEST_CASE("every FEN on every built page has a board beside it with the FEN's pieces", "[docs][prose]") {
  const auto pages = builtPages("only the board drawing itself was checked");
  if (pages.empty()) return;
  int fens = 0;
  for (const auto& [name, html] : pages) {
    CAPTURE(name);
    // The boards drawn on the page, by the FEN each says it draws.
    std::map<std::string, std::string> boards;
    static const std::regex svg(R"re(<svg class="umax-board-svg"[^>]*data-fen="([^"]+)"[\s\S]*?</svg>)re");
    std::string withoutBoards;
    std::size_t from = 0;
    for (auto it = std::sregex_iterator(html.begin(), html.end(), svg); it != std::sregex_iterator(); ++it) {
      boards[fenKey((*it)[1])] = it->str();
      withoutBoards += html.substr(from, static_cast<std::size_t>(it->position()) - from);
      from = static_cast<std::size_t>(it->position() + it->length());
    }
    withoutBoards += html.substr(from);
    for (const auto& [position, text] : prose::fensIn(withoutBoards)) {
      CAPTURE(text);
      ++fens;
      const auto board = boards.find(fenKey(text));
      REQUIRE(board != boards.end());
      prose::Fen fen;
      REQUIRE(prose::parseFen(text, fen));
      char side = 0;
      CHECK(piecesOf(board->second, side) == piecesOf(fen));
      CHECK(side == fen.side);
      // Drawn after the FEN, not before it.
      CHECK(html.find(board->second) > html.find(text));
    }
  }
  CHECK(fens >= 10);
}

TEST_CASE("every image shown on a built page opens at full size on a click", "[docs][prose]") {
  const auto pages = builtPages("the screenshots' links were not checked");
  if (pages.empty()) return;
  std::set<std::string> linked;
  static const std::regex image(
      R"re(<div class="image">\s*(<a [^>]*href="([^"]+)"[^>]*>)?<img [^>]*src="([^"]+)")re");
  for (const auto& [name, html] : pages)
    for (auto it = std::sregex_iterator(html.begin(), html.end(), image); it != std::sregex_iterator();
         ++it) {
      CAPTURE(name, (*it)[3].str());
      CHECK((*it)[1].matched);
      CHECK((*it)[2].str() == (*it)[3].str());
      CHECK(fs::exists(htmlDir() / (*it)[3].str()));
      linked.insert((*it)[3]);
    }
  // The screenshots of docs/images are among them.
  for (const auto& entry : fs::directory_iterator(sourcePath("docs/images"))) {
    CAPTURE(entry.path().filename().string());
    CHECK(linked.count(entry.path().filename().string()) == 1);
  }
}

TEST_CASE("the built pages list the whole listing: every line linked to its topic", "[docs][prose]") {
  const auto pages = builtPages("the whole listing was not checked");
  if (pages.empty()) return;
  const std::string& html = builtPage(pages, "page_listing.html");
  const auto lines = splitLines(readFile(sourcePath("minimal/micro-max.c")));
  const json map = json::parse(readFile(sourcePath("readable/line_map.json")));
  std::map<int, std::string> topicOf;
  for (const json& entry : map.at("lines")) topicOf[entry.at("line")] = entry.at("topic");
  static const std::regex row(
      R"re(<tr id="w(\d+)" class="umax-(code|plain)"[^>]*><td class="umax-ln">\d+</td><td class="umax-src">(?:<a href="([a-z_]+)\.html(?:#l(\d+))?" data-topic="([a-z-]+)">)?([^<]*)(?:</a>)?</td>)re");
  int rows = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), row); it != std::sregex_iterator(); ++it) {
    const int number = std::stoi((*it)[1]);
    CAPTURE(number);
    ++rows;
    CHECK(number == rows);
    std::string code = lines.at(static_cast<std::size_t>(number - 1));
    while (!code.empty() && (code.back() == ' ' || code.back() == '\r')) code.pop_back();
    CHECK(prose::decodeEntities((*it)[6]) == code);
    if ((*it)[2] == "code") {
      CHECK((*it)[5].str() == topicOf.at(number));
      const fs::path page = htmlDir() / ((*it)[3].str() + ".html");
      REQUIRE(fs::exists(page));
      CHECK((*it)[4].str() == std::to_string(number));
      CHECK(readFile(page.string()).find("id=\"l" + std::to_string(number) + "\"") != std::string::npos);
    } else
      CHECK(topicOf.count(number) == 0);
  }
  CHECK(rows == static_cast<int>(lines.size()));
  // The outline: 19 steps, each linked to a topic page that exists.
  static const std::regex step(R"re(<a href="([a-z_]+\.html)" data-step="(\d+)")re");
  int steps = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), step); it != std::sregex_iterator();
       ++it, ++steps)
    CHECK(fs::exists(htmlDir() / (*it)[1].str()));
  CHECK(steps == 19);
  // The course's pages link it.
  CHECK(pages.at("index.html").find("href=\"page_listing.html\"") != std::string::npos);
  CHECK(pages.at("page_course.html").find("href=\"page_listing.html\"") != std::string::npos);
}

TEST_CASE("the prose search finds words of the text with lunr from the docs' own files", "[docs][prose]") {
  const auto pages = builtPages("the prose search was not checked");
  if (pages.empty()) return;
  for (const auto& [name, html] : pages) {
    CAPTURE(name);
    CHECK(html.find("<script src=\"prose_search.js\"></script>") != std::string::npos);
  }
  const fs::path docs = htmlDir() / "prose_search_docs.js";
  REQUIRE(fs::exists(docs));
  REQUIRE(fs::exists(htmlDir() / "lunr.js"));
  // The page loads lunr from the docs' folder, the Debian package's copy.
  const std::string lunr = readFile((htmlDir() / "lunr.js").string());
  CHECK((lunr == readFile("/usr/share/javascript/lunr/lunr.min.js") ||
         lunr == readFile("/usr/share/javascript/lunr/lunr.js")));
  const std::string script = readFile((htmlDir() / "prose_search.js").string());
  CHECK(script.find("http") == std::string::npos);
  // The index holds prose, not only titles.
  const std::string text = readFile(docs.string());
  const json documents = json::parse(text.substr(text.find('['), text.rfind(']') - text.find('[') + 1));
  bool standPat = false;
  for (const json& document : documents)
    if (document.at("url").get<std::string>().rfind("topic_quiescence.html", 0) == 0 &&
        document.at("body").get<std::string>().find("stand pat") != std::string::npos)
      standPat = true;
  CHECK(standPat);
  int status = 0;
  runCommand("node --version", &status);
  if (status != 0) {
    WARN("node is not installed (scripts/install-deps.sh installs it): lunr's answers were not checked");
    return;
  }
  const std::string query = scratchFile("prose-query.js");
  {
    std::ofstream out(query);
    out << "const fs = require('fs'), vm = require('vm');\n"
           "const dir = process.argv[2];\n"
           "const lunr = require(dir + '/lunr.js');\n"
           "const search = require(dir + '/prose_search.js');\n"
           "const box = {}; vm.runInNewContext(fs.readFileSync(dir + '/prose_search_docs.js', 'utf8'), "
           "box);\n"
           "const docs = box.umaxProseDocuments;\n"
           "const index = search.buildIndex(lunr, docs);\n"
           "for (const q of process.argv.slice(3)) {\n"
           "  const hits = search.search(index, docs, q);\n"
           "  console.log(q + '\\t' + hits.length + '\\t' + hits.slice(0, 5).map(h => "
           "h.url.split('#')[0]).join(' '));\n"
           "}\n";
  }
  const std::string output = runCommand(
      "node " + query + " " + htmlDir().string() + " 'stand pat' 'mirror image' 'xyzzy plugh'", &status);
  REQUIRE(status == 0);
  const auto lines = splitLines(output);
  REQUIRE(lines.size() == 3);
  CAPTURE(output);
  // "stand pat" finds the quiescence page among the first five sections.
  CHECK(lines[0].rfind("stand pat\t", 0) == 0);
  CHECK(lines[0].find("topic_quiescence.html") != std::string::npos);
  // Words of the move generator's prose, in no title.
  CHECK(lines[1].find("topic_move_generation.html") != std::string::npos);
  // Words the course does not use: nothing.
  CHECK(lines[2] == "xyzzy plugh\t0\t");
}

// Hidden ([.browser]): it needs the built docs and Chromium, which scripts/web.sh installs;
// scripts/ci-extra.sh runs it after that.
TEST_CASE("a course page labels its two search boxes: the course's text and the code's symbols",
          "[docs][prose][.browser]") {
  const fs::path page = htmlDir() / "topic_board.html";
  REQUIRE(fs::exists(page));  // cmake --build build --target docs
  int status = 0;
  runCommand("command -v chromium >/dev/null", &status);
  REQUIRE(status == 0);  // chromium: scripts/web.sh installs it
  // The page as the browser has it after its scripts ran: Doxygen's menu makes its search field,
  // prose_search.js adds the course's box and labels Doxygen's.
  const std::string dom = runCommand(
      "chromium --headless=new --no-sandbox --disable-gpu --virtual-time-budget=4000 "
      "--dump-dom 'file://" +
          fs::absolute(page).string() + "' 2>/dev/null",
      &status);
  REQUIRE(status == 0);
  std::smatch match;
  REQUIRE(std::regex_search(dom, match, std::regex("<input[^>]*id=\"MSearchField\"[^>]*>")));
  const std::string symbols = match.str();
  CAPTURE(symbols);
  CHECK(symbols.find("value=\"Search code symbols\"") != std::string::npos);
  CHECK(symbols.find("title=\"Doxygen's search: names of functions, classes and files in the code") !=
        std::string::npos);
  REQUIRE(std::regex_search(dom, match, std::regex("<div id=\"umax-prose-search\">[\\s\\S]*?</div>")));
  const std::string prose = match.str();
  CAPTURE(prose);
  CHECK(prose.find(">Search the course text</label>") != std::string::npos);
  CHECK(prose.find("not names in the code") != std::string::npos);
}

TEST_CASE("commands in figure captions are code spans that do not break", "[docs][prose]") {
  const auto pages = builtPages("the captions were not checked");
  if (pages.empty()) return;
  // "--event 29" must not wrap after a hyphen: a caption holds no command outside a <code> span (the
  // screenshots' commands follow the picture instead; a program named in a Markdown image's caption is
  // written with a non-breaking hyphen, U+2011), and the stylesheet keeps such spans on one line.
  const std::string css = readFile((htmlDir() / "umax.css").string());
  CHECK(css.find("div.caption code, code.umax-nowrap { white-space: nowrap; }") != std::string::npos);
  const std::regex caption("<div class=\"caption\">([\\s\\S]*?)</div>"), code("<code>[\\s\\S]*?</code>"),
      tag("<[^>]*>");
  const std::regex command("--[a-z]|build/bin/|umax-(trace|viz|readable) ");
  int captions = 0;
  for (const auto& [name, html] : pages)
    for (auto it = std::sregex_iterator(html.begin(), html.end(), caption); it != std::sregex_iterator();
         ++it) {
      const std::string text = (*it)[1].str();
      CAPTURE(name, text);
      // The text a reader sees: no code span, no tag (a glossary link's tooltip is an attribute).
      CHECK(!std::regex_search(std::regex_replace(std::regex_replace(text, code, ""), tag, ""), command));
      ++captions;
    }
  CHECK(captions >= 10);
  // A screenshot of an example names the command that opens the same view, below it, unbroken.
  int screenshots = 0;
  for (const auto& [name, html] : pages)
    for (const std::string example : {"alphabeta", "hashing"})
      if (html.find("src=\"" + example + "-viz.png\"") != std::string::npos) {
        CAPTURE(name, example);
        CHECK(html.find("<code class=\"umax-nowrap\">build/bin/umax-viz build/docs/examples/" + example +
                        ".umaxtrace --event ") != std::string::npos);
        ++screenshots;
      }
  if (screenshots == 0) WARN("the docs were built without umax-viz screenshots");
}

TEST_CASE("a fold with no summary or nothing in it is a problem the docs build reports", "[docs][prose]") {
  CHECK(prose::foldProblems("<details><summary>Answer</summary><p>42</p></details>").empty());
  CHECK(prose::foldProblems("<details class=\"a\">\n<summary>Answer</summary>\n<pre>$ x</pre>\n</details>")
            .empty());
  // What Doxygen made of a fold with blank lines in it (topic 7, 2026-11-28).
  const auto broken = prose::foldProblems(
      "<p ><details>\n<summary>Answer</summary></details>\n</p>\n<p ><details>\n <div>$ "
      "cmd</div>\n</details>");
  REQUIRE(broken.size() == 2);
  CHECK(broken[0].find("empty fold") != std::string::npos);
  CHECK(broken[1].find("without a summary") != std::string::npos);
  CHECK(prose::foldProblems("<details><summary>A</summary>x").size() == 1);
}

TEST_CASE("every fold on every built page has its summary and something in it", "[docs][prose]") {
  const auto pages = builtPages("the folds were not checked");
  if (pages.empty()) return;
  int folds = 0;
  for (const auto& [name, html] : pages) {
    CAPTURE(name);
    for (auto at = html.find("<details"); at != std::string::npos; at = html.find("<details", at + 1))
      ++folds;
    CHECK(prose::foldProblems(html).empty());
  }
  CHECK(folds >= 25);
}

TEST_CASE("a recorded search's board is drawn after its --moves too, each board captioned", "[docs][prose]") {
  prose::Fen fen, after;
  REQUIRE(prose::parseFen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", fen));
  REQUIRE(prose::afterMoves(fen, "e2e4", after));
  CHECK(after.text == "4k3/8/8/8/3pP3/8/8/4K3 b - e3");
  REQUIRE(prose::afterMoves(fen, "e2e4 d4e3", after));  // e.p.: the pawn on e4 goes
  CHECK(after.text == "4k3/8/8/8/8/4p3/8/4K3 w - -");
  REQUIRE(prose::parseFen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", fen));
  REQUIRE(prose::afterMoves(fen, "e1g1", after));  // the rook comes along
  CHECK(after.text == "r3k2r/8/8/8/8/8/8/R4RK1 b kq -");
  CHECK_FALSE(prose::afterMoves(fen, "e8g8", after));  // not the side to move's piece
  const std::string html =
      "<pre>$ umax-trace record --fen &quot;4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1&quot; --moves "
      "&quot;e2e4&quot; --nodes 300</pre>";
  const std::string drawn = prose::addBoards("<div class=\"textblock\">" + html + "</div>");
  CHECK(drawn.find("data-fen=\"4k3/8/8/8/3pP3/8/8/4K3 b - e3\"") != std::string::npos);
  CHECK(drawn.find("after <code>e2e4</code>: the position searched") != std::string::npos);
  // A command that only plays the moves (it may refuse one) gets the FEN's board alone.
  const std::string played = prose::addBoards(
      "<div class=\"textblock\"><pre>$ umax-readable --fen &quot;4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1&quot; "
      "--moves "
      "&quot;e2e4&quot;</pre></div>");
  CHECK(played.find("3pP3") == std::string::npos);
  // A block that names two positions draws both, captioned, even the one drawn higher up the page
  // (topic 5's Try it: the refused r3kr2 was drawn by the worked example above it).
  const std::string twice = prose::addBoards(
      "<div class=\"textblock\"><p>The position <code>r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1</code>.</p>"
      "<pre>$ umax-readable --fen &quot;r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1&quot;\n$ umax-readable --fen "
      "&quot;r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1&quot;</pre><p>Once more: "
      "<code>r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1</code>.</p></div>");
  const auto pre = twice.find("</pre>");
  REQUIRE(pre != std::string::npos);
  const std::string below = twice.substr(pre, twice.find("</div><!-- /umax-boards -->", pre) - pre);
  CHECK(below.find("data-fen=\"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"") != std::string::npos);
  CHECK(below.find("data-fen=\"r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1\"") != std::string::npos);
  CHECK(below.find("the FEN <code>r3kr2/8/8/8/8/8/8/R3K2R</code>") != std::string::npos);
  CHECK(below.find("the FEN <code>r3k2r/8/8/8/8/8/8/R3K2R</code>") != std::string::npos);
  int boards = 0;
  for (auto at = twice.find("data-fen="); at != std::string::npos; at = twice.find("data-fen=", at + 1))
    ++boards;
  CHECK(boards == 3);  // the first paragraph's, and the block's two; the last paragraph draws none
  const auto pages = builtPages("topic 5's Try-it boards were not checked");
  if (pages.empty()) return;
  const std::string& castling = pages.at("topic_castling.html");
  const auto refused = castling.find("is illegal here");
  REQUIRE(refused != std::string::npos);
  const auto end = castling.find("<!-- /umax-boards -->", refused);
  REQUIRE(end != std::string::npos);
  const std::string tryBoards = castling.substr(refused, end - refused);
  CHECK(tryBoards.find("data-fen=\"r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1\"") != std::string::npos);
  CHECK(tryBoards.find("data-fen=\"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"") != std::string::npos);
}

TEST_CASE("every dot figure of a built page is an image that can shrink, not a fixed frame",
          "[docs][prose]") {
  CHECK(prose::dotFramesAsImages("<div class=\"dotgraph\">\n<iframe scrolling=\"no\" frameborder=\"0\" "
                                 "src=\"dot_1.svg\" width=\"600\" height=\"190\"><p>No SVG.</p></iframe>") ==
        "<div class=\"dotgraph\">\n<a class=\"umax-full-size umax-dot\" href=\"dot_1.svg\" title=\"Open the "
        "figure at full size\"><img class=\"umax-dot\" src=\"dot_1.svg\" width=\"600\" height=\"190\" "
        "alt=\"a figure (dot_1.svg)\"></a>");
  const auto pages = builtPages("the figures' frames were not checked");
  if (pages.empty()) return;
  int figures = 0;
  for (const auto& [name, html] : pages) {
    CAPTURE(name);
    CHECK(html.find("<iframe scrolling=\"no\"") == std::string::npos);
    for (auto at = html.find("<img class=\"umax-dot\""); at != std::string::npos;
         at = html.find("<img class=\"umax-dot\"", at + 1))
      ++figures;
  }
  CHECK(figures >= 15);
}

TEST_CASE("the prose search's text joins inline elements without a space and skips table headers",
          "[docs][prose]") {
  // The second reader's finding 12: "returns its own evaluation e : no recapture", "umax-trace
  // jsonl )." and a table's header cells run into the sentence before the table.
  CHECK(prose::textOf("<p>returns its own evaluation <code>e</code>: no <a class=\"umax-gloss\" "
                      "href=\"x\">recapture</a>.</p><p>Next</p>") ==
        "returns its own evaluation e: no recapture. Next");
  CHECK(prose::textOf("<td>a</td><td>b<br/>c</td>") == "a b c");
  const std::string html =
      "<div class=\"title\">T</div><div class=\"textblock\"><p>Before the table.</p>\n<table "
      "class=\"markdownTable\">\n<tr class=\"markdownTableHead\">\n<th>ply of the "
      "reply</th><th>move</th></tr>\n"
      "<tr class=\"markdownTableRowOdd\">\n<td>1</td><td>e4d5</td></tr>\n</table>\n<table "
      "class=\"umax-notes\"><tr><th>line</th><th>code</th></tr><tr><td>73</td><td>x</td></tr></table>"
      "</div>";
  const auto documents = prose::searchDocuments("t.html", html);
  REQUIRE(documents.size() == 1);
  CHECK(documents[0].body == "Before the table. 1 e4d5 73 x");
}

TEST_CASE("the flag-bit page's, the glossary's and the quirks' tables are cards on a phone, each cell named",
          "[docs][prose]") {
  const std::string html =
      "<p>x</p><table class=\"markdownTable\">\n<tr class=\"markdownTableHead\">\n<th "
      "class=\"markdownTableHeadNone\">bit   </th><th class=\"markdownTableHeadNone\">meaning <a "
      "href=\"g\">here</a></th></tr>\n<tr class=\"markdownTableRowOdd\">\n<td "
      "class=\"markdownTableBodyNone\">128</td><td class=\"markdownTableBodyNone\"><code>Y</code></td></tr>\n"
      "<tr class=\"markdownTableRowEven\">\n<td class=\"markdownTableBodyNone\">8</td><td>two</td></tr>\n"
      "</table><p>y</p>";
  const std::string cards = prose::tablesAsCards(html);
  CHECK(cards ==
        "<p>x</p><table class=\"markdownTable umax-cards\">\n<tr class=\"markdownTableHead\">\n<th "
        "class=\"markdownTableHeadNone\">bit   </th><th class=\"markdownTableHeadNone\">meaning <a "
        "href=\"g\">here</a></th></tr>\n<tr class=\"markdownTableRowOdd\">\n<td data-label=\"bit\" "
        "class=\"markdownTableBodyNone\">128</td><td data-label=\"meaning here\" "
        "class=\"markdownTableBodyNone\"><code>Y</code></td></tr>\n<tr class=\"markdownTableRowEven\">\n<td "
        "data-label=\"bit\" class=\"markdownTableBodyNone\">8</td><td data-label=\"meaning "
        "here\">two</td></tr>\n"
        "</table><p>y</p>");
  CHECK(prose::tablesAsCards(cards) == cards);  // once only
  const auto pages = builtPages("the cards of the flag-bit page were not checked");
  if (pages.empty()) return;
  // The quirks page too (the third reader: three 122 px columns, rows 754 px tall at 390 px).
  for (const std::string name : {"page_flags.html", "page_glossary.html", "page_quirks.html"}) {
    CAPTURE(name);
    const std::string& page = pages.at(name);
    CHECK(page.find("<table class=\"markdownTable umax-cards\">") != std::string::npos);
    CHECK(page.find("<table class=\"markdownTable\">") == std::string::npos);
  }
  CHECK(pages.at("page_flags.html").find("data-label=\"meaning\"") != std::string::npos);
  const std::string css = readFile(sourcePath("docs/umax.css"));
  CHECK(css.find("table.umax-cards td[data-label]:not(:first-child)::before") != std::string::npos);
  // A first cell that is a paragraph with a bold lead (the quirks) is not bold as a whole.
  CHECK(css.find("table.umax-cards td:first-child:has(> b) { font-weight: normal; }") != std::string::npos);
  CHECK(
      pages.at("page_quirks.html").find("<td data-label=\"behaviour\" class=\"markdownTableBodyNone\"><b>") !=
      std::string::npos);
}

TEST_CASE("a command's options in running text stay whole when a phone wraps it", "[docs][prose]") {
  // The second reader's finding 10: "--" at a line's end and "event 230" on the next.
  const std::string html =
      "<p>open it with <code>build/bin/umax-viz x.umaxtrace --event 230</code>. "
      "Then <code>t--;</code> and <code class=\"umax-nowrap\">a --nodes 3000 -q</code>"
      " <code><a href=\"x\">--not</a></code></p>";
  const std::string kept = prose::optionsKeptWhole(html);
  CHECK(kept ==
        "<p>open it with <code>build/bin/umax-viz x.umaxtrace <span class=\"umax-opt\">--event "
        "230</span></code>. "
        "Then <code>t--;</code> and <code class=\"umax-nowrap\">a --nodes 3000 -q</code> "
        "<code><a href=\"x\">--not</a></code></p>");
  CHECK(prose::optionsKeptWhole(kept) == kept);
  CHECK(prose::textOf(kept) == prose::textOf(html));  // the text (and what a copy takes) is the same
  const auto pages = builtPages("the options' spans were not checked");
  if (pages.empty()) return;
  CHECK(pages.at("topic_move_sorting.html").find("<span class=\"umax-opt\">--event 230</span></code>.") !=
        std::string::npos);
}

TEST_CASE("topic 13 tells a store over a node's own last iteration from one over an earlier node's entry",
          "[docs][prose]") {
  // The third reader: the page called all 1887 stores into an occupied slot "its own entry, from its
  // previous iteration"; 1532 of them were a node's first store, over the entry of the same position
  // that an earlier node left (the probe's hit did not end the node). The docs build fails unless
  // every such store follows a hit; here the built page's rows must add up to the stores it counts.
  const auto pages = builtPages("topic 13's kinds of store were not checked");
  if (pages.empty()) return;
  const std::string text = prose::textOf(builtPage(pages, "topic_hash_replacement.html"));
  CHECK(text.find("its own entry, from its previous iteration") == std::string::npos);
  std::smatch match;
  REQUIRE(std::regex_search(text, match, std::regex(R"(The other (\d+) met an entry already there)")));
  const long occupied = std::stol(match[1]);
  const char* rows[] = {
      R"(1\. this position's entry, from the node's own previous iteration: written over\s+(\d+))",
      R"(2\. this position's entry, left by an earlier node of it \(the node's first store, after a probe hit that did not end the node\): written over\s+(\d+))",
      R"(3\. another position's entry: written over\s+(\d+))",
      R"(4\. an exact score from a deeper search: refused, the slot kept as it was\s+(\d+))"};
  long sum = 0;
  for (const char* row : rows) {
    CAPTURE(row);
    REQUIRE(std::regex_search(text, match, std::regex(row)));
    const bool made = std::stol(match[1]) > 0;
    CHECK(made == (row == rows[0] || row == rows[1]));  // this think: the first two kinds only
    sum += std::stol(match[1]);
  }
  CHECK(sum == occupied);
}
