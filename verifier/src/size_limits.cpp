// The verifier's size limits (size_limits.hpp) and the findings of a run past them.
#include "size_limits.hpp"

#include <fmt/format.h>

namespace rulebook::verifier {

std::string instructions_over_limit(const ir::Ir& ir) {
  const auto n = static_cast<std::int64_t>(ir.code.size());
  if (n <= kMaxInstructions) return {};
  return fmt::format("the program has {} instructions, more than the verifier's limit of {}", n, kMaxInstructions);
}

std::string state_over_limit(std::int64_t numbers, bool at_least) {
  if (numbers <= kMaxStateNumbers) return {};
  return fmt::format("the abstract state has {}{} numbers (cards per zone and card class, variables, loop state), "
                     "more than the verifier's limit of {}",
                     at_least ? "at least " : "", numbers, kMaxStateNumbers);
}

std::vector<Finding> undecided_findings(const interpreter::Machine& machine, const std::set<std::string>& wanted,
                                        const std::string& reason) {
  const ir::Ir& ir = machine.ir();
  const std::string message = "not decided: " + reason;
  const std::string method = "none: the program is too large for the verifier";
  std::vector<Finding> out;
  auto add = [&](const std::string& property, const std::string& subject, const grammar::SourceSpan* span) {
    Finding f;
    f.property = property;
    f.subject = subject;
    f.key = subject;
    f.status = Status::kUnknown;
    f.method = method;
    f.message = message;
    if (span != nullptr) {
      f.span = *span;
      f.where = machine.where(*span);
    }
    out.push_back(std::move(f));
  };
  for (const PropertyInfo& p : properties()) {
    if (wanted.count(p.name) == 0) continue;
    const std::string name = p.name;
    if (name == "invariant") {
      for (const ir::InvariantInfo& claim : ir.invariants) add(name, claim.name, &claim.span);
    } else if (name == "terminates") {
      for (const ir::TerminationClaim& claim : ir.terminations) add(name, claim.name, &claim.span);
    } else {
      add(name, "", nullptr);
    }
  }
  return out;
}

}  // namespace rulebook::verifier
