// Engine's Query and Scan: key conditions become one range of key bytes, a parallel-scan segment
// a range of partition hashes; one walk reads a page.
#include "engine/read_operations.h"

#include <absl/numeric/int128.h>

#include <mutex>

#include "engine/engine.h"
#include "engine/item_codec.h"
#include "engine/key_codec.h"

namespace ddbd {
namespace {

using KeyRange = TableItems::KeyRange;

// The smallest byte string greater than every string that starts with `prefix`.
std::string PrefixEnd(std::string prefix) {
  while (!prefix.empty() && static_cast<uint8_t>(prefix.back()) == 0xFF) prefix.pop_back();
  if (!prefix.empty()) prefix.back() = static_cast<char>(static_cast<uint8_t>(prefix.back()) + 1);
  return prefix;
}

// The encoding of a string or binary value without its terminator: a prefix of the encoding of
// every value that begins with it.
std::string EscapedPrefix(const AttributeValue& value) {
  std::string bytes;
  AppendKeyValue(bytes, value);
  bytes.resize(bytes.size() - 2);  // drop the 0x00 0x01 terminator
  return bytes;
}

Status CheckKeyTerms(const KeyShape& shape, const std::vector<KeyTerm>& terms,
                     const KeyTerm** partition, const KeyTerm** sort) {
  *partition = nullptr;
  *sort = nullptr;
  bool other = false;
  for (const KeyTerm& term : terms) {
    if (term.attribute == shape.partition_name)
      *partition = &term;
    else if (shape.has_sort_key() && term.attribute == shape.sort_name)
      *sort = &term;
    else
      other = true;
  }
  if (*partition == nullptr) {
    return Error::Validation("Query condition missed key schema element: " + shape.partition_name);
  }
  if (other || (*partition)->op != KeyTerm::Op::kEq) {
    return Error::Validation("Query key condition not supported");
  }
  for (const KeyTerm* term : {*partition, *sort}) {
    if (term == nullptr) continue;
    const AttributeType type = term == *partition ? shape.partition_type : shape.sort_type;
    for (const AttributeValue& value : term->values) {
      if (value.type != type) {
        return Error::Validation(
            "One or more parameter values were invalid: Condition parameter type does not match "
            "schema type");
      }
    }
  }
  return Ok{};
}

KeyRange QueryRange(const KeyTerm& partition, const KeyTerm* sort) {
  const std::string prefix = EncodeTableKey(partition.values[0], nullptr);
  KeyRange range{prefix, true, PrefixEnd(prefix), false, true};
  if (sort == nullptr) return range;
  auto at = [&](const AttributeValue& value) {
    return EncodeTableKey(partition.values[0], &value);
  };
  switch (sort->op) {
    case KeyTerm::Op::kEq:
      return {at(sort->values[0]), true, at(sort->values[0]), true, true};
    case KeyTerm::Op::kLt:
      return {prefix, true, at(sort->values[0]), false, true};
    case KeyTerm::Op::kLe:
      return {prefix, true, at(sort->values[0]), true, true};
    case KeyTerm::Op::kGt:
      range.lower = at(sort->values[0]);
      range.lower_inclusive = false;
      return range;
    case KeyTerm::Op::kGe:
      range.lower = at(sort->values[0]);
      return range;
    case KeyTerm::Op::kBetween:
      return {at(sort->values[0]), true, at(sort->values[1]), true, true};
    case KeyTerm::Op::kBeginsWith: {
      const std::string start = prefix + EscapedPrefix(sort->values[0]);
      return {start, true, PrefixEnd(start), false, true};
    }
  }
  return range;
}

std::string HashBytes(uint64_t hash) {
  std::string bytes(8, '\0');
  for (int i = 0; i < 8; ++i)
    bytes[static_cast<size_t>(i)] = static_cast<char>(hash >> (56 - 8 * i));
  return bytes;
}

// Segment i of n covers partition hashes [i * 2^64 / n, (i + 1) * 2^64 / n).
KeyRange SegmentRange(int64_t segment, int64_t total) {
  auto boundary = [total](int64_t index) {
    return absl::Uint128Low64((absl::uint128(static_cast<uint64_t>(index)) << 64) /
                              static_cast<uint64_t>(total));
  };
  KeyRange range{HashBytes(boundary(segment)), true, "", false, false};
  if (segment + 1 < total) {
    range.upper = HashBytes(boundary(segment + 1));
    range.has_upper = true;
  }
  return range;
}

bool InRange(const KeyRange& range, const std::string& key) {
  const bool above = range.lower_inclusive ? key >= range.lower : key > range.lower;
  const bool below =
      !range.has_upper || (range.upper_inclusive ? key <= range.upper : key < range.upper);
  return above && below;
}

// A Query filter may not name key attributes.
Status CheckFilterAvoidsKeys(const Condition& condition, const KeyShape& shape,
                             const std::string& member) {
  for (const Operand& operand : condition.operands) {
    if (operand.kind == Operand::Kind::kValue || operand.path.empty()) continue;
    const std::string& name = operand.path[0].name;
    if (name == shape.partition_name || (shape.has_sort_key() && name == shape.sort_name)) {
      return Error::Validation(member +
                               " can only contain non-primary key attributes: Primary key "
                               "attribute: " +
                               name);
    }
  }
  for (const Condition& child : condition.children) {
    if (Status checked = CheckFilterAvoidsKeys(child, shape, member); !checked.ok()) return checked;
  }
  return Ok{};
}

}  // namespace

Result<ReadPage> Engine::ReadRange(const ItemTable& table, KeyRange range, bool forward,
                                   const ReadOptions& options) const {
  ReadPage page;
  uint64_t bytes_read = 0;
  table.items->Walk(range, forward, [&](std::string_view, std::string_view blob, uint32_t size) {
    Item item = DecodeItem(blob);
    ++page.scanned_count;
    bytes_read += size;
    const bool page_full =
        (options.limit > 0 && page.scanned_count == options.limit) || bytes_read >= kMaxPageBytes;
    // DynamoDB hands back where it stopped whenever a page ends early, whether or not more follow.
    if (page_full) page.last_evaluated_key = KeyAttributes(table.key_shape, item);
    if (options.filter == nullptr || Evaluate(*options.filter, item)) {
      ++page.count;
      if (!options.count_only) {
        page.items.push_back(options.projection ? ProjectItem(item, *options.projection)
                                                : std::move(item));
      }
    }
    return !page_full;
  });
  return page;
}

Result<ReadPage> Engine::Query(const QueryArgs& args) const {
  auto table = FindItemTable(args.table_name);
  if (!table.ok()) return table.error();
  const KeyShape& shape = table.value().key_shape;
  const KeyTerm* partition = nullptr;
  const KeyTerm* sort = nullptr;
  if (Status terms = CheckKeyTerms(shape, args.key_terms, &partition, &sort); !terms.ok()) {
    return terms.error();
  }
  if (args.read.filter != nullptr) {
    if (Status keys = CheckFilterAvoidsKeys(*args.read.filter, shape, args.read.filter_member);
        !keys.ok()) {
      return keys.error();
    }
  }
  KeyRange range = QueryRange(*partition, sort);
  if (args.read.exclusive_start_key) {
    auto start = LookupKeyBytes(shape, *args.read.exclusive_start_key);
    if (!start.ok()) return Error::Validation("The provided starting key is invalid");
    if (!InRange(range, start.value())) {
      return Error::Validation(
          "The provided starting key is outside query boundaries based on provided conditions");
    }
    if (args.scan_index_forward) {
      range.lower = start.value();
      range.lower_inclusive = false;
    } else {
      range.upper = start.value();
      range.upper_inclusive = false;
      range.has_upper = true;
    }
  }
  return ReadRange(table.value(), std::move(range), args.scan_index_forward, args.read);
}

Result<ReadPage> Engine::Scan(const ScanArgs& args) const {
  auto table = FindItemTable(args.table_name);
  if (!table.ok()) return table.error();
  KeyRange range = SegmentRange(args.segment, args.total_segments);
  if (args.read.exclusive_start_key) {
    auto start = LookupKeyBytes(table.value().key_shape, *args.read.exclusive_start_key);
    if (!start.ok()) {
      return Error::Validation(
          "The provided starting key is invalid: The provided key element does not match the "
          "schema");
    }
    if (!InRange(range, start.value())) {
      return Error::Validation(
          "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
          "ExclusiveStartKey with correct Segment. TotalSegments: " +
          std::to_string(args.total_segments) + " Segment: " + std::to_string(args.segment));
    }
    range.lower = start.value();
    range.lower_inclusive = false;
  }
  return ReadRange(table.value(), std::move(range), true, args.read);
}

}  // namespace ddbd
