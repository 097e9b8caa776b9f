// Encodes a TableDescription exactly as DynamoDB's DescribeTable returns it.
#pragma once

#include "engine/api/tables.h"
#include "engine/engine.h"
#include "protocol/json_writer.h"

namespace ddbd {

void EncodeTableDescription(json::Writer& writer, const TableDescription& table,
                            const EngineOptions& options);

// {"<key>": <TableDescription>}: the whole response of every table operation but ListTables.
void EncodeTableDescriptionResponse(json::Writer& writer, const char* key,
                                    const TableDescription& table, const EngineOptions& options);

// DeleteTable's answer: a TableDescription without AttributeDefinitions, KeySchema,
// CreationDateTime or index lists, as DynamoDB sends it.
void EncodeDeletedTableResponse(json::Writer& writer, const TableDescription& table,
                                const EngineOptions& options);

// "KeySchema": [...], as in a table's description (a stream's description has it too).
void EncodeKeySchemaMember(json::Writer& writer, const std::vector<KeySchemaElement>& key_schema);
// "<key>": {"StreamEnabled": true, "StreamViewType": ...} of an enabled stream (a table's
// StreamSpecification, a backup's StreamDescription).
void EncodeStreamSpecificationMember(json::Writer& writer, const char* key,
                                     const StreamSpecification& stream);
// "Projection": {...} of an index definition.
void EncodeProjectionMember(json::Writer& writer, const Projection& projection);
// "SSEDescription": {...} when the table has SSE with KMS; nothing otherwise.
void EncodeSseMember(json::Writer& writer, const TableDescription& table,
                     const EngineOptions& options);
// "OnDemandThroughput": {...} when a member is set; nothing otherwise.
void EncodeOnDemandThroughputMember(json::Writer& writer, const OnDemandThroughput& throughput);
// NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES or KEYS_ONLY.
const char* StreamViewTypeName(StreamViewType type);

}  // namespace ddbd
