// render.h - small helpers that turn numbers from a trace into the Markdown
// and Graphviz the walkthrough pages include.
#pragma once
#include <sstream>
#include <string>
#include <vector>

namespace umax::docs {

/// A Markdown table (Doxygen renders it as an HTML table).
inline std::string table(const std::vector<std::string>& headers,
                         const std::vector<std::vector<std::string>>& rows) {
  std::ostringstream out;
  out << "\n|";
  for (const auto& header : headers) out << " " << header << " |";
  out << "\n|";
  for (std::size_t column = 0; column < headers.size(); ++column) out << " --- |";
  out << "\n";
  for (const auto& row : rows) {
    out << "|";
    for (const auto& cell : row) out << " " << cell << " |";
    out << "\n";
  }
  out << "\n";
  return out.str();
}

/// A number as the pages print it (code font, so -80000 stays one word).
inline std::string num(long value) { return "`" + std::to_string(value) + "`"; }

/// A window [q, l] as the pages print it.
inline std::string window(int alpha, int beta) {
  return "`[" + std::to_string(alpha) + ", " + std::to_string(beta) + "]`";
}

/// The heading and the recording line every example starts with. With `event` (numbered from 0, as
/// umax-trace jsonl's "i" and umax-viz --event) the line that opens the trace opens it at that
/// event, which `what` names ("the mate's score"). With `webUrl` (where the web edition is served,
/// ending in '/'), the line also links the web edition's viewer at that trace and event.
inline std::string exampleHeader(const std::string& title, const std::string& command, long event = -1,
                                 const std::string& what = "", const std::string& webUrl = "") {
  // The trace's path: what follows " -o " in the command (build/docs/examples/NAME.umaxtrace).
  const std::size_t output = command.rfind(" -o ");
  const std::string file = output == std::string::npos ? std::string() : command.substr(output + 4);
  std::string where;
  if (!file.empty() && event < 0)
    where =
        " The documentation build keeps that trace in its examples folder (the command writes the same "
        "bytes there again): open it with `build/bin/umax-viz " +
        file + "`.";
  else if (!file.empty())
    where =
        " The documentation build keeps that trace in its examples folder (the command writes the same "
        "bytes there again): open it at event " +
        std::to_string(event) + ", " + what + ", with `build/bin/umax-viz " + file + " --event " +
        std::to_string(event) + "`.";
  if (!file.empty() && event >= 0 && !webUrl.empty()) {
    // The web edition keeps the trace under viz/traces/ (web/embed_live_views.py copies it there).
    const std::string name = file.substr(file.rfind('/') + 1);
    where += " Or [open it at event " + std::to_string(event) + " in the browser](" + webUrl +
             "viz/index.html?trace=traces/" + name + "&event=" + std::to_string(event) +
             ") (the web edition, served at " + webUrl + ").";
  }
  return "## Worked example: " + title + "\n\nRecorded while this page was built, with\n\n    " + command +
         "\n\nEvery number below is read from that trace; if the search stops showing this, the "
         "documentation build fails." +
         where + "\n";
}

/// Text for a Graphviz HTML-like label (escapes <, > and &).
inline std::string dotText(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "\\\"";
    else
      out += c;
  }
  return out;
}

}  // namespace umax::docs
