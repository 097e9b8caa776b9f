#include "engine/expression/update.h"

#include <algorithm>
#include <optional>

#include "engine/model/number.h"

namespace ddbd {
namespace {

Error InvalidPath() {
  return Error::Validation(
      "The document path provided in the update expression is invalid for update");
}

Error WrongType() {
  return Error::Validation("An operand in the update expression has an incorrect data type");
}

Result<AttributeValue> Compute(const UpdateValue& value, const Item& item) {
  switch (value.kind) {
    case UpdateValue::Kind::kOperand: {
      if (value.operand.kind == Operand::Kind::kValue) return value.operand.value;
      const AttributeValue* found = ResolvePath(item, value.operand.path);
      if (found == nullptr) {
        return Error::Validation(
            "The provided expression refers to an attribute that does not exist in the item");
      }
      return *found;
    }
    case UpdateValue::Kind::kPlus:
    case UpdateValue::Kind::kMinus: {
      auto left = Compute(value.args[0], item);
      if (!left.ok()) return left;
      auto right = Compute(value.args[1], item);
      if (!right.ok()) return right;
      if (left.value().type != AttributeType::kN || right.value().type != AttributeType::kN) {
        return WrongType();
      }
      const Number a = Number::Parse(left.value().scalar).value();
      const Number b = Number::Parse(right.value().scalar).value();
      auto result = value.kind == UpdateValue::Kind::kPlus ? a.Add(b) : a.Subtract(b);
      if (!result.ok()) return result.error();
      return AttributeValue::Number(result.value().ToString());
    }
    case UpdateValue::Kind::kIfNotExists: {
      if (const AttributeValue* found = ResolvePath(item, value.args[0].operand.path)) {
        return *found;
      }
      return Compute(value.args[1], item);
    }
    case UpdateValue::Kind::kListAppend: {
      auto left = Compute(value.args[0], item);
      if (!left.ok()) return left;
      auto right = Compute(value.args[1], item);
      if (!right.ok()) return right;
      if (left.value().type != AttributeType::kL || right.value().type != AttributeType::kL) {
        return WrongType();
      }
      AttributeValue joined = std::move(left).value();
      for (AttributeValue& element : right.value().list) joined.list.push_back(std::move(element));
      return joined;
    }
  }
  return WrongType();
}

// The value holding the last element of `path` (the item's top level is a map), or null.
AttributeValue* Parent(AttributeMap& top, const DocumentPath& path, AttributeValue& holder) {
  if (path.size() == 1) {
    holder.type = AttributeType::kM;
    return &holder;  // stands for the top level; the caller uses `top` directly
  }
  AttributeValue* value = nullptr;
  for (auto& [name, attribute] : top) {
    if (name == path[0].name) value = &attribute;
  }
  for (size_t i = 1; value != nullptr && i + 1 < path.size(); ++i) {
    const PathElement& element = path[i];
    if (element.is_index()) {
      if (value->type != AttributeType::kL ||
          element.index >= static_cast<int64_t>(value->list.size())) {
        return nullptr;
      }
      value = &value->list[static_cast<size_t>(element.index)];
    } else {
      if (value->type != AttributeType::kM) return nullptr;
      AttributeValue* next = nullptr;
      for (auto& [name, attribute] : value->map) {
        if (name == element.name) next = &attribute;
      }
      value = next;
    }
  }
  return value;
}

AttributeMap& MapOf(Item& item, const DocumentPath& path, AttributeValue* parent) {
  return path.size() == 1 ? item : parent->map;
}

Status Set(Item& item, const DocumentPath& path, AttributeValue value) {
  AttributeValue holder;
  AttributeValue* parent = Parent(item, path, holder);
  if (parent == nullptr) return InvalidPath();
  const PathElement& last = path.back();
  if (last.is_index()) {
    if (parent->type != AttributeType::kL) return InvalidPath();
    if (last.index < static_cast<int64_t>(parent->list.size())) {
      parent->list[static_cast<size_t>(last.index)] = std::move(value);
    } else {
      parent->list.push_back(std::move(value));  // past the end appends, as in DynamoDB
    }
    return Ok{};
  }
  if (path.size() > 1 && parent->type != AttributeType::kM) return InvalidPath();
  AttributeMap& map = MapOf(item, path, parent);
  for (auto& [name, existing] : map) {
    if (name == last.name) {
      existing = std::move(value);
      return Ok{};
    }
  }
  map.emplace_back(last.name, std::move(value));
  return Ok{};
}

Status Remove(Item& item, const DocumentPath& path) {
  AttributeValue holder;
  AttributeValue* parent = Parent(item, path, holder);
  if (parent == nullptr) return InvalidPath();
  const PathElement& last = path.back();
  if (last.is_index()) {
    if (parent->type != AttributeType::kL) return InvalidPath();
    if (last.index < static_cast<int64_t>(parent->list.size())) {
      parent->list.erase(parent->list.begin() + last.index);
    }
    return Ok{};
  }
  if (path.size() > 1 && parent->type != AttributeType::kM) return InvalidPath();
  AttributeMap& map = MapOf(item, path, parent);
  std::erase_if(map, [&](const auto& entry) { return entry.first == last.name; });
  return Ok{};
}

bool SameSetType(const AttributeValue& a, const AttributeValue& b) {
  return a.type == b.type && (a.type == AttributeType::kSS || a.type == AttributeType::kNS ||
                              a.type == AttributeType::kBS);
}

// Members compare numerically in number sets.
bool SameMember(AttributeType type, const std::string& a, const std::string& b) {
  if (type != AttributeType::kNS) return a == b;
  return Number::Parse(a).value() == Number::Parse(b).value();
}

Result<std::optional<AttributeValue>> AddOrDelete(const UpdateAction& action,
                                                  const AttributeValue* current) {
  const AttributeValue& operand = action.operand;
  auto mismatch = [&action] {
    return action.legacy ? Error::Validation("Type mismatch for attribute to update") : WrongType();
  };
  if (action.kind == UpdateAction::Kind::kAdd) {
    if (current == nullptr) return std::optional<AttributeValue>(operand);
    if (operand.type == AttributeType::kL) {  // legacy ADD of a list appends to it
      if (current->type != AttributeType::kL) return mismatch();
      AttributeValue joined = *current;
      joined.list.insert(joined.list.end(), operand.list.begin(), operand.list.end());
      return std::optional<AttributeValue>(std::move(joined));
    }
    if (current->type == AttributeType::kN && operand.type == AttributeType::kN) {
      auto sum = Number::Parse(current->scalar).value().Add(Number::Parse(operand.scalar).value());
      if (!sum.ok()) return sum.error();
      return std::optional<AttributeValue>(AttributeValue::Number(sum.value().ToString()));
    }
    if (!SameSetType(*current, operand)) return mismatch();
    AttributeValue merged = *current;
    for (const std::string& member : operand.members) {
      const bool present =
          std::any_of(merged.members.begin(), merged.members.end(),
                      [&](const auto& m) { return SameMember(merged.type, m, member); });
      if (!present) merged.members.push_back(member);
    }
    SortSetMembers(merged);
    return std::optional<AttributeValue>(std::move(merged));
  }
  if (current == nullptr) return std::optional<AttributeValue>();  // nothing to delete from
  if (!SameSetType(*current, operand)) return mismatch();
  AttributeValue remaining = *current;
  std::erase_if(remaining.members, [&](const std::string& member) {
    return std::any_of(operand.members.begin(), operand.members.end(),
                       [&](const auto& m) { return SameMember(remaining.type, m, member); });
  });
  if (remaining.members.empty()) return std::optional<AttributeValue>(AttributeValue::Null());
  return std::optional<AttributeValue>(std::move(remaining));
}

}  // namespace

Status ApplyUpdate(const std::vector<UpdateAction>& actions, Item& item) {
  const Item original = item;
  // SET values come from the item as it was.
  std::vector<std::pair<const DocumentPath*, AttributeValue>> sets;
  for (const UpdateAction& action : actions) {
    if (action.kind != UpdateAction::Kind::kSet) continue;
    auto value = Compute(action.value, original);
    if (!value.ok()) return value.error();
    sets.emplace_back(&action.path, std::move(value).value());
  }
  // SET paths are disjoint (the parser checks), so their order matters only where several
  // append past a list's end: DynamoDB appends those in index order, not clause order.
  std::stable_sort(sets.begin(), sets.end(), [](const auto& a, const auto& b) {
    return a.first->back().index < b.first->back().index;
  });
  for (auto& [path, value] : sets) {
    if (Status set = Set(item, *path, std::move(value)); !set.ok()) return set;
  }
  std::vector<const UpdateAction*> removals;
  for (const UpdateAction& action : actions) {
    switch (action.kind) {
      case UpdateAction::Kind::kSet:
        break;
      case UpdateAction::Kind::kRemove:
        removals.push_back(&action);
        break;
      case UpdateAction::Kind::kAdd:
      case UpdateAction::Kind::kDelete: {
        auto updated = AddOrDelete(action, ResolvePath(original, action.path));
        if (!updated.ok()) return updated.error();
        if (!updated.value()) break;
        Status applied = updated.value()->type == AttributeType::kNull
                             ? Remove(item, action.path)  // a set emptied by DELETE goes away
                             : Set(item, action.path, std::move(*updated.value()));
        if (!applied.ok()) return applied;
        break;
      }
    }
  }
  // Later list elements first, so every index still means the element it named.
  std::sort(removals.begin(), removals.end(), [](const UpdateAction* a, const UpdateAction* b) {
    return a->path.back().index > b->path.back().index;
  });
  for (const UpdateAction* action : removals) {
    if (Status removed = Remove(item, action->path); !removed.ok()) return removed;
  }
  return Ok{};
}

}  // namespace ddbd
