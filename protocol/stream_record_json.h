// The parts a stream record's JSON has wherever it goes: a Kinesis destination's record
// (protocol/kinesis_record.h) and a stream trigger's event (protocol/lambda_event.h) write the
// same event name, keys and images, size and Time to Live identity as GetRecords gives.
#pragma once

#include <cstdint>

#include "engine/api/streams.h"
#include "protocol/json_writer.h"

namespace ddbd {

// "INSERT", "MODIFY" or "REMOVE".
const char* EventNameText(ChangeKind kind);
// "Keys", then "NewImage" and "OldImage" when the record carries them (members of an open
// object).
void WriteRecordImages(json::Writer& out, const StreamRecord& record);
// The record's SizeBytes: its keys and the images it carries, in DynamoDB's item sizes.
uint64_t StreamRecordSizeBytes(const StreamRecord& record);
// A Time to Live deletion's identity: {"type":"Service","principalId":"dynamodb.amazonaws.com"}.
void WriteServiceIdentity(json::Writer& out);

}  // namespace ddbd
