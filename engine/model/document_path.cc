#include "engine/model/document_path.h"

#include <map>
#include <memory>
#include <optional>

namespace ddbd {
namespace {

// The requested paths as a tree: a node selects its whole value, or some children.
struct Selection {
  bool whole = false;
  std::map<std::string, Selection> names;
  std::map<int64_t, Selection> indexes;
};

std::optional<AttributeValue> Project(const AttributeValue& value, const Selection& selection);

AttributeMap ProjectMap(const AttributeMap& map, const Selection& selection) {
  AttributeMap projected;
  for (const auto& [name, value] : map) {
    auto child = selection.names.find(name);
    if (child == selection.names.end()) continue;
    if (auto part = Project(value, child->second)) projected.emplace_back(name, std::move(*part));
  }
  return projected;
}

std::optional<AttributeValue> Project(const AttributeValue& value, const Selection& selection) {
  if (selection.whole) return value;
  if (value.type == AttributeType::kM && !selection.names.empty()) {
    AttributeMap map = ProjectMap(value.map, selection);
    if (map.empty()) return std::nullopt;
    AttributeValue projected;
    projected.type = AttributeType::kM;
    projected.map = std::move(map);
    return projected;
  }
  if (value.type == AttributeType::kL && !selection.indexes.empty()) {
    AttributeValue projected;
    projected.type = AttributeType::kL;
    for (const auto& [index, child] : selection.indexes) {
      if (index >= static_cast<int64_t>(value.list.size())) break;
      if (auto part = Project(value.list[static_cast<size_t>(index)], child)) {
        projected.list.push_back(std::move(*part));
      }
    }
    if (projected.list.empty()) return std::nullopt;
    return projected;
  }
  return std::nullopt;
}

}  // namespace

std::string RenderPath(const DocumentPath& path) {
  std::string text = "[";
  for (size_t i = 0; i < path.size(); ++i) {
    if (i > 0) text += ", ";
    text += path[i].is_index() ? "[" + std::to_string(path[i].index) + "]" : path[i].name;
  }
  return text + "]";
}

Item ProjectItem(const Item& item, const std::vector<DocumentPath>& paths) {
  Selection root;
  for (const DocumentPath& path : paths) {
    Selection* node = &root;
    for (const PathElement& element : path) {
      node = element.is_index() ? &node->indexes[element.index] : &node->names[element.name];
    }
    node->whole = true;
  }
  return ProjectMap(item, root);
}

}  // namespace ddbd
