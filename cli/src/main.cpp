// rulebook: a rules language for card games, its interpreter and its verifier.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.hpp"
#include "output.hpp"

int main(int argc, char** argv) {
  CLI::App app{"rulebook: write card-game rules as text, check them, play and verify them"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("rulebook " RULEBOOK_VERSION));
  // Global, and accepted after the subcommand too (fallthrough), as in `check --color never`.
  app.add_option_function<std::string>(
         "--color",
         [](const std::string& value) {
           rulebook::cli::set_color_choice(value == "always"  ? rulebook::cli::ColorChoice::kAlways
                                           : value == "never" ? rulebook::cli::ColorChoice::kNever
                                                              : rulebook::cli::ColorChoice::kAuto);
         },
         "Colour in diagnostics: auto (on a terminal, unless NO_COLOR is set), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->default_str("auto");
  app.fallthrough();
  int exit_code = rulebook::cli::kExitOk;
  rulebook::cli::add_check_command(app, exit_code);
  rulebook::cli::add_fmt_command(app, exit_code);
  rulebook::cli::add_play_command(app, exit_code);
  rulebook::cli::add_simulate_command(app, exit_code);
  rulebook::cli::add_replay_command(app, exit_code);
  rulebook::cli::add_record_command(app, exit_code);
  rulebook::cli::add_verify_command(app, exit_code);
  rulebook::cli::add_merge_command(app, exit_code);
  rulebook::cli::add_graph_command(app, exit_code);
  rulebook::cli::add_explain_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return rulebook::cli::kExitBadInput;
  }
  return exit_code;
}
