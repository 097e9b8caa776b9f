// The parser's footing: a cursor over a statement's tokens that reads names, document paths and
// literal values ('s', 1.5, TRUE, NULL, {...}, [...], <<...>>, ?), and words DynamoDB's syntax
// errors by what it finds. protocol/partiql/parser.cc builds statements on it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/error.h"
#include "engine/model/attribute_value.h"
#include "engine/model/document_path.h"
#include "protocol/partiql/lexer.h"

namespace ddbd::partiql {

class Cursor {
 public:
  // `parameters` must outlive the cursor; the i-th `?` read takes parameters[i].
  Cursor(std::vector<Token> tokens, const std::vector<AttributeValue>& parameters);

 protected:
  const Token& Peek(size_t ahead = 0) const;
  const Token& Next();
  bool PeekSymbol(std::string_view symbol, size_t ahead = 0) const;
  bool AcceptSymbol(std::string_view symbol);
  bool PeekKeyword(std::string_view word) const;
  bool AcceptKeyword(std::string_view word);
  // True at the end of the statement, a ';' or a ')'.
  bool AtClauseEnd() const;
  // A name that can start a path or name a table: quoted, or bare and not reserved.
  bool PeekName() const;
  // The upper-case name of a function call starting here (name followed by '('), else "".
  std::string PeekFunction() const;

  // "Statement wasn't well formed, can't be processed: <detail>".
  static Error Malformed(std::string_view detail);
  // The syntax error for what the next token is where a term should start: "Unexpected term"
  // (the end, a closing bracket), "Unexpected keyword", "Unexpected operator".
  Error Unexpected() const;

  Result<std::string> ParseName();
  // name ( . name | [ index ] | [ 'key' ] )*
  Result<DocumentPath> ParsePath();
  // A literal or parameter; `path` names it in number messages ("root", "root.a[1]"), `depth`
  // counts the lists and maps around it (DynamoDB allows 32 levels).
  Result<AttributeValue> ParseValue(const std::string& path, int depth);
  // INSERT's VALUE: a map literal, whose attributes are each a "root" in messages, or a
  // parameter holding a map.
  Result<Item> ParseItem();

  // "Number of parameters in request and statement don't match." unless every parameter was
  // used exactly once.
  Status CheckParameterCount() const;

  // While a set_add or set_delete argument is read: a bag's repeated member is then worded as
  // DynamoDB words it there.
  bool bag_in_set_function_ = false;

 private:
  Result<AttributeValue> ParseScalar(const std::string& path);
  Result<AttributeValue> ParseNumber(bool negative, const std::string& path);
  Result<AttributeValue> ParseMap(const std::string& path, int depth, bool item);
  Result<AttributeValue> ParseList(const std::string& path, int depth);
  Result<AttributeValue> ParseBag(const std::string& path, int depth);
  AttributeValue TakeParameter();

  std::vector<Token> tokens_;  // ends with kEnd
  size_t at_ = 0;
  const std::vector<AttributeValue>& parameters_;
  size_t parameters_used_ = 0;
};

}  // namespace ddbd::partiql
