// The local names visible where the checker stands: nested scopes, innermost last, with an
// index by name. A block may bind tens of thousands of names (one per `choose`), and every
// name in every expression is looked up here first: a scan of the scopes made a long block
// quadratic (80,000 choices in one round took 20 s).
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "rulebook/grammar/check.hpp"

namespace rulebook::grammar {

// A local name: binder, loop variable, `let`, `choose`, parameter.
struct Local {
  std::string name;
  Type type;
  SourceSpan span;
  LocalRef ref;  // what lowering binds it to
};

class LocalScopes {
 public:
  void push() { starts_.push_back(locals_.size()); }

  // Ends the innermost scope; `ended(local)` is called for each of its names in the order bound.
  template <typename Ended>
  void pop(Ended&& ended) {
    const std::size_t start = starts_.back();
    starts_.pop_back();
    for (std::size_t i = start; i < locals_.size(); ++i) ended(locals_[i]);
    while (locals_.size() > start) {
      const Local& local = locals_.back();
      auto by_name = by_name_.find(local.name);
      by_name->second.pop_back();
      if (by_name->second.empty()) by_name_.erase(by_name);
      locals_.pop_back();
    }
  }
  void pop() {
    pop([](const Local&) {});
  }

  // Binds in the innermost scope; a later name hides an earlier one of the same spelling.
  void add(Local local) {
    by_name_[local.name].push_back(locals_.size());
    locals_.push_back(std::move(local));
  }

  // The innermost binding of `name`, or null. Valid until the next add().
  const Local* find(const std::string& name) const {
    const auto by_name = by_name_.find(name);
    return by_name == by_name_.end() ? nullptr : &locals_[by_name->second.back()];
  }

  // Every visible name, outermost first (the "did you mean" search).
  const std::vector<Local>& all() const { return locals_; }

 private:
  std::vector<Local> locals_;                                         // outermost scope first
  std::vector<std::size_t> starts_;                                   // where each scope begins
  std::unordered_map<std::string, std::vector<std::size_t>> by_name_;  // name -> indices, innermost last
};

}  // namespace rulebook::grammar
