// `replay --format json`, built as the replay goes (replay_json.hpp).
#include "replay_json.hpp"

#include <limits>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "output.hpp"
#include "replay_views.hpp"

namespace rulebook::cli {

namespace {

namespace ri = rulebook::interpreter;

// `value` as json_text writes it at `indent` spaces (every line after the first indented too).
std::string indented(const nlohmann::json& value, std::size_t indent) {
  const std::string text = json_text(value, 2);
  std::string out(indent, ' ');
  for (const char c : text) {
    out.push_back(c);
    if (c == '\n') out.append(indent, ' ');
  }
  return out;
}

void append(std::string& list, const nlohmann::json& element) {
  if (!list.empty()) list += ",\n";
  list += indented(element, 8);  // an element of an array that is a member of a log's report
}

}  // namespace

bool JsonReplayReport::ready(ri::ReplayResult& r) {
  if (!resolved_ && !r.seat_names.empty()) {
    resolved_ = true;
    if (states_) {
      std::string error;
      viewer_ = viewer_named(as_, r.seat_names, error);
      if (!viewer_) {
        fmt::print(stderr, "error: {}: {}\n", path_, error);
        viewer_failed_ = true;
        states_ = false;
      }
    }
  }
  if (!states_) r.snapshots.clear();
  any_state_ = any_state_ || !r.snapshots.empty();
  // Until a state is kept, whether the choices are shown as a viewer saw them is not known.
  return !states_ || any_state_;
}

void JsonReplayReport::take(ri::ReplayResult& r, std::int64_t before) {
  const std::optional<ri::PlayerId> viewer = any_state_ ? viewer_ : std::nullopt;
  std::size_t steps = 0;
  for (; steps < r.trace.size() && r.trace[steps].step < before; ++steps) {
    const ri::ReplayStep& s = r.trace[steps];
    const std::string choice = any_state_ ? choice_seen_as(r, s, viewer) : s.choice;
    append(trace_, {{"step", s.step}, {"line", s.line}, {"player", s.player}, {"choice", choice}, {"rule", s.rule},
                    {"at", s.at}, {"policy", s.by_policy}});
    ++traced_;
  }
  r.trace.erase(r.trace.begin(), r.trace.begin() + static_cast<std::ptrdiff_t>(steps));
  std::size_t ends = 0;
  for (; ends < r.round_ends.size() && r.round_ends[ends].after_step < before; ++ends) {
    append(round_scores_, round_end_json(machine_, r.round_ends[ends]));
  }
  r.round_ends.erase(r.round_ends.begin(), r.round_ends.begin() + static_cast<std::ptrdiff_t>(ends));
  std::size_t kept = 0;
  for (; kept < r.snapshots.size() && r.snapshots[kept].after_step < before; ++kept) {
    if (viewer_) append(states_text_, snapshot_json(machine_, r.snapshots[kept], r.seat_names, *viewer_));
  }
  r.snapshots.erase(r.snapshots.begin(), r.snapshots.begin() + static_cast<std::ptrdiff_t>(kept));
}

void JsonReplayReport::drain(ri::ReplayResult& r, std::int64_t next_step) {
  if (ready(r)) take(r, next_step);
}

void JsonReplayReport::finish(ri::ReplayResult& r, nlohmann::json report, const std::string& before) {
  ready(r);
  take(r, std::numeric_limits<std::int64_t>::max());
  // Placeholders where the arrays go, in the members' (sorted) order.
  const std::vector<std::pair<std::string, const std::string*>> arrays = {
      {"round_scores", &round_scores_}, {"states", &states_text_}, {"trace", &trace_}};
  const bool has_state = r.final_state.has_value();
  if (has_state) report["round_scores"] = "\x01round_scores";
  if (has_state && viewer_) report["states"] = "\x01states";
  if (traced_ > 0) report["trace"] = "\x01trace";
  // Printed in pieces: a copy of the spliced whole would double what is held.
  const std::string text = indented(report, 4);
  fmt::print("{}", before);
  std::size_t from = 0;
  for (const auto& [name, elements] : arrays) {
    const std::string mark = "\"\\u0001" + name + "\"";
    const std::size_t at = text.find(mark, from);
    if (at == std::string::npos) continue;
    fmt::print("{}", std::string_view(text).substr(from, at - from));
    if (elements->empty()) {
      fmt::print("[]");
    } else {
      fmt::print("[\n{}\n      ]", *elements);
    }
    from = at + mark.size();
  }
  fmt::print("{}", std::string_view(text).substr(from));
  trace_.clear();
  round_scores_.clear();
  states_text_.clear();
}

std::string json_report_entry(const nlohmann::json& entry) { return indented(entry, 4); }

std::string json_report_head(bool any_log) { return any_log ? "{\n  \"logs\": [\n" : "{\n  \"logs\": [],\n"; }

std::string json_report_tail(const std::string& title, bool any_log) {
  return fmt::format("{}  \"ruleset\": {}\n}}", any_log ? "\n  ],\n" : "", json_text(nlohmann::json(title), 2));
}

}  // namespace rulebook::cli
