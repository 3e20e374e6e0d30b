// Loading readable/line_map.json and the sources it refers to.
#include "line_map.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "umax/search_observer.h"

namespace umax::viz {

namespace {

bool readLines(const std::string& path, std::vector<std::string>& lines) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  while (std::getline(in, line)) {
    for (char& c : line)
      if (c == '\t') c = ' ';
    lines.push_back(line);
  }
  return true;
}

std::string text(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

void LineMap::load(const std::string& sourceDir) {
  sourceDir_ = sourceDir;
  const std::string mapPath = sourceDir + "/readable/line_map.json";
  nlohmann::json json;
  try {
    std::ifstream in(mapPath);
    if (!in) throw std::runtime_error("cannot open");
    in >> json;
  } catch (const std::exception& error) {
    problems_.push_back("line map " + mapPath + ": " + error.what());
    json = nlohmann::json::object();
  }
  minimal_.path = json.contains("minimal_source") ? text(json, "minimal_source") : "minimal/micro-max.c";
  if (!readLines(sourceDir + "/" + minimal_.path, minimal_.lines))
    problems_.push_back("cannot read " + sourceDir + "/" + minimal_.path + " (use --source-dir)");

  auto readableRefs = [&](const nlohmann::json& list) {
    std::vector<ReadableLine> refs;
    if (!list.is_array()) return refs;
    for (const auto& ref : list) {
      ReadableLine line{text(ref, "file"), 0};
      line.line = findLine(line.file, text(ref, "match"));
      refs.push_back(line);
    }
    return refs;
  };
  try {
    for (const auto& entry : json.value("lines", nlohmann::json::array())) {
      OriginalLine line;
      line.line = entry.value("line", 0);
      line.topic = text(entry, "topic");
      line.note = text(entry, "note");
      line.readable = readableRefs(entry.value("readable", nlohmann::json::array()));
      lines_[line.line] = line;
    }
    for (const auto& entry : json.value("variables", nlohmann::json::array()))
      variables_.push_back(
          {text(entry, "name"), text(entry, "where"), text(entry, "readable"), text(entry, "meaning")});
    for (const auto& entry : json.value("sites", nlohmann::json::array())) {
      Site site;
      site.id = entry.value("id", 0);
      site.name = text(entry, "name");
      for (const auto& line : entry.value("minimal_lines", nlohmann::json::array()))
        if (line.is_number_integer()) site.minimalLines.push_back(line.get<int>());
      site.noteLine = entry.value("note_line", site.minimalLines.empty() ? 0 : site.minimalLines.front());
      site.readable = readableRefs(entry.value("readable", nlohmann::json::array()));
      sites_[site.id] = site;
    }
  } catch (const std::exception& error) {
    problems_.push_back("line map " + mapPath + " is malformed: " + error.what());
  }
  if (sites_.empty()) problems_.push_back("the line map has no \"sites\" yet: no line is highlighted");
  // A site the map does not name (a kind added since it was written) is shown at its hook's call
  // in search.cpp, `hooks<Observer>().onCutoff(`; its lines in the original, if it has any, are
  // for a person to add to the map.
  const std::string search = "readable/src/search.cpp";
#define UMAX_VIZ_DERIVED_SITE(kind, id, record, name, hook, parameters) \
  if (!sites_.count(id))                                                \
    sites_[id] = Site{id, name, {}, {{search, findLine(search, "hooks<Observer>()." #hook "(")}}};
  UMAX_SEARCH_EVENTS(UMAX_VIZ_DERIVED_SITE)
#undef UMAX_VIZ_DERIVED_SITE
}

const SourceFile& LineMap::readableFile(const std::string& path) {
  auto it = readableFiles_.find(path);
  if (it != readableFiles_.end()) return it->second;
  SourceFile& file = readableFiles_[path];
  file.path = path;
  if (!readLines(sourceDir_ + "/" + path, file.lines))
    problems_.push_back("cannot read " + sourceDir_ + "/" + path);
  return file;
}

int LineMap::findLine(const std::string& file, const std::string& match) {
  if (match.empty()) return 0;
  const SourceFile& source = readableFile(file);
  for (std::size_t index = 0; index < source.lines.size(); ++index)
    if (source.lines[index].find(match) != std::string::npos) return static_cast<int>(index) + 1;
  return 0;
}

const OriginalLine* LineMap::original(int line) const {
  auto it = lines_.find(line);
  return it == lines_.end() ? nullptr : &it->second;
}

std::vector<const Variable*> LineMap::variables(const std::string& name) const {
  std::vector<const Variable*> found;
  for (const Variable& variable : variables_)
    if (variable.name == name) found.push_back(&variable);
  return found;
}

const Variable* LineMap::searchVariable(const std::string& name) const {
  for (const Variable& variable : variables_)
    if (variable.name == name && variable.where.rfind("D()", 0) == 0) return &variable;
  return nullptr;
}

const Site* LineMap::site(int id) const {
  auto it = sites_.find(id);
  return it == sites_.end() ? nullptr : &it->second;
}

}  // namespace umax::viz
