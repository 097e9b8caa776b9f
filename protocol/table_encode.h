// Encodes a table's description and its parts in DynamoDB's shapes, through the generated
// writers (protocol/generated/responses.h).
#pragma once

#include <vector>

#include "engine/api/auto_scaling.h"
#include "engine/api/tables.h"
#include "engine/engine.h"
#include "protocol/generated/responses.h"

namespace ddbd {

// A TableDescription exactly as DescribeTable returns it (CreateTable, UpdateTable and the
// restores answer the same).
void EncodeTableDescription(wire::out::TableDescription& out, const TableDescription& table,
                            const EngineOptions& options);
// DeleteTable's: without AttributeDefinitions, KeySchema, CreationDateTime or index lists, as
// DynamoDB sends it.
void EncodeDeletedTableDescription(wire::out::TableDescription& out, const TableDescription& table,
                                   const EngineOptions& options);

// A key schema (`List`: a table's, an index's or a stream's KeySchema writer; DynamoDB Streams
// has a shape of its own).
template <class List>
void EncodeKeySchema(List& list, const std::vector<KeySchemaElement>& key_schema) {
  for (const KeySchemaElement& element : key_schema) {
    list.Add([&](auto& out) {
      out.AttributeName(element.attribute_name);
      out.KeyType(element.key_type == KeyType::kHash ? wire::KeyType::kHash
                                                     : wire::KeyType::kRange);
    });
  }
}
// An index definition's Projection.
void EncodeProjection(wire::out::Projection& out, const Projection& projection);
// {StreamEnabled: true, StreamViewType} of an enabled stream (a table's StreamSpecification, a
// backup's StreamDescription).
void EncodeStreamSpecification(wire::out::StreamSpecification& out,
                               const StreamSpecification& stream);
// SSEDescription, for a table that has one (table.sse_description).
void EncodeSseDescription(wire::out::SSEDescription& out, const TableDescription& table,
                          const EngineOptions& options);
// OnDemandThroughput: the ceilings set (a table's or an index's).
void EncodeOnDemandThroughput(wire::out::OnDemandThroughput& out,
                              const OnDemandThroughput& throughput);
wire::StreamViewType StreamViewTypeOf(StreamViewType type);
wire::BillingMode BillingModeOf(BillingMode mode);
wire::TableStatus TableStatusOf(TableStatus status);
wire::IndexStatus IndexStatusOf(TableStatus status);
wire::ReplicaStatus ReplicaStatusOf(ReplicaStatus status);
// One dimension's auto scaling settings, as AutoScalingSettingsDescription.
void EncodeAutoScalingSettings(wire::out::AutoScalingSettingsDescription& out,
                               const AutoScalingSettings& settings);

// A vector index's definition, as VectorIndexDescription and a backup's VectorIndexInfo give it.
template <class Out>
void EncodeVectorIndexDefinition(Out& out, const VectorIndexDefinition& definition) {
  out.IndexName(definition.index_name);
  if (!definition.search_schema.empty()) {
    out.SearchSchema([&](wire::out::SearchSchema& list) {
      for (const SearchSchemaElement& element : definition.search_schema) {
        list.Add([&](wire::out::SearchSchemaElement& described) {
          described.AttributeName(element.attribute_name);
          described.SearchSchemaElementType(element.type == SearchSchemaElement::Type::kHash
                                                ? wire::SearchSchemaElementType::kHash
                                                : wire::SearchSchemaElementType::kInlineFilter);
        });
      }
    });
  }
  out.Projection([&](wire::out::Projection& projection) {
    EncodeProjection(projection, definition.projection);
  });
  out.VectorAttribute([&](wire::out::VectorAttributeDefinition& attribute) {
    attribute.AttributeName(definition.vector_attribute);
  });
  out.Dimensions(definition.dimensions);
  out.DistanceFunction(static_cast<wire::VectorDistanceFunction>(definition.distance_function));
}

}  // namespace ddbd
