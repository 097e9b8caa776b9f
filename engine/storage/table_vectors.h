// A table's vector indexes as writes keep them (issue 41): which items each holds and the f32
// copy of their vectors (engine/vector/vector_store.h). Each observes the table's commit path
// (TableItems::Observe), which hands it every change under the table's write lock, so every write
// path keeps the indexes exact: single-item writes, batches, transactions, PartiQL, Time to Live,
// restores, seeds and the log's replay; an index added later is filled from the items as they
// are when it starts observing.
//
// An index holds an item whose vector attribute is a list of exactly `dimensions` numbers, each
// an f32 (finite once rounded), and, when the index has a HASH search-schema attribute, whose
// value for it is of the declared type. Any other item is simply not in the index: DynamoDB
// leaves out an item without the HASH attribute (../shared/aws-semantics.md section 11); for a
// malformed vector or a mistyped schema value it records nothing, so ddbd does the same.
//
// Thread safety: none of its own; the table's lock guards it (writes under the write lock,
// searches under the read lock: TableItems::WhileHeld).
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/api/tables.h"
#include "engine/model/attribute_value.h"
#include "engine/storage/change.h"
#include "engine/vector/vector_store.h"

namespace ddbd {

// The scoring function of a definition's distance function.
vector::DistanceFunction ScoringOf(VectorDistanceFunction function);

// One vector index of a table, kept by the table's commit path: it observes every change.
class TableVector final : public CommitObserver {
 public:
  TableVector(const VectorIndexDefinition& index, const std::vector<AttributeDefinition>& types);

  // A modification that leaves the vector's and the search-schema values' stored bytes as they
  // were costs the index nothing.
  void OnCommit(const ChangeRecord& change) override;
  // The item stored under `key` is now `blob` (empty: removed). Under the table's write lock, or
  // (an index being filled, TableItems::Observe) under its read lock before anyone searches it.
  void Apply(std::string_view key, std::string_view blob);

  VectorIndexDefinition definition;
  // False while an index UpdateTable added is being filled from the items: searches refuse it.
  std::atomic<bool> filled = true;
  std::optional<AttributeType> hash_type;      // the HASH attribute's declared type
  std::vector<std::string> filter_attributes;  // INLINE_FILTER attributes, in schema order
  std::vector<AttributeType> filter_types;
  vector::VectorStore store;

 private:
  // Apply, with the vector's stored value already found in `blob` (none: it has none).
  void ApplyFound(std::string_view key, std::string_view blob,
                  std::optional<std::string_view> encoded);
};

// A table's vector indexes, by name; replaced whole (under the catalog's lock) when an index is
// added or dropped, so a search holds the set it found.
class TableVectors {
 public:
  explicit TableVectors(std::vector<std::shared_ptr<TableVector>> indexes)
      : indexes_(std::move(indexes)) {}
  // The index named `name`, null if none.
  const TableVector* Find(std::string_view name) const;
  std::shared_ptr<TableVector> Shared(std::string_view name) const;
  const std::vector<std::shared_ptr<TableVector>>& list() const { return indexes_; }

 private:
  std::vector<std::shared_ptr<TableVector>> indexes_;
};

// The f32 elements of a stored value (item_codec.h FindAttributeValue) that is a list of exactly
// `dimensions` numbers, each finite once rounded from its decimal text to f32; none otherwise.
// Read from the stored bytes, without decoding the item.
std::optional<std::vector<float>> StoredVector(std::string_view encoded, size_t dimensions);

// A key-attribute value's bytes as the store compares them (engine/model/key_codec.h), or none if
// `value` is absent or not of `type`.
std::optional<std::string> SchemaValueBytes(const AttributeValue* value, AttributeType type);

}  // namespace ddbd
