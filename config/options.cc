// Parsing flags and DDBD_* variables, --help and the README's table, all read from the one
// declaration of each option (config/option_table.cc).
#include "config/options.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "config/option_table.h"

namespace ddbd {
namespace {

using option_table::Group;
using option_table::GroupText;
using option_table::Option;

const Option* FindFlag(std::string_view name) {
  for (const Option& option : option_table::All()) {
    if (!option.name.empty() && option.name == name) return &option;
  }
  return nullptr;
}

const Option* FindLocalFlag(std::string_view flag) {
  for (const Option& option : option_table::All()) {
    if (!option.local.empty() && option.local == flag) return &option;
  }
  return nullptr;
}

std::string EnvironmentName(std::string_view name) {
  std::string variable = "DDBD_" + std::string(name);
  std::transform(variable.begin(), variable.end(), variable.begin(),
                 [](char c) { return c == '-' ? '_' : static_cast<char>(std::toupper(c)); });
  return variable;
}

// "--port" for ddbd's flags, "-inMemory" for DynamoDB Local's own switches.
std::string FlagName(const Option& option) {
  return option.name.empty() ? std::string(option.local) : "--" + std::string(option.name);
}

// DDBD_<NAME> for every option that has one; an empty variable counts as unset (compose files
// often write `DDBD_X=`). A switch takes 1 or true (0 and false leave it off).
std::string ApplyEnvironment(Options& options,
                             const std::function<const char*(const char*)>& getenv) {
  for (const Option& option : option_table::All()) {
    if (!option.environment || option.name.empty()) continue;
    const std::string variable = EnvironmentName(option.name);
    const char* found = getenv(variable.c_str());
    if (found == nullptr || *found == '\0') continue;
    const std::string_view value = found;
    std::string error;
    if (option.value.empty()) {
      if (value == "1" || value == "true") {
        error = option.apply(options, "");
      } else if (value != "0" && value != "false") {
        error = "expected 1, true, 0 or false, got '" + std::string(value) + "'";
      }
    } else {
      error = option.apply(options, value);
    }
    if (!error.empty()) return variable + ": " + error;
  }
  return "";
}

// Wraps `text` at `width` columns, each line after the first indented by `indent`.
std::string Wrap(std::string_view text, size_t first_column, size_t indent, size_t width = 100) {
  std::string out;
  size_t column = first_column;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    if (column > indent && column + 1 + word.size() > width) {
      out += "\n" + std::string(indent, ' ');
      column = indent;
    } else if (column > first_column || (column > indent && !out.empty())) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    start = end + 1;
  }
  return out;
}

std::string Described(const Option& option) {
  std::string text(option.help);
  std::vector<std::string> notes;
  if (!option.fallback.empty()) notes.push_back("default " + std::string(option.fallback));
  if (!option.name.empty() && !option.local.empty()) {
    notes.push_back("DynamoDB Local: " + std::string(option.local));
  }
  for (size_t i = 0; i < notes.size(); ++i) text += (i == 0 ? " (" : "; ") + notes[i];
  if (!notes.empty()) text += ")";
  return text;
}

}  // namespace

ParsedOptions ParseOptions(const std::vector<std::string>& args,
                           const std::function<const char*(const char*)>& getenv) {
  Options options;
  if (std::string error = ApplyEnvironment(options, getenv); !error.empty()) return {{}, error};
  bool local_flag = false;     // a single-dash DynamoDB Local flag
  bool local_db_path = false;  // -dbPath
  bool optimize_db = false;    // -optimizeDbBeforeStartup
  // --seed given: the flags' paths replace DDBD_SEED's.
  if (std::any_of(args.begin(), args.end(), [](const std::string& arg) {
        return arg == "--seed" || arg.starts_with("--seed=");
      })) {
    options.seed.clear();
  }
  // --stream-trigger given: the flags' triggers replace DDBD_STREAM_TRIGGER's.
  if (std::any_of(args.begin(), args.end(), [](const std::string& arg) {
        return arg == "--stream-trigger" || arg.starts_with("--stream-trigger=");
      })) {
    options.stream_triggers.clear();
  }
  const bool namespaces_set = getenv("DDBD_NAMESPACES") != nullptr ||
                              std::any_of(args.begin(), args.end(), [](const std::string& arg) {
                                return arg == "--namespaces" || arg.starts_with("--namespaces=");
                              });
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    // `java -Djava.library.path=... -jar DynamoDBLocal.jar ...` with `java` replaced by ddbd.
    if (arg == "-jar" && i + 1 < args.size()) {
      options.ignored_java_args.insert(options.ignored_java_args.end(), {args[i], args[i + 1]});
      ++i;
      continue;
    }
    if ((arg.starts_with("-D") || arg.starts_with("-X")) && arg.size() > 2) {
      options.ignored_java_args.emplace_back(arg);
      continue;
    }
    const Option* option = nullptr;
    std::string value;
    bool inline_value = false;
    if (arg.starts_with("--")) {
      std::string_view name = arg.substr(2);
      if (size_t eq = name.find('='); eq != std::string_view::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        inline_value = true;
      }
      option = FindFlag(name);
    } else if ((option = FindLocalFlag(arg)) != nullptr) {
      local_flag = true;
      if (arg == "-dbPath") local_db_path = true;
      if (arg == "-optimizeDbBeforeStartup") optimize_db = true;
    }
    if (option == nullptr) {
      return {{}, "unknown flag '" + std::string(arg.substr(0, arg.find('='))) + "' (see --help)"};
    }
    const std::string flag = "--" + std::string(option->name);
    if (option->value.empty()) {
      if (inline_value) return {{}, flag + " takes no value"};
    } else if (!inline_value) {
      if (i + 1 < args.size() &&
          (option->implicit_value.empty() || !args[i + 1].starts_with("-"))) {
        value = args[++i];
      } else if (!option->implicit_value.empty()) {
        value = option->implicit_value;
      } else {
        return {{}, flag + " needs a value (see --help)"};
      }
    }
    if (std::string error = option->apply(options, value); !error.empty()) {
      return {{}, FlagName(*option) + ": " + error};
    }
  }
  // DynamoDB Local's rules, for those who start ddbd as they started it; its own messages.
  if (!namespaces_set) options.namespaces_by_credentials = local_flag && !options.shared_db;
  options.dynamodb_local = local_flag;
  if (local_flag) {
    if (options.dynamodb_local_in_memory && local_db_path) {
      return {{}, "dbPath and inMemory cannot be set at the same time."};
    }
    if (optimize_db && !local_db_path) {
      return {{},
              "optimizeDbBeforeStartup option must be used with dbPath to determine the "
              "location of database files to optimize."};
    }
    // Without -inMemory, DynamoDB Local keeps its files in -dbPath, else the working directory.
    if (!options.dynamodb_local_in_memory && options.db_path.empty()) options.db_path = ".";
  }
  if (!options.s3_dir.empty() && !options.s3_endpoint.empty()) {
    return {{}, "--s3-dir and --s3-endpoint: give one, buckets live in one place"};
  }
  if (options.tls_cert.empty() != options.tls_key.empty()) {
    return {{}, "--tls-cert and --tls-key: give both, or neither"};
  }
  if (options.tls_port >= 0 && options.tls_cert.empty()) {
    return {{}, "--tls-port: needs --tls-cert and --tls-key"};
  }
  return {options, ""};
}

std::string HelpText() {
  std::string text = R"(Usage: ddbd [options]
  or:  ddbd health [options]
  or:  ddbd dump --endpoint URL --out DIR [--tables A,B] [--segments N]
  or:  ddbd load --endpoint URL PATH...
A DynamoDB-compatible server. Point any AWS SDK or the AWS CLI at http://HOST:PORT.
Each option is also read from the environment as DDBD_<NAME> (DDBD_PORT=9000; a switch takes 1
or true); a flag beats its variable.

Commands (each has --help):
  health                 ask the server these options describe for GET /_ddbd/health; exit 0
                         if healthy, 1 if not (for container health checks)
  dump                   write every table of any endpoint (ddbd, DynamoDB Local, DynamoDB) to
                         files: definitions, TTL, tags and items
  load                   create the tables such files (or --seed's) describe at any endpoint
                         and write their items
)";
  constexpr size_t kColumn = 25;
  for (const GroupText& group : option_table::Groups()) {
    text += "\n" + std::string(group.title) + ":\n";
    for (const Option& option : option_table::All()) {
      if (option.group != group.group) continue;
      std::string head = "  " + FlagName(option);
      if (!option.value.empty()) head += " " + std::string(option.value);
      text += head;
      if (head.size() + 1 < kColumn) {
        text += std::string(kColumn - head.size(), ' ');
        text += Wrap(Described(option), kColumn, kColumn);
      } else {
        text += "\n" + std::string(kColumn, ' ') + Wrap(Described(option), kColumn, kColumn);
      }
      text += "\n";
    }
    if (group.group == Group::kDynamoDbLocal) {
      text += "  " +
              Wrap(
                  "Java's arguments of DynamoDB Local's command line (-jar "
                  "DynamoDBLocal.jar, -D..., -X...) are set aside. Started with any "
                  "single-dash flag, ddbd takes DynamoDB Local's meanings: data persists "
                  "unless -inMemory, a database per access key id and region unless "
                  "-sharedDb, its configuration banner at start-up, and GET / answered "
                  "as it answers (HTTP 400).",
                  2, 2) +
              "\n";
    }
  }
  text += "\n" +
          Wrap(
              "GET /_ddbd/health answers 200, or 503 with the reason, in every mode. GET "
              "/metrics answers Prometheus metrics. /, /metrics and /console need no "
              "signature. Bodies over 16 MB get HTTP 413; a request line or headers over "
              "16 KB get HTTP 400.",
              0, 0) +
          "\n";
  return text;
}

std::string OptionsMarkdown() {
  std::string text = "| Flag | Default | Meaning |\n|---|---|---|\n";
  auto escape = [](std::string_view in) {
    std::string out;
    for (char c : in) {
      if (c == '<') {
        out += "&lt;";  // else Markdown takes <Table> for an HTML tag
        continue;
      }
      if (c == '|') out += '\\';
      out += c;
    }
    return out;
  };
  for (const GroupText& group : option_table::Groups()) {
    text += "| **" + std::string(group.title) + "** | | |\n";
    for (const Option& option : option_table::All()) {
      if (option.group != group.group) continue;
      std::string flag = "`" + FlagName(option);
      if (!option.value.empty()) flag += " " + std::string(option.value);
      flag += "`";
      if (!option.name.empty() && !option.local.empty()) {
        flag += " (`" + std::string(option.local) + "`)";
      }
      std::string meaning(option.help);
      if (!option.environment || option.name.empty()) {
        meaning += "; no environment variable";
      } else if (option.value.empty()) {
        meaning += " (`" + EnvironmentName(option.name) + "=1`)";
      }
      text +=
          "| " + escape(flag) + " | " + escape(option.fallback) + " | " + escape(meaning) + " |\n";
    }
  }
  return text;
}

}  // namespace ddbd
