// SVG charts of simulation statistics.
#include "rulebook/stats/plots.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "rulebook/stats/wilson.hpp"

namespace rulebook::stats {

namespace {

constexpr double kWidth = 640, kHeight = 360;
constexpr double kLeft = 60, kRight = 20, kTop = 50, kBottom = 60;
constexpr double kPlotWidth = kWidth - kLeft - kRight, kPlotHeight = kHeight - kTop - kBottom;

std::string escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// The frame: title, subtitle, axes, and `ticks` horizontal grid lines labelled by `label(i)`.
template <typename Label>
std::string frame(const std::string& title, const std::string& subtitle, const std::string& y_title,
                  const std::string& x_title, int ticks, Label label) {
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n"
      "<text x=\"{2}\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{3}</text>\n"
      "<text x=\"{2}\" y=\"38\" fill=\"#555\">{4}</text>\n",
      kWidth, kHeight, kLeft, escape(title), escape(subtitle));
  for (int i = 0; i <= ticks; ++i) {
    const double y = kTop + kPlotHeight - kPlotHeight * i / ticks;
    out += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>\n", kLeft, y,
                       kLeft + kPlotWidth, y);
    out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", kLeft - 6, y + 4, label(i));
  }
  out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"black\"/>\n", kLeft, kTop,
                     kTop + kPlotHeight);
  out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"black\"/>\n", kLeft,
                     kTop + kPlotHeight, kLeft + kPlotWidth);
  out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", kLeft + kPlotWidth / 2,
                     kHeight - 12, escape(x_title));
  out += fmt::format("<text x=\"14\" y=\"{:.1f}\" text-anchor=\"middle\" transform=\"rotate(-90 14 {:.1f})\">{}</text>\n",
                     kTop + kPlotHeight / 2, kTop + kPlotHeight / 2, escape(y_title));
  return out;
}

std::string subtitle(const SimulationStats& s) {
  return fmt::format("{} games ({} finished), {} players, seed {}", s.played, s.finished(), s.human_players(), s.seed);
}

}  // namespace

std::string win_rate_svg(const SimulationStats& s) {
  std::string out = frame(s.ruleset + ": wins by seat", subtitle(s), "share of finished games", "seat", 5,
                          [](int i) { return fmt::format("{}%", i * 20); });
  const std::size_t seats = s.automated.size();
  const double slot = kPlotWidth / static_cast<double>(std::max<std::size_t>(seats, 1));
  const double base = kTop + kPlotHeight;
  const std::int64_t finished = s.finished();
  for (std::size_t p = 0; p < seats; ++p) {
    const double rate = s.win_rate(p);
    const auto [lo, hi] = wilson_interval(s.wins[p], finished);
    const double x = kLeft + slot * static_cast<double>(p) + slot * 0.15, w = slot * 0.7;
    const double h = kPlotHeight * rate;
    out += fmt::format(
        "<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\">"
        "<title>seat {}: {} wins, {:.1f}% [{:.1f}%, {:.1f}%]</title></rect>\n",
        x, base - h, w, h, s.automated[p] ? "#bbb" : "#4a7ab5", p, s.wins[p], rate * 100, lo * 100, hi * 100);
    const double cx = x + w / 2;
    out += fmt::format("<line class=\"ci\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"black\"/>\n",
                       cx, base - kPlotHeight * lo, base - kPlotHeight * hi);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}{}</text>\n", cx, base + 16, p,
                       s.automated[p] ? " (auto)" : "");
  }
  return out + "</svg>\n";
}

std::string length_svg(const SimulationStats& s, bool moves) {
  const auto& histogram = moves ? s.moves : s.rounds;
  // At most 40 bars: values are grouped into bins of equal width.
  std::int64_t lo = histogram.empty() ? 0 : histogram.begin()->first;
  std::int64_t hi = histogram.empty() ? 0 : histogram.rbegin()->first;
  const std::int64_t width = std::max<std::int64_t>(1, (hi - lo + 40) / 40);
  const std::size_t bins = static_cast<std::size_t>((hi - lo) / width + 1);
  std::vector<std::int64_t> counts(bins, 0);
  for (const auto& [value, count] : histogram) counts[static_cast<std::size_t>((value - lo) / width)] += count;
  const std::int64_t peak = std::max<std::int64_t>(1, *std::max_element(counts.begin(), counts.end()));
  const char* unit = moves ? "moves" : "rounds";
  std::string out = frame(fmt::format("{}: game length in {}", s.ruleset, unit), subtitle(s), "games",
                          fmt::format("{} per game{}", unit, width == 1 ? "" : fmt::format(" (bins of {})", width)), 4,
                          [&](int i) { return fmt::format("{}", peak * i / 4); });
  const double slot = kPlotWidth / static_cast<double>(bins), base = kTop + kPlotHeight;
  for (std::size_t b = 0; b < bins; ++b) {
    const std::int64_t from = lo + static_cast<std::int64_t>(b) * width;
    const double h = kPlotHeight * static_cast<double>(counts[b]) / static_cast<double>(peak);
    const double x = kLeft + slot * static_cast<double>(b);
    out += fmt::format(
        "<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"#4a7ab5\">"
        "<title>{}{}: {} games</title></rect>\n",
        x + 1, base - h, std::max(slot - 2, 1.0), h, from, width == 1 ? "" : fmt::format(" to {}", from + width - 1),
        counts[b]);
    // Label about ten bins along the axis.
    if (b % std::max<std::size_t>(1, bins / 10) == 0) {
      out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", x + slot / 2, base + 16,
                         from);
    }
  }
  return out + "</svg>\n";
}

std::vector<Chart> charts(const SimulationStats& stats) {
  std::vector<Chart> out;
  out.push_back({"win-rates.svg", win_rate_svg(stats)});
  out.push_back({"rounds.svg", length_svg(stats, false)});
  out.push_back({"moves.svg", length_svg(stats, true)});
  return out;
}

}  // namespace rulebook::stats
