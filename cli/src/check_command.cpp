// `rulebook check FILE...`: parse, compose variants, resolve and type check every file.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

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

struct FileResult {
  std::string path;
  std::string status;  // ok, errors, unreadable
};

int run_check(const CheckOptions& options) {
  grammar::SourceManager sources;
  grammar::Diagnostics diagnostics;
  bool unreadable = false;
  std::vector<FileResult> results;
  for (const std::string& path : options.files) {
    const grammar::LoadResult result = grammar::load_ruleset(path, sources, diagnostics);
    const char* status = "ok";
    if (result.status == grammar::LoadStatus::kUnreadable) {
      unreadable = true;
      status = "unreadable";
    } else if (result.status == grammar::LoadStatus::kErrors) {
      status = "errors";
    }
    results.push_back(FileResult{path, status});
  }
  if (options.format == "json") {
    // One object: each file's status, then the diagnostics of all files.
    nlohmann::json out;
    out["files"] = nlohmann::json::array();
    for (const FileResult& r : results) out["files"].push_back({{"path", r.path}, {"status", r.status}});
    out["diagnostics"] = nlohmann::json::parse(grammar::render_json(diagnostics.items(), sources));
    out["errors"] = diagnostics.error_count();
    out["warnings"] = diagnostics.warning_count();
    fmt::print("{}\n", json_text(out, 2));
  } else if (options.format == "sarif") {
    print_diagnostics(diagnostics, sources, OutputFormat::kSarif);
  } else {
    print_diagnostics(diagnostics, sources, OutputFormat::kText);
    if (!options.quiet) {
      for (const FileResult& r : results) {
        if (r.status == "ok") fmt::print("{}: ok\n", r.path);
      }
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
  cmd->add_option("--format", options->format, "Output format: text (as compilers print), json, or sarif (SARIF 2.1.0)")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->default_str("text");
  cmd->add_flag("-q,--quiet", options->quiet, "Print only diagnostics, not the 'ok' lines");
  cmd->callback([options, &exit_code] { exit_code = run_check(*options); });
}

}  // namespace rulebook::cli
