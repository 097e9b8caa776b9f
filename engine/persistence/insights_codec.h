// A table's Contributor Insights setting (engine/api/contributor_insights.h) as the log and
// checkpoints keep it, inside its table's description (catalog_codec.h): tagged fields (fields.h),
// so a later ddbd adds fields.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/api/contributor_insights.h"

namespace ddbd {

std::string EncodeContributorInsights(const ContributorInsightsSetting& setting);
// Fields it does not know are skipped; nullopt for malformed bytes.
std::optional<ContributorInsightsSetting> DecodeContributorInsights(std::string_view bytes);

}  // namespace ddbd
