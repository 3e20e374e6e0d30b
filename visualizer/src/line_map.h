// The line map (readable/line_map.json) and the two sources it ties
// together: which lines of the original and of the readable build belong to
// each search site, the annotation of each original line, and the meaning of
// each one-letter variable.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace umax::viz {

/// A source file, split into lines (index 0 = line 1).
struct SourceFile {
  std::string path;  ///< relative to the source directory
  std::vector<std::string> lines;
};

/// A line of a readable file.
struct ReadableLine {
  std::string file;  ///< relative path, e.g. readable/src/search.cpp
  int line = 0;      ///< 1-based; 0 if the match text was not found
};

/// What the map says about one line of the original.
struct OriginalLine {
  int line = 0;
  std::string topic;
  std::string note;
  std::vector<ReadableLine> readable;
};

/// A one-letter name of the original and what it means in one scope.
struct Variable {
  std::string name;
  std::string where;
  std::string readable;
  std::string meaning;
};

/// A search site (SearchSite id) with its lines in both builds.
struct Site {
  int id = 0;
  std::string name;
  std::vector<int> minimalLines;
  std::vector<ReadableLine> readable;
  /// The line whose annotation the Source panel shows above the listings ("note_line"; the
  /// first of minimalLines when the map names none).
  int noteLine = 0;
};

/// The loaded line map. Loading never throws: what is missing is reported
/// in problems() and the panels show what there is.
class LineMap {
 public:
  /// Loads `sourceDir`/readable/line_map.json and the sources it names.
  void load(const std::string& sourceDir);

  const SourceFile& minimal() const { return minimal_; }
  /// A readable file by relative path (loaded on first use; empty if missing).
  const SourceFile& readableFile(const std::string& path);
  /// The annotation of original line `line`, or nullptr.
  const OriginalLine* original(int line) const;
  /// The entries for a one-letter name (all scopes).
  std::vector<const Variable*> variables(const std::string& name) const;
  /// The entry of a D() parameter or local, or nullptr.
  const Variable* searchVariable(const std::string& name) const;
  /// The site with id `id`, or nullptr (also when the map has no sites).
  const Site* site(int id) const;
  bool hasSites() const { return !sites_.empty(); }
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  int findLine(const std::string& file, const std::string& match);

  std::string sourceDir_;
  SourceFile minimal_;
  std::map<std::string, SourceFile> readableFiles_;
  std::map<int, OriginalLine> lines_;
  std::vector<Variable> variables_;
  std::map<int, Site> sites_;
  std::vector<std::string> problems_;
};

}  // namespace umax::viz
