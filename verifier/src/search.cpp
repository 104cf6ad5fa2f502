// Bounded explicit-state search (see search.hpp). The visited set keeps a 128-bit hash of each
// state's words and a small node (parent, move, depth), never the state itself: only the
// frontier holds whole states, so the state budget is bounded by the widest level, not by
// everything seen. The moves between visited states are kept as one successor list per state
// (four bytes a move), so that a cycle anywhere in the explored graph, not only one closing on
// the path that first reached it, is found once the search stops.
#include "search.hpp"
#include "search_words.hpp"
#include "state_key.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace rulebook::verifier {

namespace {

using state_key::Key;
using state_key::KeyHash;
using state_key::key_of;

// A visited state: how it was first reached (so that a hit's moves are the path back to the
// start) and at which depth.
struct Node {
  std::int32_t parent = -1;
  std::uint32_t move = 0;
  std::int32_t depth = 0;
};

class Search {
 public:
  Search(const ri::Machine& machine, const ri::GameConfig& config, const SearchGoal& goal, SearchSymmetry symmetry)
      : machine_(machine), goal_(goal), has_draws_(has_random_choice(machine.ir())), start_(machine.start(config)),
        encoder_(start_, goal, symmetry),
        invariant_found_(goal.invariants.size(), false), label_found_(goal.labels.size(), false),
        winner_found_(goal.winners.size(), false) {}

  SearchResult run(std::int64_t max_states, double max_seconds, std::int64_t max_depth,
                   const std::function<void(std::int64_t)>& searched) {
    const auto started = std::chrono::steady_clock::now();
    const auto out_of_time = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() > max_seconds;
    };
    // The frontier in breadth-first order: node ids rise along it, so the successor lists
    // can be laid out one after another in the order the states are expanded.
    std::deque<std::pair<std::int32_t, ri::State>> frontier;
    add(std::move(start_), -1, 0, 0, max_depth, frontier);
    bool stopped = false;
    while (!frontier.empty() && !stopped) {
      if (out_of_time()) {
        result_.cut = true;
        break;
      }
      auto [id, state] = std::move(frontier.front());
      frontier.pop_front();
      if (searched && (id & 0xFFF) == 0) searched(static_cast<std::int64_t>(nodes_.size()));
      while (edge_start_.size() <= static_cast<std::size_t>(id)) edge_start_.push_back(edges_.size());
      const std::int32_t depth = nodes_[static_cast<std::size_t>(id)].depth;
      const std::size_t moves = machine_.legal_moves(state).size();
      if (has_draws_) {
        for (std::size_t move = 0; move < moves && !stopped; ++move) {
          if (out_of_time()) {  // a state may have millions of moves: the limit holds between them too
            result_.cut = stopped = true;
            break;
          }
          stopped = expand_draws(state, id, move, depth, max_states, max_depth, frontier, out_of_time);
        }
        continue;
      }
      for (std::size_t move = 0; move < moves; ++move) {
        if (out_of_time()) {  // a state may have millions of moves: the limit holds between them too
          result_.cut = stopped = true;
          break;
        }
        // The last successor takes the state itself instead of a copy.
        ri::State next = move + 1 == moves ? std::move(state) : state;
        machine_.apply(next, move);
        encoder_.encode(next, words_);
        const Key key = key_of(words_);
        if (const auto it = seen_.find(key); it != seen_.end()) {
          if (goal_.lassos) edges_.push_back(it->second);
          continue;
        }
        if (static_cast<std::int64_t>(nodes_.size()) >= max_states) {
          result_.cut = true;
          stopped = true;
          break;
        }
        const std::int32_t added = add(std::move(next), id, move, depth + 1, max_depth, frontier, key);
        if (goal_.lassos) edges_.push_back(added);
        if (all_found()) {
          stopped = true;
          break;
        }
      }
    }
    result_.exhausted = frontier.empty() && !result_.cut && !stopped;
    result_.states = static_cast<std::int64_t>(nodes_.size());
    // With random choices an edge is a move and its draws; the cycle search follows moves
    // only, so it is left out there (no lasso is claimed).
    if (goal_.lassos && !has_draws_) find_lasso();
    return std::move(result_);
  }

 private:
  // One move of a game with random choices (`choose ... at random`): every combination of
  // the options its draws can take is a successor (an odometer over the draws, the last one
  // turning fastest), at most kMaxDrawRunsPerMove of them. Returns true when the search stops.
  bool expand_draws(const ri::State& state, std::int32_t id, std::size_t move, std::int32_t depth, std::int64_t max_states,
                    std::int64_t max_depth, std::deque<std::pair<std::int32_t, ri::State>>& frontier,
                    const std::function<bool()>& out_of_time) {
    std::vector<std::size_t> script;
    for (std::size_t runs = 0;; ++runs) {
      if (runs == kMaxDrawRunsPerMove) {
        result_.cut = result_.draws_cut = true;  // not every draw was tried: no exhaustion
        return false;
      }
      if (runs > 0 && out_of_time()) {  // a run may take seconds (a loop to the interpreter's limit)
        result_.cut = true;
        return true;
      }
      ri::State next = state;
      draws_.reset(&script);
      machine_.apply(next, move, &draws_);
      if (draws_.overflowed()) {
        // Stopped mid-move after DrawScript::kMaxDraws draws: this move's other draws are
        // left untried (every run past the script draws the same way).
        result_.cut = result_.draws_cut = true;
        return false;
      }
      const std::vector<std::size_t> taken = draws_.taken;
      const std::vector<std::size_t> among = draws_.among;
      encoder_.encode(next, words_);
      const Key key = key_of(words_);
      if (const auto it = seen_.find(key); it != seen_.end()) {
        if (goal_.lassos) edges_.push_back(it->second);
      } else {
        if (static_cast<std::int64_t>(nodes_.size()) >= max_states) {
          result_.cut = true;
          return true;
        }
        if (!taken.empty()) node_draws_[static_cast<std::int32_t>(nodes_.size())] = taken;
        const std::int32_t added = add(std::move(next), id, move, depth + 1, max_depth, frontier, key);
        if (goal_.lassos) edges_.push_back(added);
        if (all_found()) return true;
      }
      std::size_t i = taken.size();
      while (i > 0 && taken[i - 1] + 1 >= among[i - 1]) --i;
      if (i == 0) return false;
      script.assign(taken.begin(), taken.begin() + static_cast<std::ptrdiff_t>(i - 1));
      script.push_back(taken[i - 1] + 1);
    }
  }

  // Records a new state, reports what it shows, and queues it if it waits for a move
  // within the depth.
  std::int32_t add(ri::State&& state, std::int32_t parent, std::size_t move, std::int32_t depth,
                   std::int64_t max_depth, std::deque<std::pair<std::int32_t, ri::State>>& frontier,
                   std::optional<Key> key = std::nullopt) {
    if (!key) {
      encoder_.encode(state, words_);
      key = key_of(words_);
    }
    const auto id = static_cast<std::int32_t>(nodes_.size());
    nodes_.push_back(Node{parent, static_cast<std::uint32_t>(move), depth});
    seen_.emplace(*key, id);
    check(state, id);
    if (state.decision && !state.finished && !state.fault) {
      if (depth < max_depth) {
        frontier.emplace_back(id, std::move(state));
      } else {
        result_.depth_limited = true;
      }
    }
    return id;
  }

  void check(const ri::State& state, std::int32_t id) {
    if (goal_.faults && state.fault) {
      // One hit a faulting place: the same fault reached by other paths is no news.
      const ri::Fault& fault = *state.fault;
      if (fault_places_.emplace(fault.rule, fault.span.file, fault.span.begin).second) {
        hit(SearchHit::What::kFault, fault.rule, id);
      }
    }
    for (std::size_t i = 0; i < goal_.labels.size(); ++i) {
      const auto label = static_cast<std::size_t>(goal_.labels[i]);
      if (!label_found_[i] && label < state.fired.size() && state.fired[label] > 0) {
        label_found_[i] = true;
        hit(SearchHit::What::kFired, goal_.labels[i], id);
      }
    }
    if (state.finished) {
      for (std::size_t i = 0; i < goal_.winners.size(); ++i) {
        if (!winner_found_[i] &&
            std::find(state.winners.begin(), state.winners.end(), goal_.winners[i]) != state.winners.end()) {
          winner_found_[i] = true;
          hit(SearchHit::What::kWon, goal_.winners[i], id);
        }
      }
    }
    // Invariants hold at decisions and at the end, not inside a rule; a fault while
    // evaluating one is the rules' fault elsewhere, not a violation.
    if ((state.decision || state.finished) && !state.fault) {
      for (std::size_t i = 0; i < goal_.invariants.size(); ++i) {
        if (invariant_found_[i]) continue;
        const std::optional<ir::Value> holds = machine_.evaluate(state, goal_.invariants[i]);
        if (holds && !holds->truthy()) {
          invariant_found_[i] = true;
          hit(SearchHit::What::kInvariant, static_cast<std::int32_t>(i), id);
        }
      }
    }
  }

  void hit(SearchHit::What what, std::int32_t index, std::int32_t id) {
    SearchHit h{what, index, path(id), {}};
    if (has_draws_) {
      for (std::int32_t at = id; nodes_[static_cast<std::size_t>(at)].parent >= 0; at = nodes_[static_cast<std::size_t>(at)].parent) {
        const auto found = node_draws_.find(at);
        h.draws.push_back(found != node_draws_.end() ? found->second : std::vector<std::size_t>{});
      }
      std::reverse(h.draws.begin(), h.draws.end());
    }
    result_.hits.push_back(std::move(h));
  }

  // Searching on finds nothing more when every item has a hit and no open-ended kind
  // (faults, lassos) is asked for.
  bool all_found() const {
    const auto all = [](const std::vector<bool>& found) {
      return std::all_of(found.begin(), found.end(), [](bool f) { return f; });
    };
    return !goal_.faults && !goal_.lassos && all(invariant_found_) && all(label_found_) && all(winner_found_);
  }

  std::vector<std::size_t> path(std::int32_t id) const {
    std::vector<std::size_t> moves;
    for (; nodes_[static_cast<std::size_t>(id)].parent >= 0; id = nodes_[static_cast<std::size_t>(id)].parent) {
      moves.push_back(nodes_[static_cast<std::size_t>(id)].move);
    }
    std::reverse(moves.begin(), moves.end());
    return moves;
  }

  std::size_t edges_begin(std::size_t id) const { return id < edge_start_.size() ? edge_start_[id] : edges_.size(); }
  std::size_t edges_end(std::size_t id) const {
    return id + 1 < edge_start_.size() ? edge_start_[id + 1] : edges_.size();
  }

  // A cycle in the explored graph is a lasso: the game reaches it and can go round it
  // forever. Strongly connected components (Tarjan's algorithm, with an explicit stack, as
  // the graph can be deep) find every cycle; the one reported is entered soonest, and goes
  // round by its shortest cycle through that entry.
  void find_lasso() {
    // Nodes past the last expanded one have no successors.
    while (edge_start_.size() < nodes_.size()) edge_start_.push_back(edges_.size());
    const std::size_t n = nodes_.size();
    constexpr std::int32_t kUnvisited = -1;
    std::vector<std::int32_t> order(n, kUnvisited);
    std::vector<std::int32_t> low(n, 0);
    std::vector<std::int32_t> component(n, kUnvisited);
    std::vector<bool> on_stack(n, false);
    std::vector<std::int32_t> stack;
    std::vector<std::pair<std::size_t, std::size_t>> calls;  // node, next edge
    std::int32_t counter = 0;
    std::int32_t components = 0;
    std::int32_t best_entry = -1;
    const auto enter = [&](std::size_t v) {
      order[v] = low[v] = counter++;
      stack.push_back(static_cast<std::int32_t>(v));
      on_stack[v] = true;
      calls.emplace_back(v, edges_begin(v));
    };
    if (n > 0) enter(0);  // every node is reachable from the start
    while (!calls.empty()) {
      auto& [v, next] = calls.back();
      if (next < edges_end(v)) {
        const auto w = static_cast<std::size_t>(edges_[next++]);
        if (order[w] == kUnvisited) {
          enter(w);
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], order[w]);
        }
        continue;
      }
      const std::size_t done = v;
      calls.pop_back();
      if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[done]);
      if (low[done] != order[done]) continue;
      // `done` roots a component: pop it, and keep its shallowest node if it has a cycle.
      std::int32_t entry = -1;
      std::size_t size = 0;
      std::int32_t w = -1;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[static_cast<std::size_t>(w)] = false;
        component[static_cast<std::size_t>(w)] = components;
        ++size;
        if (entry < 0 || nodes_[static_cast<std::size_t>(w)].depth < nodes_[static_cast<std::size_t>(entry)].depth ||
            (nodes_[static_cast<std::size_t>(w)].depth == nodes_[static_cast<std::size_t>(entry)].depth && w < entry)) {
          entry = w;
        }
      } while (static_cast<std::size_t>(w) != done);
      ++components;
      const auto successors_begin = edges_.begin() + static_cast<std::ptrdiff_t>(edges_begin(done));
      const auto successors_end = edges_.begin() + static_cast<std::ptrdiff_t>(edges_end(done));
      const bool cyclic =
          size > 1 || std::find(successors_begin, successors_end, static_cast<std::int32_t>(done)) != successors_end;
      if (cyclic && (best_entry < 0 || nodes_[static_cast<std::size_t>(entry)].depth <
                                           nodes_[static_cast<std::size_t>(best_entry)].depth)) {
        best_entry = entry;
      }
    }
    if (best_entry < 0) return;
    std::vector<std::size_t> moves = path(best_entry);
    const auto cycle_start = static_cast<std::int32_t>(moves.size());
    const std::vector<std::size_t> cycle = shortest_cycle(best_entry, component);
    moves.insert(moves.end(), cycle.begin(), cycle.end());
    result_.hits.push_back(SearchHit{SearchHit::What::kLasso, cycle_start, std::move(moves), {}});
  }

  // Breadth-first inside the entry's component, back to the entry: the moves of the cycle.
  std::vector<std::size_t> shortest_cycle(std::int32_t entry, const std::vector<std::int32_t>& component) const {
    const std::int32_t home = component[static_cast<std::size_t>(entry)];
    std::unordered_map<std::int32_t, std::pair<std::int32_t, std::size_t>> came_from;  // node: (from, move)
    std::deque<std::int32_t> queue{entry};
    while (!queue.empty()) {
      const std::int32_t v = queue.front();
      queue.pop_front();
      const std::size_t first = edges_begin(static_cast<std::size_t>(v));
      for (std::size_t e = first; e < edges_end(static_cast<std::size_t>(v)); ++e) {
        const std::int32_t w = edges_[e];
        if (component[static_cast<std::size_t>(w)] != home) continue;
        if (w == entry) {
          std::vector<std::size_t> moves{e - first};
          for (std::int32_t at = v; at != entry; at = came_from.at(at).first) moves.push_back(came_from.at(at).second);
          std::reverse(moves.begin(), moves.end());
          return moves;
        }
        if (came_from.emplace(w, std::make_pair(v, e - first)).second) queue.push_back(w);
      }
    }
    return {};  // unreachable: the component has a cycle through every node
  }

  const ri::Machine& machine_;
  const SearchGoal& goal_;
  bool has_draws_ = false;  // the rules have a `choose ... at random`
  DrawScript draws_;
  std::unordered_map<std::int32_t, std::vector<std::size_t>> node_draws_;  // by node: what its move drew
  ri::State start_;
  StateWords encoder_;
  std::vector<std::uint64_t> words_;  // scratch
  std::vector<Node> nodes_;
  std::unordered_map<Key, std::int32_t, KeyHash> seen_;
  std::vector<std::size_t> edge_start_;  // by expanded node: its first successor in edges_
  std::vector<std::int32_t> edges_;      // successors, in the order of the legal moves
  std::set<std::tuple<std::int32_t, grammar::FileId, std::size_t>> fault_places_;
  std::vector<bool> invariant_found_;
  std::vector<bool> label_found_;
  std::vector<bool> winner_found_;
  SearchResult result_;
};

}  // namespace

SearchResult search_states(const ri::Machine& machine, const ri::GameConfig& config, const SearchGoal& goal,
                           std::int64_t max_states, double max_seconds, std::int64_t max_depth,
                           SearchSymmetry symmetry, const std::function<void(std::int64_t)>& searched) {
  Search search(machine, config, goal, symmetry);
  return search.run(max_states, max_seconds, max_depth, searched);
}

void state_words(const ri::State& state, const SearchGoal& goal, SearchSymmetry symmetry,
                 std::vector<std::uint64_t>& words, bool generator) {
  StateWords(state, goal, symmetry, generator).encode(state, words);
}

}  // namespace rulebook::verifier
