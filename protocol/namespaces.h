// DynamoDB Local's namespaces: without -sharedDb it keeps a separate database for each access key
// id and region a request is signed with, so two applications (or two test suites with their own
// credentials) never see each other's tables. This handler gives each (access key id, region) an
// engine and a dispatcher of its own, made on first use by `open` (which decides where its data
// lives and that its ARNs carry the request's region), and hands each request to its own.
// A request whose Authorization has no credential scope goes to the namespace of no key in the
// default region (it is refused there unless it has an AWS4 header at all). Made `by_region`, the
// access key id is not looked at: one database per region, shared by every key (--namespaces
// region, for global tables across regions).
//
// Thread safety: HandleAsync may be called concurrently; namespaces are made under a lock.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>

#include "engine/engine.h"
#include "protocol/dispatcher.h"

namespace ddbd {

class Namespaces final : public RequestHandler {
 public:
  using Open = std::function<Result<std::unique_ptr<Engine>>(const std::string& access_key_id,
                                                             const std::string& region)>;
  // The most namespaces one server keeps (each has its own threads); past it a request of a new
  // one answers InternalServerError, saying so.
  static constexpr size_t kMaxNamespaces = 256;

  Namespaces(std::string default_region, Open open, bool by_region = false)
      : default_region_(std::move(default_region)), open_(std::move(open)), by_region_(by_region) {}

  DispatchResult Handle(std::string_view target, std::string_view body,
                        const RequestInfo& info) const override;
  void HandleAsync(std::string_view target, std::string body, const RequestInfo& info,
                   const DispatchDone& done) const override;
  // A namespace's directory name under --db-path, "<access key id>_<region>" as DynamoDB Local
  // names its files, with every byte but letters, digits and '-' written %XX (so nothing climbs
  // out of the directory and the one '_' splits); and back (nullopt: not such a name).
  static std::string DirectoryName(std::string_view access_key_id, std::string_view region);
  static std::optional<std::pair<std::string, std::string>> ParseDirectoryName(
      std::string_view name);
  // Makes a namespace now (at start, for those a data directory already holds).
  Status Add(const std::string& access_key_id, const std::string& region) const;
  // The engine of the namespace an access key id uses in a region, made if needed (global
  // tables reach a replica's region through it).
  Result<Engine*> EngineOf(const std::string& access_key_id, const std::string& region) const;
  size_t size() const;
  NamedStatistics Statistics() const override;
  std::string Unhealthy() const override;
  size_t SweepExpiredItems() const override;
  DispatchResult ContributorInsightsReport(std::string_view table_name, size_t top,
                                           const RequestInfo& info) const override;

 private:
  struct Namespace {
    std::unique_ptr<Engine> engine;
    std::unique_ptr<Dispatcher> dispatcher;
  };
  using Key = std::pair<std::string, std::string>;  // access key id, region
  Result<const Dispatcher*> Find(const RequestInfo& info) const;
  Result<const Namespace*> FindOrAdd(const Key& key) const;

  const std::string default_region_;
  const Open open_;
  const bool by_region_;
  mutable std::shared_mutex mutex_;
  mutable std::map<Key, Namespace, std::less<>> namespaces_;
};

}  // namespace ddbd
