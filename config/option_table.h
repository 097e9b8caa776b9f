// Every option of ddbd, declared once (config/option_table.cc): what config/options.cc parses,
// prints as --help and as the README's table. Private to config/.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "config/options.h"

namespace ddbd::option_table {

// What an option's value sets, or why it cannot: "" on success, else what was expected (the
// caller puts the flag's or variable's name in front). A switch is applied with an empty value.
using Apply = std::string (*)(Options&, std::string_view);

enum class Group {
  kServing,
  kStorage,
  kDynamoDbLocal,
  kSecurity,
  kLimits,
  kTimeToLiveAndStreams,
  kBackups,
  kObservability,
  kTesting,
  kGeneral,
};

struct GroupText {
  Group group;
  std::string_view title;
};

// Every option, once: the flag (--name), DynamoDB Local's flag of the same meaning, the
// environment variable (DDBD_NAME unless `environment` is false), the value's name in --help
// ("" for a switch), the default as --help shows it, its group and its help. Parsing, --help, the
// man page (help2man reads --help) and the README's table (OptionsMarkdown) all read this.
struct Option {
  std::string_view name;   // "" for DynamoDB Local's own switches, which have no --form
  std::string_view local;  // "-port", or ""
  std::string_view value;  // "N", "DIR", ...; "" for a switch
  std::string_view fallback;
  Group group;
  std::string_view help;
  Apply apply;
  bool environment = true;
  // A value that may be left out (--admin-api alone): taken when the next argument does not
  // start with '-'.
  std::string_view implicit_value = {};
};

// The groups, in --help's order, and every option, in its group's order.
std::span<const GroupText> Groups();
std::span<const Option> All();

}  // namespace ddbd::option_table
