// `rulebook fmt FILE [--write]`: print the file in canonical layout, or rewrite it.
#include <memory>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "output.hpp"
#include "rulebook/authoring/format.hpp"
#include "rulebook/grammar/parse.hpp"

namespace rulebook::cli {

namespace {

struct FmtOptions {
  std::string file;
  bool write = false;
  bool check = false;
};

int run_fmt(const FmtOptions& options) {
  grammar::SourceManager sources;
  grammar::Diagnostics diagnostics;
  if (options.write) {
    // Before reading: a FIFO would make the read wait for a writer, and what cannot be
    // replaced faithfully (a device, a file with several hard links) is not worth reading.
    if (const std::string refused = replaceable_file_error(options.file); !refused.empty()) {
      fmt::print(stderr, "rulebook fmt: {}\n", refused);
      return kExitBadInput;
    }
  }
  std::string error;
  const std::optional<std::string> text = grammar::read_file(options.file, error, grammar::kMaxRuleFileBytes);
  if (!text) {
    fmt::print(stderr, "rulebook fmt: {}\n", error);
    return kExitBadInput;
  }
  const grammar::FileId id = sources.add_rule_file(options.file, *text);
  const grammar::ast::RulesFile tree = grammar::parse_rules(sources, id, diagnostics);
  if (diagnostics.has_errors()) {
    // Never rewrite a file that does not parse: the tree is incomplete.
    print_diagnostics(diagnostics, sources, OutputFormat::kText);
    return kExitFinding;
  }
  const std::string formatted = authoring::format_rules(tree, sources.file(id));
  if (options.check) {
    if (formatted == *text) return kExitOk;
    fmt::print(stderr, "{}: not in canonical layout (run `rulebook fmt --write {}`)\n", options.file,
               options.file);
    return kExitFinding;
  }
  // The canonical layout can be longer than the input (one declaration a line, indentation): a
  // file near the limit could come out past it, and no command could read it again.
  if (formatted.size() > grammar::kMaxRuleFileBytes) {
    fmt::print(stderr, "rulebook fmt: {}: the formatted file would have {} bytes, more than the {} MiB a rule file may have; "
               "nothing was written\n", options.file, formatted.size(), grammar::kMaxRuleFileBytes >> 20);
    return kExitBadInput;
  }
  if (!options.write) {
    fmt::print("{}", formatted);
    return kExitOk;
  }
  if (formatted == *text) return kExitOk;  // leave the file (and its timestamp) alone
  const std::string write_error = write_file_atomically(options.file, formatted);
  if (!write_error.empty()) {
    fmt::print(stderr, "rulebook fmt: {}\n", write_error);
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace

void add_fmt_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<FmtOptions>();
  CLI::App* cmd = app.add_subcommand("fmt", "Print a rule file in canonical layout");
  cmd->add_option("file", options->file, "Rule file to format")->required();
  auto* write = cmd->add_flag("-w,--write", options->write,
                              "Rewrite the file (through a temporary file and a rename; a link is written through; the owner and mode are kept)");
  cmd->add_flag("--check", options->check,
                "Print nothing; exit 1 if the file is not in canonical layout")
      ->excludes(write);
  cmd->callback([options, &exit_code] { exit_code = run_fmt(*options); });
}

}  // namespace rulebook::cli
