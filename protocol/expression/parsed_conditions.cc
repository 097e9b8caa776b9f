// Conditions this thread parsed before, kept by their text: a request whose expression was met
// before binds its own names and values into the kept parse instead of parsing the text again
// (`pk = :p`: ~4,700 instructions to parse, a few hundred to bind). Only texts that parsed
// without an error are kept, and a binding that meets anything the parse would report (an
// undefined placeholder, a value of the wrong type, BETWEEN's bounds out of order, two paths its
// names make one) gives up and the text is parsed afresh: every error is the parse's own, in
// DynamoDB's order.
#include <array>
#include <functional>
#include <optional>
#include <string>

#include "protocol/expression/condition_parser.h"

namespace ddbd {
namespace {

// Longer texts are parsed every time: expressions are mostly far shorter, and a kept tree small.
constexpr size_t kMaxKeptBytes = 1024;
// Direct-mapped: a text takes the slot its hash names, replacing what was there.
constexpr size_t kSlots = 64;

struct KeptCondition {
  std::string kind;
  std::string text;
  // The parse with placeholders in place, made the second time the text is met (a text met once
  // costs a copy of itself, not a second parse), kept if binding it to that request's names and
  // values gave what the parse gave.
  std::optional<Condition> unbound;
  bool tried = false;  // the unbound parse was made (and kept or not)
};

thread_local size_t conditions_bound = 0;

KeptCondition& SlotFor(std::string_view kind, std::string_view text) {
  thread_local std::array<KeptCondition, kSlots> slots;
  const size_t hash = std::hash<std::string_view>{}(text) + kind.size() * 0x9E3779B97F4A7C15ull;
  return slots[hash % kSlots];
}

// Copies `from` into `to` with each placeholder replaced by what `names` and `values` bind it to
// (recording their use), checking each comparison's and function's bound operands as the parse
// does. False at the first placeholder not bound or check failed. Recursion over a kept tree: at
// most as deep as the operators a condition may have.
bool Bind(const Condition& from, ExpressionNames& names, ExpressionValues& values, Condition& to) {
  to.kind = from.kind;
  to.comparator = from.comparator;
  to.operands.reserve(from.operands.size());
  for (const Operand& operand : from.operands) {
    Operand& bound = to.operands.emplace_back();
    bound.kind = operand.kind;
    if (operand.kind == Operand::Kind::kValue) {
      const AttributeValue* value = values.Use(operand.value.scalar);
      if (value == nullptr) return false;
      bound.value = *value;
      continue;
    }
    bound.path.reserve(operand.path.size());
    for (const PathElement& element : operand.path) {
      if (element.is_index() || !element.name.starts_with('#')) {
        bound.path.push_back(element);
        continue;
      }
      const std::string* name = names.Use(element.name);
      if (name == nullptr) return false;
      bound.path.push_back({*name, -1});
    }
  }
  if (!BoundOperandsFit(to)) return false;
  to.children.reserve(from.children.size());
  for (const Condition& child : from.children) {
    if (!Bind(child, names, values, to.children.emplace_back())) return false;
  }
  return true;
}

// The unbound parse of a text that just parsed to `parsed`, if binding it to the same names and
// values gives `parsed` again: a check that the two parses agree, made once per kept text.
std::optional<Condition> Keepable(std::string_view text, std::string_view kind,
                                  const Condition& parsed, ExpressionNames& names,
                                  ExpressionValues& values) {
  std::optional<Condition> unbound = ParseUnboundCondition(text, kind);
  if (!unbound) return std::nullopt;
  Condition bound;
  if (!Bind(*unbound, names, values, bound) || !(bound == parsed)) return std::nullopt;
  return unbound;
}

}  // namespace

size_t ConditionsBoundOnThisThread() { return conditions_bound; }

Result<Condition> ParseCondition(std::string_view text, std::string_view kind,
                                 ExpressionNames& names, ExpressionValues& values) {
  if (text.size() > kMaxKeptBytes) return ParseConditionAfresh(text, kind, names, values);
  KeptCondition& kept = SlotFor(kind, text);
  const bool met_before = kept.text == text && kept.kind == kind && !kept.kind.empty();
  if (met_before && kept.unbound) {
    Condition bound;
    if (Bind(*kept.unbound, names, values, bound)) {
      ++conditions_bound;
      return bound;
    }
    return ParseConditionAfresh(text, kind, names, values);  // for the parse's own error
  }
  auto parsed = ParseConditionAfresh(text, kind, names, values);
  if (!met_before) {
    kept.kind = kind;
    kept.text = text;
    kept.unbound.reset();
    kept.tried = false;
  } else if (parsed.ok() && !kept.tried) {
    kept.tried = true;
    kept.unbound = Keepable(text, kind, parsed.value(), names, values);
  }
  return parsed;
}

}  // namespace ddbd
