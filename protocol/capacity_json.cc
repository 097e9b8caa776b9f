#include "protocol/capacity_json.h"

#include <string>

#include "protocol/attribute_value_json.h"

namespace ddbd {

ReturnConsumedCapacity ReturnConsumedCapacityOf(std::optional<std::string_view> text) {
  if (text == "INDEXES") return ReturnConsumedCapacity::kIndexes;
  if (text == "TOTAL") return ReturnConsumedCapacity::kTotal;
  return ReturnConsumedCapacity::kNone;
}

bool ReturnItemCollectionMetricsOf(std::optional<std::string_view> text) { return text == "SIZE"; }

namespace {

// CapacityUnits and, for transactions, the same figure as read or write units (`Part` is the
// ConsumedCapacity object or one of its Capacity objects).
template <class Part>
void EncodeUnits(Part& part, double units, ConsumedCapacity::Kind kind) {
  part.CapacityUnits(units);
  if (kind == ConsumedCapacity::Kind::kRead) part.ReadCapacityUnits(units);
  if (kind == ConsumedCapacity::Kind::kWrite) part.WriteCapacityUnits(units);
}

void EncodeIndexCapacity(wire::out::SecondaryIndexesCapacityMap& map,
                         const std::vector<std::pair<std::string, double>>& indexes,
                         ConsumedCapacity::Kind kind) {
  for (const auto& index : indexes) {  // not a structured binding: the lambda captures it
    map.Add(index.first,
            [&](wire::out::Capacity& capacity) { EncodeUnits(capacity, index.second, kind); });
  }
}

}  // namespace

void EncodeConsumedCapacity(wire::out::ConsumedCapacity& out, const ConsumedCapacity& consumed,
                            ReturnConsumedCapacity mode) {
  out.TableName(consumed.table_name);
  EncodeUnits(out, consumed.total(), consumed.kind);
  if (mode != ReturnConsumedCapacity::kIndexes) return;
  out.Table(
      [&](wire::out::Capacity& table) { EncodeUnits(table, consumed.table_units, consumed.kind); });
  if (!consumed.local_indexes.empty()) {
    out.LocalSecondaryIndexes([&](wire::out::SecondaryIndexesCapacityMap& map) {
      EncodeIndexCapacity(map, consumed.local_indexes, consumed.kind);
    });
  }
  if (!consumed.global_indexes.empty()) {
    out.GlobalSecondaryIndexes([&](wire::out::SecondaryIndexesCapacityMap& map) {
      EncodeIndexCapacity(map, consumed.global_indexes, consumed.kind);
    });
  }
}

void EncodeItemCollectionMetrics(wire::out::ItemCollectionMetrics& out,
                                 const ItemCollectionMetrics& metrics) {
  out.ItemCollectionKey(
      [&](json::Writer& writer) { EncodeItem(writer, metrics.item_collection_key); });
  out.SizeEstimateRangeGB([&](wire::out::ItemCollectionSizeEstimateRange& range) {
    range.Add(metrics.size_estimate_lower_gb);
    range.Add(metrics.size_estimate_upper_gb);
  });
}

}  // namespace ddbd
