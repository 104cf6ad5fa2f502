#include "rulebook/ir/value.hpp"

namespace rulebook::ir {

bool equal(const Value& a, const Value& b) {
  if (a.kind == Kind::kSet || b.kind == Kind::kSet) {
    return a.kind == b.kind && a.items == b.items;
  }
  return a.scalar == b.scalar;
}

}  // namespace rulebook::ir
