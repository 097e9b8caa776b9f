// The DynamoDB Streams calls (the DynamoDBStreams_20120810 target) over the engine's streams:
// ListStreams, DescribeStream, GetShardIterator and GetRecords, as engine/engine.h states them.
#pragma once

#include <string>

#include "engine/api/streams.h"
#include "engine/clock.h"
#include "engine/error.h"
#include "engine/streams/stream_directory.h"

namespace ddbd {

Result<ListStreamsResult> ListStreams(const StreamDirectory& streams, const ListStreamsArgs& args);
Result<DescribeStreamResult> DescribeStream(const StreamDirectory& streams,
                                            const DescribeStreamArgs& args);
Result<std::string> GetShardIterator(const StreamDirectory& streams, const Clock& clock,
                                     const GetShardIteratorArgs& args);
Result<GetRecordsResult> GetRecords(const StreamDirectory& streams, const Clock& clock,
                                    const GetRecordsArgs& args);

}  // namespace ddbd
