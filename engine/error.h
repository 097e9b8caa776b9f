// The one error type of ddbd. Every fallible engine and protocol function returns Result<T>;
// protocol/error_response.cc is the only place that turns an Error into DynamoDB's wire shape.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ddbd {

// An item, as engine/model/attribute_value.h defines it: an error may carry one (ConditionalCheck
// Failed with ALL_OLD), which does not make errors stand on the values (error.h is below them).
struct AttributeValue;
using AttributeMap = std::vector<std::pair<std::string, AttributeValue>>;
using Item = AttributeMap;

// One value per DynamoDB error `__type` that ddbd can send. The wire prefix and HTTP status of
// each live in protocol/error_response.cc.
enum class ErrorCode {
  kValidation,                  // com.amazon.coral.validate#ValidationException
  kSerialization,               // com.amazon.coral.service#SerializationException
  kUnknownOperation,            // com.amazon.coral.service#UnknownOperationException
  kMissingAuthenticationToken,  // com.amazon.coral.service#MissingAuthenticationTokenException
  kIncompleteSignature,         // com.amazon.coral.service#IncompleteSignatureException
  kInvalidSignature,            // com.amazon.coral.service#InvalidSignatureException
  kUnrecognizedClient,          // com.amazon.coral.service#UnrecognizedClientException
  kResourceNotFound,            // com.amazonaws.dynamodb.v20120810#ResourceNotFoundException
  kResourceInUse,               // com.amazonaws.dynamodb.v20120810#ResourceInUseException
  kLimitExceeded,               // com.amazonaws.dynamodb.v20120810#LimitExceededException
  kConditionalCheckFailed,      // com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException
  kItemCollectionSizeLimitExceeded,  // ...v20120810#ItemCollectionSizeLimitExceededException
  kProvisionedThroughputExceeded,    // ...v20120810#ProvisionedThroughputExceededException
  kThrottling,                       // com.amazon.coral.availability#ThrottlingException
  kTransactionCanceled,              // ...v20120810#TransactionCanceledException
  kIdempotentParameterMismatch,      // ...v20120810#IdempotentParameterMismatchException
  kTransactionInProgress,            // ...v20120810#TransactionInProgressException
  kTransactionConflict,              // ...v20120810#TransactionConflictException
  kExpiredIterator,                  // ...v20120810#ExpiredIteratorException (Streams)
  kTrimmedDataAccess,                // ...v20120810#TrimmedDataAccessException (Streams)
  kPolicyNotFound,                   // ...v20120810#PolicyNotFoundException
  kTableNotFound,                    // ...v20120810#TableNotFoundException
  kTableAlreadyExists,               // ...v20120810#TableAlreadyExistsException
  kBackupNotFound,                   // ...v20120810#BackupNotFoundException
  kPointInTimeRecoveryUnavailable,   // ...v20120810#PointInTimeRecoveryUnavailableException
  kInvalidRestoreTime,               // ...v20120810#InvalidRestoreTimeException
  kDuplicateItem,                    // ...v20120810#DuplicateItemException (PartiQL INSERT)
  kExportNotFound,                   // ...v20120810#ExportNotFoundException
  kExportConflict,                   // ...v20120810#ExportConflictException
  kInvalidExportTime,                // ...v20120810#InvalidExportTimeException
  kImportNotFound,                   // ...v20120810#ImportNotFoundException
  kImportConflict,                   // ...v20120810#ImportConflictException
  kGlobalTableAlreadyExists,         // ...v20120810#GlobalTableAlreadyExistsException
  kGlobalTableNotFound,              // ...v20120810#GlobalTableNotFoundException
  kReplicaAlreadyExists,             // ...v20120810#ReplicaAlreadyExistsException
  kReplicaNotFound,                  // ...v20120810#ReplicaNotFoundException
  kIndexNotFound,                    // ...v20120810#IndexNotFoundException
  kReplicatedWriteConflict,          // ...v20120810#ReplicatedWriteConflictException
  kAccessDenied,                     // com.amazon.coral.service#AccessDeniedException
  kInternalServerError,              // com.amazonaws.dynamodb.v20120810#InternalServerError
};

// Why a request was throttled: `reason` as {Table|Index}{Read|Write}<limit type>, `resource` the
// table's or index's ARN.
struct ThrottlingReason {
  std::string reason;
  std::string resource;
};

// Why one action of a cancelled transaction failed, in request order. `code` "None" (with no
// message) for an action that would have succeeded.
struct CancellationReason {
  std::string code;
  std::string message;
  std::shared_ptr<const Item> item;  // ConditionalCheckFailed with ALL_OLD, when there was one
};

// The head of most ValidationException messages about a request's parameters.
inline constexpr char kInvalidParameterValues[] = "One or more parameter values were invalid: ";

class Error {
 public:
  Error(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Error Validation(std::string message) {
    return {ErrorCode::kValidation, std::move(message)};
  }
  static Error Serialization(std::string message) {
    return {ErrorCode::kSerialization, std::move(message)};
  }
  static Error ResourceNotFound(std::string message) {
    return {ErrorCode::kResourceNotFound, std::move(message)};
  }
  static Error ResourceInUse(std::string message) {
    return {ErrorCode::kResourceInUse, std::move(message)};
  }
  static Error LimitExceeded(std::string message) {
    return {ErrorCode::kLimitExceeded, std::move(message)};
  }
  static Error Internal(std::string message) {
    return {ErrorCode::kInternalServerError, std::move(message)};
  }
  // ResourceNotFoundException naming a table: how most operations say it is not there.
  static Error TableResourceNotFound(std::string_view table) {
    return ResourceNotFound("Requested resource not found: Table: " + std::string(table) +
                            " not found");
  }
  // TableNotFoundException, as the backup, restore and export operations word it (others say
  // ResourceNotFoundException).
  static Error TableNotFound(const std::string& table) {
    return {ErrorCode::kTableNotFound, "Table not found: " + table};
  }
  // "The conditional request failed", carrying the current item when the caller asked for it
  // (ReturnValuesOnConditionCheckFailure: ALL_OLD).
  static Error ConditionalCheckFailed(std::shared_ptr<const Item> item) {
    Error error(ErrorCode::kConditionalCheckFailed, "The conditional request failed");
    error.item_ = std::move(item);
    return error;
  }

  // ProvisionedThroughputExceededException or ThrottlingException, with why.
  static Error Throttled(ErrorCode code, std::string message, ThrottlingReason reason) {
    Error error(code, std::move(message));
    error.throttling_reason_ = std::make_shared<const ThrottlingReason>(std::move(reason));
    return error;
  }

  // "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ...]".
  static Error TransactionCanceled(std::vector<CancellationReason> reasons) {
    std::string codes;
    for (const CancellationReason& reason : reasons) {
      codes += codes.empty() ? "" : ", ";
      codes += reason.code;
    }
    Error error(ErrorCode::kTransactionCanceled,
                "Transaction cancelled, please refer cancellation reasons for specific reasons [" +
                    codes + "]");
    error.cancellation_reasons_ =
        std::make_shared<const std::vector<CancellationReason>>(std::move(reasons));
    return error;
  }

  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  const Item* item() const { return item_.get(); }
  const ThrottlingReason* throttling_reason() const { return throttling_reason_.get(); }
  const std::vector<CancellationReason>* cancellation_reasons() const {
    return cancellation_reasons_.get();
  }

 private:
  ErrorCode code_;
  std::string message_;
  std::shared_ptr<const Item> item_;  // shared: errors are copied freely
  std::shared_ptr<const ThrottlingReason> throttling_reason_;
  std::shared_ptr<const std::vector<CancellationReason>> cancellation_reasons_;
};

// A value or an Error. Deliberately small: `ok()`, `value()`, `error()`.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T& value() & { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const Error& error() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

// Result of a function that returns nothing on success.
struct Ok {};
using Status = Result<Ok>;

}  // namespace ddbd
