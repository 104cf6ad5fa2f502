// How the lasso searches (lassos.cpp, chance_lassos.cpp) compare states: search.cpp's state
// words, with the locals no rule reads again left out where a heuristic only looks for a
// likely cycle, and with the random generator left out where the lasso fixes the outcomes
// of shuffles and draws itself. A lasso is reported only when the states compare equal with
// every card told apart (SearchSymmetry::kExact).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lassos.hpp"
#include "search_words.hpp"

namespace rulebook::verifier {

using Words = std::vector<std::uint64_t>;
using LiveLocals = std::vector<std::set<ir::Slot>>;  // by pc (live_locals())

// `live`: only the locals live at the state's position; nullptr: all of them.
inline Words words_of(const ri::State& state, SearchSymmetry symmetry, bool generator = true,
                      const LiveLocals* live = nullptr) {
  StateWords encoder(state, SearchGoal{}, symmetry, generator);
  if (live != nullptr && state.pc >= 0 && static_cast<std::size_t>(state.pc) < live->size()) {
    encoder.only_live(&(*live)[static_cast<std::size_t>(state.pc)]);
  }
  Words words;
  encoder.encode(state, words);
  return words;
}

inline std::uint64_t hash_words(const Words& words) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const std::uint64_t w : words) {
    h ^= w;
    h *= 1099511628211ULL;
  }
  return h;
}

// The states a cycle search has been in, each with a tag (the moves or turns played by
// then): `seen` answers the tag of an earlier state equal to `words`, or remembers `words`
// with `tag`. Both exact-cycle closers use it: a state may repeat one after an earlier turn,
// not only the start.
class StatesSeen {
 public:
  std::optional<std::size_t> seen(const Words& words, std::size_t tag) {
    auto& bucket = by_hash_[hash_words(words)];
    for (const auto& [earlier, at] : bucket) {
      if (earlier == words) return at;
    }
    bucket.emplace_back(words, tag);
    return std::nullopt;
  }

 private:
  std::unordered_map<std::uint64_t, std::vector<std::pair<Words, std::size_t>>> by_hash_;
};

// Watches every instruction a move runs: whether control left `loop` (past its test, or out
// of the round) on the way to the next decision. A lasso of a loop must go round it without
// leaving: a cycle whose decisions all lie inside an inner loop may still leave it and come
// back through an outer loop, and then the inner loop ends every time.
class InsideLoop : public ri::EventSink {
 public:
  // nullptr: nothing watched (the round loop: leaving it ends the game).
  void watch(const Loop* loop) { loop_ = loop; }
  [[nodiscard]] bool observes_steps() const override { return loop_ != nullptr; }
  void stepping(const ri::State& state) override {
    if (loop_ != nullptr && !inside(*loop_, state.pc)) left_ = true;
  }
  // Whether control left the loop since the last call; resets it.
  bool left() {
    const bool was = left_;
    left_ = false;
    return was;
  }

 private:
  const Loop* loop_ = nullptr;
  bool left_ = false;
};

}  // namespace rulebook::verifier
