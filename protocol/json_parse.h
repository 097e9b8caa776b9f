// The one strict parse of JSON text from outside (a request's body, an import's line): in place
// (the document's strings are the text's own bytes), with recursion no deeper than 64 levels
// (nesting cannot exhaust the stack: a text with more objects and arrays is parsed without it),
// refusing what is not UTF-8 as DynamoDB's parser does, and two things RapidJSON 1.1
// (Debian 12's) would let through: a lead byte among the last three (its UTF-8 check would take the
// terminating NUL as a continuation byte and read on past the buffer; the request fuzzer found it)
// and an escaped lone low surrogate (\uDC00 to \uDFFF not right after a \uD800 to \uDBFF
// escape), which it keeps as three bytes that are not UTF-8, so that an item holding them would be
// answered and exported as invalid UTF-8 (the item line fuzzer found it).
#pragma once

#include <rapidjson/document.h>

#include <string>

namespace ddbd::json {

// False when `text` is not JSON by those rules. `text` must outlive `document`; a NUL inside it
// ends the document.
bool ParseInPlace(std::string& text, rapidjson::Document& document);

}  // namespace ddbd::json
