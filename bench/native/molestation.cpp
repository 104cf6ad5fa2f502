// Molestation Game v3.0, read directly from ../shared/rulebooks/molestation-game-v3.0.txt,
// with the same interpretations as rulesets/molestation-game.rules: four seats, the seats
// without a human are air dummies; 15 sessions a round; a round's memories score at its end.
#include <algorithm>
#include <array>

#include "native.hpp"

namespace rulebook::native {

namespace {

constexpr std::size_t kSeats = 4;
constexpr std::int32_t kCards = 54;                   // 52 standard cards, then 2 jokers
constexpr std::int32_t kJack = 11, kAce = 14;
enum Suit : std::int32_t { kClubs, kDiamonds, kHearts, kSpades, kNoSuit };
enum Love : std::int32_t { kTake, kDesex };
enum SideEffect : std::int32_t { kKeep, kGive };

const std::vector<std::string> kLoveNames{"take", "desex"};
const std::vector<std::string> kSideEffectNames{"keep", "give"};

// Card ids as the rules number them: clubs 2..A, diamonds, hearts, spades, then JK1, JK2.
constexpr bool is_joker(std::int32_t c) { return c >= 52; }
constexpr std::int32_t rank(std::int32_t c) { return is_joker(c) ? 0 : c % 13 + 2; }
constexpr std::int32_t suit(std::int32_t c) { return is_joker(c) ? kNoSuit : c / 13; }
constexpr bool is_red(std::int32_t c) { return suit(c) == kDiamonds || suit(c) == kHearts; }
constexpr bool is_black(std::int32_t c) { return suit(c) == kClubs || suit(c) == kSpades; }

struct Memory {
  std::int32_t card;
  bool face_up;
};

class Molestation {
 public:
  Molestation(std::int32_t players, Driver& driver) : humans_(static_cast<std::size_t>(players)), driver_(driver) {
    names_ = molestation_cards();
    for (std::size_t p = 0; p < kSeats; ++p) {
      seat_of_[p] = p;
      automated_[p] = p >= humans_;
    }
    // 2 PLAYER VARIATION: the two air dummies sit opposite each other.
    if (humans_ == 2) std::swap(seat_of_[1], seat_of_[2]);
    for (std::size_t p = 0; p < kSeats; ++p) player_at_[seat_of_[p]] = p;
  }

  Result play() {
    for (;;) {
      ++rounds_;
      if (play_round()) break;
    }
    Result result;
    result.winners = winners_;
    result.scores.emplace_back(sexperiences_.begin(), sexperiences_.end());
    result.scores.emplace_back(traumas_.begin(), traumas_.end());
    result.rounds = rounds_;
    result.moves = moves_;
    return result;
  }

 private:
  std::size_t left_of(std::size_t p) const { return player_at_[(seat_of_[p] + 1) % kSeats]; }
  std::size_t right_of(std::size_t p) const { return player_at_[(seat_of_[p] + kSeats - 1) % kSeats]; }
  std::size_t distance(std::size_t a, std::size_t b) const { return (seat_of_[b] + kSeats - seat_of_[a]) % kSeats; }
  // The players clockwise from p's seat, p first.
  std::array<std::size_t, kSeats> clockwise_from(std::size_t p) const {
    std::array<std::size_t, kSeats> order{};
    for (std::size_t k = 0; k < kSeats; ++k) order[k] = player_at_[(seat_of_[p] + k) % kSeats];
    return order;
  }

  static std::int32_t take_top(std::vector<std::int32_t>& pile) {
    const std::int32_t c = pile.back();
    pile.pop_back();
    return c;
  }
  std::int32_t role_card(std::size_t p) const { return roles_[p].back(); }
  bool roles_left() const { return !role_deck_.empty(); }

  // ROLES: J wants Q, Q wants K, K wants A, A wants J; a joker is molested by any black role
  // and molests any red one.
  bool can_molest(std::size_t m, std::size_t v) const {
    if (m == v) return false;
    const std::int32_t mine = role_card(m), theirs = role_card(v);
    if (is_joker(mine)) return is_red(theirs);
    if (is_joker(theirs)) return is_black(mine);
    return rank(theirs) == (rank(mine) == kAce ? kJack : rank(mine) + 1);
  }

  // TRUMP SUIT: the own role's suit; a joker takes the suit of the next role card.
  std::int32_t trump(std::size_t p) const {
    const std::int32_t role = role_card(p);
    if (!is_joker(role)) return suit(role);
    if (!roles_left() || is_joker(role_deck_.back())) return kNoSuit;
    return suit(role_deck_.back());
  }

  std::size_t ask(std::size_t player, std::string_view rule, OptionKind kind, const std::vector<std::string>* names) {
    const Choice choice{static_cast<std::int32_t>(player), rule, kind, &options_, names};
    ++moves_;
    if (!automated_[player]) return driver_.choose(choice);
    // AIR DUMMIES: the first victim counter-clockwise, always take, always give the role.
    std::size_t index = 0;
    if (rule == "choose_victim") {
      for (std::size_t k = 0; k < kSeats; ++k) {
        const auto v = static_cast<std::int32_t>(player_at_[(seat_of_[player] + kSeats - k) % kSeats]);
        const auto at = std::find(options_.begin(), options_.end(), v);
        if (at != options_.end()) {
          index = static_cast<std::size_t>(at - options_.begin());
          break;
        }
      }
    } else if (rule == "choose_love") {
      index = static_cast<std::size_t>(std::find(options_.begin(), options_.end(), kTake) - options_.begin());
    } else {
      index = static_cast<std::size_t>(std::find(options_.begin(), options_.end(), kGive) - options_.begin());
    }
    driver_.policy(choice, index);
    return index;
  }

  void deal(std::vector<std::int32_t>& from, std::vector<std::int32_t>& to, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) to.push_back(take_top(from));
  }

  bool play_round() {
    // Every card is gathered; the social deck is 2 to 10 of every suit; the role deck one
    // joker at the bottom and the other face cards and the other joker shuffled above it.
    social_deck_.clear();
    for (std::int32_t c = 0; c < 52; ++c) {
      if (rank(c) <= 10) social_deck_.push_back(c);
    }
    driver_.shuffle("social_deck", social_deck_);
    std::vector<std::int32_t> box;
    for (std::int32_t c = 0; c < kCards; ++c) {
      if (rank(c) > 10 || (is_joker(c) && c != 52)) box.push_back(c);
    }
    driver_.shuffle("box", box);
    role_deck_.assign(1, 52);
    role_deck_.insert(role_deck_.end(), box.begin(), box.end());
    played_.clear();
    for (std::size_t p = 0; p < kSeats; ++p) {
      hands_[p].clear();
      dummy_piles_[p].clear();
      roles_[p].clear();
      memories_[p].clear();
    }
    for (const std::size_t p : clockwise_from(left_of(dealer_))) roles_[p].push_back(take_top(role_deck_));
    for (const std::size_t p : clockwise_from(left_of(dealer_))) {
      if (automated_[p]) {
        deal(social_deck_, dummy_piles_[p], 9);
      } else {
        deal(social_deck_, hands_[p], 3);
      }
    }
    std::size_t leader = left_of(dealer_);
    for (std::int32_t session = 1; session <= 15; ++session) {
      // CHATS: clockwise from the leader, each seat plays a card; humans draw while they can.
      std::array<std::int32_t, kSeats> talk{};
      for (const std::size_t p : clockwise_from(leader)) {
        if (automated_[p]) {
          talk[p] = take_top(dummy_piles_[p]);
        } else {
          options_ = hands_[p];
          talk[p] = options_[ask(p, "talk_dirty", OptionKind::kCard, &names_)];
          hands_[p].erase(std::find(hands_[p].begin(), hands_[p].end(), talk[p]));
          if (!social_deck_.empty()) hands_[p].push_back(take_top(social_deck_));
        }
      }
      // DIRTY TALK: trump beats non-trump, then the higher number, then the later card.
      std::size_t m = 0;
      std::array<std::int32_t, 3> best{-1, -1, -1};
      for (std::size_t p = 0; p < kSeats; ++p) {
        const std::array<std::int32_t, 3> key{suit(talk[p]) == trump(p) ? 1 : 0, rank(talk[p]),
                                              static_cast<std::int32_t>(distance(leader, p))};
        if (key > best) {
          best = key;
          m = p;
        }
      }
      bool taker_set = false;
      std::size_t taker = 0;
      options_.clear();
      for (std::size_t v = 0; v < kSeats; ++v) {
        if (can_molest(m, v)) options_.push_back(static_cast<std::int32_t>(v));
      }
      if (options_.empty()) {
        // CHANGING FACE: acceptable if some molestator was around, else shameful.
        if (roles_left()) {
          bool threatened = false;
          for (std::size_t o = 0; o < kSeats; ++o) threatened = threatened || can_molest(o, m);
          // An acceptable escape covers the role (out of play until the round ends); a
          // shameful one puts it face down into the own memories.
          const std::int32_t role = take_top(roles_[m]);
          if (!threatened) memories_[m].push_back({role, false});
          taker = m;
          taker_set = true;
        }
      } else {
        const auto v = static_cast<std::size_t>(options_[ask(m, "choose_victim", OptionKind::kPlayer, nullptr)]);
        options_.assign({kTake, kDesex});
        const std::int32_t how = options_[ask(m, "choose_love", OptionKind::kEnum, &kLoveNames)];
        const std::int32_t mine = role_card(m), theirs = role_card(v);
        if (how == kDesex) {
          // DESEXING: the own role face down into the victim's memories; take the victim's role.
          roles_[m].pop_back();
          memories_[v].push_back({mine, false});
          roles_[v].pop_back();
          roles_[m].push_back(theirs);
          taker = v;
        } else {
          roles_[v].pop_back();
          if (is_red(theirs)) {
            memories_[m].push_back({theirs, true});  // a sexperience
          } else {
            memories_[v].push_back({theirs, true});  // a trauma
          }
          bool give = true;
          if (is_black(mine)) {
            options_.assign({kKeep, kGive});
            give = options_[ask(m, "keep_or_give", OptionKind::kEnum, &kSideEffectNames)] == kGive;
          }
          if (give) {
            roles_[m].pop_back();
            roles_[v].push_back(mine);
            taker = m;
          } else {
            taker = v;
          }
        }
        taker_set = true;
      }
      if (taker_set && roles_left()) roles_[taker].push_back(take_top(role_deck_));
      for (std::size_t p = 0; p < kSeats; ++p) played_.push_back(talk[p]);
      leader = m;
      // INTERMISSION: after session 6 the played cards become the social deck again, and
      // each dummy's pile gets 6 more cards.
      if (session == 6) {
        social_deck_.insert(social_deck_.end(), played_.begin(), played_.end());
        played_.clear();
        driver_.shuffle("social_deck", social_deck_);
        for (const std::size_t p : clockwise_from(leader)) {
          if (automated_[p]) deal(social_deck_, dummy_piles_[p], 6);
        }
      }
    }
    // ENDING OF THE ROUND: each face-down memory cancels the nearest face-up red card
    // beneath it; then face-up red cards are sexperiences, the others traumas.
    for (std::size_t p = 0; p < kSeats; ++p) {
      auto& memories = memories_[p];
      std::vector<bool> gone(memories.size(), false);
      for (std::size_t d = 0; d < memories.size(); ++d) {
        if (memories[d].face_up) continue;
        for (std::size_t r = d; r-- > 0;) {
          if (!gone[r] && memories[r].face_up && is_red(memories[r].card)) {
            gone[r] = true;
            break;
          }
        }
        gone[d] = true;
      }
      if (automated_[p]) continue;
      for (std::size_t i = 0; i < memories.size(); ++i) {
        if (gone[i]) continue;
        if (is_red(memories[i].card)) {
          ++sexperiences_[p];
        } else {
          ++traumas_[p];
        }
      }
    }
    // SEX MANIAC: six sexperiences win; ALL INSANE: five traumas make a player an air dummy.
    for (std::size_t p = 0; p < kSeats; ++p) {
      if (!automated_[p] && sexperiences_[p] >= 6) winners_.push_back(static_cast<std::int32_t>(p));
    }
    if (!winners_.empty()) return true;
    std::size_t sane = 0;
    for (std::size_t p = 0; p < kSeats; ++p) {
      if (!automated_[p] && traumas_[p] >= 5) automated_[p] = true;
      if (!automated_[p]) ++sane;
    }
    if (sane <= 1) {
      for (std::size_t p = 0; p < kSeats; ++p) {
        if (!automated_[p]) winners_.push_back(static_cast<std::int32_t>(p));
      }
      return true;
    }
    // The dealer's job goes to the next human clockwise; a single air dummy moves one seat
    // counter-clockwise.
    for (const std::size_t p : clockwise_from(left_of(dealer_))) {
      if (!automated_[p]) {
        dealer_ = p;
        break;
      }
    }
    if (kSeats - sane == 1) {
      std::size_t dummy = 0;
      while (!automated_[dummy]) ++dummy;
      const std::size_t other = right_of(dummy);
      std::swap(seat_of_[dummy], seat_of_[other]);
      player_at_[seat_of_[dummy]] = dummy;
      player_at_[seat_of_[other]] = other;
    }
    return false;
  }

  std::size_t humans_;
  Driver& driver_;
  std::vector<std::string> names_;
  std::array<std::size_t, kSeats> seat_of_{}, player_at_{};
  std::array<bool, kSeats> automated_{};
  std::vector<std::int32_t> social_deck_, role_deck_, played_, options_;
  std::array<std::vector<std::int32_t>, kSeats> hands_, dummy_piles_, roles_;
  std::array<std::vector<Memory>, kSeats> memories_;
  std::array<std::int64_t, kSeats> sexperiences_{}, traumas_{};
  std::vector<std::int32_t> winners_;
  std::size_t dealer_ = 0;
  std::int64_t rounds_ = 0;
  std::int64_t moves_ = 0;
};

}  // namespace

std::vector<std::string> molestation_cards() {
  static const char* const kRanks[] = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"};
  static const char* const kSuits[] = {"C", "D", "H", "S"};
  std::vector<std::string> names;
  for (const char* s : kSuits) {
    for (const char* r : kRanks) names.push_back(std::string(r) + s);
  }
  names.emplace_back("JK1");
  names.emplace_back("JK2");
  return names;
}

Result play_molestation(std::int32_t players, Driver& driver) { return Molestation(players, driver).play(); }

}  // namespace rulebook::native
