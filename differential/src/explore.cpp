// Exhaustive play (see explore.hpp). States are told apart by everything that decides the
// rest of a game (control, locals, variables, every card's place and facing, seats, held
// writes), never by history (moves, rounds, how often a rule fired): a state met again is a
// cycle. A move is played once for every combination of its chance events (an odometer over
// the draws and shuffle orders, the last turning fastest), each a successor.
#include "rulebook/differential/explore.hpp"

#include "chance_script.hpp"

#include <algorithm>
#include <climits>
#include <chrono>
#include <deque>
#include <functional>
#include <unordered_map>

#include <fmt/format.h>

namespace rulebook::differential {

namespace ri = interpreter;
using detail::ChanceScript;

bool Truth::has_fault_of(const std::string& property) const {
  return std::any_of(faults.begin(), faults.end(), [&](const SeenFault& f) { return f.property == property; });
}

namespace {

void put(std::string& key, std::int64_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); }

void put(std::string& key, const ri::Value& v) {
  put(key, static_cast<std::int64_t>(v.kind));
  put(key, v.scalar);
  put(key, static_cast<std::int64_t>(v.items.size()));
  for (const std::int64_t i : v.items) put(key, i);
}

std::string key_of(const ri::State& s) {
  std::string key;
  put(key, s.pc);
  put(key, s.finished ? 1 : 0);
  put(key, s.decision ? s.decision->player : -2);
  for (const ri::Value& v : s.locals) put(key, v);
  for (const ri::Value& v : s.vars) put(key, v);
  for (const auto& zone : s.zones) {
    put(key, static_cast<std::int64_t>(zone.size()));
    for (const ri::CardId c : zone) put(key, c);
  }
  for (const std::uint8_t up : s.card_face_up) put(key, up);
  for (const std::int32_t seat : s.seat_of) put(key, seat);
  put(key, s.holding ? 1 : 0);
  for (const ri::HeldWrite& w : s.held) {
    put(key, w.slot);
    put(key, w.add ? 1 : 0);
    put(key, w.value);
  }
  for (const ri::PlayerId w : s.winners) put(key, w);
  return key;
}

class Explorer {
 public:
  Explorer(const ri::Machine& machine, const ri::GameConfig& config, const ExploreLimits& limits)
      : machine_(machine), config_(config), limits_(limits), started_(std::chrono::steady_clock::now()) {
    const ri::Ir& ir = machine.ir();
    truth_.fired.assign(ir.labels.size(), false);
    truth_.invariant_broken.assign(ir.invariants.size(), false);
  }

  Truth run() {
    // The start is a move too: setup may draw and shuffle (`none` stands for the state before
    // it, which nothing reads).
    const ri::State none;
    expand(-1, none, 0);
    while (!queue_.empty() && truth_.incomplete.empty()) {
      auto [id, state] = std::move(queue_.front());
      queue_.pop_front();
      const std::size_t moves = machine_.legal_moves(state).size();
      for (std::size_t m = 0; m < moves && truth_.incomplete.empty(); ++m) expand(id, state, m);
    }
    truth_.states = static_cast<std::int64_t>(edges_.size());
    find_cycles();
    if (truth_.incomplete.empty()) observe();
    truth_.complete = truth_.incomplete.empty() && partial_.empty();
    if (truth_.incomplete.empty()) truth_.incomplete = partial_;
    return std::move(truth_);
  }

 private:
  // Every combination of the chance events of move `m` from `state` (the start when `from` is
  // -1): `seen(next, draws)` for each outcome played out, with the draws that gave it.
  // `full`: a move stopped for running long is played once more without the limit.
  template <typename Seen>
  void outcomes(std::int32_t from, const ri::State& state, std::size_t m, bool full, const Seen& seen) {
    std::vector<std::size_t> script;
    ChanceScript chance(limits_, true);
    for (std::int64_t runs = 0;; ++runs) {
      if (runs == limits_.max_runs_per_move) {
        stop(fmt::format("a move has more than {} combinations of draws and shuffle orders", limits_.max_runs_per_move));
        return;
      }
      if ((++truth_.runs & 0xFF) == 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count() > limits_.seconds) {
        stop(fmt::format("the exploration took more than {} s", limits_.seconds));
        return;
      }
      chance.reset(&script);
      ri::State next = play(from, state, m, chance);
      if (chance.overflowed()) {
        stop(fmt::format("a move has more than {} draws and shuffles", limits_.max_chance_events));
        return;
      }
      bool played_out = true;
      move_lo_ = chance.lo_pc;
      move_hi_ = chance.hi_pc;
      if (chance.big_shuffle) partial_ = fmt::format("a shuffle of more than {} cards was tried in one order only", limits_.max_shuffled_cards);
      if (chance.ran_long()) {
        truth_.long_moves = true;
        if (full && full_runs_ < kFullRuns && !truth_.endless_loop) {
          // The same move without the limit: to the interpreter's own stop (an endless loop)
          // or to the next decision (a long loop). Once an endless loop is found, the others
          // add nothing to the truth and cost seconds each.
          ++full_runs_;
          ChanceScript whole(limits_, false);
          whole.reset(&script);
          next = play(from, state, m, whole);
          move_lo_ = whole.lo_pc;
          move_hi_ = whole.hi_pc;
        } else {
          if (full) partial_ = fmt::format("a move ran more than {} instructions without a decision", limits_.steps_without_decision);
          played_out = false;
        }
      }
      if (played_out) seen(next, chance.drawn);
      const std::vector<std::size_t>& taken = chance.taken;
      const std::vector<std::size_t>& among = chance.among;
      std::size_t i = taken.size();
      while (i > 0 && taken[i - 1] + 1 >= among[i - 1]) --i;
      if (i == 0) return;
      script.assign(taken.begin(), taken.begin() + static_cast<std::ptrdiff_t>(i - 1));
      script.push_back(taken[i - 1] + 1);
    }
  }

  void expand(std::int32_t from, const ri::State& state, std::size_t m) {
    outcomes(from, state, m, true, [&](ri::State& next, const std::vector<std::size_t>&) { record(from, state, next); });
  }

  ri::State play(std::int32_t from, const ri::State& state, std::size_t m, ChanceScript& chance) {
    if (from < 0) return machine_.start(config_, &chance);
    ri::State next = state;
    machine_.apply(next, m, &chance);
    return next;
  }

  void record(std::int32_t from, const ri::State& before, ri::State& after) {
    const ri::Ir& ir = machine_.ir();
    for (std::size_t l = 0; l < truth_.fired.size() && l < after.fired.size(); ++l) {
      const std::uint32_t was = from < 0 || l >= before.fired.size() ? 0 : before.fired[l];
      if (after.fired[l] > was) truth_.fired[l] = true;
    }
    const bool round_passed = from >= 0 && after.rounds != before.rounds;
    if (after.fault) {
      const ri::Fault& f = *after.fault;
      const std::string property(ir::fault_kind_info(f.kind).property);
      const std::string where = machine_.where(f.span);
      const bool known = std::any_of(truth_.faults.begin(), truth_.faults.end(), [&](const SeenFault& s) {
        return s.kind == f.kind && s.where == where;
      });
      if (!known) truth_.faults.push_back(SeenFault{f.kind, property, f.message, where});
      if (f.kind == ir::FaultKind::kEndlessLoop) {
        truth_.endless_loop = true;
        // Rounds that go by without a decision are the round loop's; otherwise a loop of a round.
        if (after.rounds - (from < 0 ? 0 : before.rounds) < 2) {
          truth_.endless_in_round = true;
          // The fault names the loop that goes round (its span is the loop's).
          if (std::find(truth_.looping.begin(), truth_.looping.end(), where) == truth_.looping.end()) truth_.looping.push_back(where);
        }
      }
      return;  // a game that faults goes no further
    }
    if (after.finished) {
      for (const ri::PlayerId w : after.winners) {
        if (w >= 0) {
          if (truth_.won.size() <= static_cast<std::size_t>(w)) truth_.won.resize(static_cast<std::size_t>(w) + 1, false);
          truth_.won[static_cast<std::size_t>(w)] = true;
        }
      }
    }
    if (after.finished || after.decision) {
      for (std::size_t i = 0; i < ir.invariants.size(); ++i) {
        if (truth_.invariant_broken[i]) continue;
        const auto v = machine_.evaluate(after, ir.invariants[i].condition);
        if (!v || !v->truthy()) truth_.invariant_broken[i] = true;
      }
    }
    std::string key = key_of(after);
    auto [it, inserted] = ids_.try_emplace(std::move(key), static_cast<std::int32_t>(edges_.size()));
    const std::int32_t to = it->second;
    if (inserted) {
      edges_.emplace_back();
      node_pc_.push_back(after.decision && !after.finished ? after.pc : -1);
      if (static_cast<std::int64_t>(edges_.size()) > limits_.max_states) {
        stop(fmt::format("more than {} states", limits_.max_states));
        return;
      }
      if (after.decision && !after.finished) queue_.emplace_back(to, std::move(after));
    }
    if (from >= 0) edges_[static_cast<std::size_t>(from)].push_back({to, round_passed, move_lo_, move_hi_});
  }

  // Knowable moves: along every game (a tree walk, no state merged with another, up to
  // limits_.max_observed_nodes), what each player has observed so far: every view it had
  // (cards it may see, the number of the others, seats, rounds, who decides; no variable),
  // every move and every draw (more than a player learns, so that a conflict found is real).
  // Two games a chooser cannot tell apart in which its options differ: the moves are not
  // knowable.
  void observe() {
    const ri::State none;
    std::int64_t nodes = 0;
    struct Node {
      ri::State state;
      std::vector<std::uint64_t> seen;  // by player: the hash of what it observed
      std::int32_t depth = 0;
    };
    std::vector<Node> work;
    const auto players = static_cast<std::size_t>(std::max<std::int64_t>(machine_.ir().seats, 1));
    auto arrive = [&](ri::State& next, const std::vector<std::size_t>& draws, const std::vector<std::uint64_t>& before,
                      const std::string& move, std::int32_t depth) {
      if (next.fault || next.finished || !next.decision) return;
      Node n{std::move(next), before, depth};
      for (std::size_t p = 0; p < n.seen.size(); ++p) {
        std::string obs = move;
        for (const std::size_t d : draws) put(obs, static_cast<std::int64_t>(d));
        obs += view_key(n.state, static_cast<ri::PlayerId>(p));
        n.seen[p] = mix(n.seen[p], obs);
      }
      work.push_back(std::move(n));
    };
    outcomes(-1, none, 0, false, [&](ri::State& next, const std::vector<std::size_t>& draws) {
      arrive(next, draws, std::vector<std::uint64_t>(players, 0), "start", 0);
    });
    std::unordered_map<std::uint64_t, std::string> options_at;  // chooser and what it observed -> its options
    while (!work.empty() && truth_.incomplete.empty()) {
      Node n = std::move(work.back());
      work.pop_back();
      if (++nodes > limits_.max_observed_nodes) return;  // the walk is a sample: it only refutes
      const ri::PlayerId chooser = n.state.decision->player;
      const std::size_t moves = machine_.legal_moves(n.state).size();
      std::vector<std::string> texts;
      for (std::size_t m = 0; m < moves; ++m) texts.push_back(machine_.move_text(n.state, m));
      std::sort(texts.begin(), texts.end());
      std::string options;
      for (const std::string& t : texts) options += t + "\n";
      if (chooser >= 0 && static_cast<std::size_t>(chooser) < n.seen.size()) {
        const std::uint64_t key = mix(n.seen[static_cast<std::size_t>(chooser)], fmt::format("chooser {}", chooser));
        const auto [it, inserted] = options_at.try_emplace(key, options);
        if (!inserted && it->second != options && !truth_.knowable_conflict) {
          truth_.knowable_conflict = true;
          truth_.knowable_example = fmt::format("seat {} sees the same in two games with options [{}] and [{}]", chooser,
                                                it->second, options);
        }
      }
      if (n.depth >= limits_.max_observed_depth) continue;
      for (std::size_t m = 0; m < moves; ++m) {
        const std::string move = fmt::format("move {} by {}: {}", m, chooser, machine_.move_text(n.state, m));
        outcomes(0, n.state, m, false, [&](ri::State& next, const std::vector<std::size_t>& draws) {
          arrive(next, draws, n.seen, move, n.depth + 1);
        });
      }
    }
  }

  std::string view_key(const ri::State& state, ri::PlayerId viewer) const {
    const ri::View v = machine_.view(state, viewer);
    std::string key;
    for (const ri::ZoneView& z : v.zones) {
      put(key, z.instance);
      put(key, static_cast<std::int64_t>(z.cards.size()));
      for (std::size_t i = 0; i < z.cards.size(); ++i) {
        put(key, z.cards[i] ? *z.cards[i] : -1);
        put(key, i < z.face_up.size() && z.face_up[i] ? 1 : 0);
      }
    }
    for (const std::int32_t seat : v.seat_of) put(key, seat);
    put(key, v.rounds);
    put(key, v.to_move ? *v.to_move : -1);
    put(key, v.rule);
    put(key, v.mixed);
    return key;
  }

  static std::uint64_t mix(std::uint64_t h, const std::string& text) {
    // FNV-1a over the text, chained: equal histories give equal hashes; a collision could only
    // hide a conflict, never make one.
    h ^= 0x9E3779B97F4A7C15ULL;
    for (const char c : text) {
      h ^= static_cast<unsigned char>(c);
      h *= 0x100000001B3ULL;
    }
    return h;
  }

  void stop(std::string why) {
    if (truth_.incomplete.empty()) truth_.incomplete = std::move(why);
  }

  // Strongly connected components (Tarjan, iterative): a component with an edge inside it is
  // a cycle. Once over every edge, once over the edges that start no round; for each cycle
  // within a round, the innermost loop that holds every instruction its moves run (not only
  // its decisions: a cycle of one decision inside a `repeat` may go round the loop around it,
  // the `repeat` starting afresh each time) is one that can go round for ever.
  void find_cycles() {
    truth_.game_cycle = !cycles(false).empty();
    const std::vector<std::vector<std::int32_t>> within = cycles(true);
    truth_.round_cycle = !within.empty();
    const ri::Ir& ir = machine_.ir();
    std::vector<bool> in_component(edges_.size(), false);
    for (const std::vector<std::int32_t>& component : within) {
      std::int32_t lo = INT32_MAX, hi = -1;
      for (const std::int32_t v : component) in_component[static_cast<std::size_t>(v)] = true;
      for (const std::int32_t v : component) {
        const std::int32_t pc = node_pc_[static_cast<std::size_t>(v)];
        if (pc >= 0) {
          lo = std::min(lo, pc);
          hi = std::max(hi, pc);
        }
        for (const Edge& e : edges_[static_cast<std::size_t>(v)]) {
          if (e.round_passed || !in_component[static_cast<std::size_t>(e.to)] || e.hi_pc < 0) continue;
          lo = std::min(lo, e.lo_pc);
          hi = std::max(hi, e.hi_pc);
        }
      }
      for (const std::int32_t v : component) in_component[static_cast<std::size_t>(v)] = false;
      if (hi < 0) continue;
      // Loops are the ranges [target, pc] of backward jumps; the innermost holding lo..hi.
      std::int32_t head = -1, size = INT32_MAX;
      for (std::size_t pc = 0; pc < ir.code.size(); ++pc) {
        const std::int32_t target = ir.code[pc].target;
        const auto back = static_cast<std::int32_t>(pc);
        if (target < 0 || target > back || target > lo || back < hi) continue;
        if (back - target < size) {
          size = back - target;
          head = target;
        }
      }
      if (head < 0) continue;
      const std::string where = machine_.where(ir.instr_spans[static_cast<std::size_t>(head)]);
      if (std::find(truth_.looping.begin(), truth_.looping.end(), where) == truth_.looping.end()) truth_.looping.push_back(where);
    }
  }
  std::vector<std::vector<std::int32_t>> cycles(bool within_round) const {
    std::vector<std::vector<std::int32_t>> out;
    const std::size_t n = edges_.size();
    std::vector<std::int32_t> index(n, -1), low(n, 0);
    std::vector<bool> on_stack(n, false), self(n, false);
    std::vector<std::int32_t> stack;
    std::int32_t counter = 0;
    auto usable = [&](const Edge& e) { return !within_round || !e.round_passed; };
    for (std::size_t root = 0; root < n; ++root) {
      if (index[root] >= 0) continue;
      std::vector<std::pair<std::int32_t, std::size_t>> work{{static_cast<std::int32_t>(root), 0}};
      while (!work.empty()) {
        const std::int32_t v = work.back().first;
        const auto vi = static_cast<std::size_t>(v);
        if (work.back().second == 0 && index[vi] < 0) {
          index[vi] = low[vi] = counter++;
          stack.push_back(v);
          on_stack[vi] = true;
        }
        bool descended = false;
        while (work.back().second < edges_[vi].size()) {
          const Edge& e = edges_[vi][work.back().second++];
          if (!usable(e)) continue;
          const auto w = static_cast<std::size_t>(e.to);
          if (w == vi) self[vi] = true;  // a move that leads back to the same state
          if (index[w] < 0) {
            work.emplace_back(e.to, 0);
            descended = true;
            break;
          }
          if (on_stack[w]) low[vi] = std::min(low[vi], index[w]);
        }
        if (descended) continue;
        if (low[vi] == index[vi]) {
          std::vector<std::int32_t> component;
          for (std::int32_t w = -1; w != v;) {
            w = stack.back();
            stack.pop_back();
            on_stack[static_cast<std::size_t>(w)] = false;
            component.push_back(w);
          }
          if (component.size() > 1 || self[vi]) out.push_back(std::move(component));
        }
        work.pop_back();
        if (!work.empty()) {
          const auto parent = static_cast<std::size_t>(work.back().first);
          low[parent] = std::min(low[parent], low[vi]);
        }
      }
    }
    return out;
  }

  struct Edge {
    std::int32_t to = 0;
    bool round_passed = false;
    std::int32_t lo_pc = INT32_MAX, hi_pc = -1;  // the instructions the move ran
  };
  const ri::Machine& machine_;
  const ri::GameConfig& config_;
  const ExploreLimits& limits_;
  std::chrono::steady_clock::time_point started_;
  Truth truth_;
  std::string partial_;  // a reason the exploration is not complete that does not stop it
  static constexpr std::int32_t kFullRuns = 16;
  std::int32_t full_runs_ = 0;
  std::unordered_map<std::string, std::int32_t> ids_;
  std::vector<std::vector<Edge>> edges_;
  std::vector<std::int32_t> node_pc_;  // by state: the decision's instruction, -1 at an end
  std::int32_t move_lo_ = INT32_MAX, move_hi_ = -1;  // the instructions the move just played ran
  std::deque<std::pair<std::int32_t, ri::State>> queue_;
};

}  // namespace

Truth explore(const ri::Machine& machine, const ri::GameConfig& config, const ExploreLimits& limits) {
  return Explorer(machine, config, limits).run();
}

}  // namespace rulebook::differential
