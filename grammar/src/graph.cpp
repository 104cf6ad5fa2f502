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
    out += c == '\n' ? std::string_view("\\n") : std::string_view(&c, 1);
  }
  return out + "\"";
}

class Writer {
 public:
  std::string out;

  // Writes `item`; returns the ids of its first and last node, for the edges around it.
  std::pair<std::string, std::string> write(const Item& item, int depth) {
    const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
    if (!item.cluster) {
      const std::string id = node(item, item.title, "", indent);
      return {id, id};
    }
    out += fmt::format("{}subgraph cluster_{} {{\n{}  label={};\n{}  style=rounded; color=\"#7a8ca5\";\n", indent,
                       clusters_++, indent, quote(item.title), indent);
    // The entry node: the block's heading, source line and what it does itself.
    const std::string entry = node(item, item.detail.empty() ? item.title : item.detail, ", shape=ellipse", indent + "  ");
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
  // One node: `title`, file:line and what the item does itself, shaded when it chooses.
  std::string node(const Item& item, const std::string& title, const char* shape, const std::string& indent) {
    const std::string id = fmt::format("n{}", next_++);
    std::string label = title + "\n" + item.where;
    if (item.chooses) label += "\nchoice";
    if (item.ends_game) label += "\ncan end the game";
    out += fmt::format("{}{} [label={}{}{}];\n", indent, id, quote(label), shape,
                       item.chooses ? ", style=filled, fillcolor=\"#fff4c2\"" : "");
    if (item.ends_game) ends_.push_back(id);
    return id;
  }

  int next_ = 0;
  int clusters_ = 0;
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
