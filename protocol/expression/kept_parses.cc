// Conditions and update expressions this thread parsed before, kept by their text: a request
// whose expression was met before binds its own names and values into the kept parse instead of
// parsing the text again (`pk = :p`: ~4,700 instructions to parse, ~700 to bind). Only texts that
// parsed without an error are kept, and a binding that meets anything the parse would report (an
// undefined placeholder, a value of the wrong type, BETWEEN's bounds out of order, paths its
// names make one) gives up and the text is parsed afresh: every error is the parse's own, in
// DynamoDB's order.
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "protocol/expression/condition_parser.h"
#include "protocol/expression/update_parser.h"

namespace ddbd {
namespace {

// Longer texts are parsed every time: expressions are mostly far shorter, and a kept tree small.
constexpr size_t kMaxKeptBytes = 1024;
// Direct-mapped: a text takes the slot its hash names, replacing what was there.
constexpr size_t kSlots = 64;

template <typename Parsed>
struct Kept {
  std::string kind;
  std::string text;
  // The parse with placeholders in place, made the second time the text is met (a text met once
  // costs a copy of itself, not a second parse), kept if binding it to that request's names and
  // values gave what the parse gave.
  std::optional<Parsed> unbound;
  bool tried = false;  // the unbound parse was made (and kept or not)
};

template <typename Parsed>
Kept<Parsed>& SlotFor(std::string_view kind, std::string_view text) {
  thread_local std::array<Kept<Parsed>, kSlots> slots;
  const size_t hash = std::hash<std::string_view>{}(text) + kind.size() * 0x9E3779B97F4A7C15ull;
  return slots[hash % kSlots];
}

thread_local size_t conditions_bound = 0;
thread_local size_t updates_bound = 0;

// A path with each "#n" element replaced by the name bound to it. False if one is not bound.
bool BindPath(const DocumentPath& from, ExpressionNames& names, DocumentPath& to) {
  to.reserve(from.size());
  for (const PathElement& element : from) {
    if (element.is_index() || !element.name.starts_with('#')) {
      to.push_back(element);
      continue;
    }
    const std::string* name = names.Use(element.name);
    if (name == nullptr) return false;
    to.push_back({*name, -1});
  }
  return true;
}

// A {S: ":v"} placeholder's bound value. False if it is not bound.
bool BindValue(const AttributeValue& placeholder, ExpressionValues& values, AttributeValue& to) {
  const AttributeValue* value = values.Use(placeholder.scalar);
  if (value == nullptr) return false;
  to = *value;
  return true;
}

bool BindOperand(const Operand& from, ExpressionNames& names, ExpressionValues& values,
                 Operand& to) {
  to.kind = from.kind;
  if (from.kind == Operand::Kind::kValue) return BindValue(from.value, values, to.value);
  return BindPath(from.path, names, to.path);
}

// Copies `from` into `to` with each placeholder bound (recording its use), checking each
// comparison's and function's bound operands as the parse does. False at the first placeholder not
// bound or check failed. Recursion over a kept tree: at most as deep as a condition's operators.
bool Bind(const Condition& from, ExpressionNames& names, ExpressionValues& values, Condition& to) {
  to.kind = from.kind;
  to.comparator = from.comparator;
  to.operands.reserve(from.operands.size());
  for (const Operand& operand : from.operands) {
    if (!BindOperand(operand, names, values, to.operands.emplace_back())) return false;
  }
  if (!BoundOperandsFit(to)) return false;
  to.children.reserve(from.children.size());
  for (const Condition& child : from.children) {
    if (!Bind(child, names, values, to.children.emplace_back())) return false;
  }
  return true;
}

// A SET value: recursion at most as deep as the parse's nesting limit.
bool BindUpdateValue(const UpdateValue& from, ExpressionNames& names, ExpressionValues& values,
                     UpdateValue& to) {
  to.kind = from.kind;
  if (!BindOperand(from.operand, names, values, to.operand)) return false;
  to.args.reserve(from.args.size());
  for (const UpdateValue& arg : from.args) {
    if (!BindUpdateValue(arg, names, values, to.args.emplace_back())) return false;
  }
  return true;
}

// An update's actions, bound; then the parse's checks of the bound actions.
bool Bind(const std::vector<UpdateAction>& from, ExpressionNames& names, ExpressionValues& values,
          std::vector<UpdateAction>& to) {
  to.reserve(from.size());
  for (const UpdateAction& action : from) {
    UpdateAction& bound = to.emplace_back();
    bound.kind = action.kind;
    bound.legacy = action.legacy;
    if (!BindPath(action.path, names, bound.path)) return false;
    if (action.kind == UpdateAction::Kind::kSet &&
        !BindUpdateValue(action.value, names, values, bound.value)) {
      return false;
    }
    const bool add_or_delete =
        action.kind == UpdateAction::Kind::kAdd || action.kind == UpdateAction::Kind::kDelete;
    if (add_or_delete && !BindValue(action.operand, values, bound.operand)) return false;
  }
  return BoundActionsFit(to);
}

template <typename Parsed>
std::optional<Parsed> ParseUnbound(std::string_view text, std::string_view kind) {
  if constexpr (std::is_same_v<Parsed, Condition>) {
    return ParseUnboundCondition(text, kind);
  } else {
    return ParseUnboundUpdate(text);
  }
}

// `text` through this thread's kept parses of its kind: bound if kept, else parsed by `afresh`
// (and kept on its second meeting if binding its unbound parse gives what `afresh` gave).
template <typename Parsed, typename Afresh>
Result<Parsed> ParseKept(std::string_view text, std::string_view kind, ExpressionNames& names,
                         ExpressionValues& values, size_t& bound_count, Afresh afresh) {
  if (text.size() > kMaxKeptBytes) return afresh();
  Kept<Parsed>& kept = SlotFor<Parsed>(kind, text);
  const bool met_before = kept.text == text && kept.kind == kind && !kept.kind.empty();
  if (met_before && kept.unbound) {
    Parsed bound;
    if (Bind(*kept.unbound, names, values, bound)) {
      ++bound_count;
      return bound;
    }
    return afresh();  // for the parse's own error
  }
  Result<Parsed> parsed = afresh();
  if (!met_before) {
    kept.kind = kind;
    kept.text = text;
    kept.unbound.reset();
    kept.tried = false;
  } else if (parsed.ok() && !kept.tried) {
    kept.tried = true;
    std::optional<Parsed> unbound = ParseUnbound<Parsed>(text, kind);
    Parsed check;
    if (unbound && Bind(*unbound, names, values, check) && check == parsed.value()) {
      kept.unbound = std::move(unbound);
    }
  }
  return parsed;
}

}  // namespace

size_t ConditionsBoundOnThisThread() { return conditions_bound; }
size_t UpdatesBoundOnThisThread() { return updates_bound; }

Result<Condition> ParseCondition(std::string_view text, std::string_view kind,
                                 ExpressionNames& names, ExpressionValues& values) {
  return ParseKept<Condition>(text, kind, names, values, conditions_bound,
                              [&] { return ParseConditionAfresh(text, kind, names, values); });
}

Result<std::vector<UpdateAction>> ParseUpdate(std::string_view text, ExpressionNames& names,
                                              ExpressionValues& values) {
  return ParseKept<std::vector<UpdateAction>>(
      text, "UpdateExpression", names, values, updates_bound,
      [&] { return ParseUpdateAfresh(text, names, values); });
}

}  // namespace ddbd
