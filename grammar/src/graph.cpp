// The ruleset's structure as DOT. Only the shape of the rules is drawn: blocks that repeat
// (round, repeat, while, until, for each, simultaneous) and phases become clusters; labelled
// rules become nodes; `if` is transparent, its rules drawn in line. Statements without a
// label are left out unless they hold labelled rules.
#include "rulebook/grammar/graph.hpp"

#include <filesystem>
#include <variant>
#include <vector>

#include <fmt/format.h>

namespace rulebook::grammar {

namespace {

struct Item {
  bool cluster = false;
  std::string title;   // rule label, or the block's heading
  std::string detail;  // "loop head" of a cluster
  std::string where;   // file:line
  std::string back;    // the back edge's label for a repeating cluster, empty if it does not repeat
  bool chooses = false;
  bool ends_game = false;
  std::vector<Item> items;
};

class Builder {
 public:
  explicit Builder(const SourceManager& sources) : sources_(sources) {}

  std::string where(const SourceSpan& span) const {
    if (!span.valid() || span.file >= sources_.size()) return "?";
    return fmt::format("{}:{}", std::filesystem::path(sources_.file(span.file).path).filename().string(), span.line);
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
      owner.ends_game |= c.ends_game;
      return;
    }
    out.push_back(std::move(c));
  }

  void node(const ast::RuleStmt& n, const ast::Stmt& s, std::vector<Item>& out, Item& /*owner*/) {
    Item r;
    r.title = n.label.text;
    r.where = where(s.span);
    std::vector<Item> inside;
    stmt(*n.body, inside, r);
    if (inside.size() == 1 && inside.front().cluster && inside.front().where == r.where) {
      // `rule NAME: for each ... { ... }`: the rule is the loop.
      Item c = std::move(inside.front());
      c.detail = c.title;
      c.title = r.title;
      c.chooses |= r.chooses;
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
    repeating(n.body, s, "again", out, owner);
  }
  void node(const ast::WhileStmt& n, const ast::Stmt& s, std::vector<Item>& out, Item& owner) {
    repeating(n.body, s, n.until ? "until" : "while", out, owner);
  }
  void node(const ast::ForEachStmt& n, const ast::Stmt& s, std::vector<Item>& out, Item& owner) {
    repeating(n.body, s, "next " + n.var.text, out, owner);
  }
  void node(const ast::SimultaneousStmt& n, const ast::Stmt& s, std::vector<Item>& out, Item& owner) {
    repeating(n.body, s, "each " + n.var.text + ", in secret", out, owner);
  }
  void node(const ast::IfStmt& n, const ast::Stmt& /*s*/, std::vector<Item>& out, Item& owner) {
    for (const ast::IfBranch& b : n.branches) block(b.body, out, owner);
    if (n.else_body) block(*n.else_body, out, owner);
  }
  void node(const ast::ChooseStmt& /*n*/, const ast::Stmt& /*s*/, std::vector<Item>& /*out*/, Item& owner) {
    owner.chooses = true;
  }
  void node(const ast::EndGameStmt& /*n*/, const ast::Stmt& /*s*/, std::vector<Item>& /*out*/, Item& owner) {
    owner.ends_game = true;
  }
  template <typename Other>
  void node(const Other& /*n*/, const ast::Stmt& /*s*/, std::vector<Item>& /*out*/, Item& /*owner*/) {}

 private:
  const SourceManager& sources_;
};

std::string quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

class Writer {
 public:
  std::string out;

  // Writes `item`; returns the ids of its first and last node, for the edges around it.
  std::pair<std::string, std::string> write(const Item& item, int depth) {
    const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
    const std::string markers = std::string(item.chooses ? "\\nchoice" : "") + (item.ends_game ? "\\ncan end the game" : "");
    if (!item.cluster) {
      const std::string id = fmt::format("n{}", next_++);
      std::string label = quote(item.title);
      label.pop_back();
      out += fmt::format("{}{} [label={}\\n{}{}\"{}];\n", indent, id, label, item.where, markers,
                         item.chooses ? ", style=filled, fillcolor=\"#fff4c2\"" : "");
      if (item.ends_game) ends_.push_back(id);
      return {id, id};
    }
    const int cluster = clusters_++;
    out += fmt::format("{}subgraph cluster_{} {{\n{}  label={};\n{}  style=rounded; color=\"#7a8ca5\";\n", indent, cluster,
                       indent, quote(item.title), indent);
    // The entry node: the block's heading, source line and what it does itself.
    const std::string entry = fmt::format("n{}", next_++);
    std::string head = quote(item.detail.empty() ? item.title : item.detail);
    head.pop_back();
    out += fmt::format("{}  {} [label={}\\n{}{}\", shape=ellipse{}];\n", indent, entry, head, item.where, markers,
                       item.chooses ? ", style=filled, fillcolor=\"#fff4c2\"" : "");
    if (item.ends_game) ends_.push_back(entry);
    std::string last = entry;
    for (const Item& child : item.items) {
      const auto [first, end] = write(child, depth + 1);
      edges_.push_back(fmt::format("{} -> {};", last, first));
      last = end;
    }
    if (!item.back.empty()) {
      edges_.push_back(fmt::format("{} -> {} [label={}, style=dashed, constraint=false];", last, entry, quote(item.back)));
    }
    out += indent + "}\n";
    return {entry, last};
  }

  std::vector<std::string> edges_;
  std::vector<std::string> ends_;

 private:
  int next_ = 0;
  int clusters_ = 0;
};

}  // namespace

std::string structure_dot(const Program& program, const SourceManager& sources) {
  Builder builder(sources);
  std::vector<Item> top;
  Item none;
  for (const ast::Decl& d : program.file.decls) {
    if (const auto* setup = std::get_if<ast::SetupDecl>(&d.node)) {
      Item c;
      c.cluster = true;
      c.title = "setup";
      c.where = builder.where(d.span);
      builder.block(setup->body, c.items, c);
      top.push_back(std::move(c));
    } else if (const auto* round = std::get_if<ast::RoundDecl>(&d.node)) {
      Item c;
      c.cluster = true;
      c.title = "round";
      c.where = builder.where(d.span);
      c.back = "next round";
      builder.block(round->body, c.items, c);
      top.push_back(std::move(c));
    }
  }
  Writer w;
  w.out = fmt::format("digraph ruleset {{\n  label={};\n  labelloc=t;\n  fontname=\"Helvetica\";\n"
                      "  node [shape=box, fontname=\"Helvetica\", fontsize=11];\n"
                      "  edge [fontname=\"Helvetica\", fontsize=10];\n"
                      "  start [shape=point, width=0.15];\n",
                      quote(program.file.title));
  std::string last = "start";
  for (const Item& item : top) {
    const auto [first, end] = w.write(item, 1);
    w.edges_.push_back(fmt::format("{} -> {};", last, first));
    last = end;
  }
  if (!w.ends_.empty()) {
    w.out += "  end [label=\"game over\", shape=doublecircle, fontsize=10];\n";
    for (const std::string& id : w.ends_) w.edges_.push_back(fmt::format("{} -> end [style=dotted];", id));
  }
  for (const std::string& e : w.edges_) w.out += "  " + e + "\n";
  return w.out + "}\n";
}

}  // namespace rulebook::grammar
