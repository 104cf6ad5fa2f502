// `rulebook graph` control flow (issue 22): the branches of an `if` fork and join instead of
// following one another, and every loop has its back edge, in the setup as in a round,
// including a labelled loop with no labelled rule inside (one node going round to itself).
// The DOT is read back as edges between node titles, so the tests do not depend on ids.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "rulebook/authoring/graph.hpp"
#include "rulebook/grammar/load.hpp"
#include "support.hpp"

namespace cli_graph_flow_test {  // this file's own names (unity builds put several files in one)
namespace {

const char* const kHeader =
    "game \"flow\"\nplayers 2\ncards { chip: 4 }\nzone deck: pile hidden\nzone hand(p): set owner\n"
    "var x: int = 0\n";

// The edges of the DOT of `text` (after kHeader), as `FROM -> TO` or `FROM -> TO [LABEL]`,
// a node named by the first line of its label, a join point as `join`; back edges end in
// ` (back)`.
std::vector<std::string> edges_of(const std::string& text) {
  const std::string dir = rulebook::test::temp_folder();
  rulebook::test::write_text(dir + "/flow.rules", std::string(kHeader) + text);
  rulebook::grammar::SourceManager sources;
  rulebook::grammar::Diagnostics diagnostics;
  const auto loaded = rulebook::grammar::load_ruleset(dir + "/flow.rules", sources, diagnostics);
  REQUIRE(loaded.status == rulebook::grammar::LoadStatus::kOk);
  const std::string dot = rulebook::authoring::structure_dot(*loaded.program, sources);
  INFO(dot);
  std::map<std::string, std::string> titles{{"start", "start"}, {"end", "end"}};
  const std::regex node(R"(^\s*(n\d+) \[label="([^"\\]*))");
  const std::regex join(R"(^\s*(j\d+) \[shape=point)");
  const std::regex edge(R"re(^\s*(\w+) -> (\w+)(?: \[label="([^"]*)"(, style=dashed)?)?)re");
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < dot.size()) {
    const std::size_t line_end = std::min(dot.find('\n', at), dot.size());
    const std::string line = dot.substr(at, line_end - at);
    at = line_end + 1;
    std::smatch m;
    if (std::regex_search(line, m, node)) {
      titles[m[1]] = m[2];
    } else if (std::regex_search(line, m, join)) {
      titles[m[1]] = "join";
    } else if (std::regex_search(line, m, edge) && line.find("style=dotted") == std::string::npos) {
      std::string e = titles.at(m[1]) + " -> " + titles.at(m[2]);
      if (m[3].matched) e += " [" + m[3].str() + "]";
      if (m[4].matched) e += " (back)";
      out.push_back(e);
    }
  }
  return out;
}

bool has(const std::vector<std::string>& edges, const std::string& e) {
  return std::find(edges.begin(), edges.end(), e) != edges.end();
}

}  // namespace

TEST_CASE("graph: the branches of an if/else fork from the rule before and join before the rule after",
          "[vgraph][graph]") {
  const auto edges = edges_of(
      "round {\n  rule pick: choose go in {true, false} by seat 0\n"
      "  if go {\n    rule yes: add 1 to x\n  } else {\n    rule no: add 2 to x\n  }\n"
      "  rule after: if x > 10 { end game }\n}\n");
  INFO(Catch::Detail::stringify(edges));
  CHECK(has(edges, "pick -> yes [if go]"));
  CHECK(has(edges, "pick -> no [else]"));
  CHECK(has(edges, "yes -> join"));
  CHECK(has(edges, "no -> join"));
  CHECK(has(edges, "join -> after"));
  CHECK_FALSE(has(edges, "yes -> no"));  // the bug: branches drawn one after the other
  CHECK(has(edges, "after -> round [next round] (back)"));
}

TEST_CASE("graph: an if without else has a path past its rules, else-if chains fork once per branch",
          "[vgraph][graph]") {
  const auto single = edges_of(
      "round {\n  rule pick: choose go in {true, false} by seat 0\n"
      "  if go {\n    rule yes: add 1 to x\n  }\n  rule after: if x > 10 { end game }\n}\n");
  INFO(Catch::Detail::stringify(single));
  CHECK(has(single, "pick -> yes [if go]"));
  CHECK(has(single, "pick -> join [else]"));
  CHECK(has(single, "yes -> join"));
  CHECK(has(single, "join -> after"));
  CHECK_FALSE(has(single, "yes -> after"));

  const auto chain = edges_of(
      "round {\n  rule pick: choose go in {true, false} by seat 0\n"
      "  if x > 5 {\n    rule big: add 1 to x\n  } else if x > 2 {\n    set x := 0\n  } else {\n"
      "    rule small: add 2 to x\n  }\n  rule after: if x > 10 { end game }\n}\n");
  INFO(Catch::Detail::stringify(chain));
  CHECK(has(chain, "pick -> big [if x > 5]"));
  CHECK(has(chain, "pick -> join [else if x > 2]"));  // a branch without labelled rules
  CHECK(has(chain, "pick -> small [else]"));
  CHECK(has(chain, "big -> join"));
  CHECK(has(chain, "small -> join"));
  CHECK(has(chain, "join -> after"));
  CHECK_FALSE(has(chain, "big -> small"));
}

TEST_CASE("graph: an if with no labelled rule in any branch stays out of the drawing", "[vgraph][graph]") {
  const auto edges = edges_of(
      "round {\n  rule pick: choose go in {true, false} by seat 0\n"
      "  if go {\n    add 1 to x\n  } else {\n    add 2 to x\n  }\n  rule after: if x > 10 { end game }\n}\n");
  INFO(Catch::Detail::stringify(edges));
  CHECK(has(edges, "pick -> after"));
  CHECK(std::none_of(edges.begin(), edges.end(), [](const std::string& e) { return e.find("join") != std::string::npos; }));
}

TEST_CASE("graph: every loop of the setup has its back edge, a labelled loop without labelled rules to itself",
          "[vgraph][graph]") {
  const auto edges = edges_of(
      "setup {\n  move box to deck\n"
      "  rule hands: for each p in players {\n    deal 1 from deck to hand(p)\n  }\n"
      "  rule count_up: while x < 3 {\n    add 1 to x\n  }\n"
      "  rule mix: repeat 2 {\n    shuffle deck\n  }\n"
      "  until x >= 6 {\n    rule step: add 1 to x\n  }\n}\n"
      "round {\n  rule pick: choose go in {true, false} by seat 0\n  rule stop: if go { end game }\n}\n");
  INFO(Catch::Detail::stringify(edges));
  CHECK(has(edges, "setup -> hands"));
  CHECK(has(edges, "hands -> hands [next p] (back)"));
  CHECK(has(edges, "hands -> count_up"));
  CHECK(has(edges, "count_up -> count_up [while] (back)"));
  CHECK(has(edges, "mix -> mix [again] (back)"));
  CHECK(has(edges, "mix -> until x >= 6"));
  CHECK(has(edges, "until x >= 6 -> step"));
  CHECK(has(edges, "step -> until x >= 6 [until] (back)"));
  CHECK(has(edges, "step -> round"));
}

TEST_CASE("graph: a loop whose body ends in a fork goes back from the join, nested loops in a round",
          "[vgraph][graph]") {
  const auto edges = edges_of(
      "round {\n  rule turns: for each p in players {\n"
      "    rule pick: choose go in {true, false} by p\n"
      "    if go {\n      rule draw: add 1 to x\n    }\n  }\n"
      "  rule again: repeat 2 {\n    rule tick: add 1 to x\n  }\n"
      "  rule stop: if x > 10 { end game }\n}\n");
  INFO(Catch::Detail::stringify(edges));
  // A labelled loop is a cluster named by the rule, its head the loop as written.
  CHECK(has(edges, "round -> for each p in players"));
  CHECK(has(edges, "for each p in players -> pick"));
  CHECK(has(edges, "pick -> draw [if go]"));
  CHECK(has(edges, "pick -> join [else]"));
  CHECK(has(edges, "join -> for each p in players [next p] (back)"));
  CHECK(has(edges, "join -> repeat 2"));
  CHECK(has(edges, "repeat 2 -> tick"));
  CHECK(has(edges, "tick -> repeat 2 [again] (back)"));
  CHECK(has(edges, "tick -> stop"));
  CHECK(has(edges, "stop -> round [next round] (back)"));
}

}  // namespace cli_graph_flow_test
