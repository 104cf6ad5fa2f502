// A reducer for rule files that show a disagreement, in the manner of C-Reduce: it deletes
// lines and whole blocks, one at a time, while the file still passes `check` and the check
// still finds the same disagreement, until no deletion keeps it.
#pragma once

#include <functional>
#include <string>

namespace rulebook::differential {

// `keeps(text)`: the smaller file still shows what the reduction must keep.
std::string reduce_rules(const std::string& text, const std::function<bool(const std::string&)>& keeps);

}  // namespace rulebook::differential
