// What `play`, `simulate` (and later `replay`, `verify`) share: loading a ruleset into a
// machine, and game options from the command line.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "output.hpp"
#include "rulebook/grammar/source.hpp"
#include "rulebook/interpreter/machine.hpp"

namespace rulebook::cli {

// Reads, checks and lowers a ruleset. On failure prints the diagnostics (or the reason), in
// `format` (JSON and SARIF on stdout, in place of the command's result), and returns nullopt
// with `exit_code` set (1 for errors in the rules, 2 for an unreadable file). Warnings alone
// go to stderr as text.
std::optional<interpreter::Machine> load_machine(const std::string& path, int& exit_code,
                                                 OutputFormat format = OutputFormat::kText);
// The same, keeping the rule texts in `sources` (for messages that quote rule lines).
std::optional<interpreter::Machine> load_machine(const std::string& path, int& exit_code,
                                                 grammar::SourceManager& sources,
                                                 OutputFormat format = OutputFormat::kText);

// The options every game command takes.
struct GameOptions {
  std::string file;
  std::int64_t players = 0;
  std::vector<std::string> option_specs;  // NAME=VALUE
  std::optional<std::uint64_t> seed;
};
void add_game_options(CLI::App& cmd, GameOptions& options);

// NAME=VALUE option specs as a map, or nullopt with a message on stderr.
std::optional<std::map<std::string, std::string>> parse_option_specs(const std::vector<std::string>& specs);
// The same, or nullopt with the message in `error` (for a command that prints it as JSON).
std::optional<std::map<std::string, std::string>> parse_option_specs(const std::vector<std::string>& specs,
                                                                     std::string& error);

// A rule fault as JSON: {"message", "kind", "rule" (its label, or null), "at" (file:line)}.
nlohmann::json fault_json(const interpreter::Machine& machine, const interpreter::Fault& fault);

// The game configuration, or nullopt with a message on stderr for a malformed --option.
std::optional<interpreter::GameConfig> game_config(const GameOptions& options, std::uint64_t default_seed);

}  // namespace rulebook::cli
