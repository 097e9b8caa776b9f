// `ddbd dump` and `ddbd load`: a database's tables and items to files and back, through the API
// of any DynamoDB endpoint (server/remote_endpoint.h), in the seed formats (protocol/seed.h), so
// a dump is also a `--seed` directory.
//   ddbd dump --endpoint URL --out DIR [--tables T1,T2] [--segments N]
//   ddbd load --endpoint URL [--segments N] PATH...
// Each returns the process's exit status: 0, 1 for a failure (said on stderr), 2 for bad usage.
#pragma once

#include <string>
#include <vector>

namespace ddbd {

int RunDump(const std::vector<std::string>& args);
int RunLoad(const std::vector<std::string>& args);

}  // namespace ddbd
