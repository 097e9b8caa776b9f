// A document path (a.b[3].c) with placeholders already resolved, and projection of an item onto
// a set of paths as ProjectionExpression and AttributesToGet do.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/attribute_value.h"

namespace ddbd {

struct PathElement {
  std::string name;    // for a map key or top-level attribute
  int64_t index = -1;  // for a list element; -1 when this is a name
  bool is_index() const { return index >= 0; }
  bool operator==(const PathElement& other) const = default;
};
using DocumentPath = std::vector<PathElement>;  // starts with a name

// DynamoDB's rendering in messages: a.b[3] -> "[a, b, [3]]".
std::string RenderPath(const DocumentPath& path);

// The parts of `item` the paths select, nested as in the item. Selected list elements keep their
// relative order and are packed together, as DynamoDB returns them.
Item ProjectItem(const Item& item, const std::vector<DocumentPath>& paths);

}  // namespace ddbd
