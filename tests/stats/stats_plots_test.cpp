// The statistics library's SVG charts, called directly: well-formed XML (a title with `&` or
// `<` included), one bar per seat or per length, and the numbers of the report in the bars.
#include <catch2/catch.hpp>

#include <cctype>
#include <cstring>
#include <regex>

#include <fmt/format.h>

#include "rulebook/stats/plots.hpp"
#include "rulebook/stats/wilson.hpp"
#include "stats/stats_fixture.hpp"

namespace rs = rulebook::stats;
using rulebook::stats::test::run;

namespace stats_stats_plots_test {  // this file's own names (unity builds put several files in one)
namespace {

// What makes `xml` not well-formed, in the subset the charts use (elements, attributes in
// double quotes, text, the entities &amp; &lt; &gt; &quot;), or "" when it is well-formed.
std::string xml_error(const std::string& xml) {
  const auto entity_at = [&](std::size_t at) {
    for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;"}) {
      if (xml.compare(at, std::strlen(e), e) == 0) return true;
    }
    return false;
  };
  std::vector<std::string> open;
  bool root_closed = false;
  for (std::size_t i = 0; i < xml.size();) {
    if (xml[i] != '<') {
      if (xml[i] == '&' && !entity_at(i)) return "a bare & at " + std::to_string(i);
      if (open.empty() && std::isspace(static_cast<unsigned char>(xml[i])) == 0) return "text outside the root";
      ++i;
      continue;
    }
    const bool closing = xml.compare(i, 2, "</") == 0;
    const std::size_t name_at = i + (closing ? 2 : 1);
    const std::size_t name_end = xml.find_first_of(" \n/>", name_at);
    if (name_end == std::string::npos || name_end == name_at) return "a tag without a name at " + std::to_string(i);
    const std::string name = xml.substr(name_at, name_end - name_at);
    std::size_t end = name_end;
    for (bool quoted = false; end < xml.size() && (quoted || xml[end] != '>'); ++end) {
      if (xml[end] == '"') quoted = !quoted;
      if (quoted && xml[end] == '<') return "a < in an attribute of <" + name + ">";
      if (quoted && xml[end] == '&' && !entity_at(end)) return "a bare & in an attribute of <" + name + ">";
    }
    if (end == xml.size()) return "<" + name + " is not closed";
    if (closing) {
      if (open.empty() || open.back() != name) return "</" + name + "> closes nothing open";
      open.pop_back();
      root_closed = open.empty();
    } else if (xml[end - 1] != '/') {
      if (root_closed || (open.empty() && i != 0)) return "a second root <" + name + ">";
      open.push_back(name);
    }
    i = end + 1;
  }
  if (!open.empty()) return "<" + open.back() + "> is not closed";
  return root_closed ? "" : "no root element";
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The numbers of a regular expression's first group, in order.
std::vector<std::int64_t> numbers(const std::string& svg, const std::string& pattern) {
  std::vector<std::int64_t> out;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it) {
    out.push_back(std::stoll((*it)[1]));
  }
  return out;
}

}  // namespace

TEST_CASE("stats plots: the checker of well-formed SVG catches what it should", "[stats]") {
  CHECK(xml_error("<svg a=\"1\">\n<rect/><text>a &amp; b</text>\n</svg>\n").empty());
  CHECK_FALSE(xml_error("<svg><text>a & b</text></svg>").empty());
  CHECK_FALSE(xml_error("<svg><text>a</svg>").empty());
  CHECK_FALSE(xml_error("<svg t=\"<\"></svg>").empty());
  CHECK_FALSE(xml_error("<svg></svg><svg></svg>").empty());
}

TEST_CASE("stats plots: the win-rate chart is well-formed SVG with one bar and one interval per seat", "[stats]") {
  const rs::SimulationStats s = run(300, 0, 1);
  const std::string svg = rs::win_rate_svg(s);
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(xml_error(svg).empty());
  INFO(xml_error(svg));
  CHECK(occurrences(svg, "<rect class=\"bar\"") == 3);
  CHECK(occurrences(svg, "<line class=\"ci\"") == 3);
  // The title of a ruleset is text, not markup: "Test & <Game>" is escaped.
  CHECK(svg.find("Test &amp; &lt;Game&gt;: wins by seat") != std::string::npos);
  // Each bar's tooltip gives the report's wins and interval.
  CHECK(numbers(svg, "<title>seat \\d+: (\\d+) wins") == s.wins);
  const auto [lo, hi] = rs::wilson_interval(s.wins[2], s.finished());
  CHECK(svg.find(fmt::format("[{:.1f}%, {:.1f}%]</title>", lo * 100, hi * 100)) != std::string::npos);
  CHECK(svg.find(">2 (auto)</text>") != std::string::npos);
}

TEST_CASE("stats plots: the length charts give one bar per length, or at most 40 bins", "[stats]") {
  rs::SimulationStats s = run(300, 0, 1);
  // Rounds 5 to 17: one bar per value, the games of each value in its tooltip.
  const std::string rounds = rs::length_svg(s, false);
  CHECK(xml_error(rounds).empty());
  CHECK(occurrences(rounds, "<rect class=\"bar\"") == 13);
  std::vector<std::int64_t> per_value;
  for (const auto& [value, count] : s.rounds) per_value.push_back(count);
  CHECK(numbers(rounds, "<title>\\d+: (\\d+) games</title>") == per_value);
  // Moves 20 to 219: 200 values in 40 bins of 5, which count every finished game.
  const std::string moves = rs::length_svg(s, true);
  CHECK(xml_error(moves).empty());
  CHECK(occurrences(moves, "<rect class=\"bar\"") == 40);
  CHECK(moves.find("moves per game (bins of 5)") != std::string::npos);
  std::int64_t counted = 0;
  for (const std::int64_t n : numbers(moves, "<title>\\d+ to \\d+: (\\d+) games</title>")) counted += n;
  CHECK(counted == s.finished());
  // A gap in the lengths is an empty bar, not a missing one: values 3 and 7 give 5 bars.
  s.rounds = {{3, 2}, {7, 1}};
  const std::string gap = rs::length_svg(s, false);
  CHECK(occurrences(gap, "<rect class=\"bar\"") == 5);
  CHECK(gap.find("<title>5: 0 games</title>") != std::string::npos);
  // No finished game: a chart all the same, well-formed.
  s.rounds.clear();
  CHECK(xml_error(rs::length_svg(s, false)).empty());
}

TEST_CASE("stats plots: --plot writes three charts, win rates, rounds and moves", "[stats]") {
  const rs::SimulationStats s = run(50, 0, 1);
  const std::vector<rs::Chart> charts = rs::charts(s);
  REQUIRE(charts.size() == 3);
  CHECK(charts[0].file_name == "win-rates.svg");
  CHECK(charts[0].svg == rs::win_rate_svg(s));
  CHECK(charts[1].file_name == "rounds.svg");
  CHECK(charts[1].svg == rs::length_svg(s, false));
  CHECK(charts[2].file_name == "moves.svg");
  CHECK(charts[2].svg == rs::length_svg(s, true));
}

}  // namespace stats_stats_plots_test
