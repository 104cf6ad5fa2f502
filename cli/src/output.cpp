// Output helpers: diagnostics to the terminal or as JSON, JSON text, and Ctrl-C.
#include "output.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sarif.hpp"

namespace rulebook::cli {

namespace {
ColorChoice color_choice = ColorChoice::kAuto;
}  // namespace

void set_color_choice(ColorChoice choice) { color_choice = choice; }

bool stderr_wants_color() {
  if (color_choice != ColorChoice::kAuto) return color_choice == ColorChoice::kAlways;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && no_color[0] != '\0') return false;
  return isatty(STDERR_FILENO) != 0;
}

OutputFormat output_format(const std::string& name) {
  return name == "json" ? OutputFormat::kJson : name == "sarif" ? OutputFormat::kSarif : OutputFormat::kText;
}

void print_diagnostics(const grammar::Diagnostics& diagnostics,
                       const grammar::SourceManager& sources, OutputFormat format) {
  if (format == OutputFormat::kJson) {
    nlohmann::json out;
    out["diagnostics"] = nlohmann::json::parse(grammar::render_json(diagnostics.items(), sources));
    out["errors"] = diagnostics.error_count();
    out["warnings"] = diagnostics.warning_count();
    fmt::print("{}\n", json_text(out, 2));
    return;
  }
  if (format == OutputFormat::kSarif) {
    fmt::print("{}\n", json_text(diagnostics_sarif(diagnostics, sources), 2));
    return;
  }
  const bool color = stderr_wants_color();
  // The first 100 of each severity: 800,000 warnings of one generated file filled the
  // terminal for minutes (the eighth probe). JSON and SARIF list them all.
  constexpr std::size_t kShownPerSeverity = 100;
  std::size_t shown_errors = 0;
  std::size_t shown_warnings = 0;
  for (const grammar::Diagnostic& d : diagnostics.items()) {
    std::size_t& shown = d.severity == grammar::Severity::kError ? shown_errors : shown_warnings;
    if (++shown > kShownPerSeverity) continue;
    fmt::print(stderr, "{}", grammar::render_text(d, sources, color));
  }
  const std::size_t errors = diagnostics.error_count();
  const std::size_t warnings = diagnostics.warning_count();
  if (errors > kShownPerSeverity || warnings > kShownPerSeverity) {
    fmt::print(stderr, "(the first {} errors and the first {} warnings are shown; `rulebook check --format json` lists them all)\n",
               kShownPerSeverity, kShownPerSeverity);
  }
  if (errors + warnings != 0) {
    fmt::print(stderr, "{} error{}, {} warning{}\n", errors, errors == 1 ? "" : "s", warnings,
               warnings == 1 ? "" : "s");
  }
}

std::string json_text(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

int output_failed(int error) {
  // stdout is lost; stderr usually is not (a redirect of stdout alone). Its own failure
  // cannot be reported anywhere.
  std::clearerr(stdout);
  fmt::print(stderr, "error: cannot write the output: {}; what was printed is incomplete\n",
             error != 0 ? std::strerror(error) : "the stream failed");
  std::fflush(stderr);
  return kExitBadInput;
}

void print_json_error(const std::string& message, int exit_code, nlohmann::json context) {
  context["error"] = message;
  context["exit"] = exit_code;
  fmt::print("{}\n", json_text(context, 2));
}

}  // namespace rulebook::cli
