#include "game_setup.hpp"

#include <charconv>
#include <limits>

#include <fmt/format.h>

#include "output.hpp"
#include "rulebook/grammar/load.hpp"
#include "rulebook/interpreter/lower.hpp"

namespace rulebook::cli {

std::optional<interpreter::Machine> load_machine(const std::string& path, int& exit_code, OutputFormat format) {
  grammar::SourceManager sources;
  return load_machine(path, exit_code, sources, format);
}

std::optional<interpreter::Machine> load_machine(const std::string& path, int& exit_code,
                                                 grammar::SourceManager& sources, OutputFormat format) {
  grammar::Diagnostics diagnostics;
  const grammar::LoadResult result = grammar::load_ruleset(path, sources, diagnostics);
  if (result.status != grammar::LoadStatus::kOk) {
    print_diagnostics(diagnostics, sources, format);
    exit_code = result.status == grammar::LoadStatus::kUnreadable ? kExitBadInput : kExitFinding;
    return std::nullopt;
  }
  // Warnings do not stop a game, but they are worth seeing.
  if (!diagnostics.items().empty()) print_diagnostics(diagnostics, sources, OutputFormat::kText);
  return interpreter::Machine(interpreter::lower(*result.program, sources));
}

void add_game_options(CLI::App& cmd, GameOptions& options) {
  cmd.add_option("file", options.file, "Rule file (a game or a variant)")->required();
  cmd.add_option("--players", options.players, "Number of human players (default: the most the rules allow)")
      ->check(CLI::Range(1, 64));
  cmd.add_option("--option", options.option_specs, "Set a ruleset option, e.g. --option ogling=true")
      ->type_name("NAME=VALUE");
  // Parsed here: CLI11 would clamp an out-of-range number to the largest seed, or wrap a
  // negative one, and a different seed than the one typed is a different game.
  cmd.add_option_function<std::string>(
         "--seed",
         [&options](const std::string& text) {
           std::uint64_t seed = 0;
           const char* end = text.data() + text.size();
           const auto [stop, error] = std::from_chars(text.data(), end, seed);
           if (error != std::errc() || stop != end) {
             throw CLI::ValidationError("--seed", fmt::format("takes a whole number from 0 to {}, not '{}'",
                                                              std::numeric_limits<std::uint64_t>::max(), text));
           }
           options.seed = seed;
         },
         "Seed of the random numbers (same seed, same game)")
      ->type_name("UINT");
}

std::optional<std::map<std::string, std::string>> parse_option_specs(const std::vector<std::string>& specs) {
  std::map<std::string, std::string> options;
  for (const std::string& spec : specs) {
    const std::size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      fmt::print(stderr, "error: --option takes NAME=VALUE, not '{}'\n", spec);
      return std::nullopt;
    }
    const std::string name = spec.substr(0, eq);
    if (options.count(name) != 0) {
      fmt::print(stderr, "error: option '{}' is given twice\n", name);
      return std::nullopt;
    }
    options[name] = spec.substr(eq + 1);
  }
  return options;
}

std::optional<interpreter::GameConfig> game_config(const GameOptions& options, std::uint64_t default_seed) {
  interpreter::GameConfig config;
  config.players = options.players;
  config.seed = options.seed.value_or(default_seed);
  auto parsed = parse_option_specs(options.option_specs);
  if (!parsed) return std::nullopt;
  config.options = std::move(*parsed);
  return config;
}

}  // namespace rulebook::cli
