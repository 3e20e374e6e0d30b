// prose.cpp - umax-docprose: the walkthrough's glossary links, board
// diagrams, whole listing, full-size screenshots and prose search (see
// prose.h for what each step does).
//
//   umax-docprose pages --pages DIR --line-map FILE --source FILE --steps FILE...
//       before Doxygen, over the pages docgen filled: anchors in the glossary,
//       the whole listing page (DIR/31-listing.md)
//   umax-docprose html --html DIR --pages DIR --lunr FILE --search-js FILE
//       after Doxygen: glossary links, boards, screenshot links, the search
//       box on every page, the search's documents (prose_search_docs.js),
//       lunr.js copied next to them
//
// Anything missing (no glossary, a line of the original that is neither
// mapped to a topic nor marked plain, a step of the outline that the sources
// do not name) stops the build with a message.
#include "prose.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "read_file.h"

namespace fs = std::filesystem;
using nlohmann::json;
namespace prose = umax::docs::prose;

namespace {

using umax::docs::readFile;

void writeFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + path.string());
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::map<std::string, std::vector<std::string>> parseOptions(int argc, char** argv) {
  std::map<std::string, std::vector<std::string>> options;
  std::string current;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) == 0) {
      current = arg.substr(2);
      options[current];
    } else if (current.empty())
      throw std::runtime_error("unexpected argument " + arg);
    else
      options[current].push_back(arg);
  }
  return options;
}

std::string option(const std::map<std::string, std::vector<std::string>>& options, const std::string& name) {
  const auto it = options.find(name);
  if (it == options.end() || it->second.size() != 1) throw std::runtime_error("needs --" + name + " VALUE");
  return it->second[0];
}

/// The page of `dir` whose first line carries `{#label}`.
fs::path pageWithLabel(const fs::path& dir, const std::string& label) {
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".md") {
      std::ifstream in(entry.path());
      std::string first;
      std::getline(in, first);
      if (first.find("{#" + label + "}") != std::string::npos) return entry.path();
    }
  throw std::runtime_error("no page labelled " + label + " in " + dir.string());
}

std::string topicPage(const std::string& topic) {
  std::string name = "topic_";
  for (char c : topic) name += c == '-' ? '_' : c;
  return name;
}

/// The whole listing page.
std::string listingPage(const json& lineMap, const std::vector<std::string>& source,
                        const std::map<int, std::string>& steps) {
  std::map<std::string, std::string> titles;
  std::map<std::string, int> topicIndex;
  for (const json& topic : lineMap.at("topics")) {
    topicIndex[topic.at("id")] = static_cast<int>(titles.size());
    titles[topic.at("id")] = topic.at("title");
  }
  struct Line {
    std::string topic;
    std::string note;
    bool plain = false;
  };
  std::map<int, Line> lines;
  for (const json& entry : lineMap.at("lines")) {
    const int number = entry.at("line");
    lines[number] = {entry.at("topic"), entry.at("note"), false};
  }
  if (!lineMap.contains("plain_lines")) throw std::runtime_error("the line map has no plain_lines");
  for (const json& group : lineMap.at("plain_lines"))
    for (const json& number : group.at("lines")) {
      if (lines.count(number.get<int>()) != 0)
        throw std::runtime_error("line " + std::to_string(number.get<int>()) + " is both mapped and plain");
      lines[number.get<int>()] = {group.value("topic", ""), group.at("why"), true};
    }
  std::ostringstream page;
  page << "# The whole listing {#page_listing}\n\n"
          "All "
       << source.size()
       << " lines of `minimal/micro-max.c`, the original exactly as it is compiled (read from the\n"
          "file while these pages were built). Every line links to the topic page that explains it,\n"
          "where the line is highlighted in its listing; hover a line for its note. Comments and\n"
          "blank lines are plain (the header's list of features links to the topic of each feature).\n"
          "Beside it (below it on a screen narrower than 1400 pixels), the search function `D()` as an\n"
          "outline: its steps in the order they run,\n"
          "named as the comments of `readable/src/search.cpp` (and `moves.h`, Steps 5 to 7) name\n"
          "them, each linked to its topic. The line-to-topic map is `readable/line_map.json`, the\n"
          "file the visualizer reads; the suite checks that it gives every line a topic or marks it\n"
          "plain.\n\n"
          "\\htmlonly\n<div class=\"umax-whole\">\n<div class=\"umax-whole-code\"><table "
          "class=\"umax-whole-listing\">\n";
  for (std::size_t index = 0; index < source.size(); ++index) {
    const int number = static_cast<int>(index) + 1;
    const auto it = lines.find(number);
    if (it == lines.end())
      throw std::runtime_error("line " + std::to_string(number) +
                               " of the original has no topic and is not marked plain in the line map");
    const Line& line = it->second;
    std::string code = source[index];
    while (!code.empty() && (code.back() == '\r' || code.back() == ' ')) code.pop_back();
    const bool linked = !line.topic.empty();
    if (linked && titles.count(line.topic) == 0) throw std::runtime_error("unknown topic " + line.topic);
    const std::string href =
        linked ? topicPage(line.topic) + ".html" + (line.plain ? "" : "#l" + std::to_string(number)) : "";
    const int hue = linked ? (topicIndex[line.topic] * 47) % 360 : 0;
    page << "<tr id=\"w" << number << "\" class=\"" << (line.plain ? "umax-plain" : "umax-code") << "\""
         << (linked ? " style=\"--topic-hue: " + std::to_string(hue) + "\"" : "") << " title=\""
         << prose::escapeHtml(line.note) << "\"><td class=\"umax-ln\">" << number
         << "</td><td class=\"umax-src\">";
    if (linked)
      page << "<a href=\"" << href << "\" data-topic=\"" << line.topic << "\">" << prose::escapeHtml(code)
           << "</a>";
    else
      page << prose::escapeHtml(code);
    page << "</td><td class=\"umax-topic\">";
    if (linked)
      page << "<a href=\"" << topicPage(line.topic) << ".html\">" << prose::escapeHtml(titles[line.topic])
           << "</a>";
    page << "</td></tr>\n";
  }
  page << "</table></div>\n<div class=\"umax-outline\">\n<div class=\"umax-outline-title\">The search, "
          "<code>D(k,q,l,e,J,Z,E,z,n)</code> = <code>Engine::search</code></div>\n<ul>\n";
  for (const auto& step : prose::outlineSteps()) {
    const auto text = steps.find(step.number);
    if (text == steps.end())
      throw std::runtime_error("no \"// Step " + std::to_string(step.number) + ".\" comment in the sources");
    if (titles.count(step.topic) == 0) throw std::runtime_error("unknown topic " + step.topic);
    page << "<li class=\"umax-depth" << step.depth << "\"><a href=\"" << topicPage(step.topic)
         << ".html\" data-step=\"" << step.number << "\" data-topic=\"" << step.topic << "\"><b>Step "
         << step.number << ".</b> " << prose::codeSpans(text->second)
         << "</a> <span class=\"umax-outline-topic\">" << prose::escapeHtml(titles[step.topic]) << "</span>";
    if (step.number == 4) page << " <i>(one pass per draft; the moves:)</i>";
    if (step.number == 6) page << " <i>(for every move:)</i>";
    page << "</li>\n";
  }
  page << "</ul>\n</div>\n</div>\n\\endhtmlonly\n";
  return page.str();
}

int runPages(const std::map<std::string, std::vector<std::string>>& options) {
  const fs::path pages = option(options, "pages");
  const fs::path glossary = pageWithLabel(pages, "page_glossary");
  const std::string anchored = prose::glossaryWithAnchors(readFile(glossary));
  if (prose::glossaryTerms(anchored).size() < 30)
    throw std::runtime_error("the glossary has fewer than 30 terms");
  writeFile(glossary, anchored);

  const json lineMap = json::parse(readFile(option(options, "line-map")));
  std::vector<std::string> source;
  std::istringstream lines(readFile(option(options, "source")));
  for (std::string line; std::getline(lines, line);) source.push_back(line);
  std::map<int, std::string> steps;
  if (options.count("steps") == 0) throw std::runtime_error("needs --steps FILE...");
  for (const auto& file : options.at("steps"))
    for (const auto& [number, text] : prose::stepComments(readFile(file))) steps.emplace(number, text);
  writeFile(pages / "31-listing.md", listingPage(lineMap, source, steps));
  return 0;
}

bool isPage(const std::string& name) {
  return name == "index.html" || name.rfind("page_", 0) == 0 || name.rfind("topic_", 0) == 0;
}

int runHtml(const std::map<std::string, std::vector<std::string>>& options) {
  const fs::path html = option(options, "html");
  const fs::path pages = option(options, "pages");
  const auto terms = prose::glossaryTerms(readFile(pageWithLabel(pages, "page_glossary")));
  int linked = 0, boards = 0, screenshots = 0;
  json documents = json::array();
  std::vector<fs::path> files;
  std::vector<std::string> folds;
  for (const auto& entry : fs::directory_iterator(html))
    if (entry.path().extension() == ".html") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    const std::string name = file.filename().string();
    const std::string before = readFile(file);
    std::string text = prose::withSearchScript(before);
    for (const std::string& problem : prose::foldProblems(text)) folds.push_back(name + ": " + problem);
    if (isPage(name)) {
      text = prose::anchorHeadings(text);
      text = prose::dotFramesAsImages(text);
      const auto withoutLinks = text.size();
      text = prose::linkScreenshots(text);
      screenshots += static_cast<int>(text.size() != withoutLinks);
      const auto sizeBefore = text.size();
      if (name != "page_glossary.html") text = prose::linkGlossary(text, terms, "page_glossary.html");
      linked += static_cast<int>(text.size() != sizeBefore);
      const auto boardsBefore = text.size();
      text = prose::addBoards(text);
      boards += static_cast<int>(text.size() != boardsBefore);
      if (name == "page_flags.html" || name == "page_glossary.html" || name == "page_quirks.html")
        text = prose::tablesAsCards(text);
      text = prose::optionsKeptWhole(text);
      for (const auto& document : prose::searchDocuments(name, text))
        documents.push_back({{"id", documents.size()},
                             {"url", document.url},
                             {"title", document.title},
                             {"body", document.body}});
    }
    if (text != before) writeFile(file, text);
  }
  if (!folds.empty()) {
    std::string all;
    for (const std::string& problem : folds) all += "\n  " + problem;
    throw std::runtime_error("folded answers that a reader cannot open:" + all);
  }
  if (documents.size() < 30) throw std::runtime_error("the prose search found fewer than 30 sections");
  writeFile(html / "prose_search_docs.js",
            "// The walkthrough's text, for prose_search.js (made by umax-docprose).\n"
            "var umaxProseDocuments = " +
                documents.dump() + ";\n");
  fs::copy_file(option(options, "lunr"), html / "lunr.js", fs::copy_options::overwrite_existing);
  fs::copy_file(option(options, "search-js"), html / "prose_search.js", fs::copy_options::overwrite_existing);
  std::cout << "umax-docprose: glossary links on " << linked << " pages, boards on " << boards << " pages, "
            << screenshots << " pages with linked images, " << documents.size() << " sections searchable\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 2) throw std::runtime_error("usage: umax-docprose pages|html --option VALUE...");
    const std::string mode = argv[1];
    const auto options = parseOptions(argc, argv);
    if (mode == "pages") return runPages(options);
    if (mode == "html") return runHtml(options);
    throw std::runtime_error("unknown mode " + mode);
  } catch (const std::exception& error) {
    std::cerr << "umax-docprose: " << error.what() << "\n";
    return 1;
  }
}
