// The Engine's DynamoDB Streams calls, which only delegate to engine/streams/.
#include "engine/calls/engine_state.h"
#include "engine/engine.h"
#include "engine/streams/stream_operations.h"

namespace ddbd {

Result<ListStreamsResult> Engine::ListStreams(const ListStreamsArgs& args) const {
  return ddbd::ListStreams(state_->catalog.streams, args);
}

Result<DescribeStreamResult> Engine::DescribeStream(const DescribeStreamArgs& args) const {
  return ddbd::DescribeStream(state_->catalog.streams, args);
}

Result<std::string> Engine::GetShardIterator(const GetShardIteratorArgs& args) const {
  return ddbd::GetShardIterator(state_->catalog.streams, clock_, args);
}

Result<GetRecordsResult> Engine::GetRecords(const GetRecordsArgs& args) const {
  return ddbd::GetRecords(state_->catalog.streams, clock_, args);
}

}  // namespace ddbd
