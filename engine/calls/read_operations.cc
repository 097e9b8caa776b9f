// Engine's Query and Scan: key conditions become one range of key bytes, a parallel-scan segment
// a range of partition hashes; one walk reads a page.
#include <absl/numeric/int128.h>

#include <algorithm>
#include <array>
#include <mutex>

#include "engine/api/reads.h"
#include "engine/calls/engine_state.h"
#include "engine/catalog/insight_counts.h"
#include "engine/catalog/item_writes.h"
#include "engine/engine.h"
#include "engine/model/item_codec.h"
#include "engine/model/key_codec.h"

namespace ddbd {

// Where a read goes: the table, or one of its indexes.
struct ReadTarget {
  const TableIndex* index = nullptr;  // null: the table
  const KeyParts* key = nullptr;      // the key the read is ordered by
  bool fetch_from_table = false;      // a local index read that needs attributes it does not keep
};

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

// A Query's key conditions in key-schema order: an equality for each partition attribute, then
// conditions on the first sort attributes, all equalities but perhaps the last.
struct KeyConditions {
  static constexpr size_t kMaxParts = 4;  // of each kind, in a global index's key
  std::array<const KeyTerm*, kMaxParts> partition{};
  std::array<const KeyTerm*, kMaxParts> sort{};
  size_t sort_count = 0;
};

const KeyTerm* TermOn(const std::vector<KeyTerm>& terms, const std::string& name) {
  for (const KeyTerm& term : terms) {
    if (term.attribute == name) return &term;
  }
  return nullptr;
}

Status CheckTermTypes(const KeyTerm* term, AttributeType type) {
  if (term == nullptr) return Ok{};
  for (const AttributeValue& value : term->values) {
    if (value.type != type) {
      return Error::Validation(
          "One or more parameter values were invalid: Condition parameter type does not match "
          "schema type");
    }
  }
  return Ok{};
}

Result<KeyConditions> MatchKeyTerms(const KeyParts& key, const std::vector<KeyTerm>& terms) {
  KeyConditions matched;
  // More conditions than a one-attribute hash and range key has (recorded against AWS:
  // behaviours-to-match E3; two on a one-attribute key stay "not supported").
  const size_t key_attributes = key.partition.size() + key.sort.size();
  if (key.partition.size() == 1 && key.sort.size() <= 1 && terms.size() > 2 &&
      terms.size() > key_attributes) {
    return Error::Validation("The number of query conditions (" + std::to_string(terms.size()) +
                             ") exceeds the number of key attributes defined in the schema (" +
                             std::to_string(key_attributes) + ")");
  }
  std::array<const KeyTerm*, KeyConditions::kMaxParts> on_sort{};
  // A multi-attribute HASH key names every attribute without an equality at once (recorded
  // against AWS: behaviours-to-match E1).
  if (key.partition.size() > 1) {
    std::string without;
    for (const KeyPart& part : key.partition) {
      const KeyTerm* term = TermOn(terms, part.name);
      if (term != nullptr && term->op == KeyTerm::Op::kEq) continue;
      without += (without.empty() ? "" : ", ") + part.name;
    }
    if (!without.empty()) {
      return Error::Validation("HASH key attributes " + without +
                               " must have equality conditions specified in the query");
    }
  }
  for (size_t i = 0; i < key.partition.size(); ++i) {
    matched.partition[i] = TermOn(terms, key.partition[i].name);
    if (matched.partition[i] == nullptr) {
      return Error::Validation("Query condition missed key schema element: " +
                               key.partition[i].name);
    }
  }
  for (size_t i = 0; i < key.sort.size(); ++i) on_sort[i] = TermOn(terms, key.sort[i].name);
  // Conditions are one per attribute (the protocol layer refuses repeats): any beyond the key's
  // are on other attributes.
  size_t on_key = key.partition.size();
  for (size_t i = 0; i < key.sort.size(); ++i)
    on_key += on_sort[i] != nullptr ? size_t{1} : size_t{0};
  bool partition_equalities = true;
  for (size_t i = 0; i < key.partition.size(); ++i) {
    partition_equalities = partition_equalities && matched.partition[i]->op == KeyTerm::Op::kEq;
  }
  if (on_key != terms.size() || !partition_equalities) {
    return Error::Validation("Query key condition not supported");
  }
  for (size_t i = 0; i < key.partition.size(); ++i) {
    if (Status types = CheckTermTypes(matched.partition[i], key.partition[i].type); !types.ok()) {
      return types.error();
    }
  }
  for (size_t i = 0; i < key.sort.size(); ++i) {
    if (Status types = CheckTermTypes(on_sort[i], key.sort[i].type); !types.ok()) {
      return types.error();
    }
  }
  // Sort attributes are conditioned left to right: a condition on one needs an equality on each
  // before it.
  for (size_t later = 1; later < key.sort.size(); ++later) {
    if (on_sort[later] == nullptr) continue;
    for (size_t prior = 0; prior < later; ++prior) {
      if (on_sort[prior] == nullptr || on_sort[prior]->op != KeyTerm::Op::kEq) {
        return Error::Validation("RANGE key attributes " + key.sort[prior].name +
                                 " must have equality conditions specified in the query because "
                                 "a condition is present on key attribute " +
                                 key.sort[later].name);
      }
    }
  }
  while (matched.sort_count < key.sort.size() && on_sort[matched.sort_count] != nullptr) {
    matched.sort[matched.sort_count] = on_sort[matched.sort_count];
    ++matched.sort_count;
  }
  return matched;
}

// Key bytes of matching items all start with the encoding of their key values: exactly so in the
// table, followed by the table key in an index. So every bound is a prefix bound.
KeyRange QueryRange(const KeyParts& key, const KeyConditions& conditions) {
  std::string partition = BeginKeyBytes();
  for (size_t i = 0; i < key.partition.size(); ++i) {
    AppendKeyValue(partition, conditions.partition[i]->values[0]);
  }
  EndPartition(partition);
  if (conditions.sort_count == 0) {
    return {partition, true, PrefixEnd(partition), false, true, partition};
  }
  // The equalities before the last condition narrow the prefix.
  std::string prefix = partition;
  for (size_t i = 0; i + 1 < conditions.sort_count; ++i) {
    AppendKeyValue(prefix, conditions.sort[i]->values[0]);
  }
  const KeyTerm& sort = *conditions.sort[conditions.sort_count - 1];
  KeyRange range{prefix, true, PrefixEnd(prefix), false, true, partition};
  auto at = [&prefix](const AttributeValue& value) {
    std::string bytes = prefix;
    AppendKeyValue(bytes, value);
    return bytes;
  };
  switch (sort.op) {
    case KeyTerm::Op::kEq:
      return {at(sort.values[0]), true, PrefixEnd(at(sort.values[0])), false, true, partition};
    case KeyTerm::Op::kLt:
      return {prefix, true, at(sort.values[0]), false, true, partition};
    case KeyTerm::Op::kLe:
      return {prefix, true, PrefixEnd(at(sort.values[0])), false, true, partition};
    case KeyTerm::Op::kGt:
      range.lower = PrefixEnd(at(sort.values[0]));
      return range;
    case KeyTerm::Op::kGe:
      range.lower = at(sort.values[0]);
      return range;
    case KeyTerm::Op::kBetween:
      return {at(sort.values[0]), true, PrefixEnd(at(sort.values[1])), false, true, partition};
    case KeyTerm::Op::kBeginsWith: {
      const std::string start = prefix + EscapedPrefix(sort.values[0]);
      return {start, true, PrefixEnd(start), false, true, partition};
    }
  }
  return range;
}

std::string HashBytes(uint64_t hash) {
  const std::array<char, 8> bytes = PartitionHashBytes(hash);
  return std::string(bytes.data(), bytes.size());
}

// Segment i of n covers partition hashes [i * 2^64 / n, (i + 1) * 2^64 / n).
KeyRange SegmentRange(int64_t segment, int64_t total) {
  auto boundary = [total](int64_t index) {
    return absl::Uint128Low64((absl::uint128(static_cast<uint64_t>(index)) << 64) /
                              static_cast<uint64_t>(total));
  };
  KeyRange range{HashBytes(boundary(segment)), true, "", false, false, ""};
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
Status CheckFilterAvoidsKeys(const Condition& condition, const KeyParts& key,
                             const std::string& member) {
  for (const Operand& operand : condition.operands) {
    if (operand.kind == Operand::Kind::kValue || operand.path.empty()) continue;
    const std::string& name = operand.path[0].name;
    if (key.Contains(name)) {
      return Error::Validation(member +
                               " can only contain non-primary key attributes: Primary key "
                               "attribute: " +
                               name);
    }
  }
  for (const Condition& child : condition.children) {
    if (Status checked = CheckFilterAvoidsKeys(child, key, member); !checked.ok()) return checked;
  }
  return Ok{};
}

void AddProjectedName(std::vector<std::string>& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

// The attributes a filter names that `index` does not keep, in the order written.
void FilterUnkept(const Condition& condition, const TableIndexes& indexes, const TableIndex& index,
                  std::vector<std::string>& unkept) {
  for (const Operand& operand : condition.operands) {
    if (operand.kind != Operand::Kind::kValue && !operand.path.empty() &&
        !indexes.Keeps(index, operand.path[0].name)) {
      AddProjectedName(unkept, operand.path[0].name);
    }
  }
  for (const Condition& child : condition.children) {  // at most 300 deep (the operator limit)
    FilterUnkept(child, indexes, index, unkept);
  }
}

std::string Listed(const std::vector<std::string>& names) {
  std::string text = "[";
  for (size_t i = 0; i < names.size(); ++i) text += (i > 0 ? ", " : "") + names[i];
  return text + "]";
}

// What a global index that does not keep every attribute refuses, as DynamoDB words each
// (behaviours-to-match E2): all attributes asked for; a projection naming attributes it does not
// keep; a Query's filter naming them. A Scan's filter may name them: it is evaluated on the
// index's entries, where they are absent (client libraries scan KEYS_ONLY indexes so).
Status CheckGlobalIndexReach(const TableIndexes& indexes, const TableIndex& index,
                             const ReadOptions& options, bool scan) {
  if (options.select_all_attributes) {
    return Error::Validation(
        "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported "
        "for global secondary index " +
        index.name() + " because its projection type is not ALL");
  }
  if (options.projection != nullptr) {
    std::vector<std::string> unkept;
    for (const DocumentPath& path : *options.projection) {
      if (!indexes.Keeps(index, path[0].name)) AddProjectedName(unkept, path[0].name);
    }
    if (!unkept.empty()) {
      return Error::Validation(
          "One or more parameter values were invalid: Global secondary index " + index.name() +
          " does not project " + Listed(unkept));
    }
  }
  if (options.filter != nullptr && !scan) {
    std::vector<std::string> unkept;
    FilterUnkept(*options.filter, indexes, index, unkept);
    if (!unkept.empty()) {
      return Error::Validation(
          "One or more parameter values were invalid: Secondary index " + index.name() +
          " does not project one or more filter attributes: " + Listed(unkept));
    }
  }
  return Ok{};
}

// A start key that is not the target's key.
Error InvalidStartKey(const ReadTarget& target) {
  return Error::Validation(target.index != nullptr
                               ? "The provided starting key is invalid"
                               : "The provided starting key is invalid: The provided key "
                                 "element does not match the schema");
}

Result<ReadTarget> ResolveTarget(const TableIndexes& indexes, const ReadOptions& options,
                                 bool backfilling, bool scan) {
  ReadTarget target{nullptr, &indexes.table_parts(), false};
  if (options.index_name.empty()) return target;
  const TableIndex* index = indexes.Find(options.index_name);
  if (index == nullptr) {
    return Error::Validation("The table does not have the specified index: " + options.index_name);
  }
  if (backfilling && index->description.backfilling) {
    return Error::Validation("Cannot read from backfilling global secondary index: " +
                             index->name());
  }
  if (index->is_global() && options.consistent_read) {
    return Error::Validation("Consistent reads are not supported on global secondary indexes");
  }
  const bool keeps_all = index->projection_type() == ProjectionType::kAll;
  // A global index cannot fetch from the table.
  if (index->is_global() && !keeps_all) {
    if (Status reach = CheckGlobalIndexReach(indexes, *index, options, scan); !reach.ok()) {
      return reach.error();
    }
  }
  target.index = index;
  target.key = &index->key;
  // A local index shares the table's partition: DynamoDB fetches what it does not keep.
  target.fetch_from_table = !index->is_global() && !keeps_all &&
                            (options.select_all_attributes || options.projection != nullptr);
  return target;
}

// The key bytes a start key names in the target, if it holds exactly the target's key attributes
// (an index's start key holds the table's key too).
std::optional<std::string> StartKeyBytes(const KeyShape& table_key, const TableIndexes& indexes,
                                         const ReadTarget& target, const Item& start) {
  if (target.index == nullptr) {
    auto bytes = LookupKeyBytes(table_key, start);
    if (!bytes.ok()) return std::nullopt;
    return bytes.value();
  }
  std::vector<std::pair<std::string, AttributeType>> required;
  auto require = [&](const std::string& name, AttributeType type) {
    if (name.empty()) return;
    for (const auto& [known, ignored] : required) {
      if (known == name) return;
    }
    required.emplace_back(name, type);
  };
  require(table_key.partition_name, table_key.partition_type);
  require(table_key.sort_name, table_key.sort_type);
  for (const auto* parts : {&target.key->partition, &target.key->sort}) {
    for (const KeyPart& part : *parts) require(part.name, part.type);
  }
  if (start.size() != required.size()) return std::nullopt;
  for (const auto& [name, type] : required) {
    const AttributeValue* value = FindAttribute(start, name);
    if (value == nullptr || value->type != type) return std::nullopt;
  }
  return indexes.EntryKey(*target.index, start);
}

Item LastEvaluatedKey(const KeyShape& table_key, const ReadTarget& target, const Item& item) {
  Item key = KeyAttributes(table_key, item);
  if (target.index == nullptr) return key;
  for (const auto* parts : {&target.key->partition, &target.key->sort}) {
    for (const KeyPart& part : *parts) {
      if (FindAttribute(key, part.name) != nullptr) continue;
      if (const AttributeValue* value = FindAttribute(item, part.name)) {
        key.emplace_back(part.name, *value);
      }
    }
  }
  return key;
}

// One page of the range `target` reads of the table, with the options every read shares.
// `query`: a Query's key conditions (null for a Scan), what Contributor Insights counts it by.
Result<ReadPage> ReadRange(const Clock& clock, std::string_view table_name, const ItemTable& table,
                           const ReadTarget& target, KeyRange range, bool forward,
                           const ReadOptions& options, const std::vector<KeyTerm>* query) {
  // A global index has capacity of its own; a local one shares the table's.
  const bool global = target.index != nullptr && target.index->is_global();
  const std::string_view global_name = global ? std::string_view(target.index->name()) : "";
  if (options.partiql) query = nullptr;  // Contributor Insights does not count PartiQL
  const int64_t now_ms = ThroughputNow(clock, table);
  if (Status admitted = AdmitRead(table, global_name, now_ms); !admitted.ok()) {
    if (query != nullptr)
      CountQuery(table, global_name, *query, nullptr, &admitted.error(), now_ms);
    return admitted.error();
  }
  // An eventually consistent read may see the table as it was a moment ago (--stale-reads-ms).
  const int64_t moment_ms = table.items->ReadMoment(options.consistent_read);
  ReadPage page;
  uint64_t bytes_read = 0;
  uint64_t bytes_fetched = 0;  // from the table, for a local index
  auto visit = [&](std::string_view, std::string_view blob, uint32_t size) {
    // Decoded only when something reads attributes: a filter, a projection, a page's last key
    // or an LSI entry's table key. A plain page copies blobs and encodes them as they are.
    std::optional<Item> decoded;
    auto item = [&]() -> const Item& {
      if (!decoded) decoded = DecodeItem(blob);
      return *decoded;
    };
    if (target.fetch_from_table) {
      const KeyShape& key = table.key_shape;
      const AttributeValue* sort =
          key.has_sort_key() ? FindAttribute(item(), key.sort_name) : nullptr;
      std::string_view table_blob;
      uint32_t table_size = 0;
      if (table.items->FindDuringWalk(
              EncodeTableKey(*FindAttribute(item(), key.partition_name), sort), &table_blob,
              &table_size, moment_ms)) {
        blob = table_blob;
        decoded.reset();
        bytes_fetched += table_size;
      }
    }
    ++page.scanned_count;
    bytes_read += size;
    const bool page_full =
        (options.limit > 0 && page.scanned_count == options.limit) || bytes_read >= kMaxPageBytes;
    // DynamoDB hands back where it stopped whenever a page ends early, whether or not more follow.
    if (page_full) page.last_evaluated_key = LastEvaluatedKey(table.key_shape, target, item());
    if (options.filter == nullptr || Evaluate(*options.filter, item())) {
      ++page.count;
      if (options.projection) {
        if (!options.count_only) page.items.push_back(ProjectItem(item(), *options.projection));
      } else if (!options.count_only) {
        page.item_blobs.push_back(blob);
      }
    }
    return !page_full;
  };
  if (target.index != nullptr) {
    table.items->CatchUpIndexes();  // a lagging global index takes the changes due by now
    table.items->WalkIndex(target.index->number, range, forward, visit, moment_ms);
  } else {
    table.items->Walk(range, forward, visit, moment_ms);
  }
  if (Counted(options.return_consumed_capacity, table)) {
    ConsumedCapacity& consumed = page.consumed_capacity.emplace();
    // Named only when reported: the charge needs no name, and a long one would allocate.
    if (options.return_consumed_capacity != ReturnConsumedCapacity::kNone) {
      consumed.table_name = std::string(table_name);
    }
    const double units = ReadUnits(bytes_read, options.consistent_read);
    if (target.index == nullptr) {
      consumed.table_units = units;
    } else {
      consumed.AddIndex(target.index->name(), target.index->is_global(), units);
      if (bytes_fetched > 0)
        consumed.table_units = ReadUnits(bytes_fetched, options.consistent_read);
    }
    ChargeRead(table, consumed, now_ms);
    if (query != nullptr) CountQuery(table, global_name, *query, &consumed, nullptr, now_ms);
    if (options.return_consumed_capacity == ReturnConsumedCapacity::kNone) {
      page.consumed_capacity.reset();
    }
  }
  return page;
}

}  // namespace

Result<ReadKeySchema> Engine::KeySchemaOf(std::string_view table_name,
                                          std::string_view index_name) const {
  auto table = state_->catalog.FindItemTable(table_name);
  if (!table.ok()) return table.error();
  const TableIndexes& indexes = *table.value().indexes;
  if (index_name.empty()) return ReadKeySchema{indexes.table_parts(), false};
  const TableIndex* index = indexes.Find(index_name);
  if (index == nullptr) {
    return Error::Validation("The table does not have the specified index");
  }
  return ReadKeySchema{index->key, index->is_global()};
}

Result<ReadPage> Engine::Query(const QueryArgs& args) const {
  auto table = state_->catalog.FindItemTable(args.table_name);
  if (!table.ok()) return table.error();
  auto target = ResolveTarget(*table.value().indexes, args.read, table.value().backfilling, false);
  if (!target.ok()) return target.error();
  const KeyParts& key = *target.value().key;
  auto conditions = MatchKeyTerms(key, args.key_terms);
  if (!conditions.ok()) return conditions.error();
  if (args.read.filter != nullptr && !args.read.filter_may_name_keys) {
    if (Status keys = CheckFilterAvoidsKeys(*args.read.filter, key, args.read.filter_member);
        !keys.ok()) {
      return keys.error();
    }
  }
  KeyRange range = QueryRange(key, conditions.value());
  if (args.read.exclusive_start_key) {
    auto start = StartKeyBytes(table.value().key_shape, *table.value().indexes, target.value(),
                               *args.read.exclusive_start_key);
    if (!start) return InvalidStartKey(target.value());
    // A table without a sort key holds one item per partition: its Query cannot resume. The
    // start key is rendered as coral renders it (behaviours-to-match E4, one observation).
    if (target.value().index == nullptr && key.sort.empty()) {
      std::string rendered;
      for (const auto& [name, value] : *args.read.exclusive_start_key) {
        rendered += (rendered.empty() ? "" : ", ") + name + "=AttributeValue: {" +
                    std::string(TypeName(value.type)) + ":" + value.scalar + "}";
      }
      return Error::Validation("The provided exclusive start key is invalid: ExclusiveStartKey: {" +
                               rendered + "}");
    }
    if (!InRange(range, *start)) {
      return Error::Validation(
          "The provided starting key is outside query boundaries based on provided conditions");
    }
    if (args.scan_index_forward) {
      range.lower = *start;
      range.lower_inclusive = false;
    } else {
      range.upper = *start;
      range.upper_inclusive = false;
      range.has_upper = true;
    }
  }
  if (Status strong = CheckStrongRead(table.value(), args.read.consistent_read); !strong.ok()) {
    return strong.error();
  }
  return ReadRange(clock_, args.table_name, table.value(), target.value(), std::move(range),
                   args.scan_index_forward, args.read, &args.key_terms);
}

Result<ReadPage> Engine::Scan(const ScanArgs& args) const {
  auto table = state_->catalog.FindItemTable(args.table_name);
  if (!table.ok()) return table.error();
  auto target = ResolveTarget(*table.value().indexes, args.read, table.value().backfilling, true);
  if (!target.ok()) return target.error();
  KeyRange range = SegmentRange(args.segment, args.total_segments);
  if (args.read.exclusive_start_key) {
    auto start = StartKeyBytes(table.value().key_shape, *table.value().indexes, target.value(),
                               *args.read.exclusive_start_key);
    if (!start) return InvalidStartKey(target.value());
    if (!InRange(range, *start)) {
      return Error::Validation(
          "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
          "ExclusiveStartKey with correct Segment. TotalSegments: " +
          std::to_string(args.total_segments) + " Segment: " + std::to_string(args.segment));
    }
    range.lower = *start;
    range.lower_inclusive = false;
  }
  if (Status strong = CheckStrongRead(table.value(), args.read.consistent_read); !strong.ok()) {
    return strong.error();
  }
  return ReadRange(clock_, args.table_name, table.value(), target.value(), std::move(range), true,
                   args.read, nullptr);
}

}  // namespace ddbd
