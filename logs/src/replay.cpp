// Replay: runs the machine with the log as its only source of shuffles, and compares every
// event the rules produce with the log, line by line. The Replayer is the machine's event
// sink (replayer.hpp): the rules drive, the log is read as they go, so a log of any length is
// never held in memory as a whole. This file follows the game; replay_reading.cpp reads the
// log's values and words the diagnostics.
#include "rulebook/logs/replay.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "replayer.hpp"
#include "rulebook/logs/table_view.hpp"
#include "why_illegal.hpp"

namespace rulebook::interpreter::detail {

// ---- the replay ----------------------------------------------------------------------

void Replayer::record_step(std::uint32_t line, PlayerId player, const Value& choice, std::int32_t instr,
                           bool by_policy, const State& state) {
  ++result_.steps;
  // Without a trace too: round ends and states kept so far are handed over at every step.
  if (options_.drain) options_.drain(result_, result_.steps);
  if (!options_.trace) return;
  const std::int32_t rule = ir_.code[static_cast<std::size_t>(instr)].rule;
  ReplayStep step{result_.steps, line, names_.who(player),
                  traced_alternative_ >= 0 ? move_notation(state, traced_alternative_, choice) : names_.notation(state, choice),
                  rule >= 0 ? ir_.labels[static_cast<std::size_t>(rule)] : std::string(),
                  machine_.where(ir_.instr_spans[static_cast<std::size_t>(instr)]), by_policy};
  // The cards of the choice, where they lie now, decide who saw what was chosen.
  std::vector<CardId> cards;
  if (choice.kind == Kind::kCard && choice.scalar >= 0) cards.push_back(static_cast<CardId>(choice.scalar));
  if (choice.kind == Kind::kSet && choice.element == Kind::kCard) {
    for (const std::int64_t c : choice.items) cards.push_back(static_cast<CardId>(c));
  }
  for (const CardId c : cards) {
    for (PlayerId p = 0; p < state.num_seats && p < 63; ++p) {
      if (!sees_card(ir_, state, c, p)) step.unseen_by |= std::uint64_t{1} << p;
    }
    if (!sees_card(ir_, state, c, kTableViewer)) step.unseen_by |= std::uint64_t{1} << 63;
  }
  step.secret = state.holding || (state.decision && state.decision->secret);
  result_.trace.push_back(std::move(step));
}

void Replayer::record_round_end(const State& state, bool game_ended) {
  if (options_.round_scores) result_.round_ends.push_back(RoundEnd{state.rounds, result_.steps, game_ended, machine_.scores(state)});
  if (options_.snapshots == ReplayOptions::Snapshots::kRound) result_.snapshots.push_back(ReplaySnapshot{result_.steps, true, state});
}

void Replayer::snapshot_step(const State& state) {
  if (options_.snapshots != ReplayOptions::Snapshots::kStep) return;
  // Policies decided during the last apply are steps too: the state is the one the rules
  // wait in after all of them, so a step already shown is not shown again.
  // (Kept apart from the snapshots themselves, which ReplayOptions::drain may take out.)
  if (last_step_snapshot_ == result_.steps) return;
  last_step_snapshot_ = result_.steps;
  result_.snapshots.push_back(ReplaySnapshot{result_.steps, false, state});
}

void Replayer::round_ended(const State& state) { record_round_end(state, false); }

void Replayer::check_deal(const State& state, std::int32_t from, std::int32_t to, const std::vector<CardId>& cards) {
  // Deal lines may be left out; one that is given must describe the next deal between its zones.
  const LogEvent* event = reader_.peek();
  if (event == nullptr || event->type != EventType::kDeal) return;
  LogValue deal = event->value().at("deal");
  const std::int32_t logged_from = names_.zone(event->line, field(*event, deal, "from", "the zone dealt from"), "from");
  const std::int32_t logged_to = names_.zone(event->line, field(*event, deal, "to", "the zone dealt to"), "to");
  if (logged_from != from || logged_to != to) return;
  const LogValue logged_cards = field(*event, deal, "cards", "the cards dealt, in order");
  bool same = logged_cards.is_array() && logged_cards.size() == cards.size();
  std::size_t i = 0;
  if (same) logged_cards.each([&](LogValue c) { same = same && names_.card(state, event->line, c, "cards") == cards[i++]; });
  if (!same) {
    const std::vector<CardId> logged = names_.cards(state, event->line, logged_cards, "cards");  // reports unknown or repeated cards
    bad_log(event->line, "cards", fmt::format("the rules deal {} from {} to {} here ({}), not {}: the shuffles before do not give this deal",
                                         names_.cards_text(state, cards), names_.zone_text(from), names_.zone_text(to),
                                         machine_.where(ir_.instr_spans[static_cast<std::size_t>(state.pc)]),
                                         names_.cards_text(state, logged)));
  }
  reader_.advance();
}

void Replayer::check_round(const State& state) {
  const LogEvent* event = reader_.peek();
  if (event == nullptr || event->type != EventType::kRound) return;
  if (!event->value().at("round").is_integer()) {
    const LogValue round = event->value().at("round");
    const std::string given = round.is_string() ? fmt::format("the string \"{}\"", round.shown()) : round.shown();
    bad_log(event->line, "round", fmt::format("\"round\" is the round's number, not {}", given));
  }
  if (!event->value().at("round").is(state.rounds)) {
    bad_log(event->line, "round", fmt::format("round {} starts here, not round {}", state.rounds, event->value().at("round").shown()));
  }
  reader_.advance();
}

void Replayer::check_policy(const State& state, PlayerId player, std::int32_t rule, const Value& choice, bool by_policy) {
  if (!by_policy) return;  // a move of the log, checked before it was applied
  const LogEvent* event = reader_.peek();
  // Automated decisions may be left out of a log; a policy line, or a move line of this
  // player, is the record of this one.
  if (event == nullptr) {
    record_step(0, player, choice, state.pc, true, state);
    return;
  }
  const bool is_policy = event->type == EventType::kPolicy;
  const bool is_move = event->type == EventType::kMove;
  if (!is_policy && !is_move) {
    record_step(0, player, choice, state.pc, true, state);
    return;
  }
  LogValue body = event->value().at(is_policy ? "policy" : "move");
  const PlayerId logged_player = names_.player(event->line, field(*event, body, "player", "who decides"), "player");
  if (is_move && logged_player != player) {
    record_step(0, player, choice, state.pc, true, state);
    return;
  }
  if (logged_player != player) {
    stop(ReplayOutcome::kIllegal, grammar::Code::kWrongPlayer, event->line, "player",
         fmt::format("step {}: the rules make an automated decision for {} here ({}), not for {}", result_.steps + 1,
                     names_.who(player), machine_.where(ir_.instr_spans[static_cast<std::size_t>(state.pc)]), names_.who(logged_player)),
         {rule_note(state.pc, "the decision is made here")});
  }
  const std::int32_t logged_rule = rule_of(event->line, body);
  if (logged_rule != -2 && logged_rule != rule) {
    stop(ReplayOutcome::kIllegal, grammar::Code::kWrongRule, event->line, "rule",
         fmt::format("step {}: the automated decision here is in {}, not in {}", result_.steps + 1, rule_text(rule),
                     rule_text(logged_rule)),
         {rule_note(state.pc, "the decision is made here")});
  }
  const Value logged = choice_of(state, event->line, field(*event, body, "choice", "what was chosen"), choice);
  if (!equal(logged, choice)) {
    stop(ReplayOutcome::kIllegal, grammar::Code::kIllegalChoice, event->line, "choice",
         fmt::format("step {}: the policy of {} chooses {} for {}, not {}", result_.steps + 1, rule_text(rule),
                     traced_alternative_ >= 0 ? move_notation(state, traced_alternative_, choice) : names_.notation(state, choice), names_.who(player), names_.notation(state, logged)),
         {rule_note(state.pc, "the choice is made here, by the policy for automated seats")});
  }
  record_step(event->line.number, player, choice, state.pc, true, state);
  reader_.advance();
}

void Replayer::check_move(State& state, const LogEvent& event) {
  LogValue body = event.value().at(event.type == EventType::kMove ? "move" : "policy");
  const Decision& decision = *state.decision;
  const std::int64_t step = result_.steps + 1;
  const PlayerId player = names_.player(event.line, field(event, body, "player", "who moves"), "player");
  if (player != decision.player) {
    stop(ReplayOutcome::kIllegal, grammar::Code::kWrongPlayer, event.line, "player",
         fmt::format("step {}: it is not {}'s move: the rules wait for {}", step, names_.who(player),
                     waiting_text(state)),
         {rule_note(decision.instr, "the choice is asked here"), legal_note(state)});
  }
  const std::int32_t rule = rule_of(event.line, body);
  if (rule != -2 && rule != decision.rule) {
    stop(ReplayOutcome::kIllegal, grammar::Code::kWrongRule, event.line, "rule",
         fmt::format("step {}: the rules ask {} to choose in {} here, not in {}", step,
                     names_.who(player), rule_text(decision.rule), rule_text(rule)),
         {rule_note(decision.instr, "the choice is asked here"), legal_note(state)});
  }
  if (decision.mixed >= 0) {
    check_mixed_move(state, event, body, step, player);
    return;
  }
  // Passed over before, whatever it held (the tenth probe).
  if (body.contains("alternative")) {
    bad_log(event.line, "alternative", fmt::format("{} has no alternatives: its move gives the choice alone, without \"alternative\"",
                                                   rule_text(decision.rule)));
  }
  const Value choice = choice_of(state, event.line, field(event, body, "choice", "what was chosen"), decision.options.front());
  const auto it = std::find_if(decision.options.begin(), decision.options.end(),
                               [&](const Value& o) { return equal(o, choice); });
  if (it == decision.options.end()) {
    std::vector<grammar::DiagnosticNote> notes{rule_note(decision.instr, fmt::format("{} allows only these choices", rule_text(decision.rule)))};
    // Why: the part of the rule's domain or filter that rules the choice out, with its values.
    std::vector<grammar::DiagnosticNote> why = why_illegal(machine_, sources_, names_, state, choice);
    if (why.empty() && choice.kind == Kind::kCard) {
      why.push_back(grammar::DiagnosticNote{{}, fmt::format("{} is in {}", machine_.card_name(state, static_cast<CardId>(choice.scalar)),
                                                            names_.zone_text(state.card_zone[static_cast<std::size_t>(choice.scalar)]))});
    }
    for (grammar::DiagnosticNote& n : why) notes.push_back(std::move(n));
    notes.push_back(legal_note(state));
    stop(ReplayOutcome::kIllegal, grammar::Code::kIllegalChoice, event.line, "choice",
         fmt::format("step {}: {} may not choose {} in {}", step, names_.who(player),
                     traced_alternative_ >= 0 ? move_notation(state, traced_alternative_, choice) : names_.notation(state, choice), rule_text(decision.rule)),
         std::move(notes));
  }
  record_step(event.line.number, player, choice, decision.instr, false, state);
  reader_.advance();
  if (machine_.apply(state, static_cast<std::size_t>(it - decision.options.begin()), this) != SinkVerdict::kContinue) {
    raise_pending();
  }
  snapshot_step(state);
}

void Replayer::cut(const LogEvent& event, const State& state) {
  const std::optional<LogValue> reason = event.value().at("cut").find("reason");
  std::string message = fmt::format("the log is cut at line {}, {}, and the rules go on past what it records", event.line.number,
                                    reason && reason->is_string() ? reason->shown() : std::string("no reason given"));
  pass_cut(event);
  throw LogCut{std::move(message), state};
}

void Replayer::skip_cut() {
  const LogEvent* event = reader_.peek();
  if (event != nullptr && event->type == EventType::kCut) pass_cut(*event);
}

LogEnded Replayer::ended_at(const State& state) const {
  const Decision& d = *state.decision;
  LogEnded ended{waiting_text(state), state, names_.who(d.player),
                 d.rule >= 0 ? ir_.labels[static_cast<std::size_t>(d.rule)] : "", {}};
  // A decision with alternatives lists its moves as they are written (`bet 2`, `stop`).
  for (std::size_t i = 0; i < d.options.size(); ++i) {
    ended.legal.push_back(d.mixed >= 0 ? machine_.move_text(state, i) : names_.notation(state, d.options[i]));
  }
  return ended;
}

void Replayer::play(State& state) {
  snapshot_step(state);  // where the first decision waits (or the end)
  while (!state.finished) {
    const LogEvent* event = reader_.peek();
    if (event == nullptr) throw ended_at(state);
    switch (event->type) {
      case EventType::kMove:
      case EventType::kPolicy: check_move(state, *event); break;
      case EventType::kStopped: {
        const LogValue body = event->value().at("stopped");
        // Its counts are counts: `{"stopped":null}` and `"moves":999,"rounds":"x"` passed a
        // truncated log as a stopped one (the eighth probe).
        check_counts(event->line, "stopped", body);
        check_unrecorded(event->line, body);
        check_stopped_here(event->line, body, state);
        const std::optional<LogValue> reason = body.find("reason");
        result_.stopped = reason && reason->is_string() ? reason->shown() : std::string("stopped");
        const std::uint32_t stopped_line = event->line.number;  // `event` is gone after advance()
        reader_.advance();
        if (const LogEvent* after = reader_.peek()) {
          bad_log(after->line, "", fmt::format("a {} line after the log says the game was stopped (line {})",
                                               event_name(after->type), stopped_line));
        }
        return;
      }
      case EventType::kCut: cut(*event, state);
      case EventType::kEnd:
      case EventType::kFault:
        stop(ReplayOutcome::kIllegal, grammar::Code::kEndedEarly, event->line, "",
             fmt::format("the log says the game {} here, but the rules wait for {}",
                         event->type == EventType::kEnd ? "ended" : "stopped with a rule fault", waiting_text(state)),
             {rule_note(state.decision->instr, "the choice is asked here"), legal_note(state)});
      case EventType::kDeal:
        bad_log(event->line, "", fmt::format("this deal matches no deal the rules make before this point: they wait for {}",
                                             waiting_text(state)));
      case EventType::kShuffle:
        bad_log(event->line, "", fmt::format("the rules do not shuffle here: they wait for {}", waiting_text(state)));
      case EventType::kDraw:
        bad_log(event->line, "", fmt::format("the rules draw nothing at random here: they wait for {}", waiting_text(state)));
      default:
        bad_log(event->line, "", fmt::format("no round starts here: the rules wait for {}", waiting_text(state)));
    }
  }
}

void Replayer::run() {
  const GameConfig config = read_header();
  State state;
  try {
    State started = machine_.start(config, this);
    // Stopped while the game was set up: the replay keeps no state of it (as it never had).
    if (verdict() != SinkVerdict::kContinue) raise_pending();
    state = std::move(started);
    play(state);
  } catch (const ConfigError& e) {
    bad_log(header_line_, "options", e.what());
  } catch (LogCut& at_cut) {
    result_.final_state = std::move(at_cut.state);
    result_.stopped = std::move(at_cut.reason);
    return;
  } catch (LogEnded& ended) {
    result_.final_state = std::move(ended.state);
    result_.waiting = ended.waiting;
    result_.waiting_player = ended.player;
    result_.waiting_rule = ended.rule;
    result_.waiting_legal = std::move(ended.legal);
    if (options_.partial) return;
    bad_log(reader_.last_line(), "",
            fmt::format("the log ends before the game does: the rules wait for {}; a log of a game in progress needs --partial",
                        ended.waiting));
  } catch (...) {  // an illegal step or a bad line: keep the game as it stood
    result_.final_state = state;
    throw;
  }
  result_.final_state = state;
  if (result_.stopped) return;
  if (state.fault) finish_fault(state);
  check_end(state);
  if (const LogEvent* after = reader_.peek()) {
    bad_log(after->line, "", fmt::format("a {} line after the game ended (after step {}, in round {})", event_name(after->type),
                                         result_.steps, state.rounds));
  }
}

}  // namespace rulebook::interpreter::detail

namespace rulebook::interpreter {

ReplayResult replay(const Machine& machine, const grammar::SourceManager& sources, grammar::FileId log_file,
                    const ReplayOptions& options) {
  using detail::LogError;
  using detail::Replayer;
  using detail::ReplayStop;
  ReplayResult result;
  Replayer replayer(machine, sources, log_file, options, result);
  try {
    replayer.run();
  } catch (ReplayStop& stop) {
    result.outcome = stop.outcome;
    result.diagnostics.add(std::move(stop.diagnostic));
  } catch (const LogError& e) {
    // A line the reader could not take: not JSON, not an object, not a known kind of line.
    grammar::Diagnostic d;
    d.code = grammar::Code::kMalformedLog;
    d.span = detail::log_span(sources.file(log_file).text, log_file, e.line, e.key, e.column);
    d.message = e.what();
    result.outcome = ReplayOutcome::kBadLog;
    result.diagnostics.add(std::move(d));
  }
  return result;
}

}  // namespace rulebook::interpreter
