// The verbatim original: its hash, its size, its "under 2,000 characters".
#include <catch2/catch.hpp>
#include <filesystem>

#include "support.h"

using namespace umax::test;

namespace {

constexpr const char* kReferenceSha256 = "a3280a00a0cbdf3bcb58c9b4eae13496af0649f6ed0054b7921dc029c389f939";

/// Non-whitespace characters outside /* */ comments.
int countCodeCharacters(const std::string& source) {
  int count = 0;
  for (std::size_t index = 0; index < source.size(); ++index) {
    if (source.compare(index, 2, "/*") == 0) {
      const auto end = source.find("*/", index + 2);
      REQUIRE(end != std::string::npos);
      index = end + 1;
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(source[index]))) ++count;
  }
  return count;
}

}  // namespace

TEST_CASE("the minimal source is byte for byte the published micro-Max 3.2", "[source]") {
  const std::string path = sourcePath("minimal/micro-max.c");
  int status = -1;
  const std::string output = runCommand("sha256sum '" + path + "'", &status);
  REQUIRE(status == 0);
  CHECK(output.substr(0, 64) == kReferenceSha256);

  // When the shared reference copy sits beside the repository, compare bytes too.
  const std::string reference = sourcePath("../shared/reference/micro-max-3.2.c");
  if (std::filesystem::exists(reference)) CHECK(readFile(path) == readFile(reference));
}

TEST_CASE("the original has 133 lines and 1,971 non-blank characters outside comments", "[source]") {
  const std::string source = readFile(sourcePath("minimal/micro-max.c"));
  CHECK(std::count(source.begin(), source.end(), '\n') == 133);
  CHECK(countCodeCharacters(source) == 1971);
  CHECK(countCodeCharacters(source) < 2000);
}
