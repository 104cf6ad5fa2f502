// The libraries are layers (the pipeline goes one way): a library may include its own public
// headers and those of the libraries below it, never those of one above, so the dependency
// graph has no arrow from a lower layer to a higher one. Reads every `#include
// "rulebook/<library>/..."` of each library's sources.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "support.hpp"

namespace fs = std::filesystem;
using rulebook::test::source_path;
using rulebook::test::temp_folder;
using rulebook::test::write_text;

namespace ops_layers_test {  // this file's own names (unity builds put several files in one)
namespace {

// Low to high. logs/ and stats/ are checked once they exist. authoring/ (formatter, graph) reads
// only the checked tree, so it sits right above grammar: the lowest place where what it includes
// is below it, which also forbids it the IR and everything above.
const std::vector<std::string> kLayers = {"grammar", "authoring", "ir", "interpreter",
                                          "logs", "stats", "verifier", "cli"};

std::size_t layer_of(const std::string& library) {
  return static_cast<std::size_t>(std::find(kLayers.begin(), kLayers.end(), library) - kLayers.begin());
}

// Each include of a higher layer (or of a library that is not a layer) in the .cpp and .hpp
// files under the library folders of `root`, as "path:line: ...", sorted by path.
std::vector<std::string> upward_includes(const fs::path& root) {
  static const std::regex include(R"(^\s*#\s*include\s*[<"]rulebook/([A-Za-z0-9_]+)/)");
  std::vector<std::string> out;
  for (const std::string& library : kLayers) {
    if (!fs::is_directory(root / library)) continue;
    std::vector<fs::path> files;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root / library)) {
      const std::string ext = entry.path().extension().string();
      if (entry.is_regular_file() && (ext == ".cpp" || ext == ".hpp")) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      std::ifstream in(file);
      std::string text;
      std::size_t line = 0;
      while (std::getline(in, text)) {
        ++line;
        std::smatch m;
        if (!std::regex_search(text, m, include)) continue;
        const std::string included = m[1].str();
        const std::string where = fmt::format("{}:{}", fs::relative(file, root).generic_string(), line);
        if (layer_of(included) == kLayers.size()) {
          out.push_back(fmt::format("{}: includes rulebook/{}/, which is not a layer (add it to kLayers in "
                                    "tests/ops/layers_test.cpp, in its place)", where, included));
        } else if (layer_of(included) > layer_of(library)) {
          out.push_back(fmt::format("{}: {} includes rulebook/{}/, a higher layer", where, library, included));
        }
      }
    }
  }
  return out;
}

std::string listing(const std::vector<std::string>& found) {
  std::string text = fmt::format("{} include(s) against the layers (low to high: {}):", found.size(),
                                 fmt::join(kLayers, ", "));
  for (const std::string& f : found) text += "\n  " + f;
  return text;
}

}  // namespace

TEST_CASE("layers: the check reports an include of a higher layer or of an unknown library, and only those",
          "[layout]") {
  const fs::path root = temp_folder();
  fs::create_directories(root / "ir/src");
  fs::create_directories(root / "stats/include/rulebook/stats");
  fs::create_directories(root / "cli/src");
  write_text((root / "ir/src/lower.cpp").string(),
             "#include \"rulebook/ir/ir.hpp\"\n"                  // its own
             "#include \"rulebook/grammar/ast.hpp\"\n"            // lower
             "// #include \"rulebook/verifier/verify.hpp\" is a comment\n"
             "#include \"rulebook/interpreter/machine.hpp\"\n");  // higher
  write_text((root / "stats/include/rulebook/stats/stats.hpp").string(),
             "#pragma once\n#include <rulebook/logs/log.hpp>\n#  include \"rulebook/cli/main.hpp\"\n");
  write_text((root / "cli/src/main.cpp").string(),
             "#include \"rulebook/verifier/verify.hpp\"\n#include \"rulebook/sim/shards.hpp\"\n");
  const std::vector<std::string> found = upward_includes(root);
  fs::remove_all(root);
  CHECK(listing(found) ==
        "3 include(s) against the layers (low to high: grammar, authoring, ir, interpreter, logs, "
        "stats, verifier, cli):\n"
        "  ir/src/lower.cpp:4: ir includes rulebook/interpreter/, a higher layer\n"
        "  stats/include/rulebook/stats/stats.hpp:3: stats includes rulebook/cli/, a higher layer\n"
        "  cli/src/main.cpp:2: includes rulebook/sim/, which is not a layer (add it to kLayers in "
        "tests/ops/layers_test.cpp, in its place)");
}

TEST_CASE(
    "layers: authoring sits on grammar alone: grammar may not include it, it may not include ir "
    "or higher",
    "[layout]") {
  const fs::path root = temp_folder();
  fs::create_directories(root / "grammar/src");
  fs::create_directories(root / "authoring/src");
  fs::create_directories(root / "cli/src");
  write_text((root / "grammar/src/dump.cpp").string(),
             "#include \"rulebook/grammar/dump.hpp\"\n"
             "#include \"rulebook/authoring/format.hpp\"\n");  // the front end below its tools
  write_text((root / "authoring/src/format.cpp").string(),
             "#include \"rulebook/authoring/format.hpp\"\n"   // its own
             "#include \"rulebook/grammar/parse.hpp\"\n"      // the layer it sits on
             "#include \"rulebook/ir/ir.hpp\"\n"              // the lowered form: above it
             "#include \"rulebook/interpreter/machine.hpp\"\n");
  write_text((root / "cli/src/fmt_command.cpp").string(),
             "#include \"rulebook/authoring/format.hpp\"\n");  // a higher layer uses it
  const std::vector<std::string> found = upward_includes(root);
  fs::remove_all(root);
  CHECK(listing(found) ==
        "3 include(s) against the layers (low to high: grammar, authoring, ir, interpreter, logs, "
        "stats, verifier, cli):\n"
        "  grammar/src/dump.cpp:2: grammar includes rulebook/authoring/, a higher layer\n"
        "  authoring/src/format.cpp:3: authoring includes rulebook/ir/, a higher layer\n"
        "  authoring/src/format.cpp:4: authoring includes rulebook/interpreter/, a higher layer");
}

TEST_CASE("layers: no library includes the headers of a higher layer", "[layout]") {
  const std::vector<std::string> found = upward_includes(source_path(""));
  INFO(listing(found));
  CHECK(found.empty());
}

}  // namespace ops_layers_test
