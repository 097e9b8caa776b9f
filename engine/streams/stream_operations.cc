#include "engine/streams/stream_operations.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <mutex>
#include <vector>

namespace ddbd {
namespace {

// arn:PARTITION:dynamodb:REGION:ACCOUNT:table/NAME/stream/LABEL (checked by hand: std::regex
// recurses per character, which a long ARN could turn into a deep stack).
bool IsStreamArn(std::string_view arn) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (int i = 0; i < 5; ++i) {
    const size_t colon = arn.find(':', start);
    if (colon == std::string_view::npos) return false;
    parts.push_back(arn.substr(start, colon - start));
    start = colon + 1;
  }
  const std::string_view resource = arn.substr(start);
  if (parts[0] != "arn" || !parts[1].starts_with("aws") || parts[2] != "dynamodb" ||
      parts[3].empty() || parts[4].size() != 12 ||
      !std::all_of(parts[4].begin(), parts[4].end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  if (!resource.starts_with("table/")) return false;
  const size_t stream = resource.find("/stream/");
  return stream != std::string_view::npos && stream >= 6 + 3 && stream + 8 < resource.size();
}

Error InvalidStreamArn(std::string_view arn) {
  // Unconfirmed wording; DynamoDB answers a malformed ARN with ValidationException.
  return Error::Validation("Invalid StreamArn: " + std::string(arn));
}

Error StreamNotFound(std::string_view arn) {
  // DynamoDB's wording, as a client's test against it pins.
  return Error::ResourceNotFound("Requested resource not found: Stream: " + std::string(arn) +
                                 " not found");
}

Error InvalidIterator() {
  // Unconfirmed wording.
  return Error::Validation("Invalid ShardIterator");
}

uint64_t Checksum(std::string_view text) {
  uint64_t value = std::hash<std::string_view>()(text) ^ 0x5bd1e9955bd1e995ULL;
  value ^= value >> 29;
  return value * 0x94d049bb133111ebULL;
}

// An iterator is "<stream ARN>|1|<hex>" (DynamoDB's outline): the hex holds the shard, the next
// sequence number, when it was issued and a checksum, so a changed iterator is refused.
std::string EncodeIterator(std::string_view arn, const ShardPosition& position, int64_t issued_ms) {
  std::string fields =
      position.shard_id + "|" + std::to_string(position.sequence) + "|" + std::to_string(issued_ms);
  char sum[20];
  std::snprintf(sum, sizeof sum, "|%016llx",
                static_cast<unsigned long long>(Checksum(std::string(arn) + fields)));
  fields += sum;
  std::string iterator = std::string(arn) + "|1|";
  static constexpr char kHex[] = "0123456789abcdef";
  for (const char c : fields) {
    const auto byte = static_cast<unsigned char>(c);
    iterator.push_back(kHex[byte >> 4]);
    iterator.push_back(kHex[byte & 15]);
  }
  return iterator;
}

struct DecodedIterator {
  std::string arn;
  ShardPosition position;
  int64_t issued_ms = 0;
};

std::optional<DecodedIterator> DecodeIterator(std::string_view iterator) {
  const size_t bar = iterator.find("|1|");
  if (bar == std::string_view::npos) return std::nullopt;
  DecodedIterator decoded;
  decoded.arn = std::string(iterator.substr(0, bar));
  const std::string_view hex = iterator.substr(bar + 3);
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string fields;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int high = nibble(hex[i]);
    const int low = nibble(hex[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    fields.push_back(static_cast<char>(high * 16 + low));
  }
  const size_t sum_at = fields.rfind('|');
  if (sum_at == std::string::npos) return std::nullopt;
  char sum[20];
  std::snprintf(sum, sizeof sum, "%016llx",
                static_cast<unsigned long long>(Checksum(decoded.arn + fields.substr(0, sum_at))));
  if (fields.substr(sum_at + 1) != sum) return std::nullopt;
  fields.resize(sum_at);
  const size_t first = fields.find('|');
  const size_t second = fields.find('|', first + 1);
  if (first == std::string::npos || second == std::string::npos) return std::nullopt;
  decoded.position.shard_id = fields.substr(0, first);
  try {
    decoded.position.sequence = std::stoull(fields.substr(first + 1, second - first - 1));
    decoded.issued_ms = std::stoll(fields.substr(second + 1));
  } catch (...) {
    return std::nullopt;
  }
  return decoded;
}

}  // namespace

Result<ListStreamsResult> ListStreams(const StreamDirectory& streams, const ListStreamsArgs& args) {
  if (args.exclusive_start_stream_arn && !IsStreamArn(*args.exclusive_start_stream_arn)) {
    return InvalidStreamArn(*args.exclusive_start_stream_arn);
  }
  ListStreamsResult result;
  streams.Walk(args.exclusive_start_stream_arn, [&](const std::shared_ptr<TableStream>& stream) {
    const StreamSummary& summary = stream->summary();
    if (args.table_name && summary.table_name != *args.table_name) return true;
    if (stream->Expired()) return true;
    if (static_cast<int>(result.streams.size()) == args.limit) {
      result.last_evaluated_stream_arn = result.streams.back().stream_arn;
      return false;
    }
    result.streams.push_back(summary);
    return true;
  });
  return result;
}

Result<DescribeStreamResult> DescribeStream(const StreamDirectory& streams,
                                            const DescribeStreamArgs& args) {
  if (!IsStreamArn(args.stream_arn)) return InvalidStreamArn(args.stream_arn);
  const std::shared_ptr<TableStream> stream = streams.Find(args.stream_arn);
  if (!stream) return StreamNotFound(args.stream_arn);
  DescribeStreamResult result;
  result.description = stream->Describe();
  std::vector<ShardDescription> shards = std::move(result.description.shards);
  result.description.shards.clear();
  for (ShardDescription& shard : shards) {
    if (args.child_shards_of && shard.parent_shard_id != *args.child_shards_of) continue;
    if (args.exclusive_start_shard_id && shard.shard_id <= *args.exclusive_start_shard_id) continue;
    if (static_cast<int>(result.description.shards.size()) == args.limit) {
      result.last_evaluated_shard_id = result.description.shards.back().shard_id;
      break;
    }
    result.description.shards.push_back(std::move(shard));
  }
  return result;
}

Result<std::string> GetShardIterator(const StreamDirectory& streams, const Clock& clock,
                                     const GetShardIteratorArgs& args) {
  if (!IsStreamArn(args.stream_arn)) return InvalidStreamArn(args.stream_arn);
  const std::shared_ptr<TableStream> stream = streams.Find(args.stream_arn);
  if (!stream) return StreamNotFound(args.stream_arn);
  auto position = stream->Position(args.shard_id, args.type, args.sequence);
  if (!position.ok()) return position.error();
  return EncodeIterator(args.stream_arn, position.value(), clock.NowMs());
}

Result<GetRecordsResult> GetRecords(const StreamDirectory& streams, const Clock& clock,
                                    const GetRecordsArgs& args) {
  const std::optional<DecodedIterator> iterator = DecodeIterator(args.shard_iterator);
  if (!iterator || !IsStreamArn(iterator->arn)) return InvalidIterator();
  const int64_t now_ms = clock.NowMs();
  if (now_ms - iterator->issued_ms > kShardIteratorLifetimeMs) {
    // The text clients match on (its full wording is unconfirmed).
    return Error(ErrorCode::kExpiredIterator, "Shard iterator has expired");
  }
  const std::shared_ptr<TableStream> stream = streams.Find(iterator->arn);
  if (!stream) return StreamNotFound(iterator->arn);
  auto read = stream->Read(iterator->position, static_cast<size_t>(args.limit));
  if (!read.ok()) return read.error();
  GetRecordsResult result;
  result.stream_arn = iterator->arn;
  result.records = std::move(read.value().records);
  result.view_type = stream->view_type();
  if (read.value().next_sequence) {
    result.next_shard_iterator = EncodeIterator(
        iterator->arn, {iterator->position.shard_id, *read.value().next_sequence}, now_ms);
  }
  return result;
}

}  // namespace ddbd
