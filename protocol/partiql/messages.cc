#include "protocol/partiql/messages.h"

#include "protocol/ascii.h"

namespace ddbd::partiql {

std::string NotWellFormed(std::string_view detail) {
  return "Statement wasn't well formed, can't be processed: " + std::string(detail);
}

std::string InvalidDeleteReturning(std::string_view what) {
  return "Invalid returning clause: RETURNING " + std::string(what) +
         ". Only RETURNING ALL OLD * is allowed in DELETE statements.";
}

std::string OrderByNotKey(std::string_view name) {
  return "Variable reference " + std::string(name) +
         " in ORDER BY clause must be part of the primary key";
}

std::string UnsupportedIsType(std::string_view type) {
  return "Unsupported data type for IS operator: " + std::string(type) +
         ". Supported data types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, "
         "TUPLE, LIST]";
}

std::string DuplicateTupleKey(std::string_view key, std::string_view path) {
  return "Duplicate keys in tuple. Key: " + std::string(key) + " under " + std::string(path);
}

std::string MultipleKeyConditions(std::string_view name) {
  return "Multiple conditions on same key " + std::string(name) +
         ". Only single item Update/Insert/Delete are supported";
}

std::string KeyAttributeAbsent(std::string_view name) {
  return "Key attribute should be present in the item: Key " + std::string(name);
}

std::string UnrecognizedFunction(const Token& name) {
  return "Unrecognized function: " + AsciiLower(name.text) + At(name);
}

std::string UnsupportedOperation(std::string_view what) {
  return "Unsupported operation: " + std::string(what);
}

std::string SetFunctionTarget(std::string_view op, const Token& token) {
  return "The first argument to SET_" + std::string(op) + " must equal the assignment value" +
         At(token);
}

std::string SetFunctionArity(std::string_view op, const Token& token) {
  return "SET_" + std::string(op) + " must have exactly two arguments" + At(token);
}

std::string SetFunctionOperand(std::string_view op, const Token& token) {
  return "The second argument to SET_" + std::string(op) + " must be a value with type SET" +
         At(token);
}

std::string OperandCount(std::string_view function, size_t count) {
  return "Incorrect number of operands for operator or function; operator or function: " +
         AsciiLower(function) + ", number of operands: " + std::to_string(count);
}

std::string RequiresPath(std::string_view function) {
  return "Operator or function requires a document path; operator or function: " +
         AsciiLower(function);
}

std::string InTransactStatement(size_t index, std::string_view message) {
  return "Validation failed in TransactStatements[" + std::to_string(index) +
         "]: " + std::string(message);
}

}  // namespace ddbd::partiql
