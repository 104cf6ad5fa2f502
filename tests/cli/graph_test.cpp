// `rulebook graph`: the structure of a ruleset as Graphviz DOT or SVG.
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>

#include <fmt/format.h>

#include "rulebook/authoring/graph.hpp"
#include "rulebook/grammar/load.hpp"
#include "support.hpp"

using rulebook::test::run_rulebook;
using rulebook::test::source_path;

namespace cli_graph_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;

std::string dot_of(const std::string& path) {
  rulebook::grammar::SourceManager sources;
  rulebook::grammar::Diagnostics diagnostics;
  const auto loaded = rulebook::grammar::load_ruleset(path, sources, diagnostics);
  REQUIRE(loaded.status == rulebook::grammar::LoadStatus::kOk);
  return rulebook::authoring::structure_dot(*loaded.program, sources);
}

const char* const kSmall =
    "game \"loops\"\nplayers 2\ncards { standard52 }\nzone deck: pile hidden\nzone hand(p): set hidden\n"
    "setup {\n  rule fill: move all_cards to deck\n}\n"
    "round {\n"
    "  rule shuffle_up: shuffle deck\n"
    "  rule turns: for each p in players {\n"
    "    rule pick: choose c in hand(p) by p\n"
    "    if count(deck) > 0 {\n"
    "      rule refill: move top(deck) to hand(p)\n"
    "    }\n"
    "  }\n"
    "  repeat 2 {\n"
    "    shuffle deck\n"
    "  }\n"
    "  rule finish: if count(deck) == 0 {\n    end game\n  }\n"
    "}\n";

}  // namespace

TEST_CASE("graph: clusters for setup, round and loops, rules in order with lines, back edges, the end",
          "[cli][graph]") {
  const std::string dir = rulebook::test::temp_folder();
  rulebook::test::write_text(dir + "/small.rules", kSmall);
  const std::string dot = dot_of(dir + "/small.rules");
  INFO(dot);
  CHECK(dot.rfind("digraph ruleset {\n  label=\"loops\";", 0) == 0);
  CHECK(dot.find("label=\"setup\";") != std::string::npos);
  CHECK(dot.find("label=\"round\";") != std::string::npos);
  CHECK(dot.find("label=\"turns\";") != std::string::npos);
  CHECK(dot.find("[label=\"fill\\nsmall.rules:7\"]") != std::string::npos);
  CHECK(dot.find("[label=\"shuffle_up\\nsmall.rules:10\"]") != std::string::npos);
  CHECK(dot.find("[label=\"for each p in players\\nsmall.rules:11\", shape=ellipse]") != std::string::npos);
  CHECK(dot.find("[label=\"pick\\nsmall.rules:12\\nchoice\", style=filled") != std::string::npos);
  CHECK(dot.find("[label=\"refill\\nsmall.rules:14\"]") != std::string::npos);  // inside an if: drawn in line
  CHECK(dot.find("[label=\"finish\\nsmall.rules:20\\ncan end the game\"]") != std::string::npos);
  CHECK(dot.find("repeat 2") == std::string::npos);  // no labelled rule inside: left out
  // Back edges, and the end.
  // From the point where the `if` at the end of the walk joins (issue 22: branches fork and join).
  CHECK(std::regex_search(dot, std::regex(R"(j\d+ -> n\d+ \[label="next p", style=dashed)")));
  CHECK(std::regex_search(dot, std::regex(R"(n\d+ -> n\d+ \[label="next round", style=dashed)")));
  CHECK(std::regex_search(dot, std::regex(R"(n\d+ -> end \[style=dotted\];)")));
  // Order: the rules follow one another as written.
  const auto position = [&](const std::string& label) { return dot.find("label=\"" + label + "\\n"); };
  CHECK(position("fill") < position("shuffle_up"));
  CHECK(position("shuffle_up") < position("pick"));
  CHECK(position("pick") < position("refill"));
  CHECK(position("refill") < position("finish"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("graph: every labelled rule of the shipped rulesets is drawn once, deterministically", "[cli][graph]") {
  for (const std::string& path : rulebook::test::rule_files(source_path("rulesets"))) {
    INFO(path);
    rulebook::grammar::SourceManager sources;
    rulebook::grammar::Diagnostics diagnostics;
    const auto loaded = rulebook::grammar::load_ruleset(path, sources, diagnostics);
    REQUIRE(loaded.status == rulebook::grammar::LoadStatus::kOk);
    const std::string dot = rulebook::authoring::structure_dot(*loaded.program, sources);
    CHECK(dot == rulebook::authoring::structure_dot(*loaded.program, sources));
    for (const auto& [label, span] : loaded.program->rule_labels) {
      INFO(label);
      // As a rule node ("label\nfile:line") or as a loop's cluster (label="label";).
      const std::string where =
          fmt::format("{}:{}", std::filesystem::path(sources.file(span.file).path).filename().string(), span.line);
      CHECK(dot.find(where) != std::string::npos);
      const bool node = dot.find("[label=\"" + label + "\\n") != std::string::npos;
      const bool cluster = dot.find("label=\"" + label + "\";") != std::string::npos;
      CHECK(node != cluster);
    }
  }
}

TEST_CASE("graph: --format svg draws with Graphviz, -o writes a file", "[cli][graph]") {
  const std::string dir = rulebook::test::temp_folder();
  const auto r = run_rulebook("graph --format svg " + quoted_path(source_path("rulesets/clusterfk.rules")) + " -o " +
                              quoted_path(dir + "/c.svg"));
  REQUIRE(r.exit_code == 0);
  const std::string svg = rulebook::test::read_text(dir + "/c.svg");
  CHECK(svg.find("<svg") != std::string::npos);
  CHECK(svg.find("pass_note") != std::string::npos);
  CHECK(svg.find("game over") != std::string::npos);

  const auto dot = run_rulebook("graph " + quoted_path(source_path("rulesets/clusterfk.rules")));
  CHECK(dot.exit_code == 0);
  CHECK(dot.out == dot_of(source_path("rulesets/clusterfk.rules")));
  std::filesystem::remove_all(dir);
}

TEST_CASE("graph: without Graphviz, svg is a clear error (exit 2) and dot still works", "[cli][graph]") {
  const std::string file = quoted_path(source_path("rulesets/molestation-game.rules"));
  const auto svg = run_rulebook("graph --format svg " + file, "", "PATH=/nonexistent");
  CHECK(svg.exit_code == 2);
  CHECK(svg.err.find("needs Graphviz's 'dot'") != std::string::npos);
  CHECK(svg.out.empty());
  CHECK(run_rulebook("graph " + file, "", "PATH=/nonexistent").exit_code == 0);
}

TEST_CASE("graph: a ruleset with errors gets its diagnostics and exit 1", "[cli][graph]") {
  const std::string dir = rulebook::test::temp_folder();
  rulebook::test::write_text(dir + "/bad.rules", "game \"t\"\nplayers 2\ncards { standard52 }\nround {\n  set x := 1\n}\n");
  const auto r = run_rulebook("graph " + quoted_path(dir + "/bad.rules"));
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("unknown name 'x' [E0301]") != std::string::npos);
  CHECK(r.out.empty());
  std::filesystem::remove_all(dir);
}

}  // namespace cli_graph_test
