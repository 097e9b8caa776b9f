// ReturnConsumedCapacity and ReturnItemCollectionMetrics on the wire: the request members, and
// the ConsumedCapacity and ItemCollectionMetrics objects of answers.
#pragma once

#include "engine/api/capacity.h"
#include "engine/api/items.h"
#include "engine/error.h"
#include "protocol/json_reader.h"
#include "protocol/json_writer.h"

namespace ddbd {

// ReturnConsumedCapacity (NONE when absent) and ReturnItemCollectionMetrics (true for SIZE) of a
// request the generated layer has read and checked (protocol/generated/).
ReturnConsumedCapacity ReturnConsumedCapacityOf(std::optional<std::string_view> text);
bool ReturnItemCollectionMetricsOf(std::optional<std::string_view> text);

// One table's ConsumedCapacity object: TOTAL is {TableName, CapacityUnits}; INDEXES adds Table
// and each index that cost something, under GlobalSecondaryIndexes or LocalSecondaryIndexes.
void EncodeConsumedCapacity(json::Writer& writer, const ConsumedCapacity& consumed,
                            ReturnConsumedCapacity mode);
// "ConsumedCapacity": the object, or for batches an array of one per table; nothing when not
// asked for.
void EncodeConsumedCapacityMember(json::Writer& writer,
                                  const std::optional<ConsumedCapacity>& consumed,
                                  ReturnConsumedCapacity mode);
void EncodeConsumedCapacityMember(json::Writer& writer,
                                  const std::vector<ConsumedCapacity>& per_table,
                                  ReturnConsumedCapacity mode);
// {ItemCollectionKey, SizeEstimateRangeGB}.
void EncodeItemCollectionMetrics(json::Writer& writer, const ItemCollectionMetrics& metrics);
// "ItemCollectionMetrics" of a batch or transaction: {table: [metrics per item]}; nothing when no
// table with a local index was written.
void EncodeItemCollectionMetricsMember(
    json::Writer& writer,
    const std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>>& per_table);

}  // namespace ddbd
