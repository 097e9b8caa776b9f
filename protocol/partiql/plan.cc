#include "protocol/partiql/plan.h"

#include <algorithm>
#include <utility>

#include "protocol/partiql/messages.h"

namespace ddbd::partiql {
namespace {

// The conditions a WHERE joins with AND at its top.
std::vector<const Condition*> Conjuncts(const std::optional<Condition>& where) {
  std::vector<const Condition*> conjuncts;
  if (!where) return conjuncts;
  if (where->kind != Condition::Kind::kAnd) return {&*where};
  for (const Condition& child : where->children) conjuncts.push_back(&child);
  return conjuncts;
}

std::optional<Condition> AndOf(const std::vector<const Condition*>& conditions) {
  if (conditions.empty()) return std::nullopt;
  if (conditions.size() == 1) return *conditions[0];
  Condition all;
  all.kind = Condition::Kind::kAnd;
  for (const Condition* condition : conditions) all.children.push_back(*condition);
  return all;
}

bool NamesAttribute(const Operand& operand, const std::string& name) {
  return operand.kind == Operand::Kind::kPath && operand.path.size() == 1 &&
         !operand.path[0].is_index() && operand.path[0].name == name;
}

// `name = value` (or `value = name`): the value, else null.
const AttributeValue* KeyEquality(const Condition& condition, const std::string& name) {
  if (condition.kind != Condition::Kind::kCompare ||
      condition.comparator != Condition::Comparator::kEq || condition.operands.size() != 2) {
    return nullptr;
  }
  const Operand& left = condition.operands[0];
  const Operand& right = condition.operands[1];
  if (NamesAttribute(left, name) && right.kind == Operand::Kind::kValue) return &right.value;
  if (NamesAttribute(right, name) && left.kind == Operand::Kind::kValue) return &left.value;
  return nullptr;
}

// `name IN [v, ...]` with values only: the distinct values, in order; empty otherwise.
std::vector<AttributeValue> InValues(const Condition& condition, const std::string& name) {
  std::vector<AttributeValue> values;
  if (condition.kind != Condition::Kind::kIn || !NamesAttribute(condition.operands[0], name)) {
    return values;
  }
  for (size_t i = 1; i < condition.operands.size(); ++i) {
    if (condition.operands[i].kind != Operand::Kind::kValue) return {};
    const AttributeValue& value = condition.operands[i].value;
    if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
  }
  return values;
}

// A condition a sort-key range can express: a comparison with a value, BETWEEN, begins_with.
std::optional<KeyTerm> SortKeyTerm(const Condition& condition, const std::string& name) {
  const auto& operands = condition.operands;
  auto value = [&](size_t i) { return operands[i].kind == Operand::Kind::kValue; };
  KeyTerm term;
  term.attribute = name;
  switch (condition.kind) {
    case Condition::Kind::kCompare: {
      if (operands.size() != 2 || condition.comparator == Condition::Comparator::kNe)
        return std::nullopt;
      const bool forward = NamesAttribute(operands[0], name) && value(1);
      const bool reversed = NamesAttribute(operands[1], name) && value(0);
      if (!forward && !reversed) return std::nullopt;
      // `5 < sk` is `sk > 5`.
      static constexpr std::pair<KeyTerm::Op, KeyTerm::Op> kOps[] = {
          {KeyTerm::Op::kEq, KeyTerm::Op::kEq}, {KeyTerm::Op::kEq, KeyTerm::Op::kEq},
          {KeyTerm::Op::kLt, KeyTerm::Op::kGt}, {KeyTerm::Op::kLe, KeyTerm::Op::kGe},
          {KeyTerm::Op::kGt, KeyTerm::Op::kLt}, {KeyTerm::Op::kGe, KeyTerm::Op::kLe}};
      const auto& ops = kOps[static_cast<size_t>(condition.comparator)];
      term.op = forward ? ops.first : ops.second;
      term.values.push_back(operands[forward ? 1 : 0].value);
      return term;
    }
    case Condition::Kind::kBetween:
      if (!NamesAttribute(operands[0], name) || !value(1) || !value(2)) return std::nullopt;
      term.op = KeyTerm::Op::kBetween;
      term.values = {operands[1].value, operands[2].value};
      return term;
    case Condition::Kind::kBeginsWith:
      if (!NamesAttribute(operands[0], name) || !value(1)) return std::nullopt;
      term.op = KeyTerm::Op::kBeginsWith;
      term.values = {operands[1].value};
      return term;
    default:
      return std::nullopt;
  }
}

Condition AttributeCheck(Condition::Kind kind, const std::string& name) {
  Condition check;
  check.kind = kind;
  Operand path;
  path.kind = Operand::Kind::kPath;
  path.path.push_back({name, -1});
  check.operands.push_back(std::move(path));
  return check;
}

Condition JoinedCondition(Condition::Kind kind, Condition first, std::optional<Condition> second) {
  if (!second) return first;
  Condition joined;
  joined.kind = kind;
  joined.children.push_back(std::move(first));
  joined.children.push_back(std::move(*second));
  return joined;
}

// ORDER BY: only on a Query, and only by a key attribute of what it reads.
Status CheckOrderBy(const Statement& statement, const KeyNames& keys, bool is_query) {
  if (statement.order_by.empty()) return Ok{};
  if (!statement.where) return Error::Validation(std::string(kOrderByWithoutWhere));
  if (!is_query) return Error::Validation(std::string(kOrderByWithoutHashKey));
  for (const auto* names : {&keys.partition, &keys.sort}) {
    for (const std::string& name : *names) {
      if (name == statement.order_by) return Ok{};
    }
  }
  return Error::Validation(OrderByNotKey(statement.order_by));
}

}  // namespace

Result<KeyNames> FindKeys(const Engine& engine, const Statement& statement) {
  auto schema = engine.KeySchemaOf(statement.table_name, statement.index_name);
  if (!schema.ok()) return schema.error();
  const KeyParts& key = schema.value().key;
  if (key.partition.size() > 1 || key.sort.size() > 1) {
    return Error::Validation(std::string(kMultiAttributeKeys));
  }
  KeyNames keys;
  keys.global_index = schema.value().global_index;
  for (const KeyPart& part : schema.value().key.partition) keys.partition.push_back(part.name);
  for (const KeyPart& part : schema.value().key.sort) keys.sort.push_back(part.name);
  return keys;
}

Status PlanSelect(const Statement& statement, const KeyNames& keys, bool consistent_read,
                  ReadPlan& plan) {
  if (consistent_read && keys.global_index) {
    return Error::Validation(std::string(kConsistentReadOnGlobalIndex));
  }
  std::vector<const Condition*> rest = Conjuncts(statement.where);
  std::vector<KeyTerm> terms;
  for (const std::string& name : keys.partition) {
    for (auto it = rest.begin(); it != rest.end(); ++it) {
      if (const AttributeValue* value = KeyEquality(**it, name)) {
        terms.push_back({name, KeyTerm::Op::kEq, {*value}});
        rest.erase(it);
        break;
      }
    }
  }
  plan.is_query = !keys.partition.empty() && terms.size() == keys.partition.size();
  // `pk IN [...]` reads each partition named, as DynamoDB does (ORDER BY then needs a Scan's
  // refusal: the partitions are read one after another, not merged).
  if (!plan.is_query && keys.partition.size() == 1 && statement.order_by.empty()) {
    for (auto it = rest.begin(); it != rest.end(); ++it) {
      std::vector<AttributeValue> values = InValues(**it, keys.partition[0]);
      if (values.empty() || values.size() > kMaxInPartitions) continue;
      terms.push_back({keys.partition[0], KeyTerm::Op::kEq, {values[0]}});
      plan.partitions = std::move(values);
      plan.is_query = true;
      rest.erase(it);
      break;
    }
  }
  if (plan.is_query && keys.sort.size() == 1) {
    for (auto it = rest.begin(); it != rest.end(); ++it) {
      if (auto term = SortKeyTerm(**it, keys.sort[0])) {
        terms.push_back(std::move(*term));
        rest.erase(it);
        break;
      }
    }
  }
  if (Status ordered = CheckOrderBy(statement, keys, plan.is_query); !ordered.ok()) return ordered;
  if (plan.is_query) {
    plan.query.table_name = statement.table_name;
    plan.query.key_terms = std::move(terms);
    plan.query.scan_index_forward = !statement.descending;
    plan.filter = AndOf(rest);
  } else {
    plan.scan.table_name = statement.table_name;
    plan.filter = statement.where;
  }
  plan.projection = statement.projection;
  plan.options.index_name = statement.index_name;
  plan.options.consistent_read = consistent_read;
  plan.options.filter_may_name_keys = true;
  if (plan.filter) plan.options.filter = &*plan.filter;
  if (!plan.projection.empty()) plan.options.projection = &plan.projection;
  return Ok{};
}

Result<KeyedWhere> SplitKey(const std::optional<Condition>& where, const KeyNames& keys) {
  std::vector<const Condition*> rest = Conjuncts(where);
  KeyedWhere keyed;
  for (const auto* names : {&keys.partition, &keys.sort}) {
    for (const std::string& name : *names) {
      const AttributeValue* found = nullptr;
      for (auto it = rest.begin(); it != rest.end();) {
        const AttributeValue* value = KeyEquality(**it, name);
        if (value == nullptr) {
          ++it;
          continue;
        }
        if (found != nullptr) return Error::Validation(MultipleKeyConditions(name));
        found = value;
        it = rest.erase(it);
      }
      if (found == nullptr) return Error::Validation(std::string(kIncompleteKey));
      keyed.key.emplace_back(name, *found);
    }
  }
  keyed.rest = AndOf(rest);
  return keyed;
}

Result<WritePlan> PlanWrite(Statement statement, const KeyNames& keys) {
  if (!statement.index_name.empty()) return Error::Validation(std::string(kIndexWrite));
  WritePlan plan;
  plan.kind = statement.kind;
  plan.table_name = std::move(statement.table_name);
  plan.returning = statement.returning;
  const std::string& partition_key = keys.partition[0];
  if (statement.kind == Statement::Kind::kInsert) {
    for (const auto* names : {&keys.partition, &keys.sort}) {
      for (const std::string& name : *names) {
        if (FindAttribute(statement.item, name) == nullptr) {
          return Error::Validation(KeyAttributeAbsent(name));
        }
      }
    }
    plan.item = std::move(statement.item);
    plan.condition = AttributeCheck(Condition::Kind::kAttributeNotExists, partition_key);
    return plan;
  }
  auto keyed = SplitKey(statement.where, keys);
  if (!keyed.ok()) return keyed.error();
  plan.item = std::move(keyed.value().key);
  std::optional<Condition>& rest = keyed.value().rest;
  if (statement.kind == Statement::Kind::kDelete) {
    // A DELETE of an item that is not there succeeds whatever the rest of its WHERE says.
    if (rest) {
      plan.condition = JoinedCondition(
          Condition::Kind::kOr, AttributeCheck(Condition::Kind::kAttributeNotExists, partition_key),
          std::move(rest));
    }
    return plan;
  }
  // EXISTS reads one item and tests more than its existence (recorded against AWS:
  // behaviours-to-match D3).
  if (statement.kind == Statement::Kind::kExists && !rest) {
    return Error::Validation(std::string(kExistsWithoutCondition));
  }
  // UPDATE never creates an item; EXISTS holds only for one that is there.
  plan.actions = std::move(statement.actions);
  plan.condition = JoinedCondition(Condition::Kind::kAnd,
                                   AttributeCheck(Condition::Kind::kAttributeExists, partition_key),
                                   std::move(rest));
  return plan;
}

}  // namespace ddbd::partiql
