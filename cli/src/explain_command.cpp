// `rulebook explain CODE`: the long explanation of a diagnostic code; `--list` lists them all.
#include <memory>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "output.hpp"
#include "rulebook/grammar/codes.hpp"
#include "rulebook/grammar/printable.hpp"
#include "rulebook/grammar/suggest.hpp"

namespace rulebook::cli {

namespace {

struct ExplainOptions {
  std::string code;
  bool list = false;
};

int run_explain(const ExplainOptions& options) {
  if (options.list && !options.code.empty()) {
    // `--list E0302` listed everything and exited 0, passing over the code (the ninth probe).
    fmt::print(stderr, "rulebook explain: give a code or --list, not both\n");
    return kExitBadInput;
  }
  if (options.list || options.code.empty()) {
    for (const grammar::CodeInfo& c : grammar::all_codes()) fmt::print("{}  {}\n", c.id, c.title);
    if (!options.list) {
      fmt::print(stderr, "rulebook explain: give a code, such as {}\n", grammar::all_codes().front().id);
      return kExitBadInput;
    }
    return kExitOk;
  }
  const grammar::CodeInfo* found = grammar::find_code(options.code);
  if (found == nullptr) {
    grammar::ClosestName closest(options.code);
    for (const grammar::CodeInfo& c : grammar::all_codes()) closest.consider(std::string(c.id));
    fmt::print(stderr, "rulebook explain: no diagnostic has the code '{}'{}; 'rulebook explain --list' lists them\n",
               grammar::printable_short(options.code), closest.best().empty() ? "" : fmt::format(" (did you mean {}?)", closest.best()));
    return kExitBadInput;
  }
  fmt::print("{}: {}\n\n{}\n", found->id, found->title, found->explanation);
  return kExitOk;
}

}  // namespace

void add_explain_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ExplainOptions>();
  CLI::App* cmd = app.add_subcommand("explain", "Explain a diagnostic code, such as E0302");
  cmd->add_option("code", options->code, "The code in brackets at the end of a diagnostic");
  cmd->add_flag("--list", options->list, "List every code with its title");
  cmd->callback([options, &exit_code] { exit_code = run_explain(*options); });
}

}  // namespace rulebook::cli
