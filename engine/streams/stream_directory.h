// Every stream of the engine by ARN, enabled or closed, until its records age out: what the
// DynamoDB Streams calls look streams up in, and what the catalog adds a table's stream to when
// its StreamSpecification enables one. Its own lock, taken after the catalog's, never before.
//
// It also holds the feeds of Kinesis streaming destinations (engine/kinesis/kinesis_feed.h), so
// that checkpoints and replay keep them as they keep streams; Find and Walk, what the DynamoDB
// Streams calls see, pass them over.
//
// Thread safety: every member may be called from any thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/streams/table_stream.h"

namespace ddbd {

// What a feed's ARN holds after its table's: <table ARN>/kinesis-feed/<label>.
inline constexpr std::string_view kKinesisFeedPart = "/kinesis-feed/";

class StreamDirectory {
 public:
  // Whether `arn` names a Kinesis destination's feed rather than a DynamoDB stream.
  static bool IsKinesisFeed(std::string_view arn);
  // The stream with `arn`; null if there is none, it has aged out, or it is a Kinesis feed.
  std::shared_ptr<TableStream> Find(std::string_view arn) const;
  // The same, aged out or not (replay is not the moment to let one go).
  std::shared_ptr<TableStream> FindAny(std::string_view arn) const;
  bool Contains(std::string_view arn) const;
  // Adds `stream` under its ARN, unless one is there already.
  void Add(std::shared_ptr<TableStream> stream);
  // Lets the streams whose records have all aged out go.
  void ForgetExpired();
  // The streams (not feeds) in ARN order, from after `exclusive_start_arn` (nullopt: the first),
  // until `visit` returns false.
  void Walk(const std::optional<std::string>& exclusive_start_arn,
            const std::function<bool(const std::shared_ptr<TableStream>&)>& visit) const;
  // Every stream, in ARN order.
  std::vector<std::shared_ptr<TableStream>> All() const;

 private:
  mutable std::shared_mutex mutex_;
  std::map<std::string, std::shared_ptr<TableStream>, std::less<>> streams_;
};

}  // namespace ddbd
