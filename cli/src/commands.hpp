// The subcommands. Each registers its options on the CLI11 app and returns the exit code
// through `exit_code` when it runs.
#pragma once

#include <CLI/CLI.hpp>

namespace rulebook::cli {

void add_check_command(CLI::App& app, int& exit_code);
void add_fmt_command(CLI::App& app, int& exit_code);
void add_play_command(CLI::App& app, int& exit_code);
void add_simulate_command(CLI::App& app, int& exit_code);
void add_replay_command(CLI::App& app, int& exit_code);
void add_verify_command(CLI::App& app, int& exit_code);
void add_explain_command(CLI::App& app, int& exit_code);
void add_graph_command(CLI::App& app, int& exit_code);
void add_merge_command(CLI::App& app, int& exit_code);
void add_record_command(CLI::App& app, int& exit_code);

}  // namespace rulebook::cli
