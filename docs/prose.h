// prose.h - what umax-docprose does to the walkthrough, as functions the
// tests call too (header-only, like snippet_filter.h).
//
// Before Doxygen (over the pages docgen filled):
//   - glossaryTerms() reads the glossary page's table; glossaryWithAnchors()
//     gives every entry an anchor (glossary_<slug>) that links can name;
//   - listingPage() writes the whole listing: the original's 133 lines, each
//     linked to the topic page that explains it (readable/line_map.json, its
//     "plain_lines" for comments and blanks), beside an outline of the search
//     made from the "Step N." comments of readable/src/search.cpp and moves.h.
// After Doxygen (over the HTML of every page):
//   - proseRanges() finds the text a reader reads as prose (not code, not a
//     heading, not a link, not a figure); linkGlossary() links each term's
//     first use in it to its glossary entry;
//   - fensIn() finds the FEN strings of a page and boardSvg() draws each one
//     as a board beside its first use (addBoards());
//   - linkScreenshots() makes every image open at full size on a click;
//   - searchDocuments() cuts the pages' text into sections for the prose
//     search (lunr, in the browser: prose_search.js).
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace umax::docs::prose {

// ---------------------------------------------------------------- helpers

inline std::string escapeHtml(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

/// Markdown's `code` spans of a text as HTML.
inline std::string codeSpans(const std::string& text) {
  std::string out;
  bool open = false;
  for (char c : escapeHtml(text)) {
    if (c == '`') {
      out += open ? "</code>" : "<code>";
      open = !open;
    } else
      out += c;
  }
  if (open) out += "</code>";
  return out;
}

inline std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

inline std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

/// Decodes the few entities Doxygen writes in text.
inline std::string decodeEntities(const std::string& text) {
  static const std::vector<std::pair<std::string, std::string>> entities = {
      {"&amp;", "&"},  {"&lt;", "<"},  {"&gt;", ">"},    {"&quot;", "\""}, {"&#160;", " "},
      {"&nbsp;", " "}, {"&#39;", "'"}, {"&ndash;", "-"}, {"&mdash;", "-"}, {"&rarr;", "->"}};
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    bool done = false;
    if (text[i] == '&')
      for (const auto& [entity, value] : entities)
        if (text.compare(i, entity.size(), entity) == 0) {
          out += value;
          i += entity.size();
          done = true;
          break;
        }
    if (!done) out += text[i++];
  }
  return out;
}

/// The text of an HTML fragment: tags dropped, entities decoded, blanks
/// collapsed.
inline std::string textOf(const std::string& html) {
  // An inline element (a link, a code span) joins the words around it as they stand ("<code>e</code>:"
  // reads "e:"); any other tag (a paragraph, a table cell, a line break) separates them.
  static const std::set<std::string> inlineTags = {"a",    "abbr",  "b",    "code",   "em",  "i",   "kbd",
                                                   "mark", "small", "span", "strong", "sub", "sup", "tt"};
  std::string plain, tag;
  bool inTag = false;
  for (char c : html) {
    if (c == '<') {
      inTag = true;
      tag.clear();
    } else if (c == '>' && inTag) {
      inTag = false;
      std::string name;
      for (char t : tag.substr(!tag.empty() && tag[0] == '/' ? 1 : 0)) {
        if (!std::isalnum(static_cast<unsigned char>(t))) break;
        name += static_cast<char>(std::tolower(static_cast<unsigned char>(t)));
      }
      if (!inlineTags.count(name)) plain += ' ';
    } else if (inTag) {
      tag += c;
    } else {
      plain += c;
    }
  }
  plain = decodeEntities(plain);
  std::string out;
  for (char c : plain) {
    const bool blank = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (blank && (out.empty() || out.back() == ' ')) continue;
    out += blank ? ' ' : c;
  }
  return trim(out);
}

// --------------------------------------------------------------- glossary

struct Term {
  std::string name;                // as the glossary writes it: "alpha (`q`)"
  std::string slug;                // glossary_alpha_q
  std::string definition;          // the meaning, as plain text
  std::string where;               // the "where it matters" cell
  std::vector<std::string> forms;  // what counts as a use: "alpha"
};

inline std::string slugOf(const std::string& name) {
  std::string slug = "glossary_";
  for (char c : lower(name)) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      slug += c;
    else if (slug.back() != '_')
      slug += '_';
  }
  while (slug.back() == '_') slug.pop_back();
  return slug;
}

/// What counts as a use of a term in the text. The name without its
/// one-letter variable, "(`q`)"; a name that joins several words gives each.
inline std::vector<std::string> formsOf(const std::string& name) {
  static const std::map<std::string, std::vector<std::string>> joined = {
      {"hash key (`J`) and lock (`Z`)", {"hash key", "hash lock", "lock"}},
      {"lower / upper bound, exact", {"lower bound", "upper bound"}},
      {"PV, CUT and ALL nodes", {"PV node", "CUT node", "ALL node"}},
      {"e.p. square (`E`)", {"e.p. square", "en-passant square"}},
      {"0x88 board", {"0x88 board", "0x88"}},
  };
  if (const auto it = joined.find(name); it != joined.end()) return it->second;
  std::string form;
  bool inParen = false;
  for (char c : name) {
    if (c == '(')
      inParen = true;
    else if (c == ')')
      inParen = false;
    else if (!inParen && c != '`')
      form += c;
  }
  return {trim(form)};
}

/// The terms of the glossary page (its markdown): every table row after the
/// header, "| term | meaning | where it matters |".
inline std::vector<Term> glossaryTerms(const std::string& glossaryMarkdown) {
  std::vector<Term> terms;
  std::istringstream lines(glossaryMarkdown);
  bool inTable = false;
  for (std::string line; std::getline(lines, line);) {
    line = trim(line);
    if (line.rfind("| term |", 0) == 0) {
      inTable = true;
      continue;
    }
    if (!inTable || line.rfind("| ---", 0) == 0) continue;
    if (line.empty() || line[0] != '|') {
      inTable = false;
      continue;
    }
    std::vector<std::string> cells;
    std::string cell;
    for (std::size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '|' && line[i - 1] != '\\') {
        cells.push_back(trim(cell));
        cell.clear();
      } else
        cell += line[i];
    }
    if (cells.size() != 3) throw std::runtime_error("glossary row without three cells: " + line);
    std::string name = cells[0];
    if (name.rfind("\\anchor ", 0) == 0) name = trim(name.substr(name.find(' ', 8)));
    // The meaning as plain text (a link's tooltip): no code marks, and
    // "\ref page_quirks" as "the quirks page".
    std::string definition;
    for (char c : cells[1])
      if (c != '`') definition += c;
    static const std::regex reference(R"(\\ref (?:page|topic)_([a-z_]+))");
    std::string named;
    std::size_t from = 0;
    for (auto it = std::sregex_iterator(definition.begin(), definition.end(), reference);
         it != std::sregex_iterator(); ++it) {
      std::string words = (*it)[1];
      std::replace(words.begin(), words.end(), '_', ' ');
      named +=
          definition.substr(from, static_cast<std::size_t>(it->position()) - from) + "the " + words + " page";
      from = static_cast<std::size_t>(it->position() + it->length());
    }
    definition = named + definition.substr(from);
    terms.push_back({name, slugOf(name), definition, cells[2], formsOf(name)});
  }
  return terms;
}

/// The glossary page with an anchor in front of every term.
inline std::string glossaryWithAnchors(const std::string& glossaryMarkdown) {
  std::string out;
  std::istringstream lines(glossaryMarkdown);
  bool inTable = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| term |", 0) == 0)
      inTable = true;
    else if (line.empty() || line[0] != '|')
      inTable = false;
    else if (inTable && line.rfind("| ---", 0) != 0 && line.rfind("| \\anchor", 0) != 0) {
      const auto end = line.find(" |", 1);
      const std::string name = trim(line.substr(1, end - 1));
      line = "| \\anchor " + slugOf(name) + " " + line.substr(2);
    }
    out += line + "\n";
  }
  return out;
}

// ------------------------------------------------------------ prose ranges

/// A run of text between tags, [begin, end) in the page's HTML.
struct Range {
  std::size_t begin;
  std::size_t end;
};

/// The name of the tag at html[at] ('<'), lower case, without '/'.
inline std::string tagName(const std::string& html, std::size_t at) {
  std::size_t i = at + 1;
  if (i < html.size() && html[i] == '/') ++i;
  std::string name;
  while (i < html.size() && (std::isalnum(static_cast<unsigned char>(html[i])) != 0)) name += html[i++];
  return lower(name);
}

/// The textblock of a Doxygen page: [begin, end) of what the page says, or
/// {npos, npos} for a file that is no page.
inline Range textblock(const std::string& html) {
  const auto open = html.find("<div class=\"textblock\">");
  if (open == std::string::npos) return {std::string::npos, std::string::npos};
  const auto begin = open + std::string("<div class=\"textblock\">").size();
  // Its end: where the div it opens closes.
  int depth = 1;
  std::size_t i = begin;
  while (i < html.size()) {
    const auto tag = html.find('<', i);
    if (tag == std::string::npos) break;
    if (html.compare(tag, 4, "<div") == 0)
      ++depth;
    else if (html.compare(tag, 6, "</div>") == 0 && --depth == 0)
      return {begin, tag};
    i = tag + 1;
  }
  return {begin, html.size()};
}

/// The runs of prose in html[block): text outside code, preformatted text,
/// headings, links, figures, scripts and the generated boards and listings.
inline std::vector<Range> proseRanges(const std::string& html, Range block) {
  static const std::set<std::string> voidTags = {"img", "br",     "hr",   "input", "meta",  "link",  "col",
                                                 "wbr", "source", "area", "base",  "embed", "param", "track"};
  static const std::set<std::string> excludedTags = {"a",      "code", "pre", "h1",   "h2",      "h3",
                                                     "h4",     "h5",   "h6",  "svg",  "script",  "style",
                                                     "object", "tt",   "kbd", "samp", "textarea"};
  static const std::vector<std::string> excludedClasses = {"fragment",   "umax-board",   "umax-listing",
                                                           "umax-tryit", "umax-outline", "title",
                                                           "dotgraph",   "umax-live",    "umax-whole"};
  std::vector<Range> ranges;
  std::vector<std::pair<std::string, bool>> open;  // tag name, excluded
  int excluded = 0;
  std::size_t i = block.begin;
  while (i < block.end) {
    const auto tag = html.find('<', i);
    const auto textEnd = std::min(tag == std::string::npos ? block.end : tag, block.end);
    if (textEnd > i && excluded == 0) ranges.push_back({i, textEnd});
    if (textEnd >= block.end) break;
    if (html.compare(tag, 4, "<!--") == 0) {
      const auto close = html.find("-->", tag);
      i = close == std::string::npos ? block.end : close + 3;
      continue;
    }
    const auto close = html.find('>', tag);
    if (close == std::string::npos) break;
    const std::string name = tagName(html, tag);
    const bool closing = html[tag + 1] == '/';
    const bool selfClosing = html[close - 1] == '/';
    if (closing) {
      // Pop to the matching open tag (HTML that closes out of order pops more).
      for (auto it = open.rbegin(); it != open.rend(); ++it)
        if (it->first == name) {
          const auto keep = static_cast<std::size_t>(open.rend() - it) - 1;
          while (open.size() > keep) {
            if (open.back().second) --excluded;
            open.pop_back();
          }
          break;
        }
    } else if (!selfClosing && voidTags.count(name) == 0 && !name.empty()) {
      bool isExcluded = excludedTags.count(name) != 0;
      const std::string attributes = html.substr(tag, close - tag);
      const auto classAt = attributes.find("class=\"");
      if (classAt != std::string::npos) {
        const auto classEnd = attributes.find('"', classAt + 7);
        const std::string classes = " " + attributes.substr(classAt + 7, classEnd - classAt - 7) + " ";
        for (const auto& cls : excludedClasses)
          if (classes.find(" " + cls + " ") != std::string::npos) isExcluded = true;
      }
      open.emplace_back(name, isExcluded);
      if (isExcluded) ++excluded;
    }
    i = close + 1;
  }
  return ranges;
}

/// The prose of a page as one string, blanks collapsed, with the HTML
/// position of every character (a '\x01' between runs: no match crosses a
/// tag).
struct ProseText {
  std::string text;
  std::vector<std::size_t> at;  // at[k]: the HTML position of text[k]
};

inline ProseText proseText(const std::string& html, const std::vector<Range>& ranges) {
  ProseText prose;
  for (const auto& range : ranges) {
    prose.text += '\x01';
    prose.at.push_back(range.begin);
    for (std::size_t i = range.begin; i < range.end; ++i) {
      const bool blank = std::isspace(static_cast<unsigned char>(html[i])) != 0;
      if (blank && prose.text.back() == ' ') continue;
      prose.text += blank ? ' ' : html[i];
      prose.at.push_back(i);
    }
  }
  return prose;
}

/// Is `form` case-sensitive (PV, CUT, ALL: "all nodes" is no ALL node)?
inline bool caseSensitive(const std::string& form) {
  int upper = 0;
  for (char c : form) upper += std::isupper(static_cast<unsigned char>(c)) != 0 ? 1 : 0;
  return upper >= 2;
}

/// The spellings a form may take: each word plain or plural ("plies").
inline std::vector<std::string> variantsOf(const std::string& form) {
  std::vector<std::string> words;
  std::istringstream in(form);
  for (std::string word; in >> word;) words.push_back(word);
  std::vector<std::string> variants = {""};
  for (std::size_t w = 0; w < words.size(); ++w) {
    const std::string& word = words[w];
    std::vector<std::string> spellings = {word, word + "s"};
    if (word.size() > 1 && word.back() == 'y' &&
        std::string("aeiou").find(word[word.size() - 2]) == std::string::npos)
      spellings.push_back(word.substr(0, word.size() - 1) + "ies");
    if (!word.empty() && (word.back() == 's' || word.back() == 'x' || word.back() == 'h'))
      spellings.push_back(word + "es");
    std::vector<std::string> next;
    for (const auto& prefix : variants)
      for (const auto& spelling : spellings) next.push_back(prefix + (w == 0 ? "" : " ") + spelling);
    variants = next;
  }
  return variants;
}

inline bool wordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
}

/// A use of a term in the prose: [begin, end) in ProseText::text.
struct Use {
  std::size_t begin;
  std::size_t end;
};

/// Every use of `term` in the prose, in order, overlapping ones merged
/// (the longest spelling at the earliest place wins).
inline std::vector<Use> usesOf(const ProseText& prose, const Term& term) {
  const std::string folded = lower(prose.text);
  std::vector<Use> uses;
  for (const auto& form : term.forms) {
    const bool exact = caseSensitive(form);
    const std::string& haystack = exact ? prose.text : folded;
    for (const auto& variant : variantsOf(form)) {
      const std::string needle = exact ? variant : lower(variant);
      for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) {
        const auto end = at + needle.size();
        // A whole word; "alpha" in "alpha-beta" and "0x88" in "s & 0x88" are uses
        // only when the next character does not continue the word.
        if (at > 0 && wordChar(haystack[at - 1])) continue;
        if (end < haystack.size() && wordChar(haystack[end])) continue;
        if (end < haystack.size() && haystack[end] == '.' && end + 1 < haystack.size() &&
            std::isalnum(static_cast<unsigned char>(haystack[end + 1])) != 0)
          continue;  // part of a file name or a dotted word
        uses.push_back({at, end});
      }
    }
  }
  std::sort(uses.begin(), uses.end(), [](const Use& a, const Use& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  });
  std::vector<Use> merged;
  for (const auto& use : uses)
    if (merged.empty() || use.begin >= merged.back().end) merged.push_back(use);
  return merged;
}

/// Links the first use of every term on a page (its textblock) to the term's
/// glossary entry. A use inside a longer term's link (the "node" of "PV
/// node") does not count; the next one does.
inline std::string linkGlossary(const std::string& html, const std::vector<Term>& terms,
                                const std::string& glossaryFile) {
  const Range block = textblock(html);
  if (block.begin == std::string::npos || html.find("class=\"umax-gloss\"") != std::string::npos) return html;
  const ProseText prose = proseText(html, proseRanges(html, block));
  // Longest forms first, so "node budget" claims its words before "node".
  std::vector<const Term*> order;
  for (const auto& term : terms) order.push_back(&term);
  auto longest = [](const Term* term) {
    std::size_t size = 0;
    for (const auto& form : term->forms) size = std::max(size, form.size());
    return size;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](const Term* a, const Term* b) { return longest(a) > longest(b); });
  struct Link {
    std::size_t begin;  // HTML positions
    std::size_t end;
    const Term* term;
  };
  std::vector<Link> links;
  std::vector<Use> claimed;
  for (const Term* term : order)
    for (const auto& use : usesOf(prose, *term)) {
      const bool inside = std::any_of(claimed.begin(), claimed.end(), [&](const Use& other) {
        return use.begin < other.end && other.begin < use.end;
      });
      if (inside) continue;
      claimed.push_back(use);
      links.push_back({prose.at[use.begin], prose.at[use.end - 1] + 1, term});
      break;
    }
  std::sort(links.begin(), links.end(), [](const Link& a, const Link& b) { return a.begin > b.begin; });
  std::string out = html;
  for (const auto& link : links) {
    out.insert(link.end, "</a>");
    out.insert(link.begin, "<a class=\"umax-gloss\" href=\"" + glossaryFile + "#" + link.term->slug +
                               "\" title=\"" + escapeHtml(link.term->definition) + "\">");
  }
  return out;
}

// ------------------------------------------------------------------ boards

/// A position's board: 64 squares a8..h8, a7..h7, ..., a1..h1 ('.' empty).
struct Fen {
  std::string text;
  std::string squares;
  char side = 'w';
  std::string castling;
  std::string passed;
};

/// Parses a FEN's first four fields; false if it is none.
inline bool parseFen(const std::string& text, Fen& fen) {
  std::istringstream in(text);
  std::string board, side, castling, passed;
  if (!(in >> board >> side >> castling >> passed)) return false;
  std::string squares;
  int rank = 0, file = 0;
  for (char c : board) {
    if (c == '/') {
      if (file != 8) return false;
      ++rank;
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      squares.append(static_cast<std::size_t>(c - '0'), '.');
    } else if (std::string("pnbrqkPNBRQK").find(c) != std::string::npos) {
      ++file;
      squares += c;
    } else
      return false;
    if (file > 8) return false;
  }
  if (rank != 7 || file != 8 || (side != "w" && side != "b")) return false;
  fen = {text, squares, side[0], castling, passed};
  return true;
}

/// The FENs in a text: [position, FEN) in order.
inline std::vector<std::pair<std::size_t, std::string>> fensIn(const std::string& text) {
  static const std::regex pattern(
      R"([pnbrqkPNBRQK1-8]{1,8}(?:/[pnbrqkPNBRQK1-8]{1,8}){7} [wb] (?:-|[KQkq]{1,4}) (?:-|[a-h][36])(?: \d+ \d+)?)");
  std::vector<std::pair<std::size_t, std::string>> found;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern); it != std::sregex_iterator();
       ++it) {
    Fen fen;
    if (parseFen(it->str(), fen)) found.emplace_back(static_cast<std::size_t>(it->position()), it->str());
  }
  return found;
}

/// The board of a FEN as an SVG: White at the bottom, files and ranks
/// written round it, the side to move (and castling rights, e.p. square)
/// under it. Every piece carries data-square and data-piece.
inline std::string boardSvg(const Fen& fen) {
  constexpr int kSquare = 26, kMargin = 16;
  const int size = 8 * kSquare;
  const int width = size + 2 * kMargin, height = size + 2 * kMargin + 14;
  // Black's pieces are the solid glyphs (U+265A..265F). White's are the outline glyphs (U+2654..2659)
  // drawn over the solid one filled white: a solid glyph filled white and outlined (the first way)
  // showed White's king black, as DejaVu draws its king's inner lines as outlines of their own.
  static const std::map<char, std::string> solid = {{'k', "&#9818;"}, {'q', "&#9819;"}, {'r', "&#9820;"},
                                                    {'b', "&#9821;"}, {'n', "&#9822;"}, {'p', "&#9823;"}};
  static const std::map<char, std::string> outline = {{'K', "&#9812;"}, {'Q', "&#9813;"}, {'R', "&#9814;"},
                                                      {'B', "&#9815;"}, {'N', "&#9816;"}, {'P', "&#9817;"}};
  std::ostringstream svg;
  const std::string toMove = fen.side == 'w' ? "White to move" : "Black to move";
  svg << "<svg class=\"umax-board-svg\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
      << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << " " << height
      << "\" role=\"img\" data-fen=\"" << escapeHtml(fen.text) << "\"><title>" << escapeHtml(fen.text) << " ("
      << toMove << ")</title>";
  for (int row = 0; row < 8; ++row)
    for (int col = 0; col < 8; ++col) {
      const bool light = (row + col) % 2 == 0;
      const int x = kMargin + col * kSquare, y = kMargin + row * kSquare;
      svg << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << kSquare << "\" height=\"" << kSquare
          << "\" fill=\"" << (light ? "#f0d9b5" : "#b58863") << "\"/>";
      // The square's number on micro-Max's 0x88 board (16 * row + file, a8 = 0x00, h1 = 0x77), in hex
      // in its corner; hidden until the reader asks for it (prose_search.js, umax.css).
      char hex[8];
      std::snprintf(hex, sizeof hex, "%02x", 16 * row + col);
      svg << "<text class=\"umax-hex\" x=\"" << x + 1 << "\" y=\"" << y + 7
          << "\" font-size=\"7\" font-family=\"monospace\" fill=\"" << (light ? "#7a5a30" : "#fbeedd")
          << "\" aria-hidden=\"true\">" << hex << "</text>";
      const char piece = fen.squares[static_cast<std::size_t>(row * 8 + col)];
      if (piece != '.') {
        const std::string square = std::string(1, static_cast<char>('a' + col)) + std::to_string(8 - row);
        const bool white = std::isupper(static_cast<unsigned char>(piece)) != 0;
        const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(piece)));
        std::ostringstream at;
        at << "<text x=\"" << x + kSquare / 2 << "\" y=\"" << y + kSquare - 5
           << "\" text-anchor=\"middle\" font-size=\"" << kSquare - 3
           << "\" font-family=\"DejaVu Sans, sans-serif\" ";
        if (white)
          svg << at.str() << "fill=\"#fff\" aria-hidden=\"true\">" << solid.at(lower) << "&#xFE0E;</text>";
        svg << at.str() << "fill=\"#111\" data-square=\"" << square << "\" data-piece=\"" << piece << "\">"
            << (white ? outline.at(piece) : solid.at(piece)) << "&#xFE0E;</text>";
      }
    }
  svg << "<rect x=\"" << kMargin << "\" y=\"" << kMargin << "\" width=\"" << size << "\" height=\"" << size
      << "\" fill=\"none\" stroke=\"#6b5536\"/>";
  for (int i = 0; i < 8; ++i) {
    svg << "<text x=\"" << kMargin + i * kSquare + kSquare / 2 << "\" y=\"" << kMargin + size + 12
        << "\" text-anchor=\"middle\" font-size=\"11\" fill=\"#6b5536\">" << static_cast<char>('a' + i)
        << "</text>";
    svg << "<text x=\"" << kMargin / 2 << "\" y=\"" << kMargin + i * kSquare + kSquare / 2 + 4
        << "\" text-anchor=\"middle\" font-size=\"11\" fill=\"#6b5536\">" << 8 - i << "</text>";
  }
  std::string caption = toMove;
  if (fen.castling != "-") caption += ", castling " + fen.castling;
  if (fen.passed != "-") caption += ", e.p. " + fen.passed;
  svg << "<circle cx=\"" << kMargin + 5 << "\" cy=\"" << height - 8 << "\" r=\"4.5\" fill=\""
      << (fen.side == 'w' ? "#fff" : "#000") << "\" stroke=\"#000\"/><text x=\"" << kMargin + 14 << "\" y=\""
      << height - 4 << "\" font-size=\"11\" data-side=\"" << fen.side << "\">" << escapeHtml(caption)
      << "</text></svg>";
  return svg.str();
}

/// The FEN of a board: placement, side, castling, e.p. square (no counters).
inline std::string fenText(const Fen& fen) {
  std::string placement;
  for (int row = 0; row < 8; ++row) {
    int empty = 0;
    for (int col = 0; col < 8; ++col) {
      const char piece = fen.squares[static_cast<std::size_t>(row * 8 + col)];
      if (piece == '.') {
        ++empty;
        continue;
      }
      if (empty) placement += static_cast<char>('0' + empty);
      empty = 0;
      placement += piece;
    }
    if (empty) placement += static_cast<char>('0' + empty);
    if (row < 7) placement += '/';
  }
  return placement + " " + fen.side + " " + (fen.castling.empty() ? "-" : fen.castling) + " " + fen.passed;
}

/// The position after `moves` ("e2e4 e7e5", coordinate moves as --moves takes them) are played from
/// `fen`: the piece goes from its square to the other, a king's two-square step brings its rook
/// along, a pawn's diagonal step onto the e.p. square takes the pawn beside it, a pawn reaching the
/// last rank becomes the piece named (a queen if none). Only for drawing: the moves are not checked
/// for legality, but each must move a piece of the side to move; false if one does not.
inline bool afterMoves(Fen fen, const std::string& moves, Fen& after) {
  std::istringstream in(moves);
  for (std::string move; in >> move;) {
    if (move.size() < 4 || move.size() > 5 || move[0] < 'a' || move[0] > 'h' || move[2] < 'a' ||
        move[2] > 'h' || move[1] < '1' || move[1] > '8' || move[3] < '1' || move[3] > '8')
      return false;
    const auto index = [](char file, char rank) {
      return static_cast<std::size_t>(('8' - rank) * 8 + (file - 'a'));
    };
    const std::size_t from = index(move[0], move[1]), to = index(move[2], move[3]);
    const char piece = fen.squares[from];
    const bool white = std::isupper(static_cast<unsigned char>(piece)) != 0;
    if (piece == '.' || white != (fen.side == 'w')) return false;
    const char type = static_cast<char>(std::tolower(static_cast<unsigned char>(piece)));
    const std::string target = move.substr(2, 2);
    if (type == 'p' && move[0] != move[2] && fen.squares[to] == '.' && target == fen.passed)
      fen.squares[index(move[2], move[1])] = '.';
    if (type == 'k' && (move[2] - move[0] == 2 || move[0] - move[2] == 2)) {
      const bool kingSide = move[2] > move[0];
      const std::size_t rookFrom = index(kingSide ? 'h' : 'a', move[1]);
      const std::size_t rookTo = index(kingSide ? 'f' : 'd', move[1]);
      fen.squares[rookTo] = fen.squares[rookFrom];
      fen.squares[rookFrom] = '.';
    }
    char placed = piece;
    if (type == 'p' && (move[3] == '8' || move[3] == '1')) {
      const char promoted = move.size() == 5 ? move[4] : 'q';
      placed = white ? static_cast<char>(std::toupper(static_cast<unsigned char>(promoted))) : promoted;
    }
    fen.squares[to] = placed;
    fen.squares[from] = '.';
    // Castling rights: a king's or rook's move, or a capture on a rook's corner, takes them away.
    const auto drop = [&fen](char right) {
      fen.castling.erase(std::remove(fen.castling.begin(), fen.castling.end(), right), fen.castling.end());
    };
    for (const std::string& square : {move.substr(0, 2), target}) {
      if (square == "e1") drop('K'), drop('Q');
      if (square == "e8") drop('k'), drop('q');
      if (square == "h1") drop('K');
      if (square == "a1") drop('Q');
      if (square == "h8") drop('k');
      if (square == "a8") drop('q');
    }
    if (fen.castling.empty()) fen.castling = "-";
    fen.passed = type == 'p' && (move[3] - move[1] == 2 || move[1] - move[3] == 2)
                     ? std::string(1, move[0]) + static_cast<char>((move[1] + move[3]) / 2)
                     : "-";
    fen.side = fen.side == 'w' ? 'b' : 'w';
  }
  fen.text = fenText(fen);
  after = fen;
  return true;
}

/// The moves a command plays after a FEN: the `--moves "..."` (or --moves m) that follows the FEN
/// in `html` at `end` (after its closing quote), or "".
inline std::string movesAfter(const std::string& html, std::size_t end) {
  static const std::regex pattern(
      R"(^(?:&quot;|"|')?\s+--moves\s+(?:&quot;|"|')?((?:[a-h][1-8][a-h][1-8][qrbn]?)(?:\s+[a-h][1-8][a-h][1-8][qrbn]?)*))");
  std::smatch found;
  const std::string after = html.substr(end, 200);
  return std::regex_search(after, found, pattern) ? found[1].str() : std::string();
}

/// Where the board of a FEN at `from` goes: the end of the enclosing block, after a paragraph or
/// code block, inside a table cell or list item (the nearest closing tag), else the textblock's end.
inline std::size_t boardPoint(const std::string& html, const Range& block, std::size_t from) {
  static const std::vector<std::pair<std::string, bool>> ends = {{"<!-- fragment -->", true},
                                                                 {"</p>", true},
                                                                 {"</pre>", true},
                                                                 {"</td>", false},
                                                                 {"</li>", false},
                                                                 {"</dd>", false},
                                                                 {"</table>", true}};
  std::size_t nearest = std::string::npos, point = block.end;
  for (const auto& [end, after] : ends) {
    const auto found = html.find(end, from);
    if (found == std::string::npos || found > block.end) continue;
    if (nearest == std::string::npos || found < nearest) {
      nearest = found;
      point = after ? found + end.size() : found;
    }
  }
  return point;
}

/// Draws every FEN of a page (its textblock) beside its first use: after the
/// paragraph, code block or list item that holds it, or inside its table
/// cell. One board per position and page, except that a place whose block names
/// two positions or more draws each of them (a board drawn higher up too), so that
/// one board alone never stands under a command about another position (topic 5's
/// Try it). When a recorded search plays moves
/// after the FEN (umax-trace record --moves), the position after them (its root) is drawn
/// beside it; when one place gets two boards or more, each is captioned.
inline std::string addBoards(const std::string& html) {
  const Range block = textblock(html);
  if (block.begin == std::string::npos || html.find("class=\"umax-boards\"") != std::string::npos)
    return html;
  const std::string text = html.substr(block.begin, block.end - block.begin);
  std::map<std::size_t, std::vector<std::pair<std::string, std::string>>> at;  // point -> FENs, moves
  std::set<std::string> drawn;
  // Where each FEN's board would go, and how many positions each such place names.
  std::vector<std::tuple<std::size_t, std::string, std::string>> uses;  // FEN's position, FEN, key
  std::map<std::size_t, std::set<std::string>> positionsAt, drawnAt;    // point -> keys
  for (const auto& [position, fen] : fensIn(text)) {
    const std::string key = fen.substr(0, fen.find(' ', fen.find(' ', fen.find(' ') + 1) + 1));
    uses.emplace_back(position, fen, key);
    positionsAt[boardPoint(html, block, block.begin + position)].insert(key);
  }
  for (const auto& [position, fen, key] : uses) {
    const std::size_t from = block.begin + position;
    const std::size_t place = boardPoint(html, block, from);
    const bool several = positionsAt[place].size() > 1;
    const bool first = drawn.insert(key).second;
    if (!(several ? drawnAt[place].insert(key).second : first)) continue;
    // Only a recorded search's root is drawn after its moves: a command that just plays them may
    // refuse one (topic 5's castling through check).
    const auto command = html.rfind("umax-", from);
    const bool recorded = command != std::string::npos && from - command < 60 &&
                          html.compare(command, 17, "umax-trace record") == 0;
    at[place].push_back({fen, recorded ? movesAfter(html, from + fen.size()) : std::string()});
  }
  std::string out = html;
  for (auto it = at.rbegin(); it != at.rend(); ++it) {
    std::string boards = "<div class=\"umax-boards\">";
    std::size_t count = 0;
    for (const auto& [text, moves] : it->second) count += moves.empty() ? 1 : 2;
    for (const auto& [text, moves] : it->second) {
      Fen fen, after;
      parseFen(text, fen);
      const bool played = !moves.empty() && afterMoves(fen, moves, after);
      const std::string placement = text.substr(0, text.find(' '));
      boards += "<div class=\"umax-board\">" + boardSvg(fen) +
                (count > 1 || played ? "<div class=\"umax-board-caption\">the FEN <code>" +
                                           escapeHtml(placement) + "</code></div>"
                                     : "") +
                "</div>";
      if (played)
        boards += "<div class=\"umax-board umax-board-after\">" + boardSvg(after) +
                  "<div class=\"umax-board-caption\">after <code>" + escapeHtml(moves) +
                  "</code>: the position searched</div></div>";
    }
    boards += "</div><!-- /umax-boards -->";
    out.insert(it->first, boards);
  }
  return out;
}

// -------------------------------------------------------------- options

/// Keeps each "--option value" of a code span on one line (`<span class="umax-opt">`, nowrap in
/// umax.css): a phone wraps a long command at its spaces, and Chromium would also break after the
/// hyphens of "--event" ("--" at a line's end, "event 230" on the next). The text is unchanged.
inline std::string optionsKeptWhole(const std::string& html) {
  if (html.find("class=\"umax-opt\"") != std::string::npos) return html;
  static const std::regex option(R"re(--[a-z][a-z-]*(?: [^ <-][^ <]*)?)re");
  std::string out;
  std::size_t i = 0;
  // Plain code spans only: a classed one (code.umax-nowrap, under a screenshot) has its own rule.
  for (auto at = html.find("<code>"); at != std::string::npos; at = html.find("<code>", at + 1)) {
    const auto open = html.find('>', at);
    const auto close = html.find("</code>", at);
    if (open == std::string::npos || close == std::string::npos || open > close) break;
    const std::string inside = html.substr(open + 1, close - open - 1);
    if (inside.find('<') != std::string::npos) continue;  // a span with markup of its own: left alone
    out += html.substr(i, open + 1 - i) +
           std::regex_replace(inside, option, "<span class=\"umax-opt\">$&</span>");
    i = close;
    at = close;
  }
  return out + html.substr(i);
}

// ------------------------------------------------------------------ cards

/// Marks each markdown table of a page as cards for a phone (umax.css: one card per row, each cell
/// under its column's name): the table gets the class umax-cards and each body cell a data-label,
/// its column's header text. The flag-bit page's seven columns left its "meaning" 90 px at 390 px.
inline std::string tablesAsCards(const std::string& html) {
  static const std::string kTable = "<table class=\"markdownTable\">";
  if (html.find("umax-cards") != std::string::npos) return html;
  std::string out;
  std::size_t i = 0;
  for (auto at = html.find(kTable); at != std::string::npos; at = html.find(kTable, at + 1)) {
    const auto end = html.find("</table>", at);
    if (end == std::string::npos) break;
    std::string table = html.substr(at, end - at);
    std::vector<std::string> labels;
    const auto headEnd = table.find("</tr>");
    static const std::regex th(R"re(<th[^>]*>([\s\S]*?)</th>)re");
    const std::string head = table.substr(0, headEnd == std::string::npos ? 0 : headEnd);
    for (auto it = std::sregex_iterator(head.begin(), head.end(), th); it != std::sregex_iterator(); ++it)
      labels.push_back(textOf((*it)[1].str()));
    std::string cards = "<table class=\"markdownTable umax-cards\">";
    std::size_t j = kTable.size();
    std::size_t column = 0;
    for (auto cell = table.find("<td", j); cell != std::string::npos; cell = table.find("<td", cell + 1)) {
      if (table.compare(cell, 3, "<td") != 0 || (table[cell + 3] != ' ' && table[cell + 3] != '>')) continue;
      const auto rowStart = table.rfind("<tr", cell);
      const auto lastCell = table.rfind("</td>", cell);
      column = lastCell == std::string::npos || lastCell < rowStart ? 0 : column + 1;
      cards += table.substr(j, cell + 3 - j);
      if (column < labels.size()) cards += " data-label=\"" + escapeHtml(labels[column]) + "\"";
      j = cell + 3;
    }
    cards += table.substr(j);
    out += html.substr(i, at - i) + cards;
    i = end;
  }
  return out + html.substr(i);
}

// ------------------------------------------------------------- screenshots

/// Doxygen shows an SVG figure as `<object type="image/svg+xml" data="F">`,
/// which a link cannot wrap (the object takes the clicks): each becomes
/// `<img src="F">`, which browsers draw the same.
inline std::string svgObjectsAsImages(const std::string& html) {
  static const std::string kObject = "<object type=\"image/svg+xml\" data=\"";
  std::string out;
  std::size_t i = 0;
  for (auto at = html.find(kObject); at != std::string::npos; at = html.find(kObject, at + 1)) {
    const auto nameEnd = html.find('"', at + kObject.size());
    const auto end = html.find("</object>", at);
    if (nameEnd == std::string::npos || end == std::string::npos) break;
    const std::string file = html.substr(at + kObject.size(), nameEnd - at - kObject.size());
    out += html.substr(i, at - i) + "<img src=\"" + file + "\" alt=\"" + file + "\">";
    i = end + std::string("</object>").size();
  }
  return out + html.substr(i);
}

/// Doxygen shows a \dot figure as `<iframe scrolling="no" src="F.svg" width="W" height="H">`: a
/// frame of fixed size that cuts the figure on a screen narrower than W. Each becomes an image
/// (the figures hold no links) that shrinks to the page's width, in a link to itself at full size.
inline std::string dotFramesAsImages(const std::string& html) {
  static const std::regex frame(
      R"re(<iframe scrolling="no" frameborder="0" src="([^"]+\.svg)" width="(\d+)" height="(\d+)">[\s\S]*?</iframe>)re");
  std::string out;
  std::size_t from = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), frame); it != std::sregex_iterator(); ++it) {
    const std::string file = (*it)[1];
    out += html.substr(from, static_cast<std::size_t>(it->position()) - from) +
           "<a class=\"umax-full-size umax-dot\" href=\"" + file +
           "\" title=\"Open the figure at full size\"><img class=\"umax-dot\" src=\"" + file + "\" width=\"" +
           (*it)[2].str() + "\" height=\"" + (*it)[3].str() + "\" alt=\"a figure (" + file + ")\"></a>";
    from = static_cast<std::size_t>(it->position() + it->length());
  }
  return out + html.substr(from);
}

/// Puts every image of a page's figures (Doxygen's div.image) in a link to
/// itself, so a screenshot or plot shown small opens at full size.
inline std::string linkScreenshots(const std::string& page) {
  const std::string html = svgObjectsAsImages(page);
  std::string out;
  std::size_t i = 0;
  for (auto at = html.find("<div class=\"image\">"); at != std::string::npos;
       at = html.find("<div class=\"image\">", at + 1)) {
    const auto img = html.find("<img ", at);
    const auto close = img == std::string::npos ? std::string::npos : html.find('>', img);
    if (close == std::string::npos) break;
    const auto divEnd = html.find("</div>", at);
    if (img > divEnd) continue;
    const auto src = html.find("src=\"", img);
    if (src == std::string::npos || src > close) continue;
    const std::string file = html.substr(src + 5, html.find('"', src + 5) - src - 5);
    const std::string between = html.substr(at, img - at);
    if (between.find("<a ") != std::string::npos) continue;
    out += html.substr(i, img - i);
    out += "<a class=\"umax-full-size\" href=\"" + file + "\" title=\"Open the image at full size\">" +
           html.substr(img, close + 1 - img) + "</a>";
    i = close + 1;
  }
  out += html.substr(i);
  return out;
}

// ------------------------------------------------------------------ folds

/// What is wrong with the page's folds (`<details>`), one sentence each: a fold
/// must open with its `<summary>` (else the browser labels it "Details") and
/// hold something besides it (else opening it shows nothing).
inline std::vector<std::string> foldProblems(const std::string& html) {
  std::vector<std::string> problems;
  static const std::string kOpen = "<details", kClose = "</details>";
  for (auto at = html.find(kOpen); at != std::string::npos; at = html.find(kOpen, at + 1)) {
    const auto tagEnd = html.find('>', at);
    const auto close = html.find(kClose, at);
    const auto next = html.find(kOpen, at + 1);
    const std::string near = textOf(html.substr(at, std::min<std::size_t>(160, html.size() - at)));
    if (tagEnd == std::string::npos || close == std::string::npos ||
        (next != std::string::npos && next < close)) {
      problems.push_back("a fold that is never closed or holds another: " + near);
      continue;
    }
    const auto first = html.find_first_not_of(" \t\r\n", tagEnd + 1);
    if (html.compare(first, 9, "<summary>") != 0) {
      problems.push_back("a fold without a summary (the browser shows \"Details\"): " + near);
      continue;
    }
    const auto summaryEnd = html.find("</summary>", first);
    if (summaryEnd == std::string::npos || summaryEnd > close) {
      problems.push_back("a fold whose summary is not closed: " + near);
      continue;
    }
    const std::string inside = html.substr(summaryEnd + 10, close - summaryEnd - 10);
    if (textOf(inside).empty() && inside.find("<img") == std::string::npos)
      problems.push_back("an empty fold (opening it shows nothing): " + near);
  }
  return problems;
}

// ----------------------------------------------------------------- search

struct SearchDocument {
  std::string url;    // page.html or page.html#anchor
  std::string title;  // "Page" or "Page: section"
  std::string body;   // the section's text
};

/// The sections of a page for the prose search: the text before its first
/// heading, then one document per heading (h1..h3) with its anchor.
inline std::vector<SearchDocument> searchDocuments(const std::string& file, const std::string& html) {
  std::vector<SearchDocument> documents;
  const auto titleAt = html.find("<div class=\"title\">");
  if (titleAt == std::string::npos) return documents;
  const auto titleEnd = html.find("</div>", titleAt);
  const std::string pageTitle = textOf(html.substr(titleAt, titleEnd - titleAt));
  const Range block = textblock(html);
  if (block.begin == std::string::npos) return documents;
  // The text without code blocks, figures and scripts.
  std::string text;
  std::size_t i = block.begin;
  static const std::vector<std::pair<std::string, std::string>> skipped = {
      {"<div class=\"fragment\">", "<!-- fragment -->"},
      {"<svg", "</svg>"},
      {"<script", "</script>"},
      {"<div class=\"umax-listing\">", "</pre>"},
      {"<style", "</style>"},
      {"<div class=\"umax-boards\">", "<!-- /umax-boards -->"},
      // A table's header row would run into the sentence before the table.
      {"<tr class=\"markdownTableHead\">", "</tr>"},
      {"<tr><th>", "</tr>"}};
  while (i < block.end) {
    std::size_t next = block.end;
    const std::pair<std::string, std::string>* which = nullptr;
    for (const auto& pair : skipped) {
      const auto found = html.find(pair.first, i);
      if (found != std::string::npos && found < next) {
        next = found;
        which = &pair;
      }
    }
    text += html.substr(i, next - i);
    if (which == nullptr) break;
    const auto end = html.find(which->second, next);
    i = end == std::string::npos ? block.end : end + which->second.size();
    text += " ";
  }
  // Cut at the headings.
  static const std::regex heading(R"re(<h([1-3])([^>]*)>([\s\S]*?)</h\1>)re");
  static const std::regex idAttribute(R"re(id="([^"]+)")re");
  std::string anchor, section;
  std::size_t from = 0;
  auto flush = [&](std::size_t to) {
    const std::string body = textOf(text.substr(from, to - from));
    if (!body.empty())
      documents.push_back({anchor.empty() ? file : file + "#" + anchor,
                           section.empty() ? pageTitle : pageTitle + ": " + section, body});
  };
  for (auto it = std::sregex_iterator(text.begin(), text.end(), heading); it != std::sregex_iterator();
       ++it) {
    flush(static_cast<std::size_t>(it->position()));
    std::smatch id;
    const std::string tag = (*it)[2].str() + (*it)[3].str();
    anchor = std::regex_search(tag, id, idAttribute) ? id[1].str() : "";
    section = textOf((*it)[3]);
    from = static_cast<std::size_t>(it->position() + it->length());
  }
  flush(text.size());
  return documents;
}

/// Gives every heading of a page's textblock that has no anchor an id made
/// from its words ("sec-try-it"), so the search can lead to the section.
inline std::string anchorHeadings(const std::string& html) {
  const Range block = textblock(html);
  if (block.begin == std::string::npos) return html;
  std::string out = html.substr(0, block.begin);
  std::set<std::string> used;
  std::size_t i = block.begin;
  for (auto at = html.find("<h", i); at != std::string::npos && at < block.end; at = html.find("<h", i)) {
    const char level = at + 2 < html.size() ? html[at + 2] : 0;
    if (level < '1' || level > '6' || html[at + 3] != '>') {
      out += html.substr(i, at + 2 - i);
      i = at + 2;
      continue;
    }
    const auto close = html.find("</h", at);
    std::string slug = "sec";
    for (char c : lower(textOf(html.substr(at + 4, close - at - 4)))) {
      if (std::isalnum(static_cast<unsigned char>(c)))
        slug += c;
      else if (slug.back() != '-')
        slug += '-';
    }
    while (slug.back() == '-') slug.pop_back();
    std::string id = slug;
    for (int n = 2; !used.insert(id).second; ++n) id = slug + "-" + std::to_string(n);
    out += html.substr(i, at - i) + "<h" + level + " id=\"" + id + "\">";
    i = at + 4;
  }
  out += html.substr(i);
  return out;
}

/// The scripts every page loads: the prose search box.
inline std::string withSearchScript(const std::string& html) {
  const auto body = html.rfind("</body>");
  if (body == std::string::npos || html.find("prose_search.js") != std::string::npos) return html;
  return html.substr(0, body) + "<script src=\"prose_search.js\"></script>\n" + html.substr(body);
}

// ---------------------------------------------------------------- listing

struct Step {
  int number;
  int depth;          // indentation of the outline
  std::string topic;  // the line map's topic id
  std::string text;   // the comment's first sentence
};

/// Where each step of the search sits in the outline and which topic
/// explains it. The words come from the sources' "Step N." comments.
inline std::vector<Step> outlineSteps() {
  return {{1, 1, "hashing", ""},
          {2, 1, "hashing", ""},
          {3, 1, "iterative-deepening", ""},  // line 52 N++, as the line map says
          {4, 1, "iterative-deepening", ""},
          {5, 2, "move-generation", ""},
          {6, 3, "move-generation", ""},
          {8, 4, "alpha-beta", ""},  // line 70, as the line map says
          {9, 4, "alpha-beta", ""},
          {10, 4, "quiescence", ""},
          {11, 4, "do-undo", ""},
          {12, 4, "alpha-beta", ""},
          {13, 4, "legality-interface", ""},
          {14, 4, "do-undo", ""},
          {15, 4, "move-sorting", ""},
          {16, 4, "alpha-beta", ""},
          {7, 3, "move-generation", ""},
          {17, 2, "mate-stalemate", ""},
          {18, 2, "hash-replacement", ""},
          {19, 1, "alpha-beta", ""}};
}

/// The first sentence of every "// Step N. ..." comment of a source.
inline std::map<int, std::string> stepComments(const std::string& source) {
  std::map<int, std::string> steps;
  static const std::regex comment(R"(// Step (\d+)\. ([^\n]*(?:\n\s*// [^\n]*)*))");
  for (auto it = std::sregex_iterator(source.begin(), source.end(), comment); it != std::sregex_iterator();
       ++it) {
    std::string words;
    std::istringstream lines((*it)[2].str());
    for (std::string line; std::getline(lines, line);) {
      line = trim(line);
      if (line.rfind("//", 0) == 0) line = trim(line.substr(2));
      words += (words.empty() ? "" : " ") + line;
    }
    // The first sentence.
    for (std::size_t k = 0; k + 1 < words.size(); ++k)
      if (words[k] == '.' && words[k + 1] == ' ' && !(k >= 2 && words[k - 2] == '.')) {  // not "e.p."
        words = words.substr(0, k + 1);
        break;
      }
    steps.emplace(std::stoi((*it)[1]), words);
  }
  return steps;
}

}  // namespace umax::docs::prose
