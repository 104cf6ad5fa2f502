// No source file of a library is over 500 lines (STYLE.md: one concept per file, a few hundred
// lines at most): a file that grows past that holds more than one concept and is split along
// its seams. Walks the library folders of the source tree and lists every offender with its
// size, so the failure says what to split.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support.hpp"

namespace fs = std::filesystem;
using rulebook::test::source_path;
using rulebook::test::temp_folder;
using rulebook::test::write_text;

namespace ops_file_size_test {  // this file's own names (unity builds put several files in one)
namespace {

constexpr std::size_t kMaxLines = 500;

// The libraries' folders; logs/ and stats/ are checked once they exist.
const std::vector<std::string> kLibraryFolders = {"grammar", "authoring", "ir", "interpreter",
                                                  "logs", "stats", "verifier", "cli", "differential"};

struct Oversized {
  std::string path;  // relative to the source tree
  std::size_t lines = 0;
};

// Lines as `wc -l` counts them: newline characters.
std::size_t count_lines(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return static_cast<std::size_t>(std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n'));
}

// Every .cpp and .hpp under the library folders of `root` with more than kMaxLines lines,
// sorted by path.
std::vector<Oversized> oversized(const fs::path& root) {
  std::vector<Oversized> out;
  for (const std::string& folder : kLibraryFolders) {
    if (!fs::is_directory(root / folder)) continue;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root / folder)) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp")) continue;
      const std::size_t lines = count_lines(entry.path());
      if (lines > kMaxLines) out.push_back({fs::relative(entry.path(), root).generic_string(), lines});
    }
  }
  std::sort(out.begin(), out.end(), [](const Oversized& a, const Oversized& b) { return a.path < b.path; });
  return out;
}

std::string listing(const std::vector<Oversized>& files) {
  std::string text = fmt::format("{} file(s) over {} lines:", files.size(), kMaxLines);
  for (const Oversized& f : files) text += fmt::format("\n  {}: {} lines", f.path, f.lines);
  return text;
}

}  // namespace

TEST_CASE("file size: the check lists each library file over 500 lines with its size, and only those", "[layout]") {
  const fs::path root = temp_folder();
  fs::create_directories(root / "verifier/src");
  fs::create_directories(root / "logs/include/rulebook/logs");
  fs::create_directories(root / "rulesets");
  const auto lines = [](std::size_t n) { return std::string(n, '\n'); };
  write_text((root / "verifier/src/big.cpp").string(), lines(501));
  write_text((root / "verifier/src/limit.cpp").string(), lines(500));
  write_text((root / "logs/include/rulebook/logs/big.hpp").string(), lines(700));
  write_text((root / "verifier/src/notes.txt").string(), lines(900));   // not a source file
  write_text((root / "rulesets/long.cpp").string(), lines(900));        // not a library
  const std::vector<Oversized> found = oversized(root);
  fs::remove_all(root);
  CHECK(listing(found) ==
        "2 file(s) over 500 lines:\n"
        "  logs/include/rulebook/logs/big.hpp: 700 lines\n"
        "  verifier/src/big.cpp: 501 lines");
}

TEST_CASE("file size: no source file of a library has more than 500 lines", "[layout]") {
  const std::vector<Oversized> found = oversized(source_path(""));
  INFO(listing(found));
  CHECK(found.empty());
}

}  // namespace ops_file_size_test
