// The ruleset's structure as DOT. Only the shape of the rules is drawn: blocks that repeat
// (round, repeat, while, until, for each, simultaneous) and phases become clusters, with a
// back edge from their end to their head; labelled rules become nodes (a labelled loop with
// no labelled rule inside is one node with a back edge to itself); an `if` that holds
// labelled rules forks, one path per branch (and one past it when there is no `else`),
// and its paths join in a point after it. Statements without a label are left out unless
// they hold labelled rules.
#include "rulebook/authoring/graph.hpp"

#include "expr_printer.hpp"
#include "rulebook/grammar/printable.hpp"
#include "rulebook/grammar/source.hpp"

#include <filesystem>
#include <variant>
#include <vector>

#include <fmt/format.h>

namespace rulebook::authoring {

namespace ast = grammar::ast;
using grammar::Program;
using grammar::SourceManager;
using grammar::SourceSpan;

namespace {

struct Item {
  bool cluster = false;
  // An `if` with labelled rules: `paths` holds each branch's items (empty for a branch
  // without labelled rules, and for the way past an `if` without `else`), `conditions` the
  // label of the edge into each.
  bool fork = false;
  // A decision with alternatives: its own node, then a fork with one path (and one labelled
  // edge) per alternative.
  bool decision = false;
  std::vector<std::vector<Item>> paths;
  std::vector<std::string> conditions;
  std::string title;   // rule label, or the block's heading
  std::string detail;  // "loop head" of a cluster
  std::string where;   // file:line
  std::string back;    // the back edge's label for a loop (a cluster, or a rule node), empty if it does not repeat
  bool chooses = false;
  bool draws = false;  // a `choose ... at random`: the game's generator, not a player
  bool ends_game = false;
  std::vector<Item> items;
};

class Builder {
 public:
  explicit Builder(const SourceManager& sources) : sources_(sources) {}

  std::string where(const SourceSpan& span) const {
    if (!span.valid() || span.file >= sources_.size()) return "?";
    // A file name is any bytes: a line break in it would be a line break of the label.
    return fmt::format("{}:{}", grammar::printable(std::filesystem::path(sources_.file(span.file).path).filename().string()),
                       span.line);
  }

  // The first line of a statement as written, less a rule's label and an opening brace.
  std::string heading(const SourceSpan& span) const {
    if (!span.valid() || span.file >= sources_.size()) return {};
    std::string line(sources_.file(span.file).line_text(span.line));
    const std::size_t from = span.column > 0 ? span.column - 1 : 0;
    line = from < line.size() ? line.substr(from) : std::string();
    if (line.rfind("rule ", 0) == 0) {
      if (const std::size_t colon = line.find(':'); colon != std::string::npos) line = line.substr(colon + 1);
    }
    if (const std::size_t hash = line.find(" #"); hash != std::string::npos) line = line.substr(0, hash);
    while (!line.empty() && (line.back() == ' ' || line.back() == '{' || line.back() == '\r')) line.pop_back();
    while (!line.empty() && line.front() == ' ') line.erase(0, 1);
    constexpr std::size_t kMax = 60;
    if (line.size() > kMax) line = line.substr(0, kMax - 3) + "...";
    return line;
  }

  // Appends the items of a block to `out`, and marks `owner` with what the block does
  // outside any nested item.
  void block(const ast::Block& b, std::vector<Item>& out, Item& owner) {
    for (const ast::Stmt& s : b.stmts) stmt(s, out, owner);
  }

  void stmt(const ast::Stmt& s, std::vector<Item>& out, Item& owner) {
    std::visit([&](const auto& n) { node(n, s, out, owner); }, s.node);
  }

  // A repeating block or a phase: a cluster when it holds a labelled rule; otherwise its
  // statements count for the owner.
  void repeating(const ast::Block& body, const ast::Stmt& s, std::string back, std::vector<Item>& out, Item& owner) {
    Item c;
    c.cluster = true;
    c.title = heading(s.span);
    c.where = where(s.span);
    c.back = std::move(back);
    block(body, c.items, c);
    if (c.items.empty()) {
      owner.chooses |= c.chooses;
      owner.draws |= c.draws;
      owner.ends_game |= c.ends_game;
      return;
    }
    out.push_back(std::move(c));
  }

  // The label of a loop statement's back edge; empty for a statement that does not repeat.
  static std::string back_of(const ast::Stmt& s) {
    if (std::holds_alternative<ast::RepeatStmt>(s.node)) return "again";
    if (const auto* w = std::get_if<ast::WhileStmt>(&s.node)) return w->until ? "until" : "while";
    if (const auto* f = std::get_if<ast::ForEachStmt>(&s.node)) return "next " + f->var.text;
    if (const auto* m = std::get_if<ast::SimultaneousStmt>(&s.node)) return "each " + m->var.text + ", in secret";
    return {};
  }

  void node(const ast::RuleStmt& n, const ast::Stmt& s, std::vector<Item>& out, Item& /*owner*/) {
    Item r;
    r.title = n.label.text;
    r.where = where(s.span);
    std::vector<Item> inside;
    stmt(*n.body, inside, r);
    // `rule hands: for each p in players { deal ... }`: a loop with no labelled rule inside
    // is the rule's node, going round to itself.
    if (inside.empty()) r.back = back_of(*n.body);
    if (inside.size() == 1 && inside.front().cluster && inside.front().where == r.where) {
      // `rule NAME: for each ... { ... }`: the rule is the loop.
      Item c = std::move(inside.front());
      c.detail = c.title;
      c.title = r.title;
      c.chooses |= r.chooses;
      c.draws |= r.draws;
      c.ends_game |= r.ends_game;
      out.push_back(std::move(c));
    } else if (!inside.empty()) {
      r.cluster = true;
      r.detail = heading(s.span);
      r.items = std::move(inside);
      out.push_back(std::move(r));
    } else {
      out.push_back(std::move(r));
    }
  }
  void node(const ast::PhaseStmt& n, const ast::Stmt& s, std::vector<Item>& out, Item& owner) {
    repeating(n.body, s, "", out, owner);
  }
  void node(const ast::RepeatStmt& n, const ast::Stmt& s, std::vector<Item>& out, Item& owner) {
    repeating(n.body, s, back_of(s), out, owner);
  }
  void node(const ast::WhileStmt& n, const ast::Stmt& s, std::vector<Item>& out, Item& owner) {
    repeating(n.body, s, back_of(s), out, owner);
  }
  void node(const ast::ForEachStmt& n, const ast::Stmt& s, std::vector<Item>& out, Item& owner) {
    repeating(n.body, s, back_of(s), out, owner);
  }
  void node(const ast::SimultaneousStmt& n, const ast::Stmt& s, std::vector<Item>& out, Item& owner) {
    repeating(n.body, s, back_of(s), out, owner);
  }
  // A fork when a branch holds a labelled rule; otherwise what the branches do counts for
  // the owner, as for any statement without a label.
  void node(const ast::IfStmt& n, const ast::Stmt& s, std::vector<Item>& out, Item& owner) {
    Item f;
    f.fork = true;
    f.where = where(s.span);
    const detail::ExprPrinter printer;
    const auto condition = [&](const char* keyword, const ast::Expr& e) {
      std::string text = std::string(keyword) + " " + printer.print(e);
      constexpr std::size_t kMax = 40;
      return text.size() > kMax ? text.substr(0, kMax - 3) + "..." : text;
    };
    bool labelled = false;
    for (std::size_t i = 0; i < n.branches.size(); ++i) {
      f.paths.emplace_back();
      block(n.branches[i].body, f.paths.back(), owner);
      f.conditions.push_back(condition(i == 0 ? "if" : "else if", n.branches[i].condition));
      labelled |= !f.paths.back().empty();
    }
    f.paths.emplace_back();  // the `else`, or the way past the `if` when there is none
    if (n.else_body) block(*n.else_body, f.paths.back(), owner);
    f.conditions.emplace_back("else");
    labelled |= !f.paths.back().empty();
    if (labelled) out.push_back(std::move(f));
  }
  void node(const ast::ChooseStmt& n, const ast::Stmt& /*s*/, std::vector<Item>& /*out*/, Item& owner) {
    (n.at_random ? owner.draws : owner.chooses) = true;
  }
  void node(const ast::MixedChooseStmt& n, const ast::Stmt& s, std::vector<Item>& out, Item& /*owner*/) {
    Item d;
    d.decision = true;
    d.chooses = true;
    d.where = where(s.span);
    const detail::ExprPrinter printer;
    d.title = "choose by " + printer.print(n.chooser);
    for (const ast::Alternative& alt : n.alternatives) {
      d.paths.emplace_back();
      if (alt.body) block(*alt.body, d.paths.back(), d);
      d.conditions.push_back(alt.var ? alt.name.text + " " + alt.var->text : alt.name.text);
    }
    out.push_back(std::move(d));
  }
  void node(const ast::EndGameStmt& /*n*/, const ast::Stmt& /*s*/, std::vector<Item>& /*out*/, Item& owner) {
    owner.ends_game = true;
  }
  template <typename Other>
  void node(const Other& /*n*/, const ast::Stmt& /*s*/, std::vector<Item>& /*out*/, Item& /*owner*/) {}

 private:
  const SourceManager& sources_;
};

// A DOT string. A control byte other than a line break is written as the text \xNN (a
// backslash DOT shows as one): raw, an escape code reached the terminal or the SVG, which no
// XML reader then accepts (a file name with ESC in it: the seventh probe).
std::string dot_quote(std::string_view text) {
  // DOT and SVG are UTF-8: a byte that is not (a Latin-1 file name) becomes '?', which `dot`
  // warned about and then read as Latin-1 (the ninth probe).
  std::string valid(text);
  (void)grammar::replace_invalid_utf8(valid);
  std::string out = "\"";
  for (const char c : valid) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += fmt::format("\\\\x{:02x}", byte);
    } else {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
  }
  return out + "\"";
}

class Writer {
 public:
  std::string out;

  // Writes `item` after the nodes `from` (the edges into its first node get `label`);
  // returns the nodes that lead on from it.
  std::vector<std::string> write(const Item& item, int depth, const std::vector<std::string>& from,
                                 const std::string& label = "") {
    const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
    if (item.fork) return fork(item, depth, from, label);
    if (item.decision) {
      const std::string id = node(item, item.title, ", shape=diamond", indent);
      link(from, id, label);
      return fork(item, depth, {id}, "");
    }
    if (!item.cluster) {
      const std::string id = node(item, item.title, "", indent);
      link(from, id, label);
      if (!item.back.empty()) edges_.push_back(fmt::format("{} -> {} [label={}, style=dashed];", id, id, dot_quote(item.back)));
      return {id};
    }
    out += fmt::format("{}subgraph cluster_{} {{\n{}  label={};\n{}  style=rounded; color=\"#7a8ca5\";\n", indent,
                       clusters_++, indent, dot_quote(item.title), indent);
    // The entry node: the block's heading, source line and what it does itself.
    const std::string entry = node(item, item.detail.empty() ? item.title : item.detail, ", shape=ellipse", indent + "  ");
    link(from, entry, label);
    std::vector<std::string> last{entry};
    for (const Item& child : item.items) last = write(child, depth + 1, last);
    if (!item.back.empty()) {
      for (const std::string& id : last) {
        edges_.push_back(fmt::format("{} -> {} [label={}, style=dashed, constraint=false];", id, entry, dot_quote(item.back)));
      }
    }
    out += indent + "}\n";
    return last;
  }

  std::vector<std::string> edges_;
  std::vector<std::string> ends_;

 private:
  // The paths of an `if`, each from `from`, and the point where they join.
  std::vector<std::string> fork(const Item& item, int depth, const std::vector<std::string>& from, const std::string& label) {
    // An `if` first in a path: the edge into it carries the path's label on to its branches.
    const auto with = [&](const std::string& condition) { return label.empty() ? condition : label + ", " + condition; };
    std::vector<std::vector<std::string>> ends;
    std::vector<std::string> straight;  // conditions of paths with no labelled rule: edges to the join
    for (std::size_t i = 0; i < item.paths.size(); ++i) {
      if (item.paths[i].empty()) {
        straight.push_back(with(item.conditions[i]));
        continue;
      }
      std::vector<std::string> last = from;
      for (std::size_t k = 0; k < item.paths[i].size(); ++k) {
        last = write(item.paths[i][k], depth, last, k == 0 ? with(item.conditions[i]) : "");
      }
      ends.push_back(std::move(last));
    }
    const std::string join = fmt::format("j{}", joins_++);
    out += fmt::format("{}{} [shape=point, width=0.08];\n", std::string(static_cast<std::size_t>(depth) * 2, ' '), join);
    for (const std::string& condition : straight) link(from, join, condition);
    for (const std::vector<std::string>& last : ends) link(last, join, "");
    return {join};
  }

  void link(const std::vector<std::string>& from, const std::string& to, const std::string& label) {
    for (const std::string& id : from) {
      edges_.push_back(label.empty() ? fmt::format("{} -> {};", id, to) : fmt::format("{} -> {} [label={}];", id, to, dot_quote(label)));
    }
  }

  // One node: `title`, file:line and what the item does itself, shaded when it chooses.
  std::string node(const Item& item, const std::string& title, const char* shape, const std::string& indent) {
    const std::string id = fmt::format("n{}", next_++);
    std::string label = title + "\n" + item.where;
    if (item.chooses) label += "\nchoice";
    if (item.draws) label += "\nrandom choice";
    if (item.ends_game) label += "\ncan end the game";
    // A random choice is its own kind of node: a hexagon, shaded apart from a player's choice.
    const char* style = item.chooses ? ", style=filled, fillcolor=\"#fff4c2\""
                        : item.draws ? ", shape=hexagon, style=filled, fillcolor=\"#dcecff\""
                                     : "";
    out += fmt::format("{}{} [label={}{}{}];\n", indent, id, dot_quote(label), item.draws && !item.chooses ? "" : shape, style);
    if (item.ends_game) ends_.push_back(id);
    return id;
  }

  int next_ = 0;
  int clusters_ = 0;
  int joins_ = 0;
};

}  // namespace

std::string structure_dot(const Program& program, const SourceManager& sources) {
  Builder builder(sources);
  std::vector<Item> top;
  const auto add_block = [&](const char* title, const char* back, const ast::Block& body, const SourceSpan& span) {
    Item c;
    c.cluster = true;
    c.title = title;
    c.back = back;
    c.where = builder.where(span);
    builder.block(body, c.items, c);
    top.push_back(std::move(c));
  };
  for (const ast::Decl& d : program.file.decls) {
    if (const auto* setup = std::get_if<ast::SetupDecl>(&d.node)) add_block("setup", "", setup->body, d.span);
    if (const auto* round = std::get_if<ast::RoundDecl>(&d.node)) add_block("round", "next round", round->body, d.span);
  }
  Writer w;
  w.out = fmt::format("digraph ruleset {{\n  label={};\n  labelloc=t;\n  fontname=\"Helvetica\";\n"
                      "  node [shape=box, fontname=\"Helvetica\", fontsize=11];\n"
                      "  edge [fontname=\"Helvetica\", fontsize=10];\n"
                      "  start [shape=point, width=0.15];\n",
                      dot_quote(program.file.title));
  std::vector<std::string> last{"start"};
  for (const Item& item : top) last = w.write(item, 1, last);
  if (!w.ends_.empty()) {
    w.out += "  end [label=\"game over\", shape=doublecircle, fontsize=10];\n";
    for (const std::string& id : w.ends_) w.edges_.push_back(fmt::format("{} -> end [style=dotted];", id));
  }
  for (const std::string& e : w.edges_) w.out += "  " + e + "\n";
  return w.out + "}\n";
}

}  // namespace rulebook::authoring
