// Output paths given as options. An empty one (`--stats ""`, often an unset shell variable)
// names no file: CLI11 would take it as not given, and the command would succeed without
// writing what was asked for. It is refused as bad input instead.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace rulebook::cli {

inline CLI::Validator output_path() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text.empty() ? std::string("takes a path, not an empty string") : std::string();
      },
      "", "path");
}

}  // namespace rulebook::cli
