// Front-end speed per shipped ruleset: parse alone, parse + check, and format. The files are
// read once; each iteration works from memory, as `rulebook check` does after reading.
#include <benchmark/benchmark.h>

#include <string>

#include "rulebook/authoring/format.hpp"
#include "rulebook/grammar/check.hpp"
#include "rulebook/grammar/parse.hpp"

namespace g = rulebook::grammar;

namespace {

std::string read_ruleset_text(const char* relative) {
  std::string error;
  auto text = g::read_file(std::string(RULEBOOK_SOURCE_DIR) + "/" + relative, error);
  if (!text) throw std::runtime_error(error);
  return *text;
}

void parse_only(benchmark::State& state, const char* relative) {
  const std::string text = read_ruleset_text(relative);
  for (auto _ : state) {
    g::SourceManager sources;
    g::Diagnostics diagnostics;
    const g::FileId id = sources.add(relative, text);
    auto file = g::parse_rules(sources, id, diagnostics);
    if (diagnostics.has_errors()) state.SkipWithError("syntax errors");
    benchmark::DoNotOptimize(file);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}

void parse_and_check(benchmark::State& state, const char* relative) {
  const std::string text = read_ruleset_text(relative);
  for (auto _ : state) {
    g::SourceManager sources;
    g::Diagnostics diagnostics;
    const g::FileId id = sources.add(relative, text);
    auto program = g::check_program(g::parse_rules(sources, id, diagnostics), diagnostics);
    if (diagnostics.has_errors()) state.SkipWithError("errors");
    benchmark::DoNotOptimize(program);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}

void format(benchmark::State& state, const char* relative) {
  const std::string text = read_ruleset_text(relative);
  g::SourceManager sources;
  g::Diagnostics diagnostics;
  const g::FileId id = sources.add(relative, text);
  const auto file = g::parse_rules(sources, id, diagnostics);
  for (auto _ : state) {
    auto out = rulebook::authoring::format_rules(file, sources.file(id));
    benchmark::DoNotOptimize(out);
  }
}

}  // namespace

BENCHMARK_CAPTURE(parse_only, molestation, "rulesets/molestation-game.rules");
BENCHMARK_CAPTURE(parse_and_check, molestation, "rulesets/molestation-game.rules");
BENCHMARK_CAPTURE(format, molestation, "rulesets/molestation-game.rules");
BENCHMARK_CAPTURE(parse_only, clusterfk, "rulesets/clusterfk.rules");
BENCHMARK_CAPTURE(parse_and_check, clusterfk, "rulesets/clusterfk.rules");
BENCHMARK_CAPTURE(format, clusterfk, "rulesets/clusterfk.rules");
