// `replay --trace` and `--show-state` output between the steps (replay_views.hpp).
#include "replay_views.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "rulebook/grammar/printable.hpp"

namespace rulebook::cli {

namespace {

namespace ri = rulebook::interpreter;

void print_round_end(const ri::Machine& machine, const ri::RoundEnd& end, const std::vector<std::string>& names) {
  const std::string scores = ri::scores_text(machine.ir(), end.scores, names);
  fmt::print("round {} ends after step {}{}{}{}\n", end.round, end.after_step, end.game_ended ? ", and the game with it" : "",
             scores.empty() ? "" : ": ", scores);
}

void print_snapshot(const ri::Machine& machine, const ri::ReplaySnapshot& snapshot, const std::vector<std::string>& names,
                    ri::PlayerId viewer) {
  const ri::TableView view = ri::table_view(machine, snapshot.state, viewer);
  fmt::print("{}", ri::render_table_view(machine, snapshot.state, view, names, "    "));
}

}  // namespace

std::string choice_seen_as(const ri::ReplayResult& r, const ri::ReplayStep& step, std::optional<ri::PlayerId> viewer) {
  if (!viewer) return step.choice;
  const bool own = *viewer != ri::kTableViewer && step.player == r.seat_names[static_cast<std::size_t>(*viewer)];
  if (own) return step.choice;
  if (step.secret) return "(in secret)";
  const int bit = *viewer == ri::kTableViewer ? 63 : *viewer;
  if (bit < 64 && ((step.unseen_by >> bit) & 1U) != 0) return "(hidden)";
  return step.choice;
}

std::string choice_seen(const ri::ReplayResult& r, const ri::ReplayStep& step, std::optional<ri::PlayerId> viewer) {
  // The full log is no one's view: a trace shown as someone sees the game hides what they did not see.
  if (r.snapshots.empty()) return step.choice;
  return choice_seen_as(r, step, viewer);
}

std::optional<ri::PlayerId> viewer_named(const std::string& as, const std::vector<std::string>& names, std::string& error) {
  if (as == "table") return ri::kTableViewer;
  const auto it = std::find(names.begin(), names.end(), as);
  if (it != names.end()) return static_cast<ri::PlayerId>(it - names.begin());
  const bool digits = !as.empty() && as.size() <= 3 && std::all_of(as.begin(), as.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (digits) {
    const long number = std::strtol(as.c_str(), nullptr, 10);
    if (static_cast<std::size_t>(number) < names.size()) return static_cast<ri::PlayerId>(number);
  }
  error = fmt::format("--as {}: the log's players are {} (by name or number from 0), or give table", grammar::printable(as),
                      fmt::join(names, ", "));
  return std::nullopt;
}

bool TracePrinter::started(ri::ReplayResult& r) {
  resolve_viewer(r);
  if (!states_) r.snapshots.clear();
  if (started_) return true;
  // The legend goes first, once there are states to show; until then nothing is printed.
  if (states_ && r.snapshots.empty()) return false;
  if (states_) {
    fmt::print("states as {} sees them {}\n",
               viewer_ == ri::kTableViewer ? std::string("the table") : r.seat_names[static_cast<std::size_t>(viewer_)],
               ri::table_view_legend());
  }
  started_ = true;
  return true;
}

void TracePrinter::resolve_viewer(const ri::ReplayResult& r) {
  if (!resolved_ && !r.seat_names.empty()) {
    resolved_ = true;
    if (states_) {
      std::string error;
      const std::optional<ri::PlayerId> viewer = viewer_named(as_, r.seat_names, error);
      if (viewer) {
        viewer_ = *viewer;
      } else {
        fmt::print(stderr, "error: {}: {}; the log is not replayed\n", grammar::printable(path_), error);
        throw ViewerRefused{};
      }
    }
  }
}

// Round ends and states kept after `steps` steps; a round's end comes before the state the
// rules then wait in. What is printed leaves the result.
void TracePrinter::flush(ri::ReplayResult& r, std::int64_t steps) {
  std::size_t ends = 0, snapshots = 0;
  while (ends < r.round_ends.size() && r.round_ends[ends].after_step <= steps) {
    const ri::RoundEnd& end = r.round_ends[ends++];
    print_round_end(machine_, end, r.seat_names);
    if (snapshots < r.snapshots.size() && r.snapshots[snapshots].round_end && r.snapshots[snapshots].after_step == end.after_step) {
      print_snapshot(machine_, r.snapshots[snapshots++], r.seat_names, viewer_);
    }
  }
  while (snapshots < r.snapshots.size() && r.snapshots[snapshots].after_step <= steps) {
    const ri::ReplaySnapshot& s = r.snapshots[snapshots++];
    if (s.after_step == 0) fmt::print("before step 1\n");
    print_snapshot(machine_, s, r.seat_names, viewer_);
  }
  r.round_ends.erase(r.round_ends.begin(), r.round_ends.begin() + static_cast<std::ptrdiff_t>(ends));
  r.snapshots.erase(r.snapshots.begin(), r.snapshots.begin() + static_cast<std::ptrdiff_t>(snapshots));
}

// The steps kept whose number is below `before`, each after what came before it.
void TracePrinter::print_steps(ri::ReplayResult& r, std::int64_t before) {
  if (!flushed_zero_) {
    flush(r, 0);
    flushed_zero_ = true;
  }
  std::size_t printed = 0;
  for (; printed < r.trace.size() && r.trace[printed].step < before; ++printed) {
    const ri::ReplayStep& s = r.trace[printed];
    // The steps taken before this one, that the trace left out, are over: what came after them shows first.
    flush(r, s.step - 1);
    fmt::print("step {:>4}  {:<10} {:<8} {:<22} {:<24} {}{}\n", s.step,
               s.line == 0 ? std::string("(unlogged)") : fmt::format("line {}", s.line), s.player,
               states_ ? choice_seen_as(r, s, viewer_) : s.choice, s.rule.empty() ? std::string("-") : s.rule, s.at,
               s.by_policy ? "  (policy)" : "");
  }
  r.trace.erase(r.trace.begin(), r.trace.begin() + static_cast<std::ptrdiff_t>(printed));
}

void TracePrinter::drain(ri::ReplayResult& r, std::int64_t next_step) {
  if (!started(r)) return;
  print_steps(r, next_step);
  flush(r, next_step - 1);
}

void TracePrinter::finish(ri::ReplayResult& r) {
  if (!started(r)) {
    // States were asked for and none was kept: no legend, only the steps.
    states_ = false;
    started_ = true;
  }
  print_steps(r, std::numeric_limits<std::int64_t>::max());
  flush(r, r.steps);
}

nlohmann::json score_json(const std::vector<ri::ScoreValue>& seats) {
  nlohmann::json out = nlohmann::json::array();
  for (const ri::ScoreValue& v : seats) {
    out.push_back(v.faulted() ? nlohmann::json{{"fault", v.fault}} : nlohmann::json(v.value));
  }
  return out;
}

nlohmann::json round_end_json(const ri::Machine& machine, const ri::RoundEnd& end) {
  nlohmann::json scores = nlohmann::json::object();
  for (std::size_t i = 0; i < end.scores.size(); ++i) scores[machine.ir().scores[i].name] = score_json(end.scores[i]);
  return {{"round", end.round}, {"after_step", end.after_step}, {"game_ended", end.game_ended}, {"scores", scores}};
}

nlohmann::json snapshot_json(const ri::Machine& machine, const ri::ReplaySnapshot& s, const std::vector<std::string>& names,
                             ri::PlayerId viewer) {
  const ri::TableView view = ri::table_view(machine, s.state, viewer);
  nlohmann::json zones = nlohmann::json::object();
  for (const ri::TableZone& z : view.zones) {
    nlohmann::json cards = nlohmann::json::array();
    for (const auto& c : z.cards) cards.push_back(c ? nlohmann::json(machine.card_name(s.state, *c)) : nlohmann::json(nullptr));
    zones[ri::zone_display_name(machine.ir(), z.instance, names)] = {{"count", z.cards.size()}, {"cards", cards}, {"face_up", z.face_up}};
  }
  nlohmann::json scores = nlohmann::json::object();
  for (std::size_t i = 0; i < view.scores.size(); ++i) scores[machine.ir().scores[i].name] = score_json(view.scores[i]);
  nlohmann::json j = {{"after_step", s.after_step}, {"round_end", s.round_end}, {"round", view.round}, {"moves", view.moves},
                      {"zones", zones}, {"scores", scores}, {"finished", view.finished}};
  if (view.to_move) {
    j["to_move"] = names[static_cast<std::size_t>(*view.to_move)];
    j["rule"] = view.rule >= 0 ? nlohmann::json(machine.ir().labels[static_cast<std::size_t>(view.rule)]) : nlohmann::json(nullptr);
    j["secret"] = view.secret;
  }
  return j;
}

}  // namespace rulebook::cli
