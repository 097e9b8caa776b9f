// --kinesis-endpoint: the Kinesis-compatible server (kinesalite, LocalStack, AWS itself) that
// Kinesis streaming destinations' records go to, as the engine's KinesisStreams
// (engine/api/kinesis_delivery.h). Each batch is one PutRecords (Kinesis_20131202, JSON 1.1),
// signed with Signature Version 4 for the service "kinesis" (server/sigv4.h) from
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN; each record's data is DynamoDB's
// JSON for the change (protocol/kinesis_record.h) and its partition key 32 upper-case hex digits of
// the MD5 of the item's key, so an item's changes stay in one shard, in order, as DynamoDB keeps
// them.
//
// Thread safety: any thread; each call opens its own connection.
#pragma once

#include <memory>
#include <string>

#include "engine/api/kinesis_delivery.h"
#include "server/tools/http_client.h"
#include "server/tools/remote_endpoint.h"

namespace ddbd {

// `region`: what requests are signed for.
std::shared_ptr<KinesisStreams> NewKinesisStreams(Endpoint endpoint, AwsCredentials credentials,
                                                  std::string region);

// The partition key of a record whose item has the key attributes `keys` (a stored item's blob).
std::string KinesisPartitionKey(std::string_view keys);

}  // namespace ddbd
