// The recorder's event sink (recorder.cpp): gives every shuffle the order the named cards
// pin down, writes the log as the game goes, and stops the run when a card nobody has named
// comes into view.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "log_names.hpp"
#include "rulebook/logs/log.hpp"
#include "rulebook/logs/recorder.hpp"

namespace rulebook::interpreter::detail {

// Thrown out of the rules when cards of a shuffle that nobody has named can be seen.
struct RevealStop {
  State state;
  std::size_t shuffle = 0;           // which shuffle they came out of
  std::int32_t zone = -1;            // where they are now
  std::vector<CardId> placeholders;  // the cards the run put there, top of the shuffle first
  std::vector<CardId> candidates;    // the cards of that shuffle not named yet
};

class RecordSink : public EventSink {
 public:
  RecordSink(const Machine& machine, const std::vector<Recorder::Entry>& entries, LogWriter& writer, const LogNames& names);

  bool shuffle_result(const State& state, std::int32_t zone, std::vector<CardId>& cards) override;
  void shuffled(const State& state, std::int32_t zone) override { writer_.shuffled(state, zone); }
  // Deals are left out of the log: a face-down deal would show the run's stand-ins for
  // cards nobody has seen, and the shuffles decide every deal anyway.
  void chose(const State& state, PlayerId player, std::int32_t rule, const Value& choice, bool by_policy) override {
    writer_.chose(state, player, rule, choice, by_policy);
  }
  // A random choice is drawn by the run's generator (the table's draw is not asked for).
  void drew(const State& state, std::int32_t rule, const std::vector<Value>& options, std::size_t index) override {
    writer_.drew(state, rule, options, index);
  }
  void round_started(const State& state) override { writer_.round_started(state); }
  void ended(const State& state) override { writer_.ended(state); }
  [[nodiscard]] bool observes_steps() const override { return true; }
  void stepping(const State& state) override;

  // Looks for cards that came into view; throws RevealStop for one nobody has named.
  void check(const State& state);

  [[nodiscard]] std::int32_t shuffle_zone(std::size_t shuffle) const { return shuffles_[shuffle]; }
  [[nodiscard]] std::size_t position(CardId c) const { return position_[static_cast<std::size_t>(c)]; }
  // Per card: the last shuffle it was in (-1: none).
  [[nodiscard]] const std::vector<std::int64_t>& groups() const { return group_; }
  // Writes the notes of answer `entry` (comment lines a person wrote before it) here, once.
  void note(std::size_t entry);
  // The log, with a `// seen` comment where named cards came into view, and the notes; notes
  // of answers the run did not reach come last.
  [[nodiscard]] std::string log_text() const;

 private:
  [[nodiscard]] bool visible(const State& state, CardId c) const;

  const Machine& machine_;
  const std::vector<Recorder::Entry>& entries_;
  std::vector<bool> noted_;           // per entry: its notes are written
  std::map<std::pair<std::size_t, CardId>, std::size_t> pinned_by_;  // (shuffle, card): the entry naming it
  LogWriter& writer_;
  const LogNames& names_;
  std::map<std::size_t, std::vector<std::pair<std::size_t, CardId>>> pins_;  // by shuffle: (position, card)
  std::vector<bool> zone_sees_;       // per zone instance: somebody sees its face-down cards
  std::vector<std::int32_t> shuffles_;  // the zone of each shuffle so far
  std::vector<std::int64_t> group_;   // per card: its last shuffle
  std::vector<std::size_t> position_;  // per card: its place in that shuffle
  std::vector<bool> pinned_;          // per card: named in that shuffle
  std::vector<bool> watched_;         // per card: not in view since that shuffle
  std::vector<std::pair<std::size_t, std::string>> comments_;  // (offset in the log, line)
  std::int32_t last_pc_ = -1;
};

}  // namespace rulebook::interpreter::detail
