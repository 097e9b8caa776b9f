#include "protocol/error_response.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "protocol/attribute_value_json.h"
#include "protocol/generated/responses.h"

namespace ddbd {
namespace {

struct WireError {
  const char* type;
  const char* message_key;  // coral's SerializationException says "Message"; the rest "message"
  int http_status;
};

WireError WireErrorFor(ErrorCode code) {
  switch (code) {
    case ErrorCode::kValidation:
      return {"com.amazon.coral.validate#ValidationException", "message", 400};
    case ErrorCode::kSerialization:
      return {"com.amazon.coral.service#SerializationException", "Message", 400};
    case ErrorCode::kUnknownOperation:
      return {"com.amazon.coral.service#UnknownOperationException", "message", 400};
    case ErrorCode::kMissingAuthenticationToken:
      return {"com.amazon.coral.service#MissingAuthenticationTokenException", "message", 400};
    case ErrorCode::kIncompleteSignature:
      return {"com.amazon.coral.service#IncompleteSignatureException", "message", 400};
    case ErrorCode::kInvalidSignature:
      return {"com.amazon.coral.service#InvalidSignatureException", "message", 400};
    case ErrorCode::kUnrecognizedClient:
      return {"com.amazon.coral.service#UnrecognizedClientException", "message", 400};
    case ErrorCode::kResourceNotFound:
      return {"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", "message", 400};
    case ErrorCode::kResourceInUse:
      return {"com.amazonaws.dynamodb.v20120810#ResourceInUseException", "message", 400};
    case ErrorCode::kLimitExceeded:
      return {"com.amazonaws.dynamodb.v20120810#LimitExceededException", "message", 400};
    case ErrorCode::kConditionalCheckFailed:
      return {"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException", "message", 400};
    case ErrorCode::kItemCollectionSizeLimitExceeded:
      return {"com.amazonaws.dynamodb.v20120810#ItemCollectionSizeLimitExceededException",
              "message", 400};
    case ErrorCode::kProvisionedThroughputExceeded:
      return {"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException", "message",
              400};
    case ErrorCode::kThrottling:
      return {"com.amazon.coral.availability#ThrottlingException", "message", 400};
    case ErrorCode::kTransactionCanceled:
      // Its message member is "Message", as verified responses show.
      return {"com.amazonaws.dynamodb.v20120810#TransactionCanceledException", "Message", 400};
    case ErrorCode::kIdempotentParameterMismatch:
      return {"com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException", "message",
              400};
    case ErrorCode::kTransactionInProgress:
      return {"com.amazonaws.dynamodb.v20120810#TransactionInProgressException", "message", 400};
    case ErrorCode::kTransactionConflict:
      return {"com.amazonaws.dynamodb.v20120810#TransactionConflictException", "message", 400};
    case ErrorCode::kExpiredIterator:
      return {"com.amazonaws.dynamodb.v20120810#ExpiredIteratorException", "message", 400};
    case ErrorCode::kTrimmedDataAccess:
      return {"com.amazonaws.dynamodb.v20120810#TrimmedDataAccessException", "message", 400};
    case ErrorCode::kPolicyNotFound:
      return {"com.amazonaws.dynamodb.v20120810#PolicyNotFoundException", "message", 400};
    case ErrorCode::kTableNotFound:
      return {"com.amazonaws.dynamodb.v20120810#TableNotFoundException", "message", 400};
    case ErrorCode::kTableAlreadyExists:
      return {"com.amazonaws.dynamodb.v20120810#TableAlreadyExistsException", "message", 400};
    case ErrorCode::kBackupNotFound:
      return {"com.amazonaws.dynamodb.v20120810#BackupNotFoundException", "message", 400};
    case ErrorCode::kPointInTimeRecoveryUnavailable:
      return {"com.amazonaws.dynamodb.v20120810#PointInTimeRecoveryUnavailableException", "message",
              400};
    case ErrorCode::kInvalidRestoreTime:
      return {"com.amazonaws.dynamodb.v20120810#InvalidRestoreTimeException", "message", 400};
    case ErrorCode::kDuplicateItem:
      return {"com.amazonaws.dynamodb.v20120810#DuplicateItemException", "message", 400};
    case ErrorCode::kExportNotFound:
      return {"com.amazonaws.dynamodb.v20120810#ExportNotFoundException", "message", 400};
    case ErrorCode::kExportConflict:
      return {"com.amazonaws.dynamodb.v20120810#ExportConflictException", "message", 400};
    case ErrorCode::kInvalidExportTime:
      return {"com.amazonaws.dynamodb.v20120810#InvalidExportTimeException", "message", 400};
    case ErrorCode::kImportNotFound:
      return {"com.amazonaws.dynamodb.v20120810#ImportNotFoundException", "message", 400};
    case ErrorCode::kImportConflict:
      return {"com.amazonaws.dynamodb.v20120810#ImportConflictException", "message", 400};
    case ErrorCode::kGlobalTableAlreadyExists:
      return {"com.amazonaws.dynamodb.v20120810#GlobalTableAlreadyExistsException", "message", 400};
    case ErrorCode::kGlobalTableNotFound:
      return {"com.amazonaws.dynamodb.v20120810#GlobalTableNotFoundException", "message", 400};
    case ErrorCode::kReplicaAlreadyExists:
      return {"com.amazonaws.dynamodb.v20120810#ReplicaAlreadyExistsException", "message", 400};
    case ErrorCode::kReplicaNotFound:
      return {"com.amazonaws.dynamodb.v20120810#ReplicaNotFoundException", "message", 400};
    case ErrorCode::kIndexNotFound:
      return {"com.amazonaws.dynamodb.v20120810#IndexNotFoundException", "message", 400};
    case ErrorCode::kReplicatedWriteConflict:
      return {"com.amazonaws.dynamodb.v20120810#ReplicatedWriteConflictException", "message", 400};
    case ErrorCode::kAccessDenied:
      return {"com.amazon.coral.service#AccessDeniedException", "message", 400};
    case ErrorCode::kInternalServerError:
      break;
  }
  return {"com.amazonaws.dynamodb.v20120810#InternalServerError", "message", 500};
}

}  // namespace

std::string_view BoundedMessage(std::string_view message) {
  if (message.size() <= kMaxErrorMessageBytes) return message;
  // Cut on a character boundary: never in the middle of a UTF-8 sequence.
  size_t end = kMaxErrorMessageBytes;
  while (end > 0 && (static_cast<unsigned char>(message[end]) & 0xC0) == 0x80) --end;
  return message.substr(0, end);
}

DispatchResult ErrorResponse(const Error& error) {
  const WireError wire = WireErrorFor(error.code());
  json::Buffer buffer;
  json::Writer writer(buffer);
  writer.StartObject();
  writer.Key("__type");
  writer.String(wire.type);
  // DynamoDB sends some coral errors (a malformed body, an unknown target) with no message.
  if (!error.message().empty()) {
    writer.Key(wire.message_key);
    const std::string_view message = BoundedMessage(error.message());
    writer.String(message.data(), static_cast<rapidjson::SizeType>(message.size()));
  }
  if (error.item() != nullptr) {  // ReturnValuesOnConditionCheckFailure: ALL_OLD
    wire::out::ConditionalCheckFailedException(writer).Item(
        [&](json::Writer& item) { EncodeItem(item, *error.item()); });
  }
  if (const auto* reasons = error.cancellation_reasons()) {
    // In request order; "None" carries no Message.
    wire::out::TransactionCanceledException canceled(writer);
    canceled.CancellationReasons([&](wire::out::CancellationReasonList& list) {
      for (const CancellationReason& reason : *reasons) {
        list.Add([&](wire::out::CancellationReason& out) {
          out.Code(reason.code);
          if (!reason.message.empty()) out.Message(reason.message);
          if (reason.item != nullptr) {
            out.Item([&](json::Writer& item) { EncodeItem(item, *reason.item); });
          }
        });
      }
    });
  }
  if (const ThrottlingReason* reason = error.throttling_reason()) {
    // botocore's model spells the member differently on the two exceptions.
    const auto write_reasons = [&](wire::out::ThrottlingReasonList& list) {
      list.Add([&](wire::out::ThrottlingReason& out) {
        out.reason(reason->reason);
        out.resource(reason->resource);
      });
    };
    if (error.code() == ErrorCode::kThrottling) {
      wire::out::ThrottlingException(writer).throttlingReasons(write_reasons);
    } else {
      wire::out::ProvisionedThroughputExceededException(writer).ThrottlingReasons(write_reasons);
    }
  }
  writer.EndObject();
  return {wire.http_status, std::string(buffer.GetString(), buffer.GetSize())};
}

}  // namespace ddbd
