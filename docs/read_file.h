/// \file
/// \brief The whole of a file as a string, for the documentation's build tools
/// (umax-docgen, umax-docprose).
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace umax::docs {

/// The file's bytes; throws std::runtime_error naming it if it cannot be read.
inline std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace umax::docs
