// umax-viz-check: the checks of umax-viz's CTest smoke tests, apart from the
// program they check.
//   umax-viz-check png SHOT.png LAYOUT.txt PANEL...
//     the screenshot is not blank, and every named panel appears in the
//     layout dump ("panel NAME x y w h") with a rectangle inside the image
//     that holds drawn content (several distinct colours); the legend, when
//     shown, covers no panel but the source listing; every text the dump lists ("text PANEL /
//     WHAT x y w h", the board's caption) lies inside its panel.
//   umax-viz-check corrupt IN OUT OFFSET
//     copies IN to OUT with the byte at OFFSET (negative: from the end) flipped.
//   umax-viz-check truncate IN OUT LENGTH
//     copies the first LENGTH bytes of IN to OUT.
#include <stb_image.h>  // libstb-dev; the implementation is in libstb

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Rect {
  int x, y, w, h;
};

int checkPng(const std::string& png, const std::string& layoutPath, const std::vector<std::string>& panels) {
  int width = 0, height = 0, channels = 0;
  unsigned char* pixels = stbi_load(png.c_str(), &width, &height, &channels, 3);
  if (!pixels) {
    std::cerr << "cannot read " << png << "\n";
    return 1;
  }
  auto colourAt = [&](int x, int y) {
    const unsigned char* p = pixels + (static_cast<std::size_t>(y) * width + x) * 3;
    return (p[0] << 16) | (p[1] << 8) | p[2];
  };
  auto coloursIn = [&](const Rect& r) {
    std::set<int> colours;
    for (int y = std::max(0, r.y); y < std::min(height, r.y + r.h); ++y)
      for (int x = std::max(0, r.x); x < std::min(width, r.x + r.w); ++x) colours.insert(colourAt(x, y));
    return colours.size();
  };
  int failures = 0;
  const std::size_t whole = coloursIn({0, 0, width, height});
  std::cout << png << ": " << width << "x" << height << ", " << whole << " distinct colours\n";
  if (whole < 16) {
    std::cerr << "the screenshot is (nearly) blank\n";
    ++failures;
  }
  std::map<std::string, Rect> layout;
  std::map<std::string, Rect> texts;  // "text PANEL / WHAT x y w h": a text inside a panel
  std::ifstream in(layoutPath);
  std::string line;
  while (std::getline(in, line)) {
    const bool text = line.rfind("text ", 0) == 0;
    if (text) line = "panel " + line.substr(5);
    if (line.rfind("panel ", 0) != 0) continue;
    // The name may hold spaces: the last four fields are the rectangle.
    std::istringstream words(line.substr(6));
    std::vector<std::string> fields{std::istream_iterator<std::string>(words), {}};
    if (fields.size() < 5) continue;
    std::string name;
    for (std::size_t i = 0; i + 4 < fields.size(); ++i) name += (i ? " " : "") + fields[i];
    const std::size_t n = fields.size();
    (text ? texts : layout)[name] = {std::atoi(fields[n - 4].c_str()), std::atoi(fields[n - 3].c_str()),
                                     std::atoi(fields[n - 2].c_str()), std::atoi(fields[n - 1].c_str())};
  }
  // A text is not cut: it lies inside its panel (the board's caption once ran past the Board panel's
  // bottom at the default size, its last lines unseen).
  for (const auto& [name, t] : texts) {
    const std::string panel = name.substr(0, name.find(" / "));
    auto it = layout.find(panel);
    if (it == layout.end()) {
      std::cerr << "text '" << name << "' of a panel that did not draw\n";
      ++failures;
      continue;
    }
    const Rect& r = it->second;
    std::cout << "text " << name << ": " << t.x << "," << t.y << " " << t.w << "x" << t.h << "\n";
    if (t.y < r.y || t.y + t.h > r.y + r.h || t.x < r.x || t.x + t.w > r.x + r.w + 1) {
      std::cerr << "text '" << name << "' is cut: it spans y " << t.y << " to " << t.y + t.h << ", its panel "
                << r.y << " to " << r.y + r.h << "\n";
      ++failures;
    }
  }
  for (const std::string& panel : panels) {
    auto it = layout.find(panel);
    if (it == layout.end()) {
      std::cerr << "panel '" << panel << "' did not draw (not in the layout dump)\n";
      ++failures;
      continue;
    }
    const Rect& r = it->second;
    const bool inside =
        r.w >= 40 && r.h >= 40 && r.x >= 0 && r.y >= 0 && r.x + r.w <= width + 1 && r.y + r.h <= height + 1;
    // Below the title bar: the panel's own content.
    const std::size_t colours = coloursIn({r.x + 2, r.y + 22, r.w - 4, r.h - 24});
    std::cout << "panel " << panel << ": " << r.x << "," << r.y << " " << r.w << "x" << r.h << ", " << colours
              << " colours\n";
    if (!inside || colours < 8) {
      std::cerr << "panel '" << panel << "' is outside the window or empty\n";
      ++failures;
    }
  }
  // The legend opens over the source listing's margin only: it must not hide the panels a
  // caption or the help talks about (it once opened exactly over the hash table, and over the
  // Game panel of a game folder).
  if (auto legend = layout.find("Legend"); legend != layout.end()) {
    const Rect& l = legend->second;
    for (const auto& [name, r] : layout) {
      if (name == "Legend" || name == "Source") continue;
      const bool overlap = l.x < r.x + r.w && r.x < l.x + l.w && l.y < r.y + r.h && r.y < l.y + l.h;
      if (overlap) {
        std::cerr << "the legend covers panel '" << name << "'\n";
        ++failures;
      }
    }
  }
  stbi_image_free(pixels);
  return failures == 0 ? 0 : 1;
}

int corrupt(const std::string& from, const std::string& to, long long offset) {
  std::ifstream in(from, std::ios::binary);
  std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
  if (bytes.empty()) {
    std::cerr << "cannot read " << from << "\n";
    return 1;
  }
  const long long size = static_cast<long long>(bytes.size());
  const long long at = offset < 0 ? size + offset : offset;
  if (at < 0 || at >= size) {
    std::cerr << "offset outside the file\n";
    return 1;
  }
  bytes[static_cast<std::size_t>(at)] = static_cast<char>(bytes[static_cast<std::size_t>(at)] ^ 0x5a);
  std::ofstream(to, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return 0;
}

}  // namespace

int truncate(const std::string& from, const std::string& to, long long length) {
  std::ifstream in(from, std::ios::binary);
  std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
  if (length < 0 || length > static_cast<long long>(bytes.size())) {
    std::cerr << "cannot take " << length << " bytes of " << from << " (" << bytes.size() << " bytes)\n";
    return 1;
  }
  std::ofstream(to, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(length));
  return 0;
}

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() >= 3 && args[0] == "png") return checkPng(args[1], args[2], {args.begin() + 3, args.end()});
  if (args.size() == 4 && args[0] == "corrupt") return corrupt(args[1], args[2], std::atoll(args[3].c_str()));
  if (args.size() == 4 && args[0] == "truncate")
    return truncate(args[1], args[2], std::atoll(args[3].c_str()));
  std::cerr << "usage: umax-viz-check png SHOT.png LAYOUT.txt PANEL... | corrupt IN OUT OFFSET | truncate IN "
               "OUT LENGTH\n";
  return 2;
}
