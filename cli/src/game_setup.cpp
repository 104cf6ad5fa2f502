#include "game_setup.hpp"

#include <limits>

#include <fmt/format.h>

#include "number_options.hpp"
#include "output.hpp"
#include "rulebook/grammar/load.hpp"
#include "rulebook/grammar/printable.hpp"
#include "rulebook/ir/fault_kinds.hpp"
#include "rulebook/ir/lower.hpp"

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
  protect_inputs(sources);
  // Warnings do not stop a game, but they are worth seeing.
  if (!diagnostics.items().empty()) print_diagnostics(diagnostics, sources, OutputFormat::kText);
  return interpreter::Machine(ir::lower(*result.program, sources));
}

void add_game_options(CLI::App& cmd, GameOptions& options) {
  cmd.add_option("file", options.file, "Rule file (a game or a variant)")->required();
  cmd.add_option("--players", options.players, "Number of human players (default: the ruleset's `default N`, else the most it allows)")
      ->transform(whole_number(1, 64));
  cmd.add_option("--option", options.option_specs, "Set a ruleset option, e.g. --option ogling=true")
      ->type_name("NAME=VALUE");
  // A different seed than the one typed is a different game: no wrapping, no clamping.
  cmd.add_option_function<std::uint64_t>(
         "--seed", [&options](std::uint64_t seed) { options.seed = seed; },
         "Seed of the random numbers (same seed, same game)")
      ->transform(whole_number(0, std::numeric_limits<std::uint64_t>::max()))
      ->type_name("UINT");
}

std::optional<std::map<std::string, std::string>> parse_option_specs(const std::vector<std::string>& specs,
                                                                     std::string& error) {
  std::map<std::string, std::string> options;
  for (const std::string& spec : specs) {
    const std::size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      error = fmt::format("--option takes NAME=VALUE, not '{}'", grammar::printable_short(spec));
      return std::nullopt;
    }
    const std::string name = spec.substr(0, eq);
    if (options.count(name) != 0) {
      error = fmt::format("option '{}' is given twice", grammar::printable_short(name));
      return std::nullopt;
    }
    options[name] = spec.substr(eq + 1);
  }
  return options;
}

std::optional<std::map<std::string, std::string>> parse_option_specs(const std::vector<std::string>& specs) {
  std::string error;
  auto options = parse_option_specs(specs, error);
  if (!options) fmt::print(stderr, "error: {}\n", error);
  return options;
}

nlohmann::json fault_json(const interpreter::Machine& machine, const interpreter::Fault& fault) {
  const interpreter::Ir& ir = machine.ir();
  return {{"message", fault.message},
          {"kind", std::string(ir::fault_kind_info(fault.kind).name)},
          {"rule", fault.rule >= 0 ? nlohmann::json(ir.labels[static_cast<std::size_t>(fault.rule)]) : nlohmann::json(nullptr)},
          {"at", machine.where(fault.span)}};
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
