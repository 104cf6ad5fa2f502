// `rulebook check FILE...`: parse, compose variants, resolve and type check every file;
// `--dump-ir OUT` also lowers one file and writes its IR as text (ir/dump.hpp).
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "output.hpp"
#include "rulebook/grammar/load.hpp"
#include "rulebook/grammar/printable.hpp"
#include "rulebook/ir/dump.hpp"
#include "rulebook/ir/lower.hpp"
#include "path_options.hpp"

namespace rulebook::cli {

namespace {

struct CheckOptions {
  std::vector<std::string> files;
  std::string format = "text";
  bool quiet = false;
  std::string dump_ir;  // where to write the IR: a file, or "-" for stdout; empty: no dump
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
  if (!options.dump_ir.empty() && options.files.size() != 1) {
    fmt::print(stderr, "error: --dump-ir takes exactly one rule file, not {}\n", options.files.size());
    return kExitBadInput;
  }
  if (options.dump_ir == "-" && options.format != "text") {
    // Both would go to stdout, and the IR after the JSON made it no JSON (the eighth probe).
    fmt::print(stderr, "error: --dump-ir - writes the IR to stdout, where --format {} writes the report: give --dump-ir a file\n",
               options.format);
    return kExitBadInput;
  }
  std::string ir_text;
  for (const std::string& path : options.files) {
    const grammar::LoadResult result = grammar::load_ruleset(path, sources, diagnostics);
    if (!options.dump_ir.empty() && result.status == grammar::LoadStatus::kOk && result.program) {
      ir_text = ir::dump(*ir::lower(*result.program, sources));
    }
    const char* status = "ok";
    if (result.status == grammar::LoadStatus::kUnreadable) {
      unreadable = true;
      status = "unreadable";
    } else if (result.status == grammar::LoadStatus::kErrors) {
      status = "errors";
    }
    results.push_back(FileResult{path, status});
  }
  protect_inputs(sources);
  if (!options.dump_ir.empty() && options.dump_ir != "-") {
    if (const std::string error = input_overwrite_error(options.dump_ir); !error.empty()) {
      fmt::print(stderr, "error: --dump-ir {}\n", error);
      return kExitBadInput;
    }
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
    if (!options.quiet && options.dump_ir != "-") {  // stdout holds the dump
      for (const FileResult& r : results) {
        if (r.status == "ok") fmt::print("{}: ok\n", grammar::printable(r.path));
      }
    }
  }
  if (unreadable) return kExitBadInput;
  if (diagnostics.has_errors()) return kExitFinding;
  if (!options.dump_ir.empty()) {
    if (options.dump_ir == "-") {
      fmt::print("{}", ir_text);
    } else if (const std::string error = write_file_atomically(options.dump_ir, ir_text); !error.empty()) {
      fmt::print(stderr, "error: {}\n", error);
      return kExitBadInput;
    }
  }
  return kExitOk;
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
  cmd->add_option("--dump-ir", options->dump_ir,
                  "Also write the lowered IR of the (one) rule file as text to this file, or - for stdout (docs/ir.md)")->check(output_path());
  cmd->callback([options, &exit_code] { exit_code = run_check(*options); });
}

}  // namespace rulebook::cli
