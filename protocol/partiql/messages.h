// DynamoDB's PartiQL error texts, in one place: tests and clients compare them verbatim.
// Sources: DynamoDB's responses as recorded by public conformance suites (the "wasn't well
// formed" details, aliasing, number literals) and DynamoDB Local's message catalogue, which
// shares DynamoDB's PartiQL front end.
#pragma once

#include <string>
#include <string_view>

#include "protocol/partiql/lexer.h"

namespace ddbd::partiql {

// "Statement wasn't well formed, can't be processed: <detail>".
std::string NotWellFormed(std::string_view detail);

inline constexpr std::string_view kUnexpectedTerm = "Unexpected term";
inline constexpr std::string_view kUnexpectedKeyword = "Unexpected keyword";
inline constexpr std::string_view kUnexpectedOperator = "Unexpected operator";
inline constexpr std::string_view kUnexpectedToken = "Unexpected token after expression";
inline constexpr std::string_view kMissingRightHandSide =
    "Missing right-hand side expression of infix operator";
inline constexpr std::string_view kExpectedDataManipulation = "Expected data manipulation";
inline constexpr std::string_view kExpectedIdentifier = "Expected identifier for simple path";
inline constexpr std::string_view kExpectedTypeName = "Expected type name";

inline constexpr std::string_view kAliasing = "Aliasing is not supported";
inline constexpr std::string_view kExistsWithoutCondition =
    "EXISTS() must contain a single item read with additional condition";
// Any statement on a global index keyed by several HASH or RANGE attributes (recorded against
// AWS: ../shared/behaviours-to-match.md D6).
inline constexpr std::string_view kMultiAttributeKeys =
    "PartiQL statements cannot be executed on tables with multi-attribute HASH keys or "
    "multi-attribute RANGE keys.";
inline constexpr std::string_view kIncompleteKey =
    "Where clause does not contain a mandatory equality on all key attributes";
inline constexpr std::string_view kParameterCount =
    "Number of parameters in request and statement don't match.";
inline constexpr std::string_view kStarAndOthers =
    "Other attributes should not be present in the projection when '*' is used.";
inline constexpr std::string_view kDuplicateItem = "Duplicate primary key exists in table";
inline constexpr std::string_view kInsertReturning = "RETURNING is not supported in INSERT";
inline constexpr std::string_view kInsertItemSyntax =
    "Unsupported format in item expression. Please use struct format {...} to express item "
    "values for insert statement.";
inline constexpr std::string_view kInsertMultiple =
    "Unsupported operation: Inserting multiple items in a single statement is not supported, use "
    "\"INSERT INTO tableName VALUE item\" instead";
inline constexpr std::string_view kEmptyBag = "Empty bags are not supported";
inline constexpr std::string_view kBagType =
    "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags";
inline constexpr std::string_view kMissingNeedsIs = "MISSING must be compared using IS operator";
inline constexpr std::string_view kExistsOutsideTransaction =
    "EXISTS can only be used in ExecuteTransaction write requests.";
inline constexpr std::string_view kTransactionSelectKey =
    "Select statements within ExecuteTransaction must specify the primary key in the where "
    "clause.";
inline constexpr std::string_view kTransactionIndexRead =
    "Reads on indices are not supported within transactions.";
inline constexpr std::string_view kTransactionIndexWrite =
    "Operations on indices are not supported in transactions";
inline constexpr std::string_view kTransactionMixed =
    "ExecuteTransaction API does not support both read and write operations in the same "
    "request.";
inline constexpr std::string_view kBatchMixed =
    "Read and write requests together in the same batch is not supported.";
// Recorded against AWS (behaviours-to-match D2; DynamoDB Local says "Only single item select is
// supported").
inline constexpr std::string_view kBatchSelect =
    "Select statements within BatchExecuteStatement must specify the primary key in the where "
    "clause.";
inline constexpr std::string_view kIndexWrite = "This operation is not supported on an index";
inline constexpr std::string_view kConsistentReadOnGlobalIndex =
    "Strongly consistent read is not supported on Global Secondary Indexes";
inline constexpr std::string_view kOrderByWithoutWhere =
    "Must have WHERE clause in the statement when using ORDER BY clause.";
inline constexpr std::string_view kOrderByWithoutHashKey =
    "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY "
    "clause.";
inline constexpr std::string_view kInvalidNextToken = "Invalid NextToken";
inline constexpr std::string_view kNextTokenMismatch = "NextToken does not match request";
inline constexpr std::string_view kUpdateOnlySetRemove =
    "Only SET and REMOVE are supported in update expressions at this time";
inline constexpr std::string_view kPathStartsWithIndex = "A path cannot start with a list index";

// "Invalid returning clause: RETURNING <what>. Only RETURNING ALL OLD * is allowed in DELETE
// statements."
std::string InvalidDeleteReturning(std::string_view what);
// "Variable reference <name> in ORDER BY clause must be part of the primary key".
std::string OrderByNotKey(std::string_view name);
// "Unsupported data type for IS operator: <type>. Supported data types are [...]".
std::string UnsupportedIsType(std::string_view type);
// "Duplicate keys in tuple. Key: <key> under <path>".
std::string DuplicateTupleKey(std::string_view key, std::string_view path);
// "Multiple conditions on same key <name>. Only single item Update/Insert/Delete are supported".
std::string MultipleKeyConditions(std::string_view name);
// "Key attribute should be present in the item: Key <name>".
std::string KeyAttributeAbsent(std::string_view name);
// "Unrecognized function: <name in lower case> at 1:<column>:<length>" for the call's name
// token / "Unsupported operation: <what>".
std::string UnrecognizedFunction(const Token& name);
std::string UnsupportedOperation(std::string_view what);
// "The first argument to SET_<OP> must equal the assignment value", "SET_<OP> must have exactly
// two arguments", "The second argument to SET_<OP> must be a value with type SET", each placed
// at `token` (recorded against AWS: behaviours-to-match D3).
std::string SetFunctionTarget(std::string_view op, const Token& token);
std::string SetFunctionArity(std::string_view op, const Token& token);
std::string SetFunctionOperand(std::string_view op, const Token& token);
// "Incorrect number of operands for operator or function; operator or function: <name>, number
// of operands: <count>" and "Operator or function requires a document path; operator or
// function: <name>", the name in lower case.
std::string OperandCount(std::string_view function, size_t count);
std::string RequiresPath(std::string_view function);
// "Validation failed in TransactStatements[<i>]: <message>" (ExecuteTransaction).
std::string InTransactStatement(size_t index, std::string_view message);

}  // namespace ddbd::partiql
