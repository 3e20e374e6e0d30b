// folders.cpp - reading a folder a user names (folders.h).
#include "umax/folders.h"

#if defined(__linux__)
#include <sys/vfs.h>
#endif

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

namespace umax {

std::string pseudoFilesystem(const std::filesystem::path& folder) {
#if defined(__linux__)
  // The magic numbers of linux/magic.h (entering an autofs may mount a remote filesystem).
  static constexpr std::pair<unsigned long, std::string_view> kPseudoFilesystems[] = {
      {0x9fa0, "proc"},          {0x62656572, "sysfs"},       {0x1cd1, "devpts"},
      {0x64626720, "debugfs"},   {0x74726163, "tracefs"},     {0x73636673, "securityfs"},
      {0x27e0eb, "cgroup"},      {0x63677270, "cgroup2"},     {0xcafe4a11, "bpf"},
      {0xf97cff8c, "selinuxfs"}, {0x42494e4d, "binfmt_misc"}, {0x6e736673, "nsfs"},
      {0x6165676c, "pstore"},    {0x62656570, "configfs"},    {0x65735543, "fusectl"},
      {0x19800202, "mqueue"},    {0xde5e81e4, "efivarfs"},    {0x0187, "autofs"}};
  struct statfs info {};
  if (statfs(folder.c_str(), &info) != 0) return "";
  for (const auto& [magic, name] : kPseudoFilesystems)
    if (static_cast<unsigned long>(info.f_type) == magic) return std::string(name);
#else
  (void)folder;
#endif
  return "";
}

bool naturalLess(const std::string& a, const std::string& b) {
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  // The digit run at `at` without its leading zeros (one kept of a run of zeros); `at` moves past it.
  const auto number = [&](const std::string& text, std::size_t& at) {
    const std::size_t start = at;
    while (at < text.size() && digit(text[at])) ++at;
    std::string run = text.substr(start, at - start);
    return run.erase(0, std::min(run.find_first_not_of('0'), run.size() - 1));
  };
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      const std::string numberA = number(a, i), numberB = number(b, j);
      if (numberA.size() != numberB.size()) return numberA.size() < numberB.size();
      if (numberA != numberB) return numberA < numberB;
    } else if (a[i] != b[j]) {
      return a[i] < b[j];
    } else {
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

void collectFiles(const std::filesystem::path& folder, int depth,
                  const std::function<bool(const std::filesystem::path&)>& wanted, std::size_t most,
                  const std::string& noun, std::vector<std::filesystem::path>& files,
                  std::vector<std::string>& refusals) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (depth < 0 || !pseudoFilesystem(folder).empty()) return;
  fs::directory_iterator entries(folder, error);
  if (error) {
    refusals.push_back(folder.string() + ": " + error.message());
    return;
  }
  for (const fs::directory_iterator end; entries != end; entries.increment(error)) {
    if (error) {
      refusals.push_back(folder.string() + ": " + error.message() + " (the rest of this folder not read)");
      return;
    }
    const fs::path& path = entries->path();
    std::error_code statusError;
    const fs::file_status own = entries->symlink_status(statusError);
    if (fs::is_directory(own)) {
      collectFiles(path, depth - 1, wanted, most, noun, files, refusals);
      continue;
    }
    const fs::file_status target = entries->status(statusError);
    if (statusError) {  // a link in a loop or to nowhere
      if (fs::is_symlink(own) || wanted(path))
        refusals.push_back(path.string() + ": " + statusError.message());
      continue;
    }
    if (!wanted(path) || fs::is_directory(target)) continue;
    if (!fs::is_regular_file(target)) {
      refusals.push_back(path.string() + ": not a regular file (a FIFO or device)");
      continue;
    }
    if (files.size() == most) {
      refusals.push_back(path.string() + " and the rest: more than " + std::to_string(most) + " " + noun +
                         ", not read");
      return;
    }
    files.push_back(path);
  }
}

}  // namespace umax
