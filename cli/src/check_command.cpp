// `rulebook check FILE...`: parse, compose variants, resolve and type check every file.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "output.hpp"
#include "rulebook/grammar/load.hpp"

namespace rulebook::cli {

namespace {

struct CheckOptions {
  std::vector<std::string> files;
  std::string format = "text";
  bool quiet = false;
};

int run_check(const CheckOptions& options) {
  grammar::SourceManager sources;
  grammar::Diagnostics diagnostics;
  bool unreadable = false;
  std::vector<std::pair<std::string, bool>> results;
  for (const std::string& path : options.files) {
    const std::size_t errors_before = diagnostics.error_count();
    const grammar::LoadResult result = grammar::load_ruleset(path, sources, diagnostics);
    if (result.status == grammar::LoadStatus::kUnreadable) unreadable = true;
    results.emplace_back(path, diagnostics.error_count() == errors_before);
  }
  const OutputFormat format = options.format == "json" ? OutputFormat::kJson : OutputFormat::kText;
  print_diagnostics(diagnostics, sources, format);
  if (format == OutputFormat::kText && !options.quiet) {
    for (const auto& [path, ok] : results) {
      if (ok) fmt::print("{}: ok\n", path);
    }
  }
  if (unreadable) return kExitBadInput;
  return diagnostics.has_errors() ? kExitFinding : kExitOk;
}

}  // namespace

void add_check_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand("check", "Parse and check rule files (games and variants)");
  cmd->add_option("files", options->files, "Rule files to check")->required();
  cmd->add_option("--format", options->format, "Output format for diagnostics")
      ->check(CLI::IsMember({"text", "json"}))
      ->default_str("text");
  cmd->add_flag("-q,--quiet", options->quiet, "Print only diagnostics, not the 'ok' lines");
  cmd->callback([options, &exit_code] { exit_code = run_check(*options); });
}

}  // namespace rulebook::cli
