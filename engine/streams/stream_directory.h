// Every stream of the engine by ARN, enabled or closed, until its records age out: what the
// DynamoDB Streams calls look streams up in, and what the catalog adds a table's stream to when
// its StreamSpecification enables one. Its own lock, taken after the catalog's, never before.
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

class StreamDirectory {
 public:
  // The stream with `arn`; null if there is none or it has aged out.
  std::shared_ptr<TableStream> Find(std::string_view arn) const;
  // The same, aged out or not (replay is not the moment to let one go).
  std::shared_ptr<TableStream> FindAny(std::string_view arn) const;
  bool Contains(std::string_view arn) const;
  // Adds `stream` under its ARN, unless one is there already.
  void Add(std::shared_ptr<TableStream> stream);
  // Lets the streams whose records have all aged out go.
  void ForgetExpired();
  // The streams in ARN order, from after `exclusive_start_arn` (nullopt: the first), until
  // `visit` returns false.
  void Walk(const std::optional<std::string>& exclusive_start_arn,
            const std::function<bool(const std::shared_ptr<TableStream>&)>& visit) const;
  // Every stream, in ARN order.
  std::vector<std::shared_ptr<TableStream>> All() const;

 private:
  mutable std::shared_mutex mutex_;
  std::map<std::string, std::shared_ptr<TableStream>, std::less<>> streams_;
};

}  // namespace ddbd
