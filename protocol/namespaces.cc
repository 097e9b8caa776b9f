#include "protocol/namespaces.h"

#include <mutex>

#include "protocol/authorization.h"
#include "protocol/error_response.h"

namespace ddbd {
namespace {

bool Plain(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
}

void Escape(std::string_view text, std::string& out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (char c : text) {
    if (Plain(c)) {
      out += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
}

std::optional<std::string> Unescape(std::string_view text) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (Plain(text[i])) {
      out += text[i];
      continue;
    }
    if (text[i] != '%' || i + 2 >= text.size() || hex(text[i + 1]) < 0 || hex(text[i + 2]) < 0) {
      return std::nullopt;
    }
    out += static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2]));
    i += 2;
  }
  return out;
}

}  // namespace

std::string Namespaces::DirectoryName(std::string_view access_key_id, std::string_view region) {
  std::string name;
  Escape(access_key_id, name);
  name += '_';
  Escape(region, name);
  return name;
}

std::optional<std::pair<std::string, std::string>> Namespaces::ParseDirectoryName(
    std::string_view name) {
  const size_t split = name.find('_');
  if (split == std::string_view::npos || name.find('_', split + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  auto key = Unescape(name.substr(0, split));
  auto region = Unescape(name.substr(split + 1));
  if (!key || !region || region->empty()) return std::nullopt;
  return std::make_pair(std::move(*key), std::move(*region));
}

Result<const Dispatcher*> Namespaces::Find(const RequestInfo& info) const {
  Key key{std::string(), default_region_};
  if (const std::optional<Authorization> parsed = ParseAuthorization(info.authorization)) {
    key = {by_region_ ? std::string() : std::string(parsed->access_key_id),
           std::string(parsed->region)};
  }
  {
    std::shared_lock lock(mutex_);
    auto it = namespaces_.find(key);
    if (it != namespaces_.end()) return it->second.dispatcher.get();
  }
  auto found = FindOrAdd(key);
  if (!found.ok()) return found.error();
  return found.value()->dispatcher.get();
}

Result<Engine*> Namespaces::EngineOf(const std::string& access_key_id,
                                     const std::string& region) const {
  auto found = FindOrAdd({by_region_ ? std::string() : access_key_id, region});
  if (!found.ok()) return found.error();
  return found.value()->engine.get();
}

Result<const Namespaces::Namespace*> Namespaces::FindOrAdd(const Key& key) const {
  std::unique_lock lock(mutex_);
  auto it = namespaces_.find(key);
  if (it != namespaces_.end()) return &it->second;
  if (namespaces_.size() >= kMaxNamespaces) {
    return Error::Internal("ddbd keeps at most " + std::to_string(kMaxNamespaces) +
                           " namespaces (access key id and region pairs); start it with "
                           "-sharedDb for one shared database");
  }
  auto engine = open_(key.first, key.second);
  if (!engine.ok()) return engine.error();
  Namespace made;
  made.engine = std::move(engine.value());
  made.dispatcher = std::make_unique<Dispatcher>(*made.engine);
  return &namespaces_.emplace(key, std::move(made)).first->second;
}

Status Namespaces::Add(const std::string& access_key_id, const std::string& region) const {
  auto found = FindOrAdd({access_key_id, region});
  if (!found.ok()) return found.error();
  return Ok{};
}

size_t Namespaces::size() const {
  std::shared_lock lock(mutex_);
  return namespaces_.size();
}

std::string Namespaces::Unhealthy() const {
  std::shared_lock lock(mutex_);
  for (const auto& [key, space] : namespaces_) {
    std::string problem = space.engine->StoreHealth();
    if (!problem.empty()) return "namespace " + key.first + "/" + key.second + ": " + problem;
  }
  return {};
}

size_t Namespaces::SweepExpiredItems() const {
  std::vector<const Dispatcher*> dispatchers;
  {
    std::shared_lock lock(mutex_);
    for (const auto& [key, space] : namespaces_) dispatchers.push_back(space.dispatcher.get());
  }
  // Namespaces are never removed, so each outlives the lock; sweeping takes table locks.
  size_t deleted = 0;
  for (const Dispatcher* dispatcher : dispatchers) deleted += dispatcher->SweepExpiredItems();
  return deleted;
}

RequestHandler::NamedStatistics Namespaces::Statistics() const {
  std::vector<const Engine*> engines;
  NamedStatistics named;
  {
    std::shared_lock lock(mutex_);
    for (const auto& [key, space] : namespaces_) {
      named.emplace_back(key.first + "/" + key.second, EngineStatistics{});
      engines.push_back(space.engine.get());
    }
  }
  // Engines are never removed, so each outlives the lock; gathering takes table locks.
  for (size_t i = 0; i < engines.size(); ++i) named[i].second = engines[i]->Statistics();
  return named;
}

DispatchResult Namespaces::Handle(std::string_view target, std::string_view body,
                                  const RequestInfo& info) const {
  auto dispatcher = Find(info);
  if (!dispatcher.ok()) return ErrorResponse(dispatcher.error());
  return dispatcher.value()->Handle(target, body, info);
}

void Namespaces::HandleAsync(std::string_view target, std::string body, const RequestInfo& info,
                             const DispatchDone& done) const {
  auto dispatcher = Find(info);
  if (!dispatcher.ok()) return done(ErrorResponse(dispatcher.error()));
  dispatcher.value()->HandleAsync(target, std::move(body), info, done);
}

DispatchResult Namespaces::ContributorInsightsReport(std::string_view table_name, size_t top,
                                                     const RequestInfo& info) const {
  auto dispatcher = Find(info);
  if (!dispatcher.ok()) return ErrorResponse(dispatcher.error());
  return dispatcher.value()->ContributorInsightsReport(table_name, top, info);
}

}  // namespace ddbd
