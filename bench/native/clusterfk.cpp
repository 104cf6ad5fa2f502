// Clusterf**k!, read directly from ../shared/rulebooks/clusterfk.txt, with the same
// interpretations as rulesets/clusterfk.rules (default options: no Chlamydia, no Ogling).
#include <algorithm>
#include <array>
#include <bit>

#include "native.hpp"

namespace rulebook::native {

namespace {

enum Action : std::int32_t { kPass, kSlam };
enum Gesture : std::int32_t { kPoint, kFinger };

const std::vector<std::string> kActionNames{"pass", "slam"};
const std::vector<std::string> kGestureNames{"point", "finger", "ogle"};

class Clusterfk {
 public:
  Clusterfk(std::int32_t players, Driver& driver, std::int32_t notes) : n_(static_cast<std::size_t>(players)), driver_(driver) {
    names_ = clusterfk_cards(notes);
    // SETUP: the SCORE! cards and the Chlamydia card are set aside; the notes are shuffled
    // and each player is dealt four, clockwise from the starter.
    for (std::int32_t i = 0; i < notes; ++i) deck_.push_back(i);
    driver_.shuffle("deck", deck_);
    for (std::size_t k = 0; k < n_; ++k) draw_up((starter_ + k) % n_, false);
  }

  Result play() {
    for (;;) {
      ++rounds_;
      if (play_round()) break;
    }
    Result result;
    result.winners = winners_;
    result.scores.emplace_back(points_.begin(), points_.begin() + static_cast<std::ptrdiff_t>(n_));
    result.rounds = rounds_;
    result.moves = moves_;
    return result;
  }

 private:
  std::size_t left_of(std::size_t p) const { return (p + 1) % n_; }

  std::size_t ask(std::size_t player, std::string_view rule, OptionKind kind, const std::vector<std::string>* names) {
    ++moves_;
    return driver_.choose(Choice{static_cast<std::int32_t>(player), rule, kind, &options_, names});
  }

  std::int32_t choose_card(std::size_t p, std::string_view rule) {
    options_.assign(hands_[p].begin(), hands_[p].end());
    return options_[ask(p, rule, OptionKind::kCard, &names_)];
  }

  std::size_t choose_other(std::size_t p, std::string_view rule) {
    options_.clear();
    for (std::size_t q = 0; q < n_; ++q) {
      if (q != p) options_.push_back(static_cast<std::int32_t>(q));
    }
    return static_cast<std::size_t>(options_[ask(p, rule, OptionKind::kPlayer, nullptr)]);
  }

  void give(std::size_t from, std::int32_t card, std::size_t to) {
    auto& hand = hands_[from];
    hand.erase(std::find(hand.begin(), hand.end(), card));
    hands_[to].push_back(card);
  }

  // Deals up to four cards; between rounds an empty deck is rebuilt from the discards.
  void draw_up(std::size_t p, bool reshuffle) {
    auto& hand = hands_[p];
    while (hand.size() < 4) {
      if (reshuffle && deck_.empty()) {
        deck_.insert(deck_.end(), discard_.begin(), discard_.end());
        discard_.clear();
        driver_.shuffle("deck", deck_);
      }
      hand.push_back(deck_.back());
      deck_.pop_back();
    }
  }

  bool pointing(std::size_t p) const { return gesture_[p] == kPoint; }
  bool twosome(std::size_t p, std::size_t q) const {
    return p != q && pointing(p) && pointing(q) && targets_[p] == (1U << q) && targets_[q] == (1U << p);
  }
  bool in_threesome(std::size_t p) const {
    if (!pointing(p) || std::popcount(targets_[p]) != 2) return false;
    for (std::size_t q = 0; q < n_; ++q) {
      if (((targets_[p] >> q) & 1U) == 0) continue;
      if (!pointing(q) || targets_[q] != ((targets_[p] | (1U << p)) & ~(1U << q))) return false;
    }
    return true;
  }

  // One round; true when the game ended.
  bool play_round() {
    // PASSING CARDS: clockwise from the starter until someone slams; an empty hand must slam.
    std::size_t turn = starter_;
    bool slammed = false;
    std::size_t slammer = 0;
    while (!slammed) {
      const auto& hand = hands_[turn];
      if (hand.empty()) {
        options_.assign({kSlam});
      } else {
        options_.assign({kPass, kSlam});
      }
      if (options_[ask(turn, "pass_or_slam", OptionKind::kEnum, &kActionNames)] == kSlam) {
        slammed = true;
        slammer = turn;
      } else {
        const std::int32_t card = choose_card(turn, "pass_note");
        give(turn, card, choose_other(turn, "pass_to"));
        turn = left_of(turn);
      }
    }
    // After a slam, each other player with cards may pass one more note.
    for (std::size_t k = 1; k < n_; ++k) {
      const std::size_t p = (slammer + k) % n_;
      if (hands_[p].empty()) continue;
      options_.assign({0, 1});  // no, yes
      if (options_[ask(p, "last_pass", OptionKind::kBool, nullptr)] == 0) continue;
      const std::int32_t card = choose_card(p, "last_note");
      give(p, card, choose_other(p, "last_to"));
    }
    // HOOKING UP: a gesture and its targets, in secret; pointing takes one or two players.
    for (std::size_t p = 0; p < n_; ++p) {
      options_.assign({kPoint, kFinger});
      gesture_[p] = options_[ask(p, "choose_gesture", OptionKind::kEnum, &kGestureNames)];
      const std::int32_t most = gesture_[p] == kPoint ? 2 : 1;
      options_.clear();
      for (std::uint32_t mask = 1; mask < (1U << n_); ++mask) {
        const int size = std::popcount(mask);
        if (((mask >> p) & 1U) == 0 && size <= most) options_.push_back(static_cast<std::int32_t>(mask));
      }
      targets_[p] = static_cast<std::uint32_t>(options_[ask(p, "choose_targets", OptionKind::kPlayerSet, nullptr)]);
    }
    // A threesome nobody busts wins the game at once.
    std::array<bool, 8> three{};
    for (std::size_t p = 0; p < n_; ++p) three[p] = in_threesome(p);
    for (std::size_t p = 0; p < n_; ++p) {
      if (!three[p]) continue;
      bool busted = false;
      for (std::size_t b = 0; b < n_ && !busted; ++b) {
        busted = gesture_[b] == kFinger && (targets_[b] & ((1U << p) | targets_[p])) != 0;
      }
      if (!busted) winners_.push_back(static_cast<std::int32_t>(p));
    }
    if (!winners_.empty()) return true;
    // Otherwise: a point for each member of a twosome, two for busting a threesome.
    for (std::size_t p = 0; p < n_; ++p) {
      std::int32_t won = 0;
      for (std::size_t q = 0; q < n_; ++q) {
        if (twosome(p, q)) won = 1;
      }
      bool busts = false;
      for (std::size_t t = 0; t < n_; ++t) busts = busts || (((targets_[p] >> t) & 1U) != 0 && three[t]);
      if (gesture_[p] == kFinger && busts) won += 2;
      points_[p] += won;
    }
    for (std::size_t p = 0; p < n_; ++p) {
      if (points_[p] >= 3) winners_.push_back(static_cast<std::int32_t>(p));
    }
    if (!winners_.empty()) return true;
    // The next starter is left of this one; hands are discarded and drawn up to four.
    starter_ = left_of(starter_);
    for (std::size_t p = 0; p < n_; ++p) {
      auto& hand = hands_[static_cast<std::size_t>(p)];
      std::sort(hand.begin(), hand.end());
      discard_.insert(discard_.end(), hand.begin(), hand.end());
      hand.clear();
    }
    for (std::size_t k = 0; k < n_; ++k) draw_up((starter_ + k) % n_, true);
    return false;
  }

  std::size_t n_;
  Driver& driver_;
  std::vector<std::string> names_;
  std::vector<std::int32_t> deck_, discard_, options_;
  std::array<std::vector<std::int32_t>, 8> hands_;
  std::array<std::int32_t, 8> gesture_{};
  std::array<std::uint32_t, 8> targets_{};
  std::array<std::int64_t, 8> points_{};
  std::vector<std::int32_t> winners_;
  std::size_t starter_ = 0;
  std::int64_t rounds_ = 0;
  std::int64_t moves_ = 0;
};

}  // namespace

std::vector<std::string> clusterfk_cards(std::int32_t notes) {
  std::vector<std::string> names;
  for (std::int32_t i = 1; i <= notes; ++i) names.push_back("note" + std::to_string(i));
  for (std::int32_t i = 1; i <= 8; ++i) names.push_back("score_card" + std::to_string(i));
  names.emplace_back("chlamydia_card1");
  return names;
}

Result play_clusterfk(std::int32_t players, Driver& driver, std::int32_t notes) {
  return Clusterfk(players, driver, notes).play();
}

}  // namespace rulebook::native
