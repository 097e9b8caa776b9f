// Document paths inside expressions (a.b[2], #name.c) and the ExpressionAttributeNames that
// placeholders resolve through, shared by every expression of one request.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "engine/error.h"
#include "engine/model/document_path.h"
#include "protocol/expression/tokenizer.h"
#include "protocol/json_reader.h"

namespace ddbd {

// Whether a parse resolves placeholders as it meets them, or leaves them in place to be bound to
// each request's names and values later (kept_parses.cc): the checks of what they are bound to
// are then skipped, and made at each binding.
enum class Binding { kNow, kLater };

// Problems DynamoDB reports only once the whole expression parsed, in this order of priority.
struct DeferredErrors {
  std::optional<Error> reserved_word;
  std::optional<Error> undefined_name;
  std::optional<Error> undefined_value;
  std::optional<Error> semantic;  // wrong function, operand count or type, bounds, ...
  // A KeyConditionExpression reports an undefined value and a semantic error in the order they
  // are written; other expressions the undefined value first (recorded against AWS:
  // ../shared/behaviours-to-match.md B6).
  bool values_in_written_order = false;
  std::optional<Error> first_value_or_semantic;
  Status First() const;
  void Semantic(Error error) {
    if (!first_value_or_semantic) first_value_or_semantic = error;
    if (!semantic) semantic = std::move(error);
  }
  void UndefinedValue(Error error) {
    if (!first_value_or_semantic) first_value_or_semantic = error;
    if (!undefined_value) undefined_value = std::move(error);
  }
};

class ExpressionNames {
 public:
  // ExpressionAttributeNames of a request the generated layer has checked: not empty, keys "#"
  // followed by word characters, no empty name.
  static Result<ExpressionNames> Decode(const json::Value* value);
  // Names in which every placeholder stands for itself: a parse kept to be bound later.
  static ExpressionNames Unbound();

  bool given() const { return given_; }
  // The attribute name for `placeholder`, recording its use; records an undefined-name error
  // (reported after syntax errors) and returns "" when there is none.
  std::string Resolve(std::string_view placeholder, const TokenStream& tokens,
                      DeferredErrors& errors);
  // The attribute name for `placeholder`, recording its use; null when there is none.
  const std::string* Use(std::string_view placeholder);
  // "Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #b}".
  Status CheckAllUsed() const;

 private:
  // A name and whether an expression used it.
  struct Placeholder {
    std::string name;
    bool used = false;
  };
  bool given_ = false;
  bool unbound_ = false;
  std::map<std::string, Placeholder, std::less<>> names_;
};

// DynamoDB refuses two paths of one expression where one is a prefix of the other (overlap) or
// where they meet at the same place as a map key and a list index (conflict): the detail of its
// message for `a` and `b` when they do ("Two document paths overlap with each other; ...").
std::optional<std::string> PathsClash(const DocumentPath& a, const DocumentPath& b);

// Parses a document path starting at the next token. Syntax errors return at once; a reserved
// word or undefined placeholder is recorded in `errors`.
Result<DocumentPath> ParseDocumentPath(TokenStream& tokens, ExpressionNames& names,
                                       DeferredErrors& errors);

}  // namespace ddbd
