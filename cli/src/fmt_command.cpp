// `rulebook fmt FILE [--write]`: print the file in canonical layout, or rewrite it.
#include <memory>
#include <string>

#include "commands.hpp"

namespace rulebook::cli {

void add_fmt_command(CLI::App& app, int& exit_code) {
  (void)app;
  (void)exit_code;
}

}  // namespace rulebook::cli
