#include "protocol/partiql/run.h"

#include <algorithm>
#include <utility>

#include "engine/expression/condition.h"
#include "engine/model/item_codec.h"
#include "protocol/partiql/messages.h"
#include "protocol/partiql/parser.h"
#include "protocol/partiql/plan.h"

namespace ddbd::partiql {
namespace {

void Append(StatementOutcome& outcome, ReadPage page) {
  // The first page's buffer is taken whole; a later partition's items are copied after it.
  if (outcome.item_blobs.empty()) {
    outcome.item_blobs = std::move(page.item_blobs);
  } else {
    for (const std::string_view blob : page.item_blobs) outcome.item_blobs.push_back(blob);
  }
  for (Item& item : page.items) outcome.items.push_back(std::move(item));
  outcome.last_evaluated_key = std::move(page.last_evaluated_key);
  if (!page.consumed_capacity) return;
  if (outcome.consumed_capacity) {
    outcome.consumed_capacity->Add(*page.consumed_capacity);
  } else {
    outcome.consumed_capacity = std::move(page.consumed_capacity);
  }
}

Result<StatementOutcome> RunPartitions(Engine& engine, ReadPlan& plan, const RunOptions& options);

Result<StatementOutcome> RunSelect(Engine& engine, const Statement& statement,
                                   const StatementRequest& request, const RunOptions& options,
                                   const KeyNames& keys) {
  ReadPlan plan;
  if (Status planned = PlanSelect(statement, keys, request.consistent_read, plan); !planned.ok()) {
    return planned.error();
  }
  plan.options.limit = options.limit;
  plan.options.exclusive_start_key = options.exclusive_start_key;
  plan.options.return_consumed_capacity = options.return_consumed_capacity;
  plan.options.partiql = true;
  Result<StatementOutcome> outcome = StatementOutcome{};
  if (!plan.is_query) {
    plan.scan.read = plan.options;
    auto page = engine.Scan(plan.scan);
    if (!page.ok()) return page.error();
    Append(outcome.value(), std::move(page).value());
  } else if (plan.partitions.empty()) {
    plan.query.read = plan.options;
    auto page = engine.Query(plan.query);
    if (!page.ok()) return page.error();
    Append(outcome.value(), std::move(page).value());
  } else {
    outcome = RunPartitions(engine, plan, options);
    if (!outcome.ok()) return outcome;
  }
  for (Item& item : outcome.value().items) NameByLastSegment(plan.projection, item);
  return outcome;
}

// `pk IN [...]`: each partition's Query in turn, from where the last page ended, until the
// page is full (the Limit, counted across partitions, or 1 MB in one partition).
Result<StatementOutcome> RunPartitions(Engine& engine, ReadPlan& plan, const RunOptions& options) {
  if (options.start_partition >= plan.partitions.size()) {
    return Error::Validation(std::string(kInvalidNextToken));
  }
  // DynamoDB documents such results as paged "with a maximum of 10 items per page".
  constexpr int64_t kMaxItemsPerPage = 10;
  const int64_t limit =
      options.limit > 0 ? std::min(options.limit, kMaxItemsPerPage) : kMaxItemsPerPage;
  StatementOutcome outcome;
  int64_t evaluated = 0;
  for (size_t i = options.start_partition; i < plan.partitions.size(); ++i) {
    plan.query.key_terms[0].values = {plan.partitions[i]};
    plan.query.read = plan.options;
    if (i != options.start_partition) plan.query.read.exclusive_start_key.reset();
    plan.query.read.limit = limit - evaluated;
    auto page = engine.Query(plan.query);
    if (!page.ok()) return page.error();
    evaluated += page.value().scanned_count;
    Append(outcome, std::move(page).value());
    if (outcome.last_evaluated_key) {
      outcome.partition = i;
      break;
    }
  }
  return outcome;
}

Result<WriteOutcome> RunWrite(Engine& engine, WritePlan plan, const StatementRequest& request,
                              const RunOptions& options) {
  auto fill = [&](WriteArgs& args) {
    args.table_name = plan.table_name;
    args.condition = plan.condition ? &*plan.condition : nullptr;
    args.return_values = plan.returning;
    args.return_item_on_condition_failure = request.return_item_on_condition_failure;
    args.return_consumed_capacity = options.return_consumed_capacity;
    args.partiql = true;
  };
  switch (plan.kind) {
    case Statement::Kind::kInsert: {
      PutItemArgs args;
      fill(args);
      args.return_item_on_condition_failure = false;
      args.item = std::move(plan.item);
      auto outcome = engine.PutItem(args);
      if (!outcome.ok() && outcome.error().code() == ErrorCode::kConditionalCheckFailed) {
        return Error(ErrorCode::kDuplicateItem, std::string(kDuplicateItem));
      }
      return outcome;
    }
    case Statement::Kind::kUpdate: {
      UpdateItemArgs args;
      fill(args);
      args.key = std::move(plan.item);
      args.actions = std::move(plan.actions);
      return engine.UpdateItem(args);
    }
    default: {
      DeleteItemArgs args;
      fill(args);
      args.key = std::move(plan.item);
      return engine.DeleteItem(args);
    }
  }
}

}  // namespace

Result<Statement> ParseRequest(const StatementRequest& request) {
  return Parse(request.statement, request.parameters);
}

Result<StatementOutcome> RunStatement(Engine& engine, Statement statement,
                                      const StatementRequest& request, const RunOptions& options) {
  if (statement.kind == Statement::Kind::kExists) {
    return Error::Validation(std::string(kExistsOutsideTransaction));
  }
  auto keys = FindKeys(engine, statement);
  if (!keys.ok()) return keys.error();
  if (statement.reads()) return RunSelect(engine, statement, request, options, keys.value());
  auto plan = PlanWrite(std::move(statement), keys.value());
  if (!plan.ok()) return plan.error();
  auto written = RunWrite(engine, std::move(plan).value(), request, options);
  if (!written.ok()) return written.error();
  StatementOutcome outcome;
  if (written.value().attributes) outcome.items.push_back(std::move(*written.value().attributes));
  if (written.value().old_item) outcome.item_blobs.push_back(written.value().old_item->blob);
  outcome.consumed_capacity = std::move(written.value().consumed_capacity);
  outcome.ticket = written.value().ticket;
  return outcome;
}

Result<KeyedRead> PlanKeyedRead(const Engine& engine, const Statement& statement,
                                std::string_view not_single) {
  auto keys = FindKeys(engine, statement);
  if (!keys.ok()) return keys.error();
  auto keyed = SplitKey(statement.where, keys.value());
  if (!keyed.ok() || keyed.value().rest) return Error::Validation(std::string(not_single));
  KeyedRead read;
  read.get.table_name = statement.table_name;
  read.get.key = std::move(keyed.value().key);
  read.projection = statement.projection;
  return read;
}

void NameByLastSegment(const std::vector<DocumentPath>& projection, Item& item) {
  auto named_deep = [](const DocumentPath& path) {
    return path.size() > 1 && !path.back().is_index();
  };
  if (std::none_of(projection.begin(), projection.end(), named_deep)) return;
  Item named;
  for (const DocumentPath& path : projection) {
    const std::string& name = named_deep(path) ? path.back().name : path[0].name;
    const AttributeValue* value =
        named_deep(path) ? ResolvePath(item, path) : FindAttribute(item, name);
    if (value != nullptr && FindAttribute(named, name) == nullptr) named.emplace_back(name, *value);
  }
  item = std::move(named);
}

Result<TransactWriteAction> PlanTransactionWrite(const Engine& engine, Statement statement,
                                                 bool return_item_on_condition_failure) {
  if (!statement.index_name.empty()) {
    return Error::Validation(std::string(kTransactionIndexWrite));
  }
  if (statement.returning != ReturnValues::kNone) {
    // UNCONFIRMED text: DynamoDB refuses RETURNING in a transaction (measured), wording unknown.
    return Error::Validation(UnsupportedOperation("RETURNING in transaction"));
  }
  auto keys = FindKeys(engine, statement);
  if (!keys.ok()) return keys.error();
  const Statement::Kind kind = statement.kind;
  auto plan = PlanWrite(std::move(statement), keys.value());
  if (!plan.ok()) return plan.error();
  TransactWriteAction action;
  action.kind = kind == Statement::Kind::kInsert   ? TransactWriteAction::Kind::kPut
                : kind == Statement::Kind::kUpdate ? TransactWriteAction::Kind::kUpdate
                : kind == Statement::Kind::kDelete ? TransactWriteAction::Kind::kDelete
                                                   : TransactWriteAction::Kind::kConditionCheck;
  action.table_name = std::move(plan.value().table_name);
  action.item = std::move(plan.value().item);
  action.actions = std::move(plan.value().actions);
  action.condition = std::move(plan.value().condition);
  action.return_item_on_condition_failure =
      return_item_on_condition_failure && kind != Statement::Kind::kInsert;
  return action;
}

Error WithDuplicateItemReasons(const Error& cancelled, const std::vector<bool>& inserts) {
  const std::vector<CancellationReason>* reasons = cancelled.cancellation_reasons();
  if (reasons == nullptr) return cancelled;
  std::vector<CancellationReason> renamed = *reasons;
  for (size_t i = 0; i < renamed.size() && i < inserts.size(); ++i) {
    if (inserts[i] && renamed[i].code == "ConditionalCheckFailed") {
      renamed[i] = {"DuplicateItem", std::string(kDuplicateItem), nullptr};
    }
  }
  return Error::TransactionCanceled(std::move(renamed));
}

}  // namespace ddbd::partiql
