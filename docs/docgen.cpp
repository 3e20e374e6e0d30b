// docgen.cpp - turns the walkthrough's page templates into Doxygen pages.
//
// The walkthrough and the visualizer share one description of the original:
// readable/line_map.json (topics, the variable index, and for every code line
// of micro-max.c its topic, its other topics and a note). This tool reads it
// together with micro-max.c and copies each page template of docs/pages/ to
// the output folder, replacing these directives, each alone on its line:
//
//   @umax-listing TOPIC@   the original's listing around TOPIC's lines, those
//                          lines highlighted, then a line-by-line table of
//                          their notes and links to the lines the topic shares
//                          with other pages
//   @umax-variables@       the variable index, as a table
//   @umax-topics@          the topic pages as subpages, in the line map's
//                          order (the course page: the sidebar tree and
//                          Related Pages list them from there)
//   @umax-topic-links@     the same list as plain links (the main page)
//   @umax-course-nav@      "Topic n of 18" with previous / next links (on a
//                          topic page, whose label names its topic)
//   @umax-example NAME@    the worked example NAME made from a real trace by
//                          umax-docexamples (--examples DIR holds NAME.md)
//   @umax-trace-figure@    the figure rendered from a real trace at build
//                          time, or a note saying why there is none
//   @umax-tool-status@     which of the tracer's and visualizer's programs
//                          this build has (from --tools name=yes,name=no)
//   @umax-board-diagram@   a Graphviz picture of the 129-byte board array:
//                          square numbers on the left, the centre-points
//                          table main() computes on the right
//
// and rendering every ```console block (a runnable "Try it", see tryit.h)
// as a framed transcript. With --snippet-root each \snippet gets a caption
// naming its file, lines and steps; with --snippet-out too it also writes, for every file a page quotes with
// \snippet, a copy without the tracing statements (see snippet_filter.h) for Doxygen to read.
//
// Anything wrong (an unknown topic or directive, a topic without a page, a
// topic page without its navigation or its "What you will see" paragraph, a
// missing example, a snippet that still shows tracing) stops the build with
// a message, as a Doxygen warning would.
//
//   umax-docgen --line-map FILE --source FILE --pages DIR --out DIR
//               [--trace-figure SVG] [--tools umax-trace=yes,umax-viz=no]
//               [--examples DIR] [--snippet-root DIR --snippet-out DIR]
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "read_file.h"
#include "snippet_filter.h"
#include "tryit.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using umax::docs::readFile;

void writeIfChanged(const fs::path& path, const std::string& text) {
  if (fs::exists(path) && readFile(path) == text) return;
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + path.string());
  out << text;
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

std::string escapeHtml(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string rstrip(std::string text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r' || text.back() == '\t')) text.pop_back();
  return text;
}

/// The code of a line without its trailing /* comment */ and outer blanks,
/// for the line tables (the listing above them keeps the whole line).
std::string codeOnly(const std::string& line) {
  std::string code = rstrip(line);
  const auto open = code.rfind("/*");
  if (open != std::string::npos && code.size() >= 2 && code.compare(code.size() - 2, 2, "*/") == 0 &&
      code.find_first_not_of(" \t") < open)
    code = rstrip(code.substr(0, open));
  const auto first = code.find_first_not_of(" \t");
  return first == std::string::npos ? "" : code.substr(first);
}

/// The Doxygen page name of a topic: "en-passant" -> "topic_en_passant".
std::string pageName(const std::string& topic) {
  std::string name = "topic_";
  for (char c : topic) name += c == '-' ? '_' : c;
  return name;
}

struct Line {
  int number = 0;
  std::string topic;
  std::vector<std::string> also;
  std::string note;
};

/// The caption above a block a page quotes with \snippet: the file and the
/// lines between its two `// [block]` markers, and the search's steps it
/// holds (its `// Step N.` comments), so that a reader finds the code in the
/// file itself: "readable/src/search.cpp, lines 131-165 (Steps 8-11)".
std::string snippetCaption(const fs::path& root, const std::string& file, const std::string& block) {
  const auto lines = splitLines(readFile(root / file));
  const std::string marker = "// [" + block + "]";
  const std::regex stepHeading(R"(^\s*// Step (\d+)\.)");
  std::vector<int> markers;
  std::set<int> steps;
  for (std::size_t index = 0; index < lines.size(); ++index) {
    const std::string& line = lines[index];
    const auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && rstrip(line.substr(first)) == marker) {
      markers.push_back(static_cast<int>(index) + 1);
      continue;
    }
    std::smatch match;
    if (markers.size() == 1 && std::regex_search(line, match, stepHeading)) steps.insert(std::stoi(match[1]));
  }
  if (markers.size() != 2)
    throw std::runtime_error(file + ": no block [" + block + "] marked twice for \\snippet");
  std::string caption = "<div class=\"umax-snippet-source\">" + file + ", lines " +
                        std::to_string(markers[0] + 1) + "&ndash;" + std::to_string(markers[1] - 1);
  if (!steps.empty()) {
    const bool range = *steps.rbegin() - *steps.begin() + 1 == static_cast<int>(steps.size());
    caption += steps.size() == 1 ? " (Step " : " (Steps ";
    if (range && steps.size() > 1) {
      caption += std::to_string(*steps.begin()) + "&ndash;" + std::to_string(*steps.rbegin());
    } else {
      for (int step : steps) caption += (step == *steps.begin() ? "" : ", ") + std::to_string(step);
    }
    caption += ")";
  }
  return caption + "</div>";
}

class Generator {
 public:
  Generator(const json& map, const std::string& source, std::string traceFigure, const std::string& tools,
            std::string examples)
      : map_(map),
        source_(splitLines(source)),
        traceFigure_(std::move(traceFigure)),
        examples_(std::move(examples)) {
    std::istringstream list(tools);
    for (std::string tool; std::getline(list, tool, ',');) {
      const auto equals = tool.find('=');
      if (equals == std::string::npos) throw std::runtime_error("--tools: expected name=yes|no, got " + tool);
      tools_.emplace_back(tool.substr(0, equals), tool.substr(equals + 1) == "yes");
    }
    for (const auto& topic : map_.at("topics")) {
      topicOrder_.push_back(topic.at("id").get<std::string>());
      titles_[topic.at("id").get<std::string>()] = topic.at("title").get<std::string>();
    }
    for (const auto& entry : map_.at("lines")) {
      Line line;
      line.number = entry.at("line").get<int>();
      line.topic = entry.at("topic").get<std::string>();
      for (const auto& other : entry.at("also")) line.also.push_back(other.get<std::string>());
      line.note = entry.at("note").get<std::string>();
      if (line.number < 1 || line.number > static_cast<int>(source_.size()))
        throw std::runtime_error("line map names line " + std::to_string(line.number) +
                                 ", beyond the end of the source");
      checkTopic(line.topic, "line " + std::to_string(line.number));
      for (const auto& other : line.also) checkTopic(other, "line " + std::to_string(line.number));
      lines_[line.number] = line;
    }
  }

  /// Every "line N (`code`)", "`code`, line N", "line N is `code`" and "line N: `code`" of a page
  /// quotes code that is on line N of the original (blanks ignored): a page that names the
  /// wrong line stops the build. On the flag-bit page (page_flags), which promises the line that
  /// sets and the line that reads each flag, every line a table row names must be such a quote.
  /// Returns how many quotes it checked.
  int checkQuotedLines(const std::string& page, const std::string& pageFile) const {
    static const std::vector<std::pair<std::regex, bool>> forms = {
        {std::regex(R"([Ll]ines? (\d+) \(`([^`]+)`)"), false},
        {std::regex(R"(`([^`]+)`,? \(?line (\d+)\b)"), true},
        {std::regex(R"([Ll]ine (\d+),? is `([^`]+)`)"), false},
        {std::regex(R"([Ll]ine (\d+):? `([^`]+)`)"), false},
        {std::regex(R"([Ll]ine (\d+)'s `([^`]+)`)"), false}};
    const auto squeeze = [](std::string text) {
      text.erase(std::remove_if(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); }),
                 text.end());
      return text;
    };
    // A '|' in a code span of a table row splits the cell: Doxygen then drops the whole table.
    for (const std::string& row : splitLines(page)) {
      if (row.rfind("|", 0) != 0) continue;
      bool inCode = false;
      for (char c : row) {
        if (c == '`') inCode = !inCode;
        if (c == '|' && inCode)
          throw std::runtime_error(pageFile +
                                   ": a '|' inside a code span of a table row (Doxygen drops the "
                                   "table): " +
                                   row.substr(0, 80));
      }
    }
    int checked = 0;
    std::set<std::size_t> quotedNumbers;  // where the line numbers of the quotes are in the page
    for (const auto& [form, codeFirst] : forms)
      for (auto it = std::sregex_iterator(page.begin(), page.end(), form); it != std::sregex_iterator();
           ++it) {
        quotedNumbers.insert(static_cast<std::size_t>(it->position(codeFirst ? 2 : 1)));
        const int number = std::stoi((*it)[codeFirst ? 2 : 1]);
        const std::string code = (*it)[codeFirst ? 1 : 2];
        if (number < 1 || number > static_cast<int>(source_.size()))
          throw std::runtime_error(pageFile + ": \"" + it->str() + "\" names a line beyond the original");
        const std::string line = source_[static_cast<std::size_t>(number - 1)];
        if (squeeze(line.substr(0, line.find("/*"))).find(squeeze(code)) == std::string::npos)
          throw std::runtime_error(pageFile + ": \"" + it->str() + "\": line " + std::to_string(number) +
                                   " of micro-max.c is \"" + rstrip(line) + "\"");
        ++checked;
      }
    if (pageLabel(page) == "page_flags") {
      static const std::regex named(R"(\b([Ll]ines?) (\d+)(,? (?:and )?\d+)?)");
      std::size_t at = 0;
      for (const std::string& row : splitLines(page)) {
        if (row.rfind("|", 0) == 0)
          for (auto it = std::sregex_iterator(row.begin(), row.end(), named); it != std::sregex_iterator();
               ++it)
            if ((*it)[3].matched || !quotedNumbers.count(at + static_cast<std::size_t>(it->position(2))))
              throw std::runtime_error(pageFile + ": \"" + it->str() +
                                       "\" in a table row: name each line with the code it quotes there, "
                                       "as line N (`code`)");
        at += row.size() + 1;
      }
    }
    return checked;
  }

  /// Expands the directives of one page template; remembers listed topics.
  /// Captions each \snippet with where its block is (snippetCaption), read from `root`.
  void captionSnippetsFrom(const fs::path& root) { snippetRoot_ = root; }

  std::string expand(const std::string& page, const std::string& pageFile) {
    std::ostringstream out;
    int number = 0;
    const std::string label = pageLabel(page);
    const std::string topic = topicOfLabel(label);
    if (!topic.empty()) checkTopicPage(page, pageFile);
    const auto blocks = umax::docs::parseTryBlocks(page);
    std::size_t block = 0;
    const auto lines = splitLines(page);
    for (std::size_t index = 0; index < lines.size(); ++index) {
      const std::string& raw = lines[index];
      ++number;
      const std::string line = rstrip(raw);
      const std::string where = pageFile + ":" + std::to_string(number);
      if (line == "```console") {
        // A Try-it block: render it, skip its lines.
        out << tryBlock(blocks.at(block++));
        while (rstrip(lines[++index]) != "```") ++number;
        ++number;
        continue;
      }
      if (line == "<details><summary>Answer</summary>" || line == "</details>") {
        // An answer folded away: Doxygen would end the fold at the first blank line (leaving it
        // empty and the rest in folds without a summary), so the fold's two tags pass through
        // as block HTML and whatever lies between (Try-it blocks, paragraphs) stays inside.
        out << "\\htmlonly[block]\n"
            << (line == "</details>" ? "</details>"
                                     : "<details class=\"umax-answer\"><summary>Answer</summary>")
            << "\n\\endhtmlonly\n";
        continue;
      }
      if (line.find("<details") != std::string::npos || line.find("</details") != std::string::npos)
        throw std::runtime_error(where +
                                 ": a fold is written as a line \"<details><summary>Answer</summary>\", "
                                 "its text, then a line \"</details>\"");
      std::smatch snippet;
      if (!snippetRoot_.empty() && std::regex_search(line, snippet, snippetCommand_))
        out << line.substr(0, line.find_first_not_of(" \t"))
            << snippetCaption(snippetRoot_, snippet[1], snippet[2]) << "\n";
      if (line.rfind("@umax-", 0) != 0) {
        out << raw << "\n";
        continue;
      }
      if (line.size() < 2 || line.back() != '@')
        throw std::runtime_error(where + ": a directive ends with '@': " + line);
      const std::string body = line.substr(1, line.size() - 2);
      if (body.rfind("umax-listing ", 0) == 0) {
        const std::string topic = body.substr(13);
        checkTopic(topic, where);
        if (!listed_.insert(topic).second)
          throw std::runtime_error(where + ": topic '" + topic + "' is listed on two pages");
        out << listing(topic);
      } else if (body == "umax-variables") {
        out << variables();
      } else if (body == "umax-topics") {
        out << topics("\\subpage");
      } else if (body == "umax-topic-links") {
        out << topics("\\ref");
      } else if (body == "umax-course-nav") {
        if (topic.empty())
          throw std::runtime_error(where + ": @umax-course-nav@ on a page that is not a topic");
        out << courseNav(topic);
      } else if (body.rfind("umax-example ", 0) == 0) {
        out << example(body.substr(13), where);
      } else if (body == "umax-trace-figure") {
        out << traceFigure();
      } else if (body == "umax-tool-status") {
        out << toolStatus();
      } else if (body == "umax-board-diagram") {
        out << boardDiagram();
      } else {
        throw std::runtime_error(where + ": unknown directive " + line);
      }
    }
    return out.str();
  }

  /// Every topic must be listed by some page: else its lines go unexplained.
  void checkAllListed() const {
    for (const auto& topic : topicOrder_)
      if (!listed_.count(topic))
        throw std::runtime_error("no page lists topic '" + topic + "' (@umax-listing " + topic +
                                 "@): its lines of the original would be explained nowhere");
  }

 private:
  void checkTopic(const std::string& topic, const std::string& where) const {
    if (!titles_.count(topic)) throw std::runtime_error(where + ": unknown topic '" + topic + "'");
  }

  /// The original's listing from a little before the topic's first line to a
  /// little after its last; the topic's own lines are highlighted, lines it
  /// shares with other topics lightly, and long stretches of other lines are
  /// folded into one "..." line.
  std::string listing(const std::string& topic) const {
    std::set<int> own;
    std::set<int> shared;
    for (const auto& [number, line] : lines_) {
      if (line.topic == topic) own.insert(number);
      for (const auto& other : line.also)
        if (other == topic) shared.insert(number);
    }
    std::set<int> marked = own;
    marked.insert(shared.begin(), shared.end());
    const int count = static_cast<int>(source_.size());
    constexpr int kContext = 1;  // lines shown around each marked line
    std::set<int> shown;
    for (int number : marked)
      for (int near = number - kContext; near <= number + kContext; ++near)
        if (near >= 1 && near <= count) shown.insert(near);

    std::ostringstream html;
    html << "\\htmlonly\n<div class=\"umax-listing\"><div class=\"umax-listing-title\">micro-max.c: "
         << own.size() << " line" << (own.size() == 1 ? "" : "s") << " explained on this page";
    if (!shared.empty()) html << ", " << shared.size() << " shared with other pages (lighter)";
    html << "</div><pre>";
    int previous = 0;
    for (int number : shown) {
      if (previous != 0 && number != previous + 1)
        html << "<span class=\"umax-fold\">      ...   (lines " << previous + 1 << "-" << number - 1
             << ")</span>";
      previous = number;
      const std::string cls = own.count(number)      ? "umax-own"
                              : shared.count(number) ? "umax-shared"
                                                     : "umax-context";
      html << "<span class=\"" << cls << "\" id=\"l" << number << "\"";
      if (own.count(number) || shared.count(number))
        html << " title=\"" << escapeHtml(lines_.at(number).note) << "\"";
      char label[16];
      std::snprintf(label, sizeof label, "%4d  ", number);
      html << "><span class=\"umax-ln\">" << label << "</span>" << escapeHtml(rstrip(source_[number - 1]))
           << "</span>";
    }
    html << "</pre></div>\n";

    // Line by line: what each of the topic's own lines does.
    html << "<table class=\"umax-notes\"><tr><th>line</th><th>code</th><th>what it does</th></tr>\n";
    for (int number : own) {
      const Line& line = lines_.at(number);
      html << "<tr><td class=\"umax-ln\">" << number << "</td><td><code>"
           << escapeHtml(codeOnly(source_[number - 1])) << "</code></td><td>" << escapeHtml(line.note)
           << "</td></tr>\n";
    }
    html << "</table>\n\\endhtmlonly\n";

    // The lines this topic shares, with the page that explains each.
    std::map<std::string, std::vector<int>> byTopic;
    for (int number : shared) byTopic[lines_.at(number).topic].push_back(number);
    if (!byTopic.empty()) {
      html << "\nThe lighter lines are explained on other pages:";
      bool first = true;
      for (const auto& other : topicOrder_) {
        auto found = byTopic.find(other);
        if (found == byTopic.end()) continue;
        html << (first ? " " : "; ") << "\\ref " << pageName(other) << " \"" << titles_.at(other)
             << "\" (line" << (found->second.size() == 1 ? " " : "s ");
        for (std::size_t index = 0; index < found->second.size(); ++index)
          html << (index ? ", " : "") << found->second[index];
        html << ")";
        first = false;
      }
      html << ".\n";
    }
    return html.str();
  }

  std::string variables() const {
    std::ostringstream html;
    html << "\\htmlonly\n<table class=\"umax-notes umax-variables\"><tr><th>micro-Max</th>"
            "<th>where</th><th>readable name</th><th>meaning</th></tr>\n";
    for (const auto& variable : map_.at("variables")) {
      html << "<tr><td><code>" << escapeHtml(variable.at("name").get<std::string>()) << "</code></td><td>"
           << escapeHtml(variable.at("where").get<std::string>()) << "</td><td><code>"
           << escapeHtml(variable.at("readable").get<std::string>()) << "</code></td><td>"
           << escapeHtml(variable.at("meaning").get<std::string>()) << "</td></tr>\n";
    }
    html << "</table>\n\\endhtmlonly\n";
    return html.str();
  }

  std::string topics(const std::string& command) const {
    std::ostringstream out;
    int index = 0;
    for (const auto& topic : topicOrder_) out << ++index << ". " << command << " " << pageName(topic) << "\n";
    return out.str();
  }

  /// The page label of a template: "# Title {#label}" on its first line.
  static std::string pageLabel(const std::string& page) {
    const std::string first = rstrip(page.substr(0, page.find('\n')));
    const auto open = first.rfind("{#");
    if (open == std::string::npos || first.back() != '}') return "";
    return first.substr(open + 2, first.size() - open - 3);
  }

  /// The topic a page label stands for, or "" for a page that is no topic.
  std::string topicOfLabel(const std::string& label) const {
    for (const auto& topic : topicOrder_)
      if (pageName(topic) == label) return topic;
    return "";
  }

  /// A topic page tells the learner where it stands and what it will show.
  static void checkTopicPage(const std::string& page, const std::string& pageFile) {
    if (page.find("\n@umax-course-nav@") == std::string::npos)
      throw std::runtime_error(pageFile + ": a topic page needs @umax-course-nav@ under its title");
    if (page.find("\n**What you will see.**") == std::string::npos)
      throw std::runtime_error(pageFile + ": a topic page needs a \"**What you will see.**\" paragraph");
    if (page.find("\n@umax-example ") == std::string::npos)
      throw std::runtime_error(pageFile + ": a topic page needs a worked example (@umax-example NAME@)");
    if (page.find("\n```console") == std::string::npos)
      throw std::runtime_error(pageFile + ": a topic page needs a runnable Try it (a ```console block)");
  }

  /// "Topic n of 18", and the previous and next pages of the course.
  std::string courseNav(const std::string& topic) const {
    std::size_t index = 0;
    while (topicOrder_[index] != topic) ++index;
    std::ostringstream out;
    out << "<div class=\"umax-nav\"><b>Topic " << index + 1 << " of " << topicOrder_.size() << "</b>";
    if (index > 0)
      out << " &nbsp;&larr; previous: \\ref " << pageName(topicOrder_[index - 1]) << " \""
          << titles_.at(topicOrder_[index - 1]) << "\"";
    else
      out << " &nbsp;&larr; \\ref page_course \"the course\"";
    if (index + 1 < topicOrder_.size())
      out << " &nbsp;|&nbsp; next: \\ref " << pageName(topicOrder_[index + 1]) << " \""
          << titles_.at(topicOrder_[index + 1]) << "\" &rarr;";
    else
      out << " &nbsp;|&nbsp; next: \\ref page_variables \"Variable index\" &rarr;";
    out << " &nbsp;|&nbsp; \\ref page_course \"all topics\"</div>\n";
    return out.str();
  }

  /// A worked example made from a real trace by umax-docexamples.
  std::string example(const std::string& name, const std::string& where) const {
    if (examples_.empty())
      return "<em>No worked example in this build: the documentation build records it from a "
             "real trace (umax-docexamples).</em>\n";
    const fs::path file = fs::path(examples_) / (name + ".md");
    if (!fs::exists(file))
      throw std::runtime_error(where + ": no example '" + name + "' (expected " + file.string() +
                               "; umax-docexamples writes one per worked example)");
    return readFile(file);
  }

  /// A Try-it block as a framed transcript: commands bold, output below.
  static std::string tryBlock(const umax::docs::TryBlock& block) {
    std::ostringstream html;
    html << "\\htmlonly\n<div class=\"umax-try\"><div class=\"umax-try-title\">Try it: the test suite runs "
            "these commands and checks this output (\"...\" stands for lines left out)</div><pre>";
    for (const auto& command : block.commands) {
      html << "<span class=\"umax-cmd\">$ " << escapeHtml(command.command) << "</span>\n";
      for (const auto& line : command.output) html << escapeHtml(line) << "\n";
    }
    html << "</pre></div>\n\\endhtmlonly\n";
    return html.str();
  }

  std::string traceFigure() const {
    if (traceFigure_.empty())
      return "<em>No figure in this build: the tracer (<code>umax-trace</code>) was not part of "
             "it, so there was no trace to draw. When the tracer is built, this page shows the "
             "search tree of a real recorded search here.</em>\n";
    return "\\image html " + traceFigure_ + " \"The search tree of the recorded search\"\n";
  }

  std::string toolStatus() const {
    std::ostringstream out;
    out << "| program | in this build |\n| --- | --- |\n";
    for (const auto& [name, built] : tools_)
      out << "| `" << name << "` | " << (built ? "yes" : "**no** (not written yet, or not configured)")
          << " |\n";
    return out.str();
  }

  /// The board array as main() leaves it, drawn as a table: every cell shows
  /// its index in hex; the left half holds the square names, the right half
  /// the centre points (i-4)^2 + (j-3.5)^2 that main() stores there.
  static std::string boardDiagram() {
    std::ostringstream dot;
    dot << "\\dot \"The 129-byte board array b[]: the 0x88 squares (left) and the centre-points table "
           "(right); b[128] is the dummy square\"\n"
           "digraph board {\n  node [shape=plaintext, fontname=\"Helvetica\", fontsize=9];\n"
           "  b [label=<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n"
           "  <tr><td></td>";
    for (int column = 0; column < 16; ++column) {
      char header[8];
      std::snprintf(header, sizeof header, "+%X", column);
      dot << "<td><b>" << header << "</b></td>";
    }
    dot << "</tr>\n";
    for (int row = 0; row < 8; ++row) {
      char rowHeader[32];
      std::snprintf(rowHeader, sizeof rowHeader, "0x%X0 (rank %d)", row, 8 - row);
      dot << "  <tr><td><b>" << rowHeader << "</b></td>";
      for (int column = 0; column < 16; ++column) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "%02X", 16 * row + column);
        if (column < 8) {
          const bool light = (row + column) % 2 == 0;
          dot << "<td bgcolor=\"" << (light ? "#f3e3c3" : "#c9a66b") << "\">"
              << static_cast<char>('a' + column) << 8 - row << "<br/><font point-size=\"7\">" << hex
              << "</font></td>";
        } else {
          const int file = column - 8;
          const int points = static_cast<int>((file - 4) * (file - 4) + (row - 3.5) * (row - 3.5));
          dot << "<td bgcolor=\"#dde6ee\">" << points << "<br/><font point-size=\"7\">" << hex
              << "</font></td>";
        }
      }
      dot << "</tr>\n";
    }
    dot << "  <tr><td><b>0x80</b></td><td bgcolor=\"#eeeeee\" colspan=\"2\">b[128]<br/>dummy</td>"
           "<td colspan=\"6\" border=\"0\"></td><td colspan=\"8\" border=\"0\">"
           "right half: centre points of the square 8 to the left</td></tr>\n"
           "  </table>>];\n}\n\\enddot\n";
    return dot.str();
  }

  const json& map_;
  std::vector<std::string> source_;
  std::string traceFigure_;
  std::string examples_;
  std::vector<std::pair<std::string, bool>> tools_;
  std::vector<std::string> topicOrder_;
  std::map<std::string, std::string> titles_;
  std::map<int, Line> lines_;
  std::set<std::string> listed_;
  fs::path snippetRoot_;  // where \snippet's files are; empty: no captions
  const std::regex snippetCommand_{R"(^\s*[\\@]snippet(?:lineno|doc|\{[a-z,]*\})?[ \t]+(\S+)[ \t]+(\S+))"};
};

}  // namespace

/// Writes, for every file a page quotes with \snippet, a copy without the
/// tracing statements under `out` (same relative path), and checks that no
/// quoted block still shows tracing.
void writeSnippetSources(const std::set<fs::path>& pages, const fs::path& root, const fs::path& out) {
  const std::regex command(R"([\\@]snippet(?:lineno|doc|\{[a-z,]*\})?[ \t]+(\S+)[ \t]+(\S+))");
  std::map<std::string, std::set<std::string>> blocks;  // file -> blocks quoted
  for (const auto& page : pages) {
    const std::string text = readFile(page);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), command); it != std::sregex_iterator();
         ++it)
      blocks[(*it)[1]].insert((*it)[2]);
  }
  for (const auto& [file, names] : blocks) {
    const std::string filtered = umax::docs::withoutTracing(readFile(root / file));
    for (const auto& name : names) {
      const std::string marker = "// [" + name + "]";
      const auto first = filtered.find(marker);
      const auto second = first == std::string::npos ? first : filtered.find(marker, first + marker.size());
      if (second == std::string::npos)
        throw std::runtime_error(file + ": no block [" + name + "] marked twice for \\snippet");
      const std::string body = filtered.substr(first, second - first);
      for (const char* traced :
           {"observer_", "<Observer", "class Observer", "hooks<", "prefetch", "UndoCheck", "always_inline"})
        if (body.find(traced) != std::string::npos)
          throw std::runtime_error(file + " [" + name + "]: the snippet still shows '" + traced +
                                   "' after the tracing statements were taken out; write the statement "
                                   "in one of the forms snippet_filter.h describes");
    }
    fs::create_directories((out / file).parent_path());
    writeIfChanged(out / file, filtered);
  }
}

int main(int argc, char** argv) {
  std::map<std::string, std::string> options;
  for (int index = 1; index + 1 < argc; index += 2) options[argv[index]] = argv[index + 1];
  for (const char* required : {"--line-map", "--source", "--pages", "--out"}) {
    if (!options.count(required)) {
      std::cerr << "usage: umax-docgen --line-map FILE --source FILE --pages DIR --out DIR "
                   "[--trace-figure SVG] [--tools name=yes,name=no] [--examples DIR] "
                   "[--snippet-root DIR --snippet-out DIR]\n";
      return 2;
    }
  }
  try {
    const json map = json::parse(readFile(options["--line-map"]));
    Generator generator(map, readFile(options["--source"]), options["--trace-figure"], options["--tools"],
                        options["--examples"]);
    if (options.count("--snippet-root")) generator.captionSnippetsFrom(options["--snippet-root"]);
    const fs::path out = options["--out"];
    fs::create_directories(out);
    std::set<fs::path> pages;
    for (const auto& entry : fs::directory_iterator(options["--pages"]))
      if (entry.path().extension() == ".md") pages.insert(entry.path());
    int quoted = 0;
    for (const auto& page : pages) {
      const std::string expanded = generator.expand(readFile(page), page.filename().string());
      quoted += generator.checkQuotedLines(expanded, page.filename().string());
      writeIfChanged(out / page.filename(), expanded);
    }
    if (quoted < 6) throw std::runtime_error("fewer than 6 quotes of a line of micro-max.c found to check");
    generator.checkAllListed();
    if (options.count("--snippet-out"))
      writeSnippetSources(pages, options["--snippet-root"], options["--snippet-out"]);
  } catch (const std::exception& error) {
    std::cerr << "umax-docgen: error: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
