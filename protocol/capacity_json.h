// ReturnConsumedCapacity and ReturnItemCollectionMetrics on the wire: the request members, and
// the ConsumedCapacity and ItemCollectionMetrics objects of answers.
#pragma once

#include "engine/api/capacity.h"
#include "engine/api/items.h"
#include "engine/error.h"
#include "protocol/generated/responses.h"
#include "protocol/json_reader.h"

namespace ddbd {

// ReturnConsumedCapacity (NONE when absent) and ReturnItemCollectionMetrics (true for SIZE) of a
// request the generated layer has read and checked (protocol/generated/).
ReturnConsumedCapacity ReturnConsumedCapacityOf(std::optional<std::string_view> text);
bool ReturnItemCollectionMetricsOf(std::optional<std::string_view> text);

// One table's ConsumedCapacity object: TOTAL is {TableName, CapacityUnits}; INDEXES adds Table
// and each index that cost something, under GlobalSecondaryIndexes or LocalSecondaryIndexes.
void EncodeConsumedCapacity(wire::out::ConsumedCapacity& out, const ConsumedCapacity& consumed,
                            ReturnConsumedCapacity mode);
// {ItemCollectionKey, SizeEstimateRangeGB}.
void EncodeItemCollectionMetrics(wire::out::ItemCollectionMetrics& out,
                                 const ItemCollectionMetrics& metrics);

// An answer's "ConsumedCapacity" (`Output` is a generated writer with that member): the object,
// or for batches an array of one per table; nothing when not asked for.
template <class Output>
void EncodeConsumedCapacityMember(Output& out, const std::optional<ConsumedCapacity>& consumed,
                                  ReturnConsumedCapacity mode) {
  if (!consumed || mode == ReturnConsumedCapacity::kNone) return;
  out.ConsumedCapacity([&](wire::out::ConsumedCapacity& object) {
    EncodeConsumedCapacity(object, *consumed, mode);
  });
}
template <class Output>
void EncodeConsumedCapacityMember(Output& out, const std::vector<ConsumedCapacity>& per_table,
                                  ReturnConsumedCapacity mode) {
  if (mode == ReturnConsumedCapacity::kNone) return;
  out.ConsumedCapacity([&](wire::out::ConsumedCapacityMultiple& list) {
    for (const ConsumedCapacity& consumed : per_table) {
      list.Add([&](wire::out::ConsumedCapacity& object) {
        EncodeConsumedCapacity(object, consumed, mode);
      });
    }
  });
}

// "ItemCollectionMetrics" of a batch or transaction: {table: [metrics per item]}; nothing when no
// table with a local index was written.
template <class Output>
void EncodeItemCollectionMetricsMember(
    Output& out,
    const std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>>& per_table) {
  if (per_table.empty()) return;
  out.ItemCollectionMetrics([&](wire::out::ItemCollectionMetricsPerTable& tables) {
    for (const auto& table : per_table) {  // not a structured binding: lambdas capture it
      tables.Add(table.first, [&](wire::out::ItemCollectionMetricsMultiple& list) {
        for (const ItemCollectionMetrics& item : table.second) {
          list.Add([&](wire::out::ItemCollectionMetrics& object) {
            EncodeItemCollectionMetrics(object, item);
          });
        }
      });
    }
  });
}

}  // namespace ddbd
